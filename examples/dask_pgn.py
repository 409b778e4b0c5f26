#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Positions and feature planes of PGN files on a Dask cluster, in shards, in input order.

    examples/dask_pgn.py INPUT... OUTDIR [--workers N] [--scheduler ADDRESS]
                                         [--parts-per-file P] [--overwrite]

Each INPUT is a PGN file, plain or compressed (.zst, .gz). A plain file is split into P byte
ranges at game boundaries (dirfill.pgn_split lexes it, fast); a compressed one is one
partition. For partition i the worker that read it (dirfill.pgn_positions) writes:
  OUTDIR/positions-00000.npz  the columns of pgn_positions (pieces, stm, castling, ep, halfmove,
                              fullmove, game, ply, move, result, eval, clock) and `input`, the
                              input's number in the manifest
  OUTDIR/planes-00000.npy     uint8 (n, len(dirfill.PLANES), 8, 8), row for row
The games that could not be read are counted and listed in OUTDIR/bad-games.tsv (file, game
index in it, message), games of other variants in the same file. OUTDIR/manifest.json is
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


def partition(index, file_number, path, byte_range, first_game, outdir):
    """One partition: (index, positions, [(file, game, message), ...])."""
    import dirfill

    p = dirfill.pgn_positions(path, threads=1, byte_range=byte_range, first_game=first_game)
    planes = dirfill.attack_planes_from_bitboards(p["pieces"], p["stm"], castling=p["castling"],
                                                  ep=p["ep"], threads=1)
    columns = {k: v for k, v in p.items() if isinstance(v, np.ndarray)}
    columns["input"] = np.full(len(p["pieces"]), file_number, dtype=np.int16)
    save(os.path.join(outdir, "positions-%05d.npz" % index), lambda f: np.savez(f, **columns))
    save(os.path.join(outdir, "planes-%05d.npy" % index), lambda f: np.save(f, planes))
    bad = [(path, game, message) for game, message, _line in p["errors"]]
    bad += [(path, game, reason) for game, reason in p["skipped"]]
    return index, len(p["pieces"]), len(p["errors"]), len(p["skipped"]), sorted(bad)


def run(args):
    import dask

    import dirfill

    outdir = os.path.abspath(args.outdir)
    inputs = [os.path.abspath(p) for p in args.inputs]
    parts = []  # (file number, path, byte range, first game)
    for number, path in enumerate(inputs):
        if path.endswith((".zst", ".gz")):
            parts.append((number, path, None, 0))
        else:
            parts += [(number, path, (s, e), g) for s, e, g in dirfill.pgn_split(path, args.parts_per_file)]
    with client_of(args) as client:
        tasks = [dask.delayed(partition)(i, number, path, byte_range, first_game, outdir)
                 for i, (number, path, byte_range, first_game) in enumerate(parts)]
        results = sorted(client.gather(client.compute(tasks)))
    bad = [entry for r in results for entry in r[4]]
    save(os.path.join(outdir, "bad-games.tsv"),
         lambda f: f.write(("file\tgame\tmessage\n" + "".join(
             "%s\t%d\t%s\n" % (path, game, message.replace("\t", " "))
             for path, game, message in bad)).encode()))
    positions = sum(r[1] for r in results)
    manifest = {"inputs": inputs, "positions": positions, "bad_games": sum(r[2] for r in results),
                "skipped_games": sum(r[3] for r in results), "planes": list(dirfill.PLANES),
                "shards": [{"positions": "positions-%05d.npz" % r[0], "planes": "planes-%05d.npy" % r[0],
                            "rows": r[1]} for r in results]}
    save(os.path.join(outdir, "manifest.json"), lambda f: f.write(json.dumps(manifest, indent=1).encode()))
    print("%d positions in %d shards; %d games with errors, %d skipped (listed in %s)"
          % (positions, len(results), manifest["bad_games"], manifest["skipped_games"],
             os.path.join(args.outdir, "bad-games.tsv")))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("inputs", nargs="+", metavar="INPUT")
    parser.add_argument("outdir", metavar="OUTDIR")
    parser.add_argument("--workers", type=int, default=2, help="local worker processes (default 2)")
    parser.add_argument("--scheduler", help="address of a running Dask scheduler")
    parser.add_argument("--parts-per-file", type=int, default=8,
                        help="partitions of each plain file (default 8)")
    parser.add_argument("--overwrite", action="store_true", help="clear a non-empty OUTDIR first")
    args = parser.parse_args(argv)
    return run_checked(run, args, args.inputs)


if __name__ == "__main__":
    sys.exit(main())
