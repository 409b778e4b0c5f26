# SPDX-License-Identifier: MIT
"""docs/conventions.md, checked: every row of its tables on the same games through every API.

The games (random playouts with [%eval], mates of both sides and [%clk]; a game `where` leaves
out, a bad one, one of another variant, one with a repeated tag, an en-passant square, in two
files, one of them compressed) are read by the program (`dirfill pgn --json`, `--json
--positions` and its summary: the C library's view), by pgn_positions (both views), pgn_batches
(threads 2, small batches), read_pgn and a Board replay of read_pgn's moves. Each name of the
document's tables has a check below that compares every row of every API: a name without a
check, a check without a name, or any disagreement fails. test_torch.py checks the tensors
against the arrays."""
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
DOC = os.path.join(ROOT, "docs", "conventions.md")
WHERE = "Event!=left out"
RESULTS = {"1-0": 1, "0-1": -1, "1/2-1/2": 0, "*": dirfill.RESULT_UNKNOWN}

EXTRA = ('[Event "left out"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n\n'
         '[Event "twice"]\n[White "a"]\n[White "b"]\n[Result "0-1"]\n\n'
         '1. e4 {[%eval 0.3] [%clk 0:03:00]} d5 {[%eval #-2]} 2. e5 f5 {[%clk 0:02:59]} '
         '3. exf6 {[%eval #1]} 0-1\n\n'
         '[Event "bad"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 *\n\n'
         '[Event "atomic"]\n[Variant "Atomic"]\n\n1. e4 *\n\n')


def table_names(path=DOC):
    """The names of the document's table rows: their first cells, `name`."""
    return re.findall(r"^\| `(\w+)` \|", open(path, encoding="utf-8").read(), re.M)


class Read:
    """The same games through every API."""

    def __init__(self, files):
        self.files = files
        run = lambda *a: subprocess.run([PROGRAM, "pgn", *a, "--where", WHERE, *files],
                                         capture_output=True, text=True)
        self.objects = [json.loads(line) for line in run("--json").stdout.splitlines()]
        self.json_rows = [o for o in map(json.loads, run("--json", "--positions").stdout
                                         .splitlines()) if "ply" in o]
        self.summary = run().stdout.splitlines()
        self.p = dirfill.pgn_positions(files, uci=True, where=WHERE)
        self.mover = dirfill.pgn_positions(files, where=WHERE, view="side_to_move")
        it = dirfill.pgn_batches(files, 37, threads=2, uci=True, where=WHERE)
        batches = list(it)
        self.batch_stats = it.stats
        self.b = {k: np.concatenate([b[k] for b in batches])
                  for k in dirfill.POSITION_COLUMNS + ("uci",)}
        self.b_records = {k: [x for b in batches for x in b[k]]
                          for k in ("errors", "skipped", "warnings")}
        self.b_headers = {g: dict(t) for b in batches for g, t in b["headers"].items()}
        self.games = list(dirfill.read_pgn(files, where=WHERE))
        # The Board replay of read_pgn's moves: the board before each move of each kept game.
        self.boards = []
        for g in self.games:
            board = dirfill.Board(g.start)
            for move in g.uci or []:
                self.boards.append((g, board.copy()))
                board.push_uci(move)
        self.n = len(self.boards)

    def game_of(self, index):
        return next(g for g in self.games if g.index == index)


@pytest.fixture(scope="module")
def read(tmp_path_factory):
    if not os.path.exists(PROGRAM):
        pytest.fail("build/release/dirfill is not built (make test builds it)")
    d = tmp_path_factory.mktemp("conventions")
    one, two = d / "one.pgn", d / "two.pgn.zst"
    one.write_text(write_games(40, seed=7)[0] + EXTRA)
    subprocess.run(["zstd", "-q", "-f", "-o", str(two)], check=True,
                   input=(EXTRA + write_games(30, seed=8)[0]).encode())
    return Read([str(one), str(two)])


def rows_equal(a, *columns):
    """Every position API's rows of these columns equal: pgn_positions and pgn_batches."""
    for k in columns:
        assert np.array_equal(a.p[k], a.b[k], equal_nan=a.p[k].dtype.kind == "f"), k
        assert len(a.p[k]) == a.n == len(a.json_rows), k


