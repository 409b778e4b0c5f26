# SPDX-License-Identifier: MIT
"""The binding under hostile or careless callers: each case was a crash, a silent wrong answer
or a hang, and must now be a clear exception or a right answer. Run under AddressSanitizer by
`make test-asan` (python-asan)."""
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import dirfill

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def test_list_changed_by_another_thread():
    """The texts are held for the call: a thread that clears the list while the library works
    frees nothing the library reads (it was a use-after-free)."""
    def padded():  # 300 texts of 1 MB that only the list holds
        return [(KIWIPETE if i % 2 else START) + " " * (1 << 20) for i in range(300)]

    want = dirfill.attack_planes([KIWIPETE if i % 2 else START for i in range(300)], threads=1)
    # Once under the sanitizers: the call is slower there, the other thread's window wider.
    for _ in range(1 if os.environ.get("DIRFILL_SANITIZED") else 3):
        victim = padded()
        thread = threading.Thread(target=lambda: (time.sleep(0.02), victim.clear()))
        thread.start()
        got = dirfill.attack_planes(victim, threads=1)
        thread.join()
        assert not victim  # it was cleared during the call
        assert np.array_equal(got, want)


def test_perft_depth_bounds():
    with pytest.raises(ValueError, match="depth must be 0 to 64"):
        dirfill.perft(START, 10000)
    with pytest.raises(ValueError, match="depth must be 0 to 64"):
        dirfill.perft(START, dirfill.PERFT_MAX_DEPTH + 1)
    with pytest.raises(ValueError):
        dirfill.perft(START, -1)
    with pytest.raises(OverflowError):
        dirfill.perft(START, 2**64)
    # The published entry with one legal move a ply, at depth 32 and at the maximum.
    fen = "2b5/kpPp4/1p1P4/1P6/6p1/4p1P1/4PpPK/5B2 w - - 0 1"
    assert dirfill.perft(fen, 32) == 1
    assert dirfill.Board(fen).perft(32) == 1
    assert dirfill.perft("k7/8/1Q6/8/8/8/8/7K b - - 0 1", dirfill.PERFT_MAX_DEPTH) == 0
    with pytest.raises(ValueError):
        dirfill.Board().perft(dirfill.PERFT_MAX_DEPTH + 1)


def test_bitboard_dtypes():
    """Bitboards are integers: a float column loses bits silently, so it is refused."""
    pieces = np.zeros((1, 12), dtype=np.uint64)
    pieces[0, 1] = (1 << 0) | (1 << 55)     # white knights a1 and h7
    pieces[0, 5] = 1 << 4                   # white king e1
    pieces[0, 11] = 1 << 60                 # black king e8
    want = dirfill.attack_planes_from_bitboards(pieces, turn=[True])
    with pytest.raises(TypeError, match="integers"):
        dirfill.attack_planes_from_bitboards(pieces.astype(np.float64), turn=[True])
    for dtype in (np.int64, np.uint64, np.uint32):
        fits = pieces if dtype != np.uint32 else pieces & np.uint64(0xffffffff)
        got = dirfill.attack_planes_from_bitboards(fits.astype(dtype), turn=[True], errors="mask")
        assert np.array_equal(got[0], dirfill.attack_planes_from_bitboards(fits, turn=[True],
                                                                           errors="mask")[0])
    with pytest.raises(TypeError):  # Python ints of an object array: convert first
        dirfill.attack_planes_from_bitboards(pieces.astype(object), turn=[True])
    with pytest.raises(TypeError):
        dirfill.attack_planes_from_bitboards(pieces.astype(bool), turn=[True])
    small = np.zeros((1, 12), dtype=np.int16)
    small[0, 5], small[0, 11] = 1 << 4, 1 << 12
    small[0, 0] = -1
    with pytest.raises(ValueError, match="negative"):
        dirfill.attack_planes_from_bitboards(small, turn=[True])
    # The side to move: booleans or 0/1 only, True (1) for White as Board.turn.
    for bad in ([256], [2], [-1]):
        with pytest.raises(ValueError, match="turn"):
            dirfill.attack_planes_from_bitboards(pieces, turn=bad)
    for bad in ([0.5], [float("nan")]):
        with pytest.raises(TypeError, match="turn"):
            dirfill.attack_planes_from_bitboards(pieces, turn=bad)
    assert np.array_equal(dirfill.attack_planes_from_bitboards(pieces, turn=[1]), want)
    assert np.array_equal(dirfill.attack_planes_from_bitboards(pieces, turn=np.array([True])), want)
    black = dirfill.attack_planes_from_bitboards(pieces, turn=[False])
    white_to_move = dirfill.PLANES.index("white_to_move")
    assert want[0, white_to_move].all() and not black[0, white_to_move].any()
    # The 0.4 call, stm (True: Black) second, fails loudly rather than flipping the side.
    with pytest.raises(TypeError, match="stm"):
        dirfill.attack_planes_from_bitboards(pieces, [False])
    with pytest.raises(TypeError, match="turn"):
        dirfill.attack_planes_from_bitboards(pieces)


def test_out_sharing_memory_is_refused():
    n = 200
    out = np.zeros((n, len(dirfill.PLANES), 8, 8), dtype=np.uint8)
    # FEN bytes living inside out's own buffer.
    raw = out.reshape(-1)[: n * 64]
    texts = raw.view("S64")
    texts[:] = START.encode()
    with pytest.raises(ValueError, match="shares memory with fens"):
        dirfill.attack_planes(texts, out=out)
    pieces = out.reshape(-1)[: n * 96].view(np.uint64).reshape(n, 12)
    with pytest.raises(ValueError, match="shares memory with pieces"):
        dirfill.attack_planes_from_bitboards(pieces, turn=np.zeros(n, dtype=bool), out=out)
    # A separate array is fine.
    good = np.array([START] * n, dtype="S64")
    assert dirfill.attack_planes(good, out=out) is out


