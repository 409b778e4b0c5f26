#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Positions and feature planes of PGN files on a Dask cluster, in shards, in input order.

    build/venv/bin/python examples/dask_pgn.py INPUT... OUTDIR [--workers N] [--scheduler ADDRESS]
                        [--parts-per-file P] [--rows-per-shard R] [--overwrite]

Each INPUT is a PGN file, plain or compressed (.zst, .gz). A plain file is split into P byte
ranges at exact game boundaries (dirfill.pgn_cuts, the threaded reader's rule; it lexes the
file up to each cut); a compressed one is one partition. The worker of partition i reads it with
dirfill.pgn_batches in batches of R rows (planes computed as it reads, memory bounded by R, not
by the partition) and writes one shard a batch, all of R rows but the partition's last:
  OUTDIR/positions-00000-0000.npz  the columns of pgn_positions (pieces, turn, castling, ep,
                                   halfmove, fullmove, game, ply, move, result, eval, clock)
                                   and `input`, the input's number in the manifest
  OUTDIR/planes-00000-0000.npy     uint8 (n, len(dirfill.PLANES), 8, 8), row for row
The games that could not be read are counted and listed in OUTDIR/bad-games.tsv (file, game
index in it, the line of the error in the file, message), games of other variants in the same
file (no line). OUTDIR/manifest.json is
written last: a directory without it holds an unfinished run. Files are written under
temporary names and renamed when complete. OUTDIR must be empty or absent; --overwrite clears
its files first.

Without --scheduler a LocalCluster of N worker processes (default 2) runs here; with
--scheduler tcp://host:8786 the same script runs on a cluster whose workers have dirfill
installed and reach INPUT and OUTDIR on a shared filesystem.
"""
import argparse
import json
import os
import sys

import numpy as np
from dask_outdir import client_of, run_checked


def save(path, write):
    """write(file) under a temporary name, renamed when whole."""
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        write(f)
    os.replace(tmp, path)


def partition(index, file_number, path, byte_range, first_game, first_line, rows, outdir):
    """One partition: (index, [(shard name, rows), ...], errors, skipped, [(file, game, line,
    message), ...])."""
    import dirfill

    shards, bad, errors, skipped = [], [], 0, 0
    for k, batch in enumerate(dirfill.pgn_batches(path, rows, threads=1, planes=True,
                                                  byte_range=byte_range, first_game=first_game,
                                                  first_line=first_line)):
        bad += [(path, game, line, message) for game, message, line in batch["errors"]]
        bad += [(path, game, "", reason) for game, reason in batch["skipped"]]
        errors, skipped = errors + len(batch["errors"]), skipped + len(batch["skipped"])
        n = len(batch["ply"])
        if n == 0:
            continue
        columns = {c: batch[c] for c in dirfill.POSITION_COLUMNS}
        columns["input"] = np.full(n, file_number, dtype=np.int16)
        name = "%05d-%04d" % (index, k)
        save(os.path.join(outdir, "positions-%s.npz" % name), lambda f: np.savez(f, **columns))
        save(os.path.join(outdir, "planes-%s.npy" % name), lambda f: np.save(f, batch["planes"]))
        shards.append((name, n))
    return index, shards, errors, skipped, sorted(bad)


def run(args):
    import dask

    import dirfill

    outdir = os.path.abspath(args.outdir)
    inputs = [os.path.abspath(p) for p in args.inputs]
    parts = []  # (file number, path, byte range, first game, first line)
    for number, path in enumerate(inputs):
        if path.endswith((".zst", ".gz")):
            parts.append((number, path, None, 0, 1))
        else:
            size = os.path.getsize(path)
            targets = [size * k // args.parts_per_file for k in range(args.parts_per_file + 1)]
            cuts = dirfill.pgn_cuts(path, targets)
            parts += [(number, path, (a[0], b[0]), a[2], a[1]) for a, b in zip(cuts, cuts[1:])
                      if a[0] < b[0]]
    with client_of(args) as client:
        tasks = [dask.delayed(partition)(i, number, path, byte_range, first_game, first_line,
                                         args.rows_per_shard, outdir)
                 for i, (number, path, byte_range, first_game, first_line) in enumerate(parts)]
        results = sorted(client.gather(client.compute(tasks)))
    bad = [entry for r in results for entry in r[4]]
    save(os.path.join(outdir, "bad-games.tsv"),
         lambda f: f.write(("file\tgame\tline\tmessage\n" + "".join(
             "%s\t%d\t%s\t%s\n" % (path, game, line, message.replace("\t", " "))
             for path, game, line, message in bad)).encode()))
    shards = [shard for r in results for shard in r[1]]
    positions = sum(n for _, n in shards)
    manifest = {"inputs": inputs, "positions": positions, "bad_games": sum(r[2] for r in results),
                "skipped_games": sum(r[3] for r in results), "planes": list(dirfill.PLANES),
                "shards": [{"positions": "positions-%s.npz" % name, "planes": "planes-%s.npy" % name,
                            "rows": n} for name, n in shards]}
    save(os.path.join(outdir, "manifest.json"), lambda f: f.write(json.dumps(manifest, indent=1).encode()))
    print("%d positions in %d shards; %d games with errors, %d skipped (listed in %s)"
          % (positions, len(shards), manifest["bad_games"], manifest["skipped_games"],
             os.path.join(args.outdir, "bad-games.tsv")))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("inputs", nargs="+", metavar="INPUT")
    parser.add_argument("outdir", metavar="OUTDIR")
    parser.add_argument("--workers", type=int, default=2, help="local worker processes (default 2)")
    parser.add_argument("--scheduler", help="address of a running Dask scheduler")
    parser.add_argument("--parts-per-file", type=int, default=8,
                        help="partitions of each plain file (default 8)")
    parser.add_argument("--rows-per-shard", type=int, default=65536,
                        help="positions of each shard (default 65536; a partition's last has fewer)")
    parser.add_argument("--overwrite", action="store_true", help="clear a non-empty OUTDIR first")
    args = parser.parse_args(argv)
    return run_checked(run, args, args.inputs)


if __name__ == "__main__":
    sys.exit(main())
