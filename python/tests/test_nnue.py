# SPDX-License-Identifier: MIT
"""dirfill.nnue_batches and nnue_features: the rows of `dirfill nnue --json`, batch by batch, on
any thread count; the skip options reproducible by seed; DDP shares disjoint and complete;
errors of sources, chunks and file objects; Ctrl-C. The data: generated games turned into
.binpack, .plain, .bin and bullet's .bf, .marlin, .vf, .txt by the program."""
import functools
import io
import json
import os
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import dirfill
from failing_file import FailingFile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRAM = os.path.join(ROOT, "build", "release", "dirfill")
PGN_MAKE = os.path.join(ROOT, "build", "release", "dirfill-pgn-make")
SETS = ["Full_Threats+PP_3Wide+HalfKAv2_hm", "HalfKAv2_hm"]
WIDTH = {"Full_Threats+PP_3Wide+HalfKAv2_hm": 288, "HalfKAv2_hm": 32}


@functools.lru_cache(maxsize=None)
def nnue(*args):
    r = subprocess.run([PROGRAM, "nnue", *args], capture_output=True, text=True)
    return [json.loads(line) for line in r.stdout.splitlines()]


class Data:
    """Five .binpack files of generated games (positions without an eval kept: score 32002),
    them joined (five chunks), and the same entries as .plain and .bin."""

    def __init__(self, d):
        self.parts, self.pgns = [], []
        for k in range(5):
            pgn = d / ("g%d.pgn" % k)
            self.pgns.append(str(pgn))
            pgn.write_bytes(subprocess.run([PGN_MAKE, "10", str(k + 1)], check=True,
                                           capture_output=True).stdout)
            part = d / ("p%d.binpack" % k)
            subprocess.run([PROGRAM, "nnue", "--no-eval-ok", "--write", str(part), str(pgn)],
                           check=True, capture_output=True)
            self.parts.append(str(part))
        self.binpack = str(d / "all.binpack")
        with open(self.binpack, "wb") as f:
            for p in self.parts:
                f.write(open(p, "rb").read())
        self.plain, self.bin = str(d / "all.plain"), str(d / "all.bin")
        self.bf, self.marlin = str(d / "all.bf"), str(d / "all.marlin")
        self.vf, self.txt = str(d / "all.vf"), str(d / "all.txt")
        for out in (self.plain, self.bin, self.bf, self.marlin, self.vf, self.txt):
            subprocess.run([PROGRAM, "nnue", "--write", out, self.binpack], check=True,
                           capture_output=True)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    for p in (PROGRAM, PGN_MAKE):
        if not os.path.exists(p):
            pytest.fail("%s is not built (make test builds it)" % p)
    return Data(tmp_path_factory.mktemp("nnue"))


def expected(row, width):
    """A `dirfill nnue --json` row as nnue_batches' row: is_white, outcome, score, white,
    black, piece_count."""
    board, side = row["fen"].split()[:2]
    pad = lambda xs: xs + [-1] * (width - len(xs))
    return (1.0 if side == "w" else 0.0, (row["result"] + 1) / 2, float(row["score"]),
            pad(row["white"]), pad(row["black"]), sum(c.isalpha() for c in board))


def ascending(rows):
    """Feature rows (nnue-pytorch's order, then -1) with each row's indices ascending, as
    `dirfill nnue --json` lists them."""
    top = np.iinfo(np.int32).max
    rows = np.sort(np.where(rows < 0, top, rows), axis=1)
    return np.where(rows == top, -1, rows)


def table(batch):
    """A batch's rows as one float64 array (every field exact): is_white, outcome, score,
    piece_count, white, black (the last two ascending)."""
    n = len(batch["score"])
    cols = [batch[k].astype(np.float64).reshape(n, -1)
            for k in ("is_white", "outcome", "score", "piece_count")]
    cols += [ascending(batch[k].reshape(n, -1)).astype(np.float64) for k in ("white", "black")]
    return np.hstack(cols)


def all_rows(batches):
    """The rows of batches as a list of hashable keys."""
    return [r.tobytes() for b in batches for r in table(b)]


def keyed(row, width):
    iw, out, score, white, black, pc = expected(row, width)
    return np.array([iw, out, score, pc] + white + black, np.float64).tobytes()


def score_of(key):
    return np.frombuffer(key, np.float64)[2]


