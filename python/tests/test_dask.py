# SPDX-License-Identifier: MIT
"""examples/dask_planes.py with 2 local workers: shards in order equal dirfill.attack_planes of
the valid lines, each row's input line number is beside it, bad lines (a non-UTF-8 one among
them) are listed, the manifest comes last, and an OUTDIR is never mixed with an old run."""
import glob
import json
import os
import subprocess
import sys

import numpy as np

import dirfill

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "examples", "dask_planes.py")
FENS = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"]


def run(*args, env=None):
    return subprocess.run([sys.executable, SCRIPT, *map(str, args)], capture_output=True,
                          text=True, timeout=300, env=env)


def write_input(path):
    lines, valid, bad = [], [], []
    for i in range(600):
        number = i + 1
        if i % 50 == 7:
            lines.append(b"not a fen %d" % i)
            bad.append(number)
        elif i == 100:
            lines.append(b"\xff\xfe not UTF-8")
            bad.append(number)
        elif i % 60 == 3:
            lines.append(b"# a comment")
        else:
            fen = FENS[i % len(FENS)]
            lines.append(fen.encode() + (b" ;D1 20" if i % 3 == 0 else b""))
            valid.append((number, fen))
    path.write_bytes(b"\n".join(lines) + b"\n")
    return valid, bad


def read_shards(out):
    planes = np.concatenate([np.load(s) for s in sorted(glob.glob(str(out / "planes-*.npy")))])
    rows = np.concatenate([np.load(s) for s in sorted(glob.glob(str(out / "rows-*.npy")))])
    return planes, rows


def test_dask_shards(tmp_path):
    source = tmp_path / "positions.epd"
    valid, bad = write_input(source)
    out = tmp_path / "shards"
    result = run(source, out, "--workers", 2, "--blocksize", 4096)
    assert result.returncode == 0, result.stderr
    planes, rows = read_shards(out)
    assert np.array_equal(planes, dirfill.attack_planes([fen for _, fen in valid]))
    assert rows.tolist() == [number for number, _ in valid]
    listed = (out / "bad-lines.tsv").read_text().splitlines()
    assert listed[0] == "line\treason" and [int(l.split("\t")[0]) for l in listed[1:]] == bad
    assert "101\tnot UTF-8" in listed
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["positions"] == len(valid) and manifest["bad_lines"] == len(bad)
    assert manifest["lines"] == 600 and len(manifest["shards"]) > 2
    assert not glob.glob(str(out / "*.tmp"))
    assert result.stdout.strip().splitlines()[-1].startswith(
        "%d positions in %d shards, %d bad lines skipped" % (len(valid), len(manifest["shards"]),
                                                             len(bad)))

    # A second run into the same OUTDIR is refused, and leaves it alone; --overwrite starts
    # afresh (no stale shard of the first run survives, with bigger partitions now).
    again = run(source, out)
    assert again.returncode == 1 and len(again.stderr.strip().splitlines()) == 1
    assert "not empty" in again.stderr and (out / "manifest.json").exists()
    fresh = run(source, out, "--overwrite", "--blocksize", 1 << 20)
    assert fresh.returncode == 0, fresh.stderr
    assert len(glob.glob(str(out / "planes-*.npy"))) == 1
    planes2, rows2 = read_shards(out)
    assert np.array_equal(planes2, planes) and np.array_equal(rows2, rows)


def test_dask_errors_are_one_line(tmp_path):
    missing = run(tmp_path / "nonexistent.epd", tmp_path / "out")
    assert missing.returncode == 1
    assert missing.stderr.strip().splitlines() == [
        "dask_planes.py: cannot read %s: No such file or directory" % (tmp_path / "nonexistent.epd")]
    # A cluster that cannot be reached: one line, and no manifest marks the run complete.
    source = tmp_path / "positions.epd"
    write_input(source)
    env = dict(os.environ, DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT="1s")
    failed = run(source, tmp_path / "out2", "--scheduler", "tcp://127.0.0.1:9", env=env)
    assert failed.returncode == 1 and len(failed.stderr.strip().splitlines()) == 1, failed.stderr
    assert "incomplete" in failed.stderr and not (tmp_path / "out2" / "manifest.json").exists()


PGN_SCRIPT = os.path.join(ROOT, "examples", "dask_pgn.py")


def test_dask_pgn(tmp_path):
    """examples/dask_pgn.py with two local workers equals pgn_positions on the same inputs."""
    import gzip

    sys.path.insert(0, os.path.dirname(__file__))
    from test_pgn import BAD, TEXT  # games written by random play on dirfill.Board

    plain, packed = tmp_path / "a.pgn", tmp_path / "b.pgn.gz"
    plain.write_text(TEXT + BAD)
    with gzip.open(packed, "wb") as f:
        f.write(TEXT.encode())
    out = tmp_path / "shards"
    result = subprocess.run([sys.executable, PGN_SCRIPT, str(plain), str(packed), str(out),
                             "--workers", "2", "--parts-per-file", "4", "--rows-per-shard", "1000"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    shards = [np.load(out / s["positions"]) for s in manifest["shards"]]
    # Shards of a fixed number of rows, but the last of each partition.
    last = {}
    for s in manifest["shards"]:
        last[s["positions"].split("-")[1]] = s["rows"]
    full = [s["rows"] for s in manifest["shards"]]
    assert full.count(1000) >= len(full) - len(last) and max(full) == 1000
    planes = np.concatenate([np.load(out / s["planes"]) for s in manifest["shards"]])
    want = [dirfill.pgn_positions(plain), dirfill.pgn_positions(packed)]
    for key in ("pieces", "game", "ply", "move", "eval"):
        got = np.concatenate([s[key] for s in shards])
        assert np.array_equal(got, np.concatenate([w[key] for w in want]), equal_nan=key == "eval")
    files = np.concatenate([s["input"] for s in shards])
    assert (files == 0).sum() == len(want[0]["pieces"]) and (files == 1).sum() == len(want[1]["pieces"])
    fens_planes = dirfill.attack_planes_from_bitboards(
        np.concatenate([w["pieces"] for w in want]), turn=np.concatenate([w["turn"] for w in want]),
        castling=np.concatenate([w["castling"] for w in want]),
        ep=np.concatenate([w["ep"] for w in want]))
    assert np.array_equal(planes, fens_planes)
    listed = (out / "bad-games.tsv").read_text().splitlines()
    assert listed[0] == "file\tgame\tline\tmessage" and len(listed) == 3
    assert 'ply 3 "Ke3": illegal move' in listed[1] and "variant Atomic" in listed[2]
    # The error's line is the file's, though its part began far into it.
    (game, _, line), = want[0]["errors"]
    assert listed[1].split("\t")[1:3] == [str(game), str(line)] and line > 100
    assert manifest["bad_games"] == 1 and manifest["skipped_games"] == 1
    again = subprocess.run([sys.executable, PGN_SCRIPT, str(plain), str(out)], capture_output=True,
                           text=True, timeout=300)
    assert again.returncode == 1 and "not empty" in again.stderr
