# SPDX-License-Identifier: MIT
"""Per-position filters (min_ply, max_ply, min_clock, require_eval) of pgn_positions and
pgn_batches: the rows kept are those of a reference written here from the rule (read_pgn's
clocks and evals, the TimeControl's base), those the program writes with the same options (the
C path: `dirfill pgn --json --positions --min-ply ...`), the same on 1, 2 and 4 threads and in
batches of any size, each row as the unfiltered read gives it (its game and ply kept); bad
values are refused before anything is read."""
import json
import os
import re
import subprocess

import numpy as np
import pytest

import dirfill
from test_pgn import write_games

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRAM = os.path.join(ROOT, "build", "release", "dirfill")
# TimeControls of every kind: a base and an increment, a base alone, none usable.
CONTROLS = ["300+2", "60", "-", "?", None, "40/7200:3600", "1500+0"]


def with_controls(text):
    """The games with a TimeControl each (in turn from CONTROLS; None: no tag)."""
    count = iter(range(10 ** 6))

    def tag(m):
        control = CONTROLS[next(count) % len(CONTROLS)]
        return m.group(0) if control is None else '[TimeControl "%s"]\n%s' % (control, m.group(0))
    return re.sub(r'^\[White "', tag, text, flags=re.M)


TEXT = with_controls(write_games(120, seed=11)[0])
OPTIONS = [{}, {"min_ply": 5}, {"max_ply": 7}, {"min_ply": 3, "max_ply": 9}, {"min_ply": 0},
           {"min_clock": 100}, {"min_clock": 0}, {"min_clock": 59.5}, {"min_clock": 1500},
           {"require_eval": True},
           {"min_ply": 2, "max_ply": 60, "min_clock": 30, "require_eval": True}]


def base_seconds(control):
    m = re.fullmatch(r"(\d{1,9})(?:\+(\d{1,9}))?", control or "")
    return float(m.group(1)) if m else None


def reference(games, min_ply=None, max_ply=None, min_clock=None, require_eval=False):
    """(game, ply) of the positions that pass, by the rule: the side to move's clock at position
    k is the [%clk] after move k - 2 (its own last move), the TimeControl's base at positions 0
    and 1; require_eval looks at move k's own [%eval]."""
    out = []
    for g in games:
        base = base_seconds(g.headers.get("TimeControl"))
        for k in range(len(g.uci or [])):
            clock = base if k < 2 else g.clock[k - 2]
            if min_ply is not None and k < min_ply:
                continue
            if max_ply is not None and k > max_ply:
                continue
            if min_clock is not None and (clock is None or clock < min_clock):
                continue
            if require_eval and g.eval[k] is None:
                continue
            out.append((g.index, k))
    return out


def program_args(options):
    args = []
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        args += [flag] if value is True else [flag, str(value)]
    return args


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    path = tmp_path_factory.mktemp("filters") / "games.pgn"
    path.write_text(TEXT)
    return str(path)


@pytest.fixture(scope="module")
def everything(source):
    return dirfill.pgn_positions(source, uci=True, threads=1)


@pytest.mark.parametrize("options", OPTIONS, ids=[str(o) for o in OPTIONS])
def test_rows_kept_are_the_rules(source, everything, options):
    games = list(dirfill.read_pgn(source))
    want = reference(games, **options)
    assert options in ({}, {"min_ply": 0}) or 0 < len(want) < len(everything["ply"])
    # The C path: the program's rows with the same options.
    out = subprocess.run([PROGRAM, "pgn", "--json", "--positions", *program_args(options), source],
                         capture_output=True, text=True, check=True).stdout
    assert [(o["game"], o["ply"]) for o in map(json.loads, out.splitlines())] == want
    # Every row as the unfiltered read has it, on any number of threads, whole or in batches.
    passing = set(want)
    keep = np.array([(g, p) in passing for g, p in zip(everything["game"].tolist(),
                                                       everything["ply"].tolist())])
    for threads in (1, 2, 4):
        got = dirfill.pgn_positions(source, uci=True, threads=threads, **options)
        assert list(zip(got["game"].tolist(), got["ply"].tolist())) == want
        for k in dirfill.POSITION_COLUMNS + ("uci",):
            assert np.array_equal(got[k], everything[k][keep], equal_nan=k in ("eval", "clock")), k
        assert got["stats"] == everything["stats"]  # positions: every one of the kept games
        assert got["headers"] == everything["headers"]
        # Batches of one row (each its own batch) for the options together, where rows of one
        # game are cut most often: a Python round a row, kept to one case.
        for size in (1, 4096) if threads == 2 and len(options) == 4 else (29,):
            batches = list(dirfill.pgn_batches(source, size, uci=True, threads=threads,
                                               **options))
            assert all(len(b["ply"]) == size for b in batches[:-1])
            for k in dirfill.POSITION_COLUMNS + ("uci",):
                joined = np.concatenate([b[k] for b in batches])
                assert np.array_equal(joined, got[k], equal_nan=k in ("eval", "clock")), k
            # A game none of whose positions pass still gives its tags, with some batch.
            tags = {g: dict(t) for b in batches for g, t in b["headers"].items()}
            assert tags == got["headers"]