@pytest.mark.parametrize("features", SETS)
@pytest.mark.parametrize("kind", ["binpack", "plain", "bin"])
@pytest.mark.parametrize("threads", [1, 2, 4])
def test_batches_are_the_programs_rows(data, features, kind, threads):
    path = getattr(data, kind)
    want = [r for r in nnue("--json", "--features", features, path) if "fen" in r]
    width = WIDTH[features]
    size = 300
    batches = list(dirfill.nnue_batches(path, size, features, threads=threads))
    assert [len(b["score"]) for b in batches[:-1]] == [size] * (len(batches) - 1)
    assert sum(len(b["score"]) for b in batches) == len(want) > 5 * size
    for k, b in enumerate(batches):
        assert b["is_white"].dtype == b["outcome"].dtype == b["score"].dtype == np.float32
        assert b["white"].dtype == b["black"].dtype == b["piece_count"].dtype == np.int32
        assert b["white"].shape == b["black"].shape == (len(b["score"]), width)
        assert b["errors"] == []
        assert all_rows([b]) == [keyed(r, width) for r in want[k * size:(k + 1) * size]]


def test_sources_in_order_and_file_objects(data):
    whole = all_rows(dirfill.nnue_batches(data.binpack, 777, threads=2))
    parts = all_rows(dirfill.nnue_batches(data.parts, 777, threads=2))
    assert parts == whole
    with open(data.binpack, "rb") as f:  # the format from its name
        assert all_rows(dirfill.nnue_batches(f, 777)) == whole
    raw = open(data.bin, "rb").read()
    assert all_rows(dirfill.nnue_batches(io.BytesIO(raw), 777, format="bin")) == whole
    assert all_rows(dirfill.nnue_batches(raw, 777, format="bin")) == whole


@pytest.mark.parametrize("kind,name", [("bf", "bulletformat"), ("marlin", "marlinformat"),
                                       ("vf", "viriformat"), ("txt", "bullet-text")])
def test_bullet_formats(data, kind, name):
    """bullet's formats through the library: the program's rows, by extension or by format=;
    MarlinFormat, viriformat and the text keep every row of the .binpack they came from."""
    path = getattr(data, kind)
    want = [r for r in nnue("--json", "--features", "HalfKAv2_hm", path) if "fen" in r]
    got = all_rows(dirfill.nnue_batches(path, 300, "HalfKAv2_hm", threads=2))
    assert got == [keyed(r, 32) for r in want] and len(want) > 1000
    raw = open(path, "rb").read()
    assert all_rows(dirfill.nnue_batches(raw, 300, "HalfKAv2_hm", format=name)) == got
    if kind != "bf":  # ChessBoard sees every position from the side to move
        assert got == all_rows(dirfill.nnue_batches(data.binpack, 300, "HalfKAv2_hm"))


def test_nnue_features_are_the_batches_rows(data):
    want = [r for r in nnue("--json", data.parts[0]) if "fen" in r][:500]
    fens = [r["fen"] for r in want]
    got = dirfill.nnue_features(fens, scores=[r["score"] for r in want],
                                results=[r["result"] for r in want], threads=2)
    assert all_rows([got]) == [keyed(r, 288) for r in want]
    small = dirfill.nnue_features(fens[:3], "HalfKAv2_hm")
    assert small["white"].shape == (3, 32)
    assert list(small["score"]) == [0, 0, 0] and list(small["outcome"]) == [0.5] * 3


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
FEN40 = "rnbqkbnr/pppppppp/8/8/8/QQQQQQQQ/PPPPPPPP/RNBQKBNR w KQkq - 0 1"  # 40 pieces
PAWNS = "rnbqkbnr/pppppppp/pppppppp/8/8/PPPPPPPP/PPPPPPPP/RNBQKBNR w KQkq - 0 1"  # 32 pawns
FULL = "rnbqkbnr/pppppppp/pppppppp/qqqqqqqq/QQQQQQQQ/PPPPPPPP/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
THREATS = "RNB1bQQn/rBQbpqqr/nqNR2Bp/nQPRqBBk/NNBrqRPQ/1nNRbPQK/QqBRbRqn/q2qbqQB w - - 0 1"
DEFAULT = "Full_Threats+PP_3Wide+HalfKAv2_hm"