def test_byte_order_and_alignment_of_str_arrays():
    want = dirfill.attack_planes([START, KIWIPETE])
    big = np.array([START, KIWIPETE], dtype=">U80")
    assert np.array_equal(dirfill.attack_planes(big), want)
    # An unaligned view of UCS-4 texts (one byte past an aligned buffer).
    buf = np.zeros(2 * 80 * 4 + 1, dtype=np.uint8)
    view = np.ndarray((2,), dtype="<U80", buffer=buf.data, offset=1)
    view[:] = [START, KIWIPETE]
    assert view.ctypes.data % 4 == 1
    assert np.array_equal(dirfill.attack_planes(view), want)
    # Strided views read each text, not the bytes between them.
    strided = np.array([START, "junk", KIWIPETE, "junk"])[::2]
    assert np.array_equal(dirfill.attack_planes(strided), want)


def test_arguments():
    with pytest.raises(TypeError, match=r"pass \[fen\]"):
        dirfill.attack_planes(START)
    with pytest.raises(TypeError, match=r"pass \[fen\]"):
        dirfill.attack_planes(START.encode())
    with pytest.raises(ValueError, match="threads"):
        dirfill.attack_planes([START], threads=-1)
    with pytest.raises(OverflowError):
        dirfill.attack_planes([START], threads=2**64)
    with pytest.raises(ValueError, match="NUL"):
        dirfill.select_backend("avx2\x00junk")
    with pytest.raises(TypeError):
        dirfill.select_backend(b"avx2")


@pytest.mark.parametrize("value", ["AVX2", "avx512 ", "bogus"])
def test_bad_backend_variable_warns(value):
    code = "import warnings; warnings.simplefilter('error'); import dirfill"
    env = dict(os.environ, DIRFILL_BACKEND=value)
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert result.returncode != 0 and "RuntimeWarning" in result.stderr
    assert repr(value) in result.stderr and "ignored" in result.stderr
    ok = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                        env=dict(os.environ, DIRFILL_BACKEND="scalar"))
    assert ok.returncode == 0, ok.stderr


def test_illegal_moves_never_corrupt():
    """Every 16-bit value as a move: legal ones are made, the others refused; the board is
    never corrupted (was: castling-kind e1h1 removed the king)."""
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    legal = set(dirfill.Board(fen).legal_moves(ints=True))
    refused = 0
    for m in range(0, 1 << 16, 7):
        board = dirfill.Board(fen)
        if m in legal:
            board.push(m)
            continue
        with pytest.raises(ValueError):
            board.push(m)
        with pytest.raises(ValueError):
            dirfill.push(fen, m)
        refused += 1
        assert board.fen() == fen
    assert refused > 9000


# The calls look for a signal between chunks of a few milliseconds; the bound leaves room for a
# machine whose CPUs are shared with other work (make test runs pytest beside CTest), as the
# batch path's (test_batch_path.py) does. Under the sanitizers (make python-asan) code runs
# several times slower: the interrupt must still come, within a looser bound.
PROMPT = 1.0 if os.environ.get("DIRFILL_SANITIZED") else 0.5


def _interrupt_after(seconds):
    main = threading.main_thread().ident
    sent = []

    def fire():
        time.sleep(seconds)
        sent.append(time.monotonic())
        signal.pthread_kill(main, signal.SIGINT)

    thread = threading.Thread(target=fire)
    thread.start()
    return thread, sent


# Each call would end by itself after seconds (3.2 and 8 G nodes): a missed interrupt fails the
# bound below instead of hanging the suite. Each case makes only the inputs its call takes: the
# 4.8 GB output of attack_planes is slow to allocate and free under the sanitizers.
@pytest.mark.parametrize("inputs, call", [
    (dict, lambda held: dirfill.perft(START, 7)),
    (dict, lambda held: dirfill.Board(KIWIPETE).perft(6)),
    (lambda: {"fens": [START, KIWIPETE] * 500000,
              "out": np.empty((10**6, len(dirfill.PLANES), 8, 8), np.uint8)},
     lambda held: dirfill.attack_planes(held["fens"], threads=1, out=held["out"])),
], ids=["perft", "Board.perft", "attack_planes"])
def test_ctrl_c_stops_long_calls(inputs, call):
    # Big inputs and outputs are held here: freeing gigabytes is not the call's answer time.
    held = inputs()
    thread, sent = _interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        call(held)
    caught = time.monotonic()
    thread.join()
    assert sent and caught - sent[0] < PROMPT, "KeyboardInterrupt %.3f s after SIGINT" % (
        caught - sent[0])


def test_ctrl_c_says_how_far_out_got():
    """A chunk is written whole or not at all, and the exception says where the written rows
    end: the rows after it are the caller's old data, named as such."""
    fens = [START, KIWIPETE] * 500000
    out = np.zeros((len(fens), len(dirfill.PLANES), 8, 8), dtype=np.uint8)
    out[-1] = 7
    want = dirfill.attack_planes(fens[:2])
    thread, _ = _interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt, match=r"interrupted after (\d+) of 1000000") as caught:
        dirfill.attack_planes(fens, threads=1, out=out)
    thread.join()
    done = int(str(caught.value).split()[2])
    assert 0 < done < len(fens) and done % 8192 == 0  # whole chunks (_planes.c: CHUNK)
    assert np.array_equal(out[done - 2:done], want)
    assert not out[done].any() and (out[-1] == 7).all()
