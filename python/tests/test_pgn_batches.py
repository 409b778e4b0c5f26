# SPDX-License-Identifier: MIT
"""pgn_batches: every column of the batches against pgn_positions (itself checked against a
Board replay in test_pgn.py), batch boundaries inside games and between files, the last short
batch, thread counts, errors, skipped and filtered games, warnings, a byte order mark and a game
of no moves, a file object whose read raises midway, Ctrl-C, the bounded queue, an iterator
dropped midway, and batches handed to another process through reused shared memory (the
regions of dirfill.torch's DataLoader workers: filled again only once nobody uses them)."""
import gc
import gzip
import io
import os
import signal
import threading
import time

import numpy as np
import pytest

import dirfill
from failing_file import FailingFile
from test_pgn import BAD, TEXT

COLUMNS = dirfill.POSITION_COLUMNS + ("uci",)
# Several of the threaded reader's runs (it cuts every 512 KB), errors and a skipped variant in
# the middle.
BIG = (TEXT * 4 + BAD + TEXT * 4).encode()


def concat(batches, names=COLUMNS):
    batches = list(batches)
    return {k: np.concatenate([b[k] for b in batches]) for k in names}


def same_columns(a, b, names=COLUMNS):
    for k in names:
        assert a[k].dtype == b[k].dtype, k
        assert np.array_equal(a[k], b[k], equal_nan=a[k].dtype.kind == "f"), k


def merged(batches, key):
    out = [] if key != "headers" else {}
    for b in batches:
        if key == "headers":
            assert not set(out) & set(b[key])  # each game in one batch only
            out.update(b[key])
        else:
            out.extend(b[key])
    return out


@pytest.fixture(scope="module")
def whole():
    return dirfill.pgn_positions(BIG, uci=True, threads=2)


# Batches of one and of seven rows are read from less text: a batch per row or so is Python's
# work, and over BIG these two took a large part of make test-asan's pytest time.
SMALL = (BAD + TEXT).encode()


@pytest.fixture(scope="module")
def whole_small():
    return dirfill.pgn_positions(SMALL, uci=True, threads=2)


