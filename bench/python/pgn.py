#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""PGN to numpy and to PyTorch, measured against the C reader.

    build/venv/bin/python bench/python/pgn.py MODE ...   (the venv `make python` makes), MODE:
    bench/python/pgn.py speed FILE [--repeat N]      positions/s: `dirfill pgn --threads 1`,
                                                     pgn_batches (1 thread, 2 threads, planes),
                                                     pgn_positions (1 thread; and again in the
                                                     process, its memory touched before; and the
                                                     first touch of its output's bytes alone), medians
                                                     of N runs taken in turn, ratios from the
                                                     same runs;
                                                     and positions per CPU second
    bench/python/pgn.py rss FILE...                  peak RSS of pgn_batches(batch_size=4096,
                                                     threads=2) over each file, the caller
                                                     keeping no batch (a process each)
    bench/python/pgn.py positions-rss FILE           peak RSS of pgn_positions against the bytes
                                                     of its output arrays
    bench/python/pgn.py loader FILE... [--repeat N] [--batch-size B]
                                                     DataLoader positions/s, num_workers 0 and 2
                                                     (a process each), the whole pass and from
                                                     the first batch on (the workers' start
                                                     left out)

The program is build/release/dirfill (`make build`); FILE a PGN file, e.g. from
build/release/dirfill-pgn-make GAMES > games.pgn. Run `ps` first: the figures are only as good
as the machine is quiet.
"""
import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRAM = os.environ.get("DIRFILL_PROGRAM") or os.path.join(ROOT, "build", "release", "dirfill")


def cpu_seconds(who=resource.RUSAGE_SELF):
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def c_reader(path):
    """(positions, seconds, CPU seconds) of `dirfill pgn --threads 1` (its own timing of the
    read; the process's CPU time)."""
    cpu = cpu_seconds(resource.RUSAGE_CHILDREN)
    out = subprocess.run([PROGRAM, "pgn", "--threads", "1", path], capture_output=True,
                         text=True, check=True).stdout
    m = re.search(r"(\d+) positions.* ([\d.]+) s,", out)
    return int(m.group(1)), float(m.group(2)), cpu_seconds(resource.RUSAGE_CHILDREN) - cpu


def timed(fn):
    """(fn's result, seconds, CPU seconds of the process's threads meanwhile)."""
    start, cpu = time.perf_counter(), cpu_seconds()
    n = fn()
    return n, time.perf_counter() - start, cpu_seconds() - cpu


def batches(path, threads, planes=False, headers=True):
    import dirfill
    columns = None if headers else dirfill.POSITION_COLUMNS + (("planes",) if planes else ())
    return sum(len(b["ply"]) for b in dirfill.pgn_batches(path, 4096, threads=threads,
                                                          planes=planes, columns=columns))


def positions(path):
    import dirfill
    return len(dirfill.pgn_positions(path, threads=1)["ply"])


def touch(n):
    """n rows' worth of pgn_positions' columns (its bytes a row, from a one-move game) written
    once into fresh memory: what the output alone costs, parsing left out."""
    import dirfill
    import numpy as np
    one = dirfill.pgn_positions(b"1. e4 *")
    row = sum(v.nbytes for v in one.values() if isinstance(v, np.ndarray)) // len(one["ply"])
    np.ones(n * row, np.uint8)
    return n


CALLS = {"batches_1": "batches(path, 1)",
         "batches_1_no_headers": "batches(path, 1, headers=False)",
         "batches_2": "batches(path, 2)",
         "batches_planes_1": "batches(path, 1, planes=True)",
         "positions_1": "positions(path)",
         # The same call again in the process: its output's memory (137 bytes a position) was
         # touched before. In a VM the first touch of fresh memory is the host's work too, and
         # varies widely from run to run; this row leaves it out.
         "positions_1_warm": "positions(path)",
         # No parsing: pgn_positions' output bytes (137 a position) written once into fresh
         # memory, its "positions/s" rows' worth of memory a second. On one CPU pgn_positions
         # costs at least the C reader's time plus this one; a second CPU can fault pages in
         # meanwhile, but not faster than this.
         "touch_output": "touch(n)"}
WARM_UP = {"positions_1_warm": "positions(path)"}


def measure(key, path, n):
    """(positions, seconds, CPU seconds) of one call in a fresh process (one after another in a
    process, the calls disturb each other: a mode run after another measured markedly slower).
    The module is imported before the clock starts (NumPy's import alone is a sizeable cost in
    CPU), as the C reader's figure leaves out the program's start."""
    code = ("import sys; sys.path.insert(0, %r); from pgn import *; import dirfill; "
            "path, n = %r, %d; %s; print(*timed(lambda: %s))"
            % (os.path.dirname(__file__), path, n, WARM_UP.get(key, "None"), CALLS[key]))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    return int(out[0]), float(out[1]), float(out[2])


def speed(args):
    """Positions per second of wall time, and per CPU second of all the process's threads (on a
    machine shared with other work, the CPU time says what a call costs when the wall time
    says mostly how busy the machine was)."""
    runs, cpu = {"c_reader": []}, {"c_reader": []}
    runs.update({k: [] for k in CALLS})
    cpu.update({k: [] for k in CALLS})
    for _ in range(args.repeat):  # in turn, so that a busy moment hits all alike
        n, s, c = c_reader(args.file)
        runs["c_reader"].append(n / s)
        cpu["c_reader"].append(n / c)
        for key in CALLS:
            m, s, c = measure(key, args.file, n)
            assert m == n, (key, m, n)
            runs[key].append(m / s)
            cpu[key].append(m / c)
    med = {k: statistics.median(v) for k, v in runs.items()}
    med_cpu = {k: statistics.median(v) for k, v in cpu.items()}
    one = ("batches_1", "batches_1_no_headers", "positions_1", "positions_1_warm",
           "touch_output")
    report = {"file": args.file, "positions": n, "repeat": args.repeat,
              "positions_per_s": med,
              "ratios": dict({k + "/c_reader": med[k] / med["c_reader"] for k in one},
                             **{"batches_2/batches_1": med["batches_2"] / med["batches_1"]}),
              "positions_per_cpu_s": med_cpu,
              "cpu_ratios": {k + "/c_reader": med_cpu[k] / med_cpu["c_reader"] for k in one}}
    print(json.dumps(report, indent=1))


RSS_CHILD = """
import resource, sys, dirfill
n = 0
for b in dirfill.pgn_batches(sys.argv[1], 4096, threads=2):
    n += len(b["ply"])
print(n, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
"""


def rss(args):
    for path in args.files:
        start = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", RSS_CHILD, path], capture_output=True,
                             text=True, check=True).stdout.split()
        print(json.dumps({"file": path, "bytes": os.path.getsize(path), "positions": int(out[0]),
                          "peak_rss_mb": int(out[1]) / 2 ** 20,
                          "seconds": time.perf_counter() - start}))


POSITIONS_CHILD = """
import resource, sys, numpy, dirfill
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
p = dirfill.pgn_positions(sys.argv[1], threads=2)
out = sum(v.nbytes for v in p.values() if isinstance(v, numpy.ndarray))
print(len(p["ply"]), out, base, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
"""


def positions_rss(args):
    out = subprocess.run([sys.executable, "-c", POSITIONS_CHILD, args.file], capture_output=True,
                         text=True, check=True).stdout.split()
    n, arrays, base, peak = (int(x) for x in out)
    print(json.dumps({"file": args.file, "positions": n, "arrays_mb": arrays / 2 ** 20,
                      "peak_rss_mb": peak / 2 ** 20, "rss_before_mb": base / 2 ** 20,
                      "peak/arrays": peak / arrays, "(peak-before)/arrays": (peak - base) / arrays}))


LOADER_CHILD = """
import resource, sys, time
from torch.utils.data import DataLoader
from dirfill.torch import PGNDataset
def cpu():
    return sum(r.ru_utime + r.ru_stime for r in (resource.getrusage(resource.RUSAGE_SELF),
                                                 resource.getrusage(resource.RUSAGE_CHILDREN)))
workers, size, files = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
start, cpu0 = time.perf_counter(), cpu()
n = first = 0
for b in DataLoader(PGNDataset(files, size, threads=1), batch_size=None, num_workers=workers):
    if not n:
        first, n0 = time.perf_counter(), len(b["ply"])
    n += len(b["ply"])
end = time.perf_counter()
print(n, end - start, (n - n0) / (end - first), cpu() - cpu0)  # the workers joined: counted
"""


def loader(args):
    """DataLoader positions/s over the files, num_workers 0 and 2 in turn, each pass in a fresh
    process: the whole pass (the workers' start included), from the first batch on, and per CPU
    second of the main process and its workers (what the pass costs, however busy the
    machine)."""
    keys = ("positions_per_s", "after_first_batch_positions_per_s", "positions_per_cpu_s")
    runs = {k: {0: [], 2: []} for k in keys}
    for _ in range(args.repeat):
        for workers in (0, 2):
            out = subprocess.run([sys.executable, "-c", LOADER_CHILD, str(workers),
                                  str(args.batch_size)] + args.files,
                                 capture_output=True, text=True, check=True).stdout.split()
            n, seconds, steady, cpu = int(out[0]), float(out[1]), float(out[2]), float(out[3])
            for k, v in zip(keys, (n / seconds, steady, n / cpu)):
                runs[k][workers].append(v)
    report = {"files": args.files, "batch_size": args.batch_size, "repeat": args.repeat}
    for k in keys:
        med = {w: statistics.median(v) for w, v in runs[k].items()}
        report[k] = med
        report[k + " workers_2/workers_0"] = med[2] / med[0]
    print(json.dumps(report, indent=1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    for name in ("speed", "positions-rss"):
        p = sub.add_parser(name)
        p.add_argument("file")
        p.add_argument("--repeat", type=int, default=5)
    p = sub.add_parser("loader")
    p.add_argument("files", nargs="+")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--batch-size", type=int, default=4096)
    sub.add_parser("rss").add_argument("files", nargs="+")
    args = parser.parse_args()
    {"speed": speed, "rss": rss, "positions-rss": positions_rss, "loader": loader}[args.what](args)


if __name__ == "__main__":
    main()