@pytest.mark.parametrize("features, fen, active", [
    # more features than a row holds: a ValueError naming the FEN
    ("HalfKAv2_hm", FEN40, None), ("HalfKAv2_hm", PAWNS, None), ("PP_3Wide", PAWNS, None),
    ("Full_Threats", THREATS, None), ("PP_3Wide+HalfKAv2_hm", FULL, None),
    (DEFAULT, FULL, None),
    # as many as a row holds, or fewer: the whole row (the parts' counts: threats, pawn pairs
    # on the same or neighbouring files, pieces)
    ("Full_Threats", FEN40, 77), ("PP_3Wide", FEN40, 36), (DEFAULT, FEN40, 77 + 36 + 40),
    ("PP_3Wide+HalfKAv2_hm", FEN40, 36 + 40), (DEFAULT, PAWNS, 36 + 160 + 48),
    ("Full_Threats", FULL, 116)],
    ids=lambda x: {FEN40: "40_pieces", PAWNS: "32_pawns", FULL: "64_pieces",
                   THREATS: "threats"}.get(x) if isinstance(x, str) else None)
def test_nnue_features_never_cut_a_row(features, fen, active):
    """A position of more active features than the set's row width (nnue-pytorch's formats
    hold at most 32 pieces; a FEN may hold more) is a ValueError naming it, never a row cut
    to the width."""
    if active is None:
        with pytest.raises(ValueError, match=r"fens\[1\]: .*more than .*32 pieces") as e:
            dirfill.nnue_features([START, fen, START], features, threads=2)
        assert fen in str(e.value) and features in str(e.value)
        return
    got = dirfill.nnue_features([START, fen], features)
    for side in ("white", "black"):
        assert (got[side][1] >= 0).sum() == active < got[side].shape[1]


def test_nnue_batches_never_hand_out_a_cut_row(tmp_path):
    """An entry of more features than a row holds never reaches a batch cut to the width: the
    reader refuses it (an error of the batch), or nnue_batches raises."""
    record = "fen %s\nmove %s\nscore 10\nply 0\nresult 0\ne\n"
    path = tmp_path / "forty.plain"
    path.write_text(record % (START, "e2e4") * 3 + record % (FEN40, "a3a4") +
                    record % (START, "e2e4") * 3)
    try:
        batches = list(dirfill.nnue_batches(str(path), 2, "HalfKAv2_hm"))
    except ValueError as e:
        assert "more than" in str(e) and "32 pieces" in str(e) and FEN40 in str(e)
        return
    assert sum(len(b["score"]) for b in batches) == 6
    assert all((b["piece_count"] == 32).all() for b in batches)
    errors = [e for b in batches for e in b["errors"]]
    assert len(errors) == 1 and "32" in errors[0][3]


def test_skip_by_seed(data):
    every = all_rows(dirfill.nnue_batches(data.binpack, 500))
    none = [r for r in every if score_of(r) != 32002]
    assert len(none) < len(every)  # there are entries without a score to drop

    def run(skip, seed):
        it = dirfill.nnue_batches(data.binpack, 500, skip=skip, seed=seed, threads=2)
        got = all_rows(it)
        s = it.stats
        assert s["entries"] == len(every) and s["kept"] == len(got)
        assert s["kept"] + s["skipped"] == s["entries"] and s["errors"] == 0
        return got

    for skip in ({}, {"random_fen_skipping": 3, "filtered": False, "wld_filtered": False,
                      "soft_early_fen_skipping": 0}):
        a, b, c = run(skip, 5), run(skip, 5), run(skip, 6)
        assert a == b and a != c
        assert 0 < len(a) < len(none)
        assert all(score_of(r) != 32002 for r in a)  # a missing score is a hard rule
        from collections import Counter
        assert not Counter(a) - Counter(none)  # a subset of the entries, in their order
    # A predicate of all options off skips nothing, the missing scores included (theirs too).
    off = {"filtered": False, "wld_filtered": False, "soft_early_fen_skipping": 0}
    assert run(off, 1) == every


