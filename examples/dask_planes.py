#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Feature planes of a FEN/EPD file on a Dask cluster, one .npy shard per partition.

    build/venv/bin/python examples/dask_planes.py INPUT OUTDIR [--workers N] [--scheduler ADDRESS]
                        [--blocksize BYTES] [--threads T] [--overwrite]

INPUT has one position a line (a FEN, or an EPD line whose operations after ';' are ignored;
blank lines and lines starting with # are skipped). Dask reads it in partitions of about
BLOCKSIZE bytes. For partition i the worker that computed it writes, in input order:
  OUTDIR/planes-00000.npy  uint8 (n, len(dirfill.PLANES), 8, 8): the valid positions' planes
  OUTDIR/rows-00000.npy    int64 (n,): the input line number (from 1) of each of those rows
Lines that are no valid FEN (or no valid UTF-8) are skipped, counted, and listed with their
line number and the reason in OUTDIR/bad-lines.tsv. OUTDIR/manifest.json is written last: a
directory without it holds an unfinished run. Every file is written under a temporary name and
renamed when complete. OUTDIR must be empty or absent; --overwrite clears its files first.

Without --scheduler a LocalCluster of N worker processes (default 2) runs on this machine.
With --scheduler tcp://host:8786 the same script runs on a real cluster: start
`dask scheduler` on one machine and `dask worker tcp://host:8786` on each of the others, with
dirfill installed on every worker and OUTDIR on storage every worker can write (a shared
filesystem); INPUT must be readable by every worker too.
"""
import argparse
import json
import os
import sys

import numpy as np
from dask_outdir import client_of, run_checked


def save(path, array):
    """np.save under a temporary name, renamed when whole."""
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        np.save(f, array)
    os.replace(tmp, path)


def count_lines(lines):
    return [sum(1 for _ in lines)]


def planes_of(lines, index, first_line, outdir, threads):
    """One partition: (index, positions kept, [(line number, why), ...] of the bad lines)."""
    import dirfill

    texts, numbers, bad = [], [], []
    for number, line in enumerate(lines, first_line):
        text = line.split(";", 1)[0].strip()
        if not text or text.startswith("#"):
            continue
        try:
            texts.append(text.encode("utf-8"))  # surrogates of undecodable bytes fail here
        except UnicodeEncodeError:
            bad.append((number, "not UTF-8"))
            continue
        numbers.append(number)
    planes, ok = dirfill.attack_planes(texts, threads=threads, errors="mask")
    for i in np.flatnonzero(~ok):
        try:
            dirfill.analyze(texts[i])
        except ValueError as e:
            bad.append((numbers[i], str(e)))
    save(os.path.join(outdir, "planes-%05d.npy" % index), planes[ok])
    save(os.path.join(outdir, "rows-%05d.npy" % index), np.asarray(numbers, dtype=np.int64)[ok])
    return index, int(ok.sum()), sorted(bad)


def run(args):
    import dask
    import dask.bag

    import dirfill

    source, outdir = os.path.abspath(args.input), os.path.abspath(args.outdir)
    with client_of(args) as client:
        bag = dask.bag.read_text(source, blocksize=args.blocksize, encoding="utf-8",
                                 errors="surrogateescape")
        counts = bag.map_partitions(count_lines).compute()
        firsts = np.concatenate([[1], 1 + np.cumsum(counts)[:-1]]).astype(int).tolist()
        tasks = [dask.delayed(planes_of)(part, i, firsts[i], outdir, args.threads)
                 for i, part in enumerate(bag.to_delayed())]
        results = sorted(client.gather(client.compute(tasks)))
    bad = [entry for _, _, lines in results for entry in lines]
    with open(os.path.join(outdir, "bad-lines.tsv.tmp"), "w") as f:
        f.write("line\treason\n")
        for number, why in bad:
            f.write("%d\t%s\n" % (number, why.replace("\t", " ")))
    os.replace(os.path.join(outdir, "bad-lines.tsv.tmp"), os.path.join(outdir, "bad-lines.tsv"))
    kept = sum(r[1] for r in results)
    manifest = {"input": source, "lines": int(sum(counts)), "positions": kept,
                "bad_lines": len(bad), "planes": list(dirfill.PLANES),
                "shards": [{"planes": "planes-%05d.npy" % i, "rows": "rows-%05d.npy" % i,
                            "positions": n} for i, n, _ in results]}
    with open(os.path.join(outdir, "manifest.json.tmp"), "w") as f:
        json.dump(manifest, f, indent=1)
    os.replace(os.path.join(outdir, "manifest.json.tmp"), os.path.join(outdir, "manifest.json"))
    print("%d positions in %d shards, %d bad lines skipped (listed in %s)"
          % (kept, len(results), len(bad), os.path.join(args.outdir, "bad-lines.tsv")))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("outdir")
    parser.add_argument("--workers", type=int, default=2, help="local worker processes (default 2)")
    parser.add_argument("--scheduler", help="address of a running Dask scheduler")
    parser.add_argument("--blocksize", type=int, default=64 << 20, help="bytes a partition")
    parser.add_argument("--threads", type=int, default=1, help="dirfill threads a partition")
    parser.add_argument("--overwrite", action="store_true", help="clear a non-empty OUTDIR first")
    args = parser.parse_args(argv)
    return run_checked(run, args, [args.input])


if __name__ == "__main__":
    sys.exit(main())
