# SPDX-License-Identifier: MIT
"""A source that cannot be read to its end keeps what was read and names itself, in Python as in
the program: a truncated .zst in a list of three files gives the rows before the cut and the
files after it, then dirfill.SourceError naming it (pgn_positions carrying every row, pgn_batches
and read_pgn after every batch and game), as `dirfill pgn` gives the games, names the file and
exits 1. Missing files, corrupt .gz, file objects, several failures; a binary file is "not PGN
text", with no position counted."""
import gzip
import io
import json
import os
import subprocess

import numpy as np
import pytest

import dirfill
from test_pgn import write_games

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRAM = os.path.join(ROOT, "build", "release", "dirfill")
TEXT = write_games(150, seed=21)[0]


@pytest.fixture(scope="module")
def three(tmp_path_factory):
    """a.pgn, b.pgn.zst cut short two thirds in (inside a frame), c.pgn.gz."""
    d = tmp_path_factory.mktemp("sources")
    a, b, c = d / "a.pgn", d / "b.pgn.zst", d / "c.pgn.gz"
    a.write_text(TEXT)
    whole = subprocess.run(["zstd", "-q", "-c", "-"], input=TEXT.encode(), capture_output=True,
                           check=True).stdout
    b.write_bytes(whole[: len(whole) * 2 // 3])
    with gzip.open(c, "wt") as f:
        f.write(TEXT)
    return [str(a), str(b), str(c)]


def program(files, *args):
    return subprocess.run([PROGRAM, "pgn", *args, *files], capture_output=True, text=True)


REASON = "truncated zstd stream"


def test_a_truncated_zst_in_a_list_keeps_the_rows_as_the_program_does(three):
    run = program(three, "--json", "--positions")
    assert run.returncode == 1 and "%s: %s" % (three[1], REASON) in run.stderr
    # One thread reads the same (it once dropped the bytes read before the error).
    for threads in ("1", "2"):
        out = program(three, "--json", "--positions", "--threads", threads).stdout
        same = out == run.stdout  # not in the assert: pytest would diff 2 MB of lines
        assert same, "--threads %s: %d lines, not %d" % (threads, out.count("\n"),
                                                         run.stdout.count("\n"))
    objects = [json.loads(line) for line in run.stdout.splitlines()]
    want = [(o["game"], o["ply"]) for o in objects if "ply" in o]
    cut = [o for o in objects if "error" in o]
    assert len(cut) == 1 and "end" in cut[0]["error"]  # the game the cut stopped
    for threads in (1, 2):
        with pytest.raises(dirfill.SourceError) as e:
            dirfill.pgn_positions(three, threads=threads)
        err = e.value
        assert isinstance(err, OSError) and err.filename == three[1] and err.source == 1
        assert err.strerror.startswith(REASON) and err.errno is None
        assert str(err).startswith("%s: %s" % (three[1], REASON))
        assert err.failed == [(1, three[1], None, err.strerror)]
        p = err.positions
        assert list(zip(p["game"].tolist(), p["ply"].tolist())) == want
        assert [(g, m, n) for g, m, n in p["errors"]] == [(cut[0]["game"], cut[0]["error"],
                                                            cut[0]["line"])]
        summary = program(three).stdout.splitlines()
        assert p["stats"]["games"] == sum(int(line.split(": ")[1].split()[0]) for line in summary)
        assert p["stats"]["positions"] == len(want)
        # pgn_batches: every batch, the third file's too, then the error, once.
        it = dirfill.pgn_batches(three, 500, threads=threads)
        got = []
        with pytest.raises(dirfill.SourceError, match=REASON) as e:
            for b in it:
                got += list(zip(b["game"].tolist(), b["ply"].tolist()))
        assert got == want and e.value.filename == three[1]
        assert it.stats == p["stats"]
        with pytest.raises(StopIteration):
            next(it)
    # read_pgn: every game, the cut one as an error of its own, then the error.
    games = []
    with pytest.raises(dirfill.SourceError, match=REASON) as e:
        for g in dirfill.read_pgn(three):
            games.append(g)
    assert e.value.filename == three[1]
    assert [(g.index, g.error) for g in games] == [(o["game"], o.get("error")) for o in map(
        json.loads, program(three, "--json").stdout.splitlines())]


def test_missing_files_and_corrupt_streams(three, tmp_path):
    bad_gz = tmp_path / "bad.pgn.gz"
    data = gzip.compress(TEXT.encode())
    bad_gz.write_bytes(data[:100] + bytes(200) + data[300:])
    missing = str(tmp_path / "missing.pgn")
    sources = [three[0], missing, str(bad_gz), three[2]]
    with pytest.raises(FileNotFoundError) as e:  # the first failure's own class too
        dirfill.pgn_positions(sources)
    err = e.value
    assert isinstance(err, dirfill.SourceError) and err.filename == missing and err.errno == 2
    assert [f[0] for f in err.failed] == [1, 2] and err.failed[1][1] == str(bad_gz)
    assert missing in str(err) and str(bad_gz) in str(err)
    both = np.concatenate([dirfill.pgn_positions(three[0])["pieces"],
                           dirfill.pgn_positions(three[2])["pieces"]])
    p = err.positions
    assert len(p["pieces"]) >= len(both)  # and the games of the corrupt file before its fault
    assert np.array_equal(p["pieces"][:len(both) // 2], both[:len(both) // 2])
    assert np.array_equal(p["pieces"][-len(both) // 2:], both[-len(both) // 2:])
    run = program(sources)
    assert run.returncode == 1 and missing in run.stderr and str(bad_gz) in run.stderr
    # Games keep numbering on from the last game found in a failed file, as in the program.
    games = [json.loads(line)["game"] for line in program(sources, "--json").stdout.splitlines()]
    assert p["game"].max() == max(games)


def test_a_path_after_data_and_path_objects(three):
    """Data before the failing source; a pathlib.Path named as the str of its path."""
    import pathlib
    with pytest.raises(dirfill.SourceError, match=REASON) as e:
        dirfill.pgn_positions([TEXT.encode(), pathlib.Path(three[1])])
    assert e.value.source == 1 and e.value.filename == three[1]


def test_an_error_of_a_file_object_is_raised_as_it_is():
    class Failing(io.RawIOBase):
        def readable(self):
            return True

        def readinto(self, b):
            raise PermissionError("no reading here")
    with pytest.raises(PermissionError, match="no reading here") as e:
        dirfill.pgn_positions([TEXT.encode(), Failing()])
    assert not isinstance(e.value, dirfill.SourceError)


def test_binary_input_is_not_pgn_text():
    """Bytes no text holds: an error "not PGN text", no position counted (0.4 counted the plies
    it had lexed before the error)."""
    junk = bytes(range(256)) * 64
    p = dirfill.pgn_positions(junk)
    assert len(p["ply"]) == 0 and p["stats"]["positions"] == 0
    assert p["stats"]["games"] == p["stats"]["errors"] >= 1 and p["stats"]["kept"] == 0
    assert all("not PGN text" in message for _, message, _ in p["errors"])
    games = list(dirfill.read_pgn(junk))
    assert games and all(g.error.startswith("not PGN text") for g in games)


def test_many_failures_say_how_many(tmp_path):
    missing = [str(tmp_path / ("m%d.pgn" % i)) for i in range(5)]
    with pytest.raises(dirfill.SourceError) as e:
        list(dirfill.pgn_batches(missing))
    assert len(e.value.failed) == 5 and str(e.value).endswith("and 2 more sources (see .failed)")
    assert str(e.value).count("No such file") == 3