def fen_fields(a):
    return [r["fen"].split() for r in a.json_rows]


def check_game(a):
    rows_equal(a, "game")
    assert a.p["game"].tolist() == [r["game"] for r in a.json_rows] == [g.index for g, _ in a.boards]
    assert a.p["game"].dtype == np.int64
    # A list goes on from one file to the next, and the game left out keeps its number.
    assert a.objects[-1]["game"] == a.p["stats"]["games"] - 1
    assert 0 in {o["game"] for o in a.objects} and 40 not in {g.index for g in a.games}


def check_ply(a):
    rows_equal(a, "ply")
    want = [i for g in a.games for i in range(len(g.uci or []))]
    assert a.p["ply"].tolist() == [r["ply"] for r in a.json_rows] == want
    assert [b.ply() for _, b in a.boards] == want  # every game here starts from the start


def check_fen(a):
    assert [r["fen"] for r in a.json_rows] == [b.fen(en_passant="xfen") for _, b in a.boards]
    assert all(dirfill.Board(r["fen"]).fen(en_passant="xfen") == r["fen"] for r in a.json_rows)


def check_turn(a):
    rows_equal(a, "turn")
    assert a.p["turn"].dtype == bool
    want = [f[1] == "w" for f in fen_fields(a)]
    assert a.p["turn"].tolist() == want == [b.turn for _, b in a.boards]
    assert dirfill.WHITE is True and True in want and False in want


def check_pieces(a):
    rows_equal(a, "pieces")
    order = [(t, c) for c in (dirfill.WHITE, dirfill.BLACK) for t in range(1, 7)]
    for row, (r, (_, board)) in enumerate(zip(a.json_rows, a.boards)):
        from_fen = dirfill.Board(r["fen"])
        want = [from_fen.pieces(t, c) for t, c in order]
        assert a.p["pieces"][row].tolist() == want == [board.pieces(t, c) for t, c in order]


def check_castling(a):
    rows_equal(a, "castling")
    want = [dirfill.Board(r["fen"]).castling_rights for r in a.json_rows]
    assert a.p["castling"].tolist() == want == [b.castling_rights for _, b in a.boards]
    assert len(set(want)) > 2


def check_ep(a):
    rows_equal(a, "ep")
    want = [-1 if f[3] == "-" else dirfill.SQUARE_NAMES.index(f[3]) for f in fen_fields(a)]
    assert a.p["ep"].tolist() == want and max(want) >= 16  # the game "twice" has f6


def check_halfmove(a):
    rows_equal(a, "halfmove")
    want = [int(f[4]) for f in fen_fields(a)]
    assert a.p["halfmove"].tolist() == want == [b.halfmove_clock for _, b in a.boards]


def check_fullmove(a):
    rows_equal(a, "fullmove")
    want = [int(f[5]) for f in fen_fields(a)]
    assert a.p["fullmove"].tolist() == want == [b.fullmove_number for _, b in a.boards]


def check_move(a):
    rows_equal(a, "move")
    for row, (r, (_, board)) in enumerate(zip(a.json_rows, a.boards)):
        by_int, by_uci = board.copy(), board.copy()
        by_int.push(int(a.p["move"][row]))
        by_uci.push_uci(r["uci"])
        assert by_int.fen() == by_uci.fen()


def check_uci(a):
    rows_equal(a, "uci")
    want = [r["uci"] for r in a.json_rows]
    assert [u.decode() for u in a.p["uci"]] == want == [m for g in a.games for m in g.uci or []]


def check_san(a):
    want = [r["san"] for r in a.json_rows]
    assert want == [s for g in a.games for s in g.san or []]
    assert want == [b.san(r["uci"]) for r, (_, b) in zip(a.json_rows, a.boards)]


def check_result(a):
    rows_equal(a, "result")
    white = [RESULTS[r["result"]] for r in a.json_rows]
    assert a.p["result"].tolist() == white == [RESULTS[g.result] for g, _ in a.boards]
    assert {1, 0, -1} <= set(white)
    mover = [w if w in (0, dirfill.RESULT_UNKNOWN) or b.turn else -w
             for w, (_, b) in zip(white, a.boards)]
    assert a.mover["result"].tolist() == mover