@pytest.mark.parametrize("size", [1, 7, 1000, 4096, 10 ** 6])
def test_batches_are_pgn_positions(whole, whole_small, size):
    threads = 1 if size == 1 else 2
    source, want = (SMALL, whole_small) if size < 1000 else (BIG, whole)
    batches = list(dirfill.pgn_batches(source, size, threads=threads, uci=True))
    n = len(want["ply"])
    assert [len(b["ply"]) for b in batches[:-1]] == [size] * (len(batches) - 1)
    assert 0 < len(batches[-1]["ply"]) <= size  # the last one short
    assert len(batches) == -(-n // size)
    same_columns(concat(batches), want)
    for key in ("headers", "errors", "skipped", "warnings"):
        assert merged(batches, key) == want[key], key


@pytest.mark.parametrize("threads", [1, 2])
def test_games_travel_with_their_first_row(whole, threads):
    batches = list(dirfill.pgn_batches(BIG, 1000, threads=threads))
    # A batch boundary inside a game: its headers are in the batch of its first row.
    split = 0
    for b in batches:
        starts = set(np.unique(b["game"][b["ply"] == 0]).tolist())
        assert starts <= set(b["headers"])
        if b["ply"][0] != 0:
            split += 1
            assert int(b["game"][0]) not in b["headers"]
    assert split > 0
    bad = len(TEXT.split("[Event")) - 1  # TEXT's games, times 4, then BAD's two
    (err,) = merged(batches, "errors")
    assert err[0] == 4 * bad and "illegal move" in err[1]
    assert merged(batches, "skipped") == [(4 * bad + 1, "variant Atomic")]


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_thread_counts_agree(whole, threads):
    got = concat(dirfill.pgn_batches(BIG, 4096, threads=threads, uci=True))
    same_columns(got, whole)


# 2,100 plies: more than a batch's room past its batch_size rows (1,024) for any batch_size below
# 1,076, so that one thread's reader, which writes rows in place into the batch being filled,
# moves the batch to a larger one in the middle of the game.
LONG = ('[Event "long"]\n[Result "*"]\n\n'
        + " ".join(f"{2 * i + 1}. Nf3 Nf6 {2 * i + 2}. Ng1 Ng8" for i in range(525)) + " *\n\n")


@pytest.mark.parametrize("size", [1, 7, 1000])
def test_one_thread_batches_grow_and_split_in_place(size):
    """One thread: a game's rows past a batch's batch_size go to the next batches once the game
    ends, a game longer than the batch's room moves it; every row, record and file number as
    the threaded reader's (which copies each run into the batches)."""
    text = (TEXT + LONG + BAD + LONG + TEXT).encode()
    want = dirfill.pgn_positions(text, uci=True, threads=2)
    assert np.count_nonzero(want["game"] == len(TEXT.split("[Event")) - 1) == 2100
    batches = list(dirfill._dirfill._pgn_batches([(text, None, 0), (LONG.encode(), None, None)],
                                                 size, threads=1, uci=True, file_column=True))
    assert [len(b["ply"]) for b in batches[:-1]] == [size] * (len(batches) - 1)
    got = concat(batches, COLUMNS + ("file",))
    n = len(want["ply"])
    same_columns({k: v[:n] for k, v in got.items()}, want)
    assert np.array_equal(got["file"], np.repeat([0, 1], [n, 2100]))
    assert np.array_equal(got["game"][n:], np.full(2100, want["stats"]["games"]))
    assert np.array_equal(got["ply"][n:], np.arange(2100))
    for key in ("errors", "skipped", "warnings"):
        assert merged(batches, key) == want[key], key
    tags = merged(batches, "headers")
    assert tags.pop(want["stats"]["games"]) == {"Event": "long", "Result": "*"}
    assert tags == want["headers"]


@pytest.mark.parametrize("threads", [1, 2])
def test_file_column_holds_the_numbers_given(threads):
    """A spec's fourth item is the number its rows have in the file column (dirfill.torch's
    index of the file in the dataset's sources); without it, the spec's index."""
    text = (TEXT + LONG).encode()
    n = len(dirfill.pgn_positions(text)["ply"])
    batches = list(dirfill._dirfill._pgn_batches(
        [(text, None, 0, 7), (LONG.encode(), None, None), (text, None, 0, 3)], 1000,
        threads=threads, file_column=True))
    assert np.array_equal(concat(batches, ("file",))["file"], np.repeat([7, 1, 3], [n, 2100, n]))


@pytest.mark.parametrize("threads", [1, 2])
def test_file_column_with_position_filters(threads):
    """Plies the position filter leaves out write no file number: not the row before's (the
    last row of the previous source, one thread), nor one before the batch's first row."""
    text = (TEXT + LONG).encode()
    specs = [(text, None, 0, 7), (LONG.encode(), None, None, 5), (text, None, 0, 3)]
    n = len(dirfill.pgn_positions(text, min_ply=10)["ply"])
    batches = list(dirfill._dirfill._pgn_batches(specs, 1000, threads=threads,
                                                 file_column=True, min_ply=10))
    got = concat(batches, ("file", "ply"))
    assert np.array_equal(got["file"], np.repeat([7, 5, 3], [n, 2090, n]))
    assert got["ply"].min() == 10


@pytest.mark.parametrize("threads", [1, 2])
def test_positions_columns_grow(threads):
    """pgn_positions' columns reserved for 4096 rows (the fewest) grow by mremap as the rows come:
    on one thread from the reader's visitor, which writes the rows in place, on more from the
    runs' copies. Every row and record as pgn_batches gives them."""
    text = (TEXT + LONG + BAD + LONG + TEXT).encode() * 2
    got = dirfill._dirfill._pgn_positions([(text, None, None)], threads=threads, uci=True,
                                          reserve=4096)
    batches = list(dirfill.pgn_batches(text, 1000, threads=threads, uci=True))
    assert len(got["ply"]) > 2 * 4096  # grown twice
    same_columns(got, concat(batches))
    for key in ("headers", "errors", "skipped", "warnings"):
        assert merged(batches, key) == got[key], key
    with pytest.raises(ValueError, match="reserve"):
        dirfill._dirfill._pgn_positions([(text, None, None)], reserve=4095)


@pytest.mark.parametrize("threads", [1, 2])
def test_files_in_order(tmp_path, whole, threads):
    a, b = tmp_path / "a.pgn", tmp_path / "b.pgn.gz"
    half = TEXT.encode()
    a.write_bytes(half)
    with gzip.open(b, "wb") as f:
        f.write(half)
    one = dirfill.pgn_positions(half + half, threads=2)
    for size in (333, 4096):
        batches = list(dirfill.pgn_batches([a, b], size, threads=threads))
        got = concat(batches, dirfill.POSITION_COLUMNS)
        same_columns(got, one, dirfill.POSITION_COLUMNS)  # game numbers go on in the second
        assert merged(batches, "headers") == one["headers"]
    both = dirfill.pgn_positions([str(a), b], threads=1)
    same_columns(both, one, dirfill.POSITION_COLUMNS)
    assert both["stats"]["games"] == one["stats"]["games"] == 2 * (len(TEXT.split("[Event")) - 1)


def test_columns_and_planes(whole):
    it = dirfill.pgn_batches(BIG, 2000, threads=2, planes=True, columns=["pieces", "turn",
                                                                           "castling", "ep",
                                                                           "planes"])
    b = next(it)
    assert set(b) == {"pieces", "turn", "castling", "ep", "planes"}
    assert b["planes"].shape == (2000, len(dirfill.PLANES), 8, 8)
    it2 = dirfill.pgn_batches(BIG, 2000, threads=2, columns=dirfill.POSITION_COLUMNS)
    assert set(next(it2)) == set(dirfill.POSITION_COLUMNS)  # no tags recorded
    it2.close()
    want = dirfill.attack_planes_from_bitboards(b["pieces"], turn=b["turn"],
                                                castling=b["castling"], ep=b["ep"])
    assert np.array_equal(b["planes"], want)
    it.close()
    # A name that is no column fails before anything is read: stm (0.4's, True for Black) says
    # what became of it, a typo lists the columns.
    with pytest.raises(ValueError, match="renamed 'turn'.*True when White is to move"):
        dirfill.pgn_batches(BIG, 10, columns=["pieces", "stm"])
    with pytest.raises(ValueError, match="no column 'evals'.*pieces, turn"):
        dirfill.pgn_batches(BIG, 10, columns=["evals"])
    with pytest.raises(TypeError, match="list of names"):
        dirfill.pgn_batches(BIG, 10, columns="pieces")
    with pytest.raises(KeyError, match="renamed 'turn'"):
        dirfill.pgn_positions(HAND.encode())["stm"]
    with pytest.raises(KeyError, match="'positions' counts"):
        dirfill.pgn_positions(HAND.encode())["stats"]["plies"]


HAND = (
    "\ufeff"  # a byte order mark
    '[Event "a"]\n[White "x"]\n[WhiteElo "2100"]\n[White "y"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n\n'
    '[Event "no moves"]\n[WhiteElo "2500"]\n[Result "*"]\n\n'
    '[Event "low"]\n[WhiteElo "1500"]\n[Result "0-1"]\n\n1. d4 d5 2. c4 0-1\n\n'
    '[Event "bad"]\n[WhiteElo "2200"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 *\n\n'
    '[Event "d"]\n[WhiteElo "2000"]\n[Result "1/2-1/2"]\n\n1. Nf3 1/2-1/2\n')


def test_bom_no_moves_warning_and_filter():
    p = dirfill.pgn_positions(HAND.encode(), threads=1)
    # The program's words: every game found is kept, filtered, an error or skipped; positions
    # are the kept games'.
    assert p["stats"] == {"games": 5, "kept": 4, "filtered": 0, "errors": 1, "skipped": 0,
                          "positions": 6, "bytes": len(HAND.encode())}
    assert p["headers"][0] == {"Event": "a", "White": "x", "WhiteElo": "2100", "Result": "1-0"}
    assert p["headers"][1]["Event"] == "no moves"  # read as a game of no moves
    assert p["game"].tolist() == [0, 0, 2, 2, 2, 4]
    assert [w[0] for w in p["warnings"]] == [0] and "White" in p["warnings"][0][1]
    assert [e[0] for e in p["errors"]] == [3]
    games = list(dirfill.read_pgn(io.BytesIO(HAND.encode())))
    assert [g.warning is not None for g in games] == [True, False, False, False, False]
    assert games[1].uci == [] and games[1].headers["Event"] == "no moves"

    where = ["WhiteElo>=2000", "Event!=d"]
    f = dirfill.pgn_positions(HAND.encode(), threads=1, where=where)
    assert f["stats"] == {"games": 5, "kept": 2, "filtered": 2, "errors": 1, "skipped": 0,
                          "positions": 2, "bytes": len(HAND.encode())}
    assert f["game"].tolist() == [0, 0]  # indices are the whole input's
    assert sorted(f["headers"]) == [0, 1, 3] and [e[0] for e in f["errors"]] == [3]
    it = dirfill.pgn_batches(HAND.encode(), 1, threads=1, where=where)
    batches = list(it)
    assert [b["game"].tolist() for b in batches] == [[0], [0], []]
    assert sorted(merged(batches, "headers")) == [0, 1, 3]
    assert it.stats == f["stats"]
    assert [g.index for g in dirfill.read_pgn(HAND.encode(), where="WhiteElo>2100")] == [1, 3]
    assert [g.index for g in dirfill.read_pgn(HAND.encode(), where=[])] == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("call", [
    lambda w: dirfill.pgn_positions(HAND.encode(), where=w),
    lambda w: dirfill.pgn_batches(HAND.encode(), where=w),
    lambda w: list(dirfill.read_pgn(HAND.encode(), where=w))])
def test_malformed_where(call):
    for bad in ("WhiteElo", ["Event=a", "=3"], "WhiteElo ~ 3"):
        with pytest.raises(ValueError) as e:
            call(bad)
        assert str(e.value)  # the library's message
    with pytest.raises(TypeError):
        call([3])


@pytest.mark.parametrize("threads", [1, 2])
def test_file_object_failing_midway(whole, threads):
    src = FailingFile(BIG, len(BIG) // 2)
    got = []
    start = time.monotonic()
    with pytest.raises(OSError, match="disk on fire"):
        for b in dirfill.pgn_batches(src, 1000, threads=threads):
            got.append(b)
    assert time.monotonic() - start < 10
    assert got and all(len(b["ply"]) == 1000 for b in got[:-1])
    n = sum(len(b["ply"]) for b in got)
    assert 0 < n < len(whole["ply"])
    same_columns(concat(got, dirfill.POSITION_COLUMNS),
                 {k: v[:n] for k, v in whole.items() if k in dirfill.POSITION_COLUMNS},
                 dirfill.POSITION_COLUMNS)
    with pytest.raises(OSError, match="disk on fire"):
        dirfill.pgn_positions(FailingFile(BIG, len(BIG) // 2), threads=threads)


def cut_places(data):
    """Where a read fails: inside a game's tags, after them (before its moves), inside its
    moves, and between two games."""
    mid = len(data) // 2
    tags = data.index(b'[White "', mid) + 3
    moves = data.index(b"\n\n1. ", mid)
    between = data.index(b"\n\n[Event ", mid) + 2
    return [tags, moves + 2, moves + 10, between, len(data) - 2]


@pytest.mark.parametrize("threads", [1, 2])
def test_a_raising_read_is_its_exception_not_an_error_of_a_game(whole, threads):
    """The game a file object's failing read cut short is neither an error nor a game of no
    moves: the read's exception says what happened, after the games before it (their
    errors, as reading the whole gives them)."""
    errors = set(whole["errors"])
    with_rows = set(whole["game"].tolist())
    for n in cut_places(BIG):
        it = dirfill.pgn_batches(FailingFile(BIG, n), 1000, threads=threads)
        got = []
        with pytest.raises(OSError, match="disk on fire"):
            for b in it:
                got.append(b)
        extra = set(merged(got, "errors")) - errors
        assert not extra, (n, extra)
        rows = set(np.concatenate([b["game"] for b in got]).tolist())
        for game in merged(got, "headers"):  # no game of the whole without its rows
            assert game in rows or game not in with_rows, (n, game)
        n_rows = sum(len(b["ply"]) for b in got)
        same_columns(concat(got, dirfill.POSITION_COLUMNS),
                     {k: v[:n_rows] for k, v in whole.items() if k in dirfill.POSITION_COLUMNS},
                     dirfill.POSITION_COLUMNS)


def test_read_pgn_gives_no_game_a_raising_read_cut_short():
    games = {g.index: g for g in dirfill.read_pgn(BIG)}
    for n in cut_places(BIG):
        got = []
        with pytest.raises(OSError, match="disk on fire"):
            for g in dirfill.read_pgn(FailingFile(BIG, n)):
                got.append(g)
        assert [g.index for g in got] == list(range(len(got))), n
        for g in got:  # each as the whole input gives it
            w = games[g.index]
            assert (g.error, g.skipped, g.uci, g.headers) == (w.error, w.skipped, w.uci,
                                                              w.headers), (n, g.index)


class Endless(io.RawIOBase):
    """Games without end, counting the bytes read."""

    def __init__(self):
        self.read_bytes = 0

    def readable(self):
        return True

    def read(self, n=-1):
        out = TEXT.encode()[:n]
        self.read_bytes += len(out)
        return out


@pytest.mark.parametrize("threads", [1, 2])
def test_queue_bounds_memory(threads):
    """The reader stops reading while the caller keeps no pace: the queue's bound holds (on one
    thread too, where rows are delivered every few thousand at a game's end)."""
    src = Endless()
    it = dirfill.pgn_batches(src, 512, threads=threads)
    next(it)
    time.sleep(0.5)
    held = src.read_bytes
    time.sleep(0.5)
    assert src.read_bytes == held  # waiting, not reading
    # A few MB at most: the queue's two batches and the reader's runs in flight.
    assert held < 32 << 20
    for _ in range(10 ** 5):
        next(it)
        if src.read_bytes > held:
            break
    assert src.read_bytes > held
    it.close()
    assert isinstance(it.stats, dict)


class Slow(Endless):
    """Games that come slowly: the caller waits in pgn_batches when the signal comes."""

    def read(self, n=-1):
        time.sleep(0.01)
        return super().read(min(n, 2000))


@pytest.mark.parametrize("source", [Endless, Slow])
def test_ctrl_c(source):
    main = threading.main_thread().ident
    sent = []

    def fire():
        time.sleep(0.3)
        sent.append(time.monotonic())
        signal.pthread_kill(main, signal.SIGINT)

    t = threading.Thread(target=fire)
    t.start()
    it = dirfill.pgn_batches(source(), 4096, threads=2)
    with pytest.raises(KeyboardInterrupt):
        for _ in it:
            pass
    caught = time.monotonic()
    t.join()
    assert caught - sent[0] < 0.5
    it.close()  # stops the reader (an interrupt inside pgn_batches did already)
    with pytest.raises(StopIteration):
        next(it)


def test_dropped_midway_and_sources():
    for _ in range(3):
        it = dirfill.pgn_batches(Endless(), 100, threads=2)
        next(it)
        del it
        gc.collect()
    with pytest.raises(FileNotFoundError):
        next(dirfill.pgn_batches("/nonexistent.pgn"))
    with pytest.raises(TypeError):
        next(dirfill.pgn_batches(3))
    with pytest.raises(ValueError):
        dirfill.pgn_batches(b"", 0)
    assert list(dirfill.pgn_batches(b"")) == []


def test_headers_decoded_on_first_use(whole):
    from collections.abc import Mapping
    batches = list(dirfill.pgn_batches(BIG, 1000, threads=2))
    h = batches[0]["headers"]
    assert isinstance(h, Mapping) and not isinstance(h, dict)
    assert h._dict is None and isinstance(h._tags, bytes)  # nothing decoded yet
    first = next(iter(h))
    assert h._dict is not None and h._tags is None  # decoded once, the bytes dropped
    assert h[first] == whole["headers"][first] and first in h and len(h) == len(dict(h))
    assert dict(h.items()) == {g: whole["headers"][g] for g in h} and h == dict(h)
    assert repr(h) == repr(dict(h))
    # errors, skipped and warnings stay lists; columns without "headers" record no tags
    assert isinstance(batches[0]["errors"], list)
    b = next(iter(dirfill.pgn_batches(BIG, 1000, columns=["ply"])))
    assert list(b) == ["ply"]
    it = dirfill._dirfill._pgn_batches([(BIG, None, 0)], 1000, headers=False, lazy_headers=True)
    assert dirfill._dirfill._decode_headers(next(it)["_tags"]) == {}
    it.close()
    with pytest.raises(ValueError, match="not PGN records"):
        dirfill._dirfill._decode_headers(b"H\x00\x00")
    with pytest.raises(ValueError, match="not PGN records"):
        dirfill._dirfill._decode_headers(b"H" + bytes(8) + b"\xff\xff\x00\x00")
    with pytest.raises(TypeError):
        dirfill._dirfill._decode_headers("text")


@pytest.mark.parametrize("threads", [1, 2])
def test_byte_range_errors_have_the_file_lines(tmp_path, threads):
    """A part of a file (from pgn_cuts) reports its errors on the file's lines: counted when
    first_line is not given, taken from the cut when it is."""
    path = tmp_path / "big.pgn"
    path.write_bytes(BIG)
    want = dirfill.pgn_positions(str(path), threads=2)["errors"]
    assert want and want[0][2] > 100
    (a, line, game), (b, _, _) = dirfill.pgn_cuts(str(path), [len(BIG) // 3, len(BIG)])
    assert line > 1
    for first_line in (None, line):
        kw = dict(byte_range=(a, b), first_game=game, first_line=first_line, threads=threads)
        errors = [e for batch in dirfill.pgn_batches(str(path), 1000, **kw) for e in batch["errors"]]
        assert errors == want
        assert dirfill.pgn_positions(str(path), **kw)["errors"] == want
    shifted = dirfill.pgn_positions(str(path), byte_range=(a, b), first_game=game, first_line=2)
    assert shifted["errors"][0][2] == want[0][2] - line + 2
    beyond = dirfill.pgn_positions(str(path), byte_range=(len(BIG) + 10, len(BIG) + 20))
    assert len(beyond["ply"]) == 0
    with pytest.raises(ValueError, match="first_line"):
        dirfill.pgn_positions(str(path), byte_range=(a, b), first_line=0)


# ---- batches through shared memory (_shm_batches.c) ----

def pack(arrays):
    """(handle, offsets, (pid, fd, id, size, slot, by_proc)) of arrays packed into a region and
    sent."""
    handle, offsets = dirfill._dirfill._shared_pack(arrays)
    return handle, offsets, handle.send()


def receive(sent, offsets, arrays):
    """The arrays as the receiver sees them, over a lease of its mapping of the region."""
    pid, fd, key, size, slot, by_proc = sent
    m = (dirfill._dirfill._shared_open(pid, fd, key, size) if by_proc
         else dirfill._dirfill._shared_map(os.dup(fd), key, size))
    lease = m.lease()
    return [np.frombuffer(lease, a.dtype, a.size, at).reshape(a.shape)
            for a, at in zip(arrays, offsets)]


def test_shared_regions_round_trip_and_reuse():
    arrays = [np.arange(1000, dtype=np.uint64).reshape(100, 10), np.array([True, False]),
              np.linspace(0, 1, 7, dtype=np.float32)]
    handle, offsets, sent = pack(arrays)
    assert sent[0] == os.getpid() and sent[4] >= 0 and sent[5]  # kept (a slot), by /proc
    assert all(at % 64 == 0 for at in offsets)
    got = receive(sent, offsets, arrays)
    assert all(np.array_equal(g, a) for g, a in zip(got, arrays))
    del handle
    # The receiver still holds the batch: the next one goes elsewhere.
    handle2, _, sent2 = pack(arrays)
    assert sent2[2] != sent[2]
    del handle2, got
    gc.collect()
    # Nobody holds either now: a kept region is filled again, the receiver's mapping stays.
    handle3, offsets3, sent3 = pack([a + 1 for a in arrays])
    assert sent3[2] in (sent[2], sent2[2])
    got = receive(sent3, offsets3, arrays)
    assert np.array_equal(got[0], arrays[0] + 1)


def test_shared_regions_beyond_the_kept_ones():
    arrays = [np.arange(50000, dtype=np.int64)]
    held = [dirfill._dirfill._shared_pack(arrays) for _ in range(10)]  # all in use
    handle, offsets = held[-1]
    sent = handle.send()
    assert sent[4] == -1 and not sent[5]  # more than the eight kept: its fd travels
    got = receive(sent, offsets, arrays)  # a region not kept travels as a duplicate of its fd
    del held, handle
    gc.collect()
    assert np.array_equal(got[0], arrays[0])  # the receiver's mapping outlives the sender's
    # Every kept region free and too small: a larger one takes the place of one of them.
    big = [np.zeros(1 << 20, dtype=np.int64)]
    handle, offsets, sent = pack(big)
    assert sent[4] >= 0 and sent[3] >= big[0].nbytes


def test_shared_guards():
    arrays = [np.arange(10)]
    handle, offsets, (pid, fd, key, size, slot, by_proc) = pack(arrays)
    with pytest.raises(ValueError, match="not the dirfill batch region"):
        dirfill._dirfill._shared_open(pid, fd, key ^ 1, size)
    with pytest.raises(OSError):
        dirfill._dirfill._shared_open(pid, 1 << 20, key, size)  # no such fd
    with pytest.raises(OSError):
        dirfill._dirfill._shared_map(os.dup(fd), key, 10)  # smaller than a header
    with pytest.raises(TypeError, match="C-contiguous"):
        dirfill._dirfill._shared_pack([np.arange(10)[::2]])
    with pytest.raises(TypeError, match="C-contiguous"):
        dirfill._dirfill._shared_pack([b"bytes"])
    with pytest.raises(ValueError, match="room"):
        dirfill._dirfill._shared_pack(arrays, -1)
    # room after the arrays, written through the handle and read by the receiver
    handle, offsets = dirfill._dirfill._shared_pack(arrays, 1000)
    np.frombuffer(handle, np.uint8, 1000, offsets[-1])[:] = 7
    got = receive(handle.send(), offsets, arrays + [np.zeros(1000, np.uint8)])
    assert np.array_equal(got[0], arrays[0]) and (got[1] == 7).all()
    # the count taken by send() given back: a lease over the region
    dirfill._dirfill._shared_open(pid, fd, key, size).lease()


def test_shared_regions_of_a_forked_child_are_its_own():
    arrays = [np.arange(100)]
    handle, _, sent = pack(arrays)
    del handle  # free, kept by this process
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            handle, _, sent_child = pack(arrays)
            os.write(w, str(sent_child[2]).encode())
        finally:
            os._exit(0)
    os.close(w)
    child_key = int(os.read(r, 64))
    os.close(r)
    os.waitpid(pid, 0)
    assert child_key != sent[2]  # the child never fills its parent's regions
    handle, _, again = pack(arrays)
    assert again[2] == sent[2] or again[4] >= 0
