# SPDX-License-Identifier: MIT
"""examples/dask_planes.py on a small file with 2 local workers: the shards, concatenated in
order, equal dirfill.attack_planes of the valid lines."""
import glob
import os
import subprocess
import sys

import numpy as np

import dirfill

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FENS = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"]


def test_dask_shards(tmp_path):
    lines, valid = [], []
    for i in range(600):
        if i % 50 == 7:
            lines.append("not a fen %d" % i)
        elif i % 60 == 3:
            lines.append("# a comment")
        else:
            fen = FENS[i % len(FENS)]
            lines.append(fen + (" ;D1 20" if i % 3 == 0 else ""))
            valid.append(fen)
    source = tmp_path / "positions.epd"
    source.write_text("\n".join(lines) + "\n")
    out = tmp_path / "shards"
    result = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "dask_planes.py"),
                             str(source), str(out), "--workers", "2", "--blocksize", "4096"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    shards = sorted(glob.glob(str(out / "shard-*.npy")))
    assert len(shards) > 2
    got = np.concatenate([np.load(s) for s in shards])
    assert np.array_equal(got, dirfill.attack_planes(valid))
    bad = sum(1 for i in range(600) if i % 50 == 7)
    assert result.stdout.strip().splitlines()[-1] == \
        "%d positions in %d shards, %d bad lines skipped" % (len(valid), len(shards), bad)