def pawns(value):
    """A program's or read_pgn's eval as the columns hold it, White's view."""
    if value is None:
        return np.nan
    if isinstance(value, str):
        n = int(value[1:])
        return 1000 - n if n > 0 else -1000 - n
    return value


def check_eval(a):
    rows_equal(a, "eval")
    want = np.array([pawns(r.get("eval")) for r in a.json_rows], dtype=np.float32)
    assert np.array_equal(a.p["eval"], want, equal_nan=True)
    games = np.array([pawns(e) for g in a.games for e in g.eval or []], dtype=np.float32)
    assert np.array_equal(games, want, equal_nan=True)
    assert (want < -900).any() and (want > 900).any()  # mates of both sides
    sign = np.where(a.p["turn"], 1, -1).astype(np.float32)
    assert np.array_equal(a.mover["eval"], sign * want, equal_nan=True)


def check_clock(a):
    rows_equal(a, "clock")
    want = np.array([np.nan if r.get("clock") is None else r["clock"] for r in a.json_rows],
                    dtype=np.float32)
    assert np.array_equal(a.p["clock"], want, equal_nan=True)
    games = np.array([np.nan if c is None else c for g in a.games for c in g.clock or []],
                     dtype=np.float32)
    assert np.array_equal(games, want, equal_nan=True) and not np.isnan(want).all()


def check_file(a):
    """The program's file of each game; Python numbers games across the list instead
    (PGNDataset's file index: test_torch.py)."""
    first_of_two = dirfill.pgn_positions(a.files[0], where=WHERE)["stats"]["games"]
    for o in a.objects:
        assert o["file"] == a.files[0 if o["game"] < first_of_two else 1]


def check_headers(a):
    """The same tags; Python has those of the skipped games too, which the program's skipped
    objects leave out."""
    want = {o["game"]: o["headers"] for o in a.objects if "headers" in o}
    skipped = {g.index: g.headers for g in a.games if g.skipped}
    assert a.p["headers"] == a.b_headers == {g.index: g.headers for g in a.games}
    assert a.p["headers"] == {**want, **skipped} and skipped and not set(want) & set(skipped)


def check_error(a):
    want = [(o["game"], o["error"], o["line"]) for o in a.objects if "error" in o]
    assert a.p["errors"] == a.b_records["errors"] == want and len(want) == 2
    assert [(g.index, g.error, g.error_line) for g in a.games if g.error] == want


def check_skipped(a):
    want = [(o["game"], o["skipped"]) for o in a.objects if "skipped" in o]
    assert a.p["skipped"] == a.b_records["skipped"] == want and len(want) == 2
    assert [(g.index, g.skipped) for g in a.games if g.skipped] == want


def check_warning(a):
    want = [(o["game"], o["warning"]) for o in a.objects if "warning" in o]
    assert a.p["warnings"] == a.b_records["warnings"] == want and len(want) == 2
    assert [(g.index, g.warning) for g in a.games if g.warning] == want


SUMMARY = re.compile(r"^(\S+): (\d+) games, (\d+) kept, (\d+) filtered, (\d+) errors, "
                     r"(\d+) skipped, (\d+) positions, ([\d.]+) MB, ")
STATS = ("games", "kept", "filtered", "errors", "skipped", "positions")


def summed(a):
    """The program's summary lines, added up over the files."""
    lines = [SUMMARY.match(line) for line in a.summary]
    assert len(lines) == 2 and all(lines) and [m.group(1) for m in lines] == a.files
    return {k: sum(int(m.group(i + 2)) for m in lines) for i, k in enumerate(STATS)}, lines


def check_stat(a, key):
    want = summed(a)[0][key]
    assert a.p["stats"][key] == a.batch_stats[key] == want, key
    assert list(a.p["stats"]) == list(STATS) + ["bytes"]  # the program's words, its order


def check_games(a):
    check_stat(a, "games")
    s = a.p["stats"]
    assert s["games"] == s["kept"] + s["filtered"] + s["errors"] + s["skipped"]
    assert s["games"] == len(a.objects) + s["filtered"]