def test_clock_at_the_first_two_positions_is_the_base(source):
    """Positions 0 and 1: TimeControl's base (300, 60, 1500 here), none without a usable one."""
    p = dirfill.pgn_positions(source, max_ply=1, min_clock=0)
    games = {g.index: g for g in dirfill.read_pgn(source)}
    controls = {base_seconds(games[i].headers.get("TimeControl")) for i in p["game"].tolist()}
    assert controls == {300.0, 60.0, 1500.0}
    assert len(dirfill.pgn_positions(source, max_ply=1, min_clock=301)["ply"]) > 0
    assert set(dirfill.pgn_positions(source, max_ply=1, min_clock=1500)["game"].tolist()) == {
        i for i, g in games.items() if g.headers.get("TimeControl") == "1500+0" and g.uci}


def test_with_where_and_both_views(source, everything):
    got = dirfill.pgn_positions(source, where="TimeControl=300+2", min_ply=4,
                                view="side_to_move")
    keep = (everything["ply"] >= 4) & np.isin(
        everything["game"], [g.index for g in dirfill.read_pgn(source, where="TimeControl=300+2")])
    assert np.array_equal(got["game"], everything["game"][keep])
    sign = np.where(everything["turn"][keep], 1, -1)
    assert np.array_equal(got["eval"], sign * everything["eval"][keep], equal_nan=True)


BAD = [({"min_ply": -1}, ValueError, "min_ply must be a ply"),
       ({"max_ply": 1 << 32}, ValueError, "max_ply must be a ply"),
       ({"min_ply": 9, "max_ply": 8}, ValueError, "min_ply 9 is above max_ply 8"),
       ({"min_ply": 1.5}, TypeError, "min_ply must be an int"),
       ({"min_ply": True}, TypeError, "min_ply must be an int"),
       ({"max_ply": "3"}, TypeError, "max_ply must be an int"),
       ({"min_clock": -1}, ValueError, "min_clock must be seconds"),
       ({"min_clock": float("nan")}, ValueError, "min_clock must be seconds"),
       ({"min_clock": float("inf")}, ValueError, "min_clock must be seconds"),
       ({"min_clock": "30"}, ValueError, "min_clock must be seconds"),
       ({"view": "black"}, ValueError, 'view must be "white"'),
       ({"view": 1}, ValueError, 'view must be "white"')]


@pytest.mark.parametrize("options,error,message", BAD, ids=[str(b[0]) for b in BAD])
def test_bad_values_are_refused_before_reading(options, error, message):
    class Unread:
        def read(self, n):
            raise AssertionError("read")
    with pytest.raises(error, match=re.escape(message)):
        dirfill.pgn_positions(Unread(), **options)
    with pytest.raises(error, match=re.escape(message)):
        dirfill.pgn_batches(Unread(), **options)


def test_numpy_integers_and_floats_are_values(source):
    a = dirfill.pgn_positions(source, min_ply=np.int64(5), min_clock=np.float32(100))
    b = dirfill.pgn_positions(source, min_ply=5, min_clock=100)
    assert np.array_equal(a["ply"], b["ply"]) and len(a["ply"])