def test_skip_hard_rule_early_plies(data):
    want = [r for r in nnue("--json", data.binpack) if "fen" in r]
    late = {keyed(r, 288) for r in want if r["ply"] > 30}
    got = all_rows(dirfill.nnue_batches(data.binpack, 2000, skip={
        "early_fen_skipping": 30, "filtered": False, "wld_filtered": False,
        "soft_early_fen_skipping": 0, "pc_y0": 1.0, "pc_y1": 1.0, "pc_y2": 1.0, "pc_y3": 1,
        "pc_y4": 1}))
    assert got and all(r in late for r in got)


@pytest.mark.parametrize("world", [1, 2, 3, 4, 7])
def test_ranks_binpack_chunks(data, world):
    chunks = [all_rows(dirfill.nnue_batches(p, 2000)) for p in data.parts]
    got = [all_rows(dirfill.nnue_batches(data.binpack, 500, rank=r, world_size=world,
                                         threads=2)) for r in range(world)]
    for r in range(world):  # chunks r, r + world, ... as nnue-pytorch's DDP rule
        assert got[r] == [x for c in chunks[r::world] for x in c]
    assert sorted(x for g in got for x in g) == sorted(x for c in chunks for x in c)


@pytest.mark.parametrize("kind", ["plain", "bin"])
@pytest.mark.parametrize("world", [2, 3])
def test_ranks_records_round_robin(data, kind, world):
    every = all_rows(dirfill.nnue_batches(getattr(data, kind), 2000))
    got = [all_rows(dirfill.nnue_batches(getattr(data, kind), 300, rank=r, world_size=world))
           for r in range(world)]
    for r in range(world):
        assert got[r] == every[r::world]
    assert sum(map(len, got)) == len(every)


def test_corrupt_chunk_is_an_error_and_reading_goes_on(data, tmp_path):
    raw = open(data.binpack, "rb").read()
    first = os.path.getsize(data.parts[0])
    bad = tmp_path / "bad.binpack"
    bad.write_bytes(raw[:first] + b"XINP" + raw[first + 4:])  # chunk 1's magic
    want = nnue("--json", str(bad))
    errors = [r for r in want if "error" in r]
    assert len(errors) == 1
    batches = list(dirfill.nnue_batches([data.parts[0], str(bad)], 500))
    got = [e for b in batches for e in b["errors"]]
    assert got == [(1, errors[0]["offset"], errors[0]["chunk"], errors[0]["error"])]
    assert all_rows(batches) == all_rows(dirfill.nnue_batches(data.parts[0], 9)) + [
        keyed(r, 288) for r in want if "fen" in r]
    it = dirfill.nnue_batches(str(bad), 500)
    list(it)
    assert it.stats["errors"] == 1


def test_missing_source_is_a_source_error_after_the_others(data, tmp_path):
    gone = str(tmp_path / "gone.binpack")
    it = dirfill.nnue_batches([gone, data.parts[0]], 50000)
    batch = next(it)
    assert len(batch["score"]) == len(all_rows(dirfill.nnue_batches(data.parts[0])))
    with pytest.raises(dirfill.SourceError) as e:
        next(it)
    assert isinstance(e.value, FileNotFoundError) and e.value.source == 0


