#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Feature planes of a FEN/EPD file on a Dask cluster, one .npy shard per partition.

    examples/dask_planes.py INPUT OUTDIR [--workers N] [--scheduler ADDRESS]
                                         [--blocksize BYTES] [--threads T]

INPUT has one position a line (a FEN, or an EPD line whose operations after ';' are ignored;
blank lines and lines starting with # are skipped). Dask reads it in partitions of about
BLOCKSIZE bytes, in order; each partition's planes (dirfill.attack_planes, uint8, shape
(n, len(dirfill.PLANES), 8, 8)) are written by the worker that computed them to
OUTDIR/shard-00000.npy, shard-00001.npy, ... in input order; lines that are no valid FEN are
skipped and counted. The last line printed is a summary.

Without --scheduler a LocalCluster of N worker processes (default 2) runs on this machine.
With --scheduler tcp://host:8786 the same script runs on a real cluster: start
`dask scheduler` on one machine and `dask worker tcp://host:8786` on each of the others, with
dirfill installed on every worker and OUTDIR on storage every worker can write (a shared
filesystem); INPUT must be readable by every worker too.
"""
import argparse
import os
import sys

import dask
import dask.bag
import numpy as np
from dask.distributed import Client, LocalCluster


def planes_of(lines, index, outdir, threads):
    """One partition: its valid positions' planes into shard `index`; (index, kept, skipped)."""
    import dirfill

    fens = []
    for line in lines:
        text = line.split(";", 1)[0].strip()
        if text and not text.startswith("#"):
            fens.append(text)
    planes, ok = dirfill.attack_planes(fens, threads=threads, errors="mask")
    np.save(os.path.join(outdir, "shard-%05d.npy" % index), planes[ok])
    return index, int(ok.sum()), int((~ok).sum())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("outdir")
    parser.add_argument("--workers", type=int, default=2, help="local worker processes (default 2)")
    parser.add_argument("--scheduler", help="address of a running Dask scheduler")
    parser.add_argument("--blocksize", type=int, default=64 << 20, help="bytes a partition")
    parser.add_argument("--threads", type=int, default=1, help="dirfill threads a partition")
    args = parser.parse_args(argv)
    os.makedirs(args.outdir, exist_ok=True)

    if args.scheduler:
        client = Client(args.scheduler)
    else:
        client = Client(LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                     processes=True, dashboard_address=None))
    with client:
        parts = dask.bag.read_text(os.path.abspath(args.input), blocksize=args.blocksize).to_delayed()
        tasks = [dask.delayed(planes_of)(part, i, os.path.abspath(args.outdir), args.threads)
                 for i, part in enumerate(parts)]
        results = sorted(client.gather(client.compute(tasks)))
    kept = sum(r[1] for r in results)
    skipped = sum(r[2] for r in results)
    print("%d positions in %d shards, %d bad lines skipped" % (kept, len(results), skipped))
    return 0


if __name__ == "__main__":
    sys.exit(main())
