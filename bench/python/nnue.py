#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""NNUE training data to numpy, measured against the C path.

    build/venv/bin/python bench/python/nnue.py FILE [--features SET] [--batch-size B]
                        [--times K] [--repeat N] [--threads T] [--cpu C] [--shuffle S]

Entries per CPU second of `dirfill nnue --threads 1 --features SET FILE...` (the program reads
FILE K times, computes every entry's rows and prints one line; CPU time of the process, its
start included) and of dirfill.nnue_batches over the same K files, batch_size B, threads T
(default 1: one thread computes the rows, the reader thread reads; CPU time of this process's
threads over the iteration, every batch's arrays dropped as the loop goes on), taken in turn N
times; medians of each and of the ratios of each pair. Everything runs on CPU C (default: the
last this process may use): the vCPUs of a shared VM may run at different speeds
(docs/performance.md, "NNUE batches"), and an unpinned pair's ratio then depends on where each
one ran. FILE: a .binpack, .plain or .bin, e.g.
from `dirfill nnue --write games.binpack games.pgn`. With --shuffle S, each run also times
nnue_batches with shuffle=S (entries shuffled in a buffer of S, its K sources picked as
nnue-pytorch's loader picks files) and the program with --shuffle S, each ratio to its
unshuffled run the median of the runs' pairs; and the program reading alone (--features none)
both ways, whose difference is what the buffer costs an entry without the feature rows (the
rest of a shuffle's cost is the rows' computation over positions in a random order). Run `ps`
first: the figures are only as good as the machine is quiet.
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRAM = os.environ.get("DIRFILL_PROGRAM") or os.path.join(ROOT, "build", "release", "dirfill")

import dirfill  # noqa: E402


def cpu_seconds(who=resource.RUSAGE_SELF):
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def c_path(files, features, shuffle=0):
    """(entries, CPU seconds) of the program."""
    cpu = cpu_seconds(resource.RUSAGE_CHILDREN)
    shuffled = ["--shuffle", str(shuffle)] if shuffle else []
    out = subprocess.run([PROGRAM, "nnue", "--threads", "1", "--features", features, *shuffled,
                          *files], capture_output=True, text=True, check=True).stdout
    return int(re.match(r"(\d+) entries", out).group(1)), cpu_seconds(
        resource.RUSAGE_CHILDREN) - cpu


def python_path(files, features, batch_size, threads, shuffle=0):
    """(entries, CPU seconds) of nnue_batches."""
    cpu, n = cpu_seconds(), 0
    for batch in dirfill.nnue_batches(files, batch_size, features, threads=threads,
                                      shuffle=shuffle):
        n += len(batch["score"])
    return n, cpu_seconds() - cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("file")
    ap.add_argument("--features", default="Full_Threats+PP_3Wide+HalfKAv2_hm")
    ap.add_argument("--batch-size", type=int, default=16384)
    ap.add_argument("--times", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--cpu", type=int, default=max(os.sched_getaffinity(0)))
    ap.add_argument("--shuffle", type=int, default=0)
    args = ap.parse_args()
    os.sched_setaffinity(0, {args.cpu})  # the program inherits it
    files = [args.file] * args.times
    c_rates, py_rates, ratios, sh_rates, sh_ratios = [], [], [], [], []
    c_sh_ratios, buffer_ns = [], []
    python_path(files[:1], args.features, args.batch_size, args.threads)  # warm the caches
    for _ in range(args.repeat):
        n_c, s_c = c_path(files, args.features)
        n_py, s_py = python_path(files, args.features, args.batch_size, args.threads)
        if n_c != n_py:
            sys.exit("the program read %d entries, nnue_batches %d" % (n_c, n_py))
        c_rates.append(n_c / s_c)
        py_rates.append(n_py / s_py)
        ratios.append(py_rates[-1] / c_rates[-1])
        if args.shuffle:
            n_sh, s_sh = python_path(files, args.features, args.batch_size, args.threads,
                                     args.shuffle)
            if n_sh != n_py:
                sys.exit("shuffled, nnue_batches read %d entries, not %d" % (n_sh, n_py))
            sh_rates.append(n_sh / s_sh)
            sh_ratios.append(sh_rates[-1] / py_rates[-1])
            _, s_csh = c_path(files, args.features, args.shuffle)
            c_sh_ratios.append(s_c / s_csh)
            _, s_read = c_path(files, "none")
            _, s_read_sh = c_path(files, "none", args.shuffle)
            buffer_ns.append((s_read_sh - s_read) / n_c * 1e9)
    med = statistics.median
    print("%s x%d, %s, %d entries, CPU %d; medians of %d alternated runs, millions of entries "
          "per CPU second:" % (os.path.basename(args.file), args.times, args.features, n_c,
                               args.cpu, args.repeat))
    print("  dirfill nnue --threads 1              %6.3f" % (med(c_rates) / 1e6))
    print("  nnue_batches(batch_size=%d, threads=%d) %6.3f" % (args.batch_size, args.threads,
                                                               med(py_rates) / 1e6))
    print("  ratio (median of the pairs' ratios)   %6.3f  [%s]" % (
        med(ratios), " ".join("%.3f" % r for r in ratios)))
    if args.shuffle:
        print("  nnue_batches(..., shuffle=%d)      %6.3f" % (args.shuffle, med(sh_rates) / 1e6))
        print("  shuffled / not (median of the pairs) %6.3f  [%s]" % (
            med(sh_ratios), " ".join("%.3f" % r for r in sh_ratios)))
        print("  dirfill nnue --shuffle %d / not       %6.3f  [%s]" % (
            args.shuffle, med(c_sh_ratios), " ".join("%.3f" % r for r in c_sh_ratios)))
        print("  the buffer alone (--features none), ns an entry %6.1f  [%s]" % (
            med(buffer_ns), " ".join("%.1f" % r for r in buffer_ns)))


if __name__ == "__main__":
    main()