@pytest.mark.parametrize("kind", ["binpack", "bin"])
def test_file_object_that_raises_midway(data, kind):
    raw = open(getattr(data, kind), "rb").read()
    src = FailingFile(raw, len(raw) // 2, ConnectionError("the network went away"))
    it = dirfill.nnue_batches(src, 500, format=kind, threads=2)
    got = []
    start = time.monotonic()
    with pytest.raises(ConnectionError, match="went away"):
        for b in it:
            got.append(b)
    assert time.monotonic() - start < 10
    if kind == "bin":  # records: every whole one before the failure
        assert sum(len(b["score"]) for b in got) == (len(raw) // 2) // 40
    with pytest.raises(StopIteration):
        next(it)


@pytest.mark.parametrize("kind", ["binpack", "plain", "bin"])
def test_a_raising_read_is_its_exception_not_an_error_of_the_data(data, kind):
    """What the failing read cut short (a chunk header, a chain, a record, a line) is no error
    of the batches: the read's exception says what happened, after the entries before it. An
    error of the data before the cut is still one."""
    raw = open(getattr(data, kind), "rb").read()
    good = all_rows(dirfill.nnue_batches(raw, 300, format=kind))
    mid = len(raw) // 2
    # A corrupt item early on (an error of its own, before and after the fix alike), seen by a
    # read that gets past its end; and where the reads fail: inside each kind of item, and
    # between two.
    if kind == "binpack":
        second = os.path.getsize(data.parts[0])
        third = second + os.path.getsize(data.parts[1])
        raw = raw[:second] + b"XINP" + raw[second + 4:]  # chunk 1's magic
        bad, seen = second, second + 8
        places = [5, 8 + 100, third + 3, third + 8 + 1000, mid]
    elif kind == "bin":
        bad = seen = 40 * 3
        raw = raw[:bad] + bytes([0xEE] * 32) + raw[bad + 32:]  # record 3's pieces
        seen += 40
        places = [mid - mid % 40 + 17, mid - mid % 40, len(raw) - 3]
    else:
        at = raw.index(b"\nresult ", 1000) + 1
        raw = raw[:at] + b"result 7" + raw[at + 8:]
        bad, seen = at, raw.index(b"\ne\n", at) + 3
        fen, result = raw.index(b"\nfen ", mid), raw.index(b"\nresult -", mid)
        places = [fen + 20, fen + 1, result + 9, raw.index(b"\ne\n", mid) + 3,
                  raw.index(b"\nscore ", mid) + 7]
    whole = list(dirfill.nnue_batches(raw, 300, format=kind))
    # (source, offset, where): a bad magic's message says how far it skipped, which a cut read
    # shortens
    errors = [e[:3] for b in whole for e in b["errors"]]
    assert [e[1] for e in errors] == [bad]
    every = all_rows(whole)
    assert len(every) < len(good)
    for n in places:
        want = errors if n >= seen else []
        for threads in (1, 2):
            src = FailingFile(raw, n, OSError("the disk went away"))
            it = dirfill.nnue_batches(src, 300, format=kind, threads=threads)
            got = []
            with pytest.raises(OSError, match="the disk went away"):
                for b in it:
                    got.append(b)
            assert [e[:3] for b in got for e in b["errors"]] == want, (n, threads)
            assert it.stats["errors"] == len(want)
            rows = all_rows(got)
            assert rows == every[:len(rows)]
            if kind == "bin":  # every whole record before the cut
                assert len(rows) == n // 40 - len(want)
            elif kind == "plain":
                assert len(rows) == raw[:n].count(b"\ne\n") - len(want)


def test_arguments_are_checked(data):
    p = data.parts[0]
    bad = [
        (ValueError, dict(batch_size=0)),
        (ValueError, dict(batch_size=1 << 31)),
        (ValueError, dict(features="HalfKAv2")),
        (ValueError, dict(features="HalfKAv2_hm+HalfKAv2_hm")),
        (TypeError, dict(features=3)),
        (ValueError, dict(threads=-1)),
        (TypeError, dict(skip=[("filtered", True)])),
        (ValueError, dict(skip={"filterd": True})),
        (TypeError, dict(skip={1: True})),
        (ValueError, dict(skip={"filtered": 2})),
        (ValueError, dict(skip={"early_fen_skipping": 2.5})),
        (ValueError, dict(skip={"early_fen_skipping": True})),
        (TypeError, dict(skip={"pc_y1": "1"})),
        (TypeError, dict(skip={"pc_y1": None})),
        (ValueError, dict(skip={"random_fen_skipping": 1 << 40})),
        (ValueError, dict(skip={"pc_y2": float("inf")})),
        (ValueError, dict(skip={"soft_early_fen_skipping": 70000})),
        (ValueError, dict(skip={"pc_y2": float("nan")})),
        (ValueError, dict(rank=0)),
        (ValueError, dict(world_size=2)),
        (ValueError, dict(rank=2, world_size=2)),
        (ValueError, dict(rank=-1, world_size=2)),
        (ValueError, dict(rank=0, world_size=0)),
        (ValueError, dict(rank=0, world_size=1 << 32)),
        (TypeError, dict(rank=True, world_size=2)),
        (TypeError, dict(rank=0.0, world_size=2)),
        (ValueError, dict(seed=-1)),
        (ValueError, dict(seed=1 << 64)),
        (ValueError, dict(seed=True)),
    ]
    for exc, kw in bad:
        with pytest.raises(exc):
            dirfill.nnue_batches(p, **kw)
    with pytest.raises(ValueError, match="format"):
        dirfill.nnue_batches(io.BytesIO(b""))
    with pytest.raises(ValueError, match="format"):
        dirfill.nnue_batches(io.BytesIO(b""), format="fen")
    with pytest.raises(ValueError, match="format"):
        dirfill.nnue_batches("x.epd")
    with pytest.raises(ValueError, match="score_units"):
        dirfill.nnue_batches(p, score_units="pawns")
    with pytest.raises(ValueError, match="format"):
        dirfill._dirfill._nnue_batches([(p, 8)], 10, "HalfKAv2_hm", None, 0, 0, 1, 0, 0, False)
    with pytest.raises(TypeError):
        next(dirfill.nnue_batches(3.5, format="bin"))
    with pytest.raises(ValueError):
        dirfill.nnue_features(["not a fen"])
    with pytest.raises(TypeError):
        dirfill.nnue_features([3])
    with pytest.raises(ValueError, match="one per FEN"):
        dirfill.nnue_features(["8/8/8/8/8/8/8/K1k5 w - - 0 1"], scores=[1, 2])
    with pytest.raises(ValueError, match="-1, 0 or 1"):
        dirfill.nnue_features(["8/8/8/8/8/8/8/K1k5 w - - 0 1"], results=[2])
    with pytest.raises(ValueError):
        dirfill.nnue_features(["8/8/8/8/8/8/8/K1k5 w - - 0 1"], features="")
    assert list(dirfill.nnue_batches([])) == []
    empty = dirfill.nnue_features([])
    assert empty["white"].shape == (0, 288)


CTRL_C = textwrap.dedent("""
    import io, sys, time
    import dirfill

    raw = open(sys.argv[1], "rb").read()

    class Endless(io.RawIOBase):
        def readable(self):
            return True

        def read(self, size=-1):
            if sys.argv[2] == "slow":
                time.sleep(0.01)
            return raw[:size]  # the same chunk, again and again

    it = dirfill.nnue_batches(Endless(), 2000, format="binpack", threads=2)
    next(it)
    print("going", flush=True)
    try:
        for _ in it:
            pass
    except KeyboardInterrupt:
        print(time.monotonic(), flush=True)
""")


@pytest.mark.parametrize("speed", ["fast", "slow"])
def test_ctrl_c_stops_within_half_a_second(data, speed):
    small = data.parts[0]
    p = subprocess.Popen([sys.executable, "-c", CTRL_C, small, speed], stdout=subprocess.PIPE,
                         text=True)
    try:
        assert p.stdout.readline().strip() == "going"
        time.sleep(0.3)
        sent = time.monotonic()
        p.send_signal(2)
        caught = float(p.stdout.readline())
        assert p.wait(timeout=10) == 0
    finally:
        p.kill()
    assert caught - sent < 0.5


@pytest.mark.parametrize("skip,spec", [
    ({}, "default"),
    ({"random_fen_skipping": 2, "wld_filtered": False}, "random_fen_skipping=2,wld_filtered=0"),
    ({"early_fen_skipping": 12, "simple_eval_skipping": 100, "pc_y2": 0.5},
     "early_fen_skipping=12,simple_eval_skipping=100,pc_y2=0.5"),
])
@pytest.mark.parametrize("seed", [0, 5489])
def test_skip_keeps_the_programs_entries(data, skip, spec, seed):
    files = [data.binpack, data.bin]
    want = [r for r in nnue("--json", "--skip", spec, "--seed", str(seed), *files) if "fen" in r]
    got = all_rows(dirfill.nnue_batches(files, 700, skip=skip, seed=seed, threads=2))
    assert got == [keyed(r, 288) for r in want] and len(got) > 100


def rows_of(batches):
    """Every row of batches as tuples (is_white, outcome, score, white, black, piece_count)."""
    out = []
    for b in batches:
        for i in range(len(b["score"])):
            out.append((float(b["is_white"][i]), float(b["outcome"][i]), float(b["score"][i]),
                        list(ascending(b["white"][i:i + 1])[0]),
                        list(ascending(b["black"][i:i + 1])[0]), int(b["piece_count"][i])))
    return out


def test_pgn_sources(data):
    """PGN is a format of nnue_batches: a path, a file object with format="pgn", shares of
    games; the entries of `dirfill nnue --json` on the same files, in both score units, with
    and without the positions that have no evaluation; the drops counted."""
    feats = "HalfKAv2_hm"
    for units, flags in (("stockfish", []), ("cp", ["--score-units", "cp"])):
        for keep in (False, True):
            args = ["--json", "--features", feats, *flags] + (["--no-eval-ok"] if keep else [])
            want = [expected(r, 32) for r in nnue(*args, *data.pgns) if "fen" in r]
            want = [(a, b, c, list(w), list(bl), p) for a, b, c, w, bl, p in want]
            it = dirfill.nnue_batches(data.pgns, 100, feats, score_units=units,
                                      keep_no_eval=keep)
            got = rows_of(it)
            assert got == want
            stats = it.stats
            assert stats["pgn_games"] == 50
            assert (stats["pgn_no_eval"] > 0) != keep
            assert stats["kept"] == len(want)
    # A file object, read as PGN by format=; two shares of games hold every entry once.
    with open(data.pgns[0], "rb") as f:
        text = f.read()
    whole = rows_of(dirfill.nnue_batches(io.BytesIO(text), 64, feats, format="pgn"))
    assert whole == rows_of(dirfill.nnue_batches(data.pgns[0], 64, feats))
    halves = [rows_of(dirfill.nnue_batches(data.pgns[0], 64, feats, rank=r, world_size=2))
              for r in (0, 1)]
    assert sorted(halves[0] + halves[1]) == sorted(whole) and halves[0] and halves[1]


def test_pgn_without_entries_warns(tmp_path):
    """A PGN source that gives no entry (games without evaluations, as TWIC's) is no silent
    empty run: one UserWarning says which and why, and stats count the positions dropped."""
    pgn = tmp_path / "twic.pgn"
    pgn.write_text('[Event "a"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 1-0\n\n'
                   '[Event "b"]\n[Result "0-1"]\n\n1. d4 {book} 0-1\n')
    with pytest.warns(UserWarning) as caught:
        it = dirfill.nnue_batches([str(pgn), str(pgn)], 10, "HalfKAv2_hm")
        assert list(it) == []
    assert len(caught) == 1
    assert "twic.pgn" in str(caught[0].message)
    assert "no [%eval] or engine comment in 2 games" in str(caught[0].message)
    assert it.stats["pgn_no_eval"] == 8



def test_nnue_pytorch_factorised_name(data):
    """nnue-pytorch's trainer names its default set Full_Threats+PP_3Wide+HalfKAv2_hm^ (the
    factorised HalfKAv2_hm): the same rows as the loader's name."""
    a = next(dirfill.nnue_batches(data.parts[0], 50, "Full_Threats+PP_3Wide+HalfKAv2_hm^"))
    b = next(dirfill.nnue_batches(data.parts[0], 50, "Full_Threats+PP_3Wide+HalfKAv2_hm"))
    assert np.array_equal(a["white"], b["white"]) and np.array_equal(a["black"], b["black"])
    with pytest.raises(ValueError, match="HalfKAv2_hm\\^"):
        dirfill.nnue_batches(data.parts[0], 50, "Full_Threats^")


# ---- shuffle and cyclic ----

def spearman(order):
    """Spearman's rank correlation of positions 0, 1, ... with order (a permutation)."""
    n = len(order)
    d = np.arange(n, dtype=np.float64) - np.asarray(order, np.float64)
    return 1 - 6 * float((d * d).sum()) / (n * (n * n - 1))


def file_positions(rows, file_rows):
    """Where each of rows stands in file_rows (a row met again takes its next place)."""
    places = {}
    for i, r in enumerate(file_rows):
        places.setdefault(r, []).append(i)
    return [places[r].pop(0) for r in rows]


@pytest.mark.parametrize("shuffle", [1000, 1 << 20])
def test_shuffled_pass_gives_every_entry_once_on_any_threads(data, shuffle):
    sources = [data.binpack, data.plain, data.bin]
    every = all_rows(dirfill.nnue_batches(sources, 4096, "HalfKAv2_hm"))
    runs = []
    for threads in (1, 2, 4):
        batches = list(dirfill.nnue_batches(sources, 500, "HalfKAv2_hm", threads=threads,
                                            shuffle=shuffle, seed=7))
        assert [len(b["score"]) for b in batches[:-1]] == [500] * (len(batches) - 1)
        runs.append(all_rows(batches))
    assert runs[0] == runs[1] == runs[2]  # the same seed, the same order, for any threads
    assert sorted(runs[0]) == sorted(every) and runs[0] != every
    other = all_rows(dirfill.nnue_batches(sources, 500, "HalfKAv2_hm", shuffle=shuffle, seed=8))
    assert sorted(other) == sorted(every) and other != runs[0]
    # The shares of two ranks, each shuffled, are every entry once.
    shares = [all_rows(dirfill.nnue_batches(sources, 500, "HalfKAv2_hm", rank=r, world_size=2,
                                            shuffle=shuffle)) for r in range(2)]
    assert sorted(shares[0] + shares[1]) == sorted(every)


def test_shuffle_unrelated_to_the_file_order(data):
    """A buffer that holds the whole input: the order given passes a rank test against the
    file's order, which the file's own order (shuffle=0, rho 1) fails."""
    file_rows = all_rows(dirfill.nnue_batches(data.bin, 4096, "HalfKAv2_hm"))
    bound = 4 / (len(file_rows) - 1) ** 0.5  # four standard deviations of a random order's rho
    assert bound < 0.1
    for shuffle, passes in ((0, False), (len(file_rows), True), (1 << 20, True)):
        rows = all_rows(dirfill.nnue_batches(data.bin, 4096, "HalfKAv2_hm", shuffle=shuffle))
        rho = spearman(file_positions(rows, file_rows))
        assert (abs(rho) < bound) == passes, (shuffle, rho)


def test_cyclic_batches_are_full_across_ends_and_passes(data):
    sizes = [len(all_rows(dirfill.nnue_batches(p, 4096, "HalfKAv2_hm"))) for p in data.parts]
    total = sum(sizes)
    assert all(s % 700 for s in sizes) and total % 700  # every file end falls inside a batch
    for shuffle in (0, 3000):
        it = dirfill.nnue_batches(data.parts, 700, "HalfKAv2_hm", shuffle=shuffle, cyclic=True)
        batches = [next(it) for _ in range(3 * total // 700 + 2)]  # over three passes
        it.close()
        assert [len(b["score"]) for b in batches] == [700] * len(batches)
        rows = all_rows(batches)
        if not shuffle:  # the passes one after the other, in the files' order
            once = all_rows(dirfill.nnue_batches(data.parts, 4096, "HalfKAv2_hm"))
            assert rows[:3 * total] == once * 3
        assert it.stats["entries"] >= 3 * total


def test_cyclic_sources_read_again(data, tmp_path):
    raw = open(data.bin, "rb").read()
    once = all_rows(dirfill.nnue_batches(raw, 4096, format="bin"))
    n = len(once)
    for source in (io.BytesIO(raw), raw, data.bin):
        it = dirfill.nnue_batches(source, 1000, format="bin", cyclic=True)
        rows = all_rows(next(it) for _ in range(2 * n // 1000 + 1))
        it.close()
        assert rows[:2 * n] == once * 2
    # A file object is read again from where it was when the run began.
    f = io.BytesIO(b"\xee" * 40 + raw)  # a record that is no position, before where it is
    f.seek(40)
    it = dirfill.nnue_batches(f, 1000, format="bin", cyclic=True)
    batches = [next(it) for _ in range(2 * n // 1000 + 1)]
    it.close()
    assert all_rows(batches)[:2 * n] == once * 2
    assert [e for b in batches for e in b["errors"]] == []
    # A file object that cannot seek back cannot be read again: refused before any read.
    with pytest.raises(ValueError, match="cyclic"):
        dirfill.nnue_batches(FailingFile(raw, len(raw)), 1000, format="bin", cyclic=True)
    # A share with no entry ends, cyclic or not.
    assert list(dirfill.nnue_batches(data.parts[0], 100, rank=1, world_size=2, cyclic=True)) == []


def test_shuffle_and_cyclic_are_checked(data):
    for exc, kw in ((ValueError, dict(shuffle=-1)), (ValueError, dict(shuffle=1 << 32)),
                    (ValueError, dict(shuffle=True)), (ValueError, dict(shuffle=2.0)),
                    (TypeError, dict(cyclic=1)), (TypeError, dict(cyclic="yes"))):
        with pytest.raises(exc):
            dirfill.nnue_batches(data.bin, **kw)