def check_kept(a):
    check_stat(a, "kept")
    assert a.p["stats"]["kept"] == sum(1 for g in a.games if g.uci is not None)


def check_filtered(a):
    check_stat(a, "filtered")
    assert a.p["stats"]["filtered"] == 2


def check_errors(a):
    check_stat(a, "errors")


def check_skipped_count(a):
    check_stat(a, "skipped")


def check_positions(a):
    check_stat(a, "positions")
    assert a.p["stats"]["positions"] == a.n == len(a.p["ply"])


def check_bytes(a):
    """The PGN read: a compressed file's bytes once decompressed."""
    _, lines = summed(a)
    each = [dirfill.pgn_positions(f)["stats"]["bytes"] for f in a.files]
    assert a.p["stats"]["bytes"] == a.batch_stats["bytes"] == sum(each)
    assert each[0] == os.path.getsize(a.files[0]) and each[1] > os.path.getsize(a.files[1])
    for m, n in zip(lines, each):
        assert float(m.group(8)) == round(n / 1e6, 1)


def check_where(a):
    assert all(g.headers.get("Event") != "left out" for g in a.games)
    assert all(o.get("headers", {}).get("Event") != "left out" for o in a.objects)


def check_view(a):
    """view= chooses the point of view of result and eval only: every other column is the
    same (check_result and check_eval check the two)."""
    for k in dirfill.POSITION_COLUMNS:
        if k not in ("result", "eval"):
            assert np.array_equal(a.mover[k], a.p[k], equal_nan=a.p[k].dtype.kind == "f"), k
    assert not np.array_equal(a.mover["result"], a.p["result"])


FILTERS = {"min_ply": ("--min-ply", 3), "max_ply": ("--max-ply", 20),
           "min_clock": ("--min-clock", 600), "require_eval": ("--require-eval", True)}


def check_filter(a, name):
    """The program's rows under the option are pgn_positions' and pgn_batches' rows under it
    (test_position_filters.py checks the rule itself, and their combinations)."""
    flag, value = FILTERS[name]
    args = [flag] if value is True else [flag, str(value)]
    out = subprocess.run([PROGRAM, "pgn", "--json", "--positions", *args, "--where", WHERE,
                          *a.files], capture_output=True, text=True).stdout
    want = [(o["game"], o["ply"]) for o in map(json.loads, out.splitlines()) if "ply" in o]
    got = dirfill.pgn_positions(a.files, where=WHERE, **{name: value})
    batches = list(dirfill.pgn_batches(a.files, 50, where=WHERE, **{name: value}))
    assert list(zip(got["game"].tolist(), got["ply"].tolist())) == want
    assert np.concatenate([b["ply"] for b in batches]).tolist() == got["ply"].tolist()
    assert 0 < len(want) < a.n, name


CHECKS = {
    "game": check_game, "ply": check_ply, "fen": check_fen, "turn": check_turn,
    "pieces": check_pieces, "castling": check_castling, "ep": check_ep,
    "halfmove": check_halfmove, "fullmove": check_fullmove, "move": check_move,
    "uci": check_uci, "san": check_san, "result": check_result, "eval": check_eval,
    "clock": check_clock, "file": check_file, "headers": check_headers, "error": check_error,
    "skipped": [check_skipped, check_skipped_count], "warning": check_warning,
    "games": check_games, "kept": check_kept, "filtered": check_filtered,
    "errors": check_errors, "positions": check_positions, "bytes": check_bytes,
    "where": check_where, "view": check_view,
    **{name: (lambda a, name=name: check_filter(a, name)) for name in FILTERS},
}


def test_every_row_of_the_table_has_a_check():
    names = table_names()
    assert len(names) == len(set(names)) + 1  # `skipped` names a game's field and a count
    assert set(names) == set(CHECKS)


def test_a_table_row_without_a_check_is_seen(tmp_path):
    doc = tmp_path / "conventions.md"
    doc.write_text(open(DOC, encoding="utf-8").read() + "| `colour` | x | x | x | x |\n")
    assert set(table_names(str(doc))) - set(CHECKS) == {"colour"}


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_row(read, name):
    checks = CHECKS[name]
    for check in checks if isinstance(checks, list) else [checks]:
        check(read)
