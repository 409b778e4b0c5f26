#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Feature planes from Python: dirfill.attack_planes from FEN strings, on one thread and on
two, against python-chess computing the same attacker counts and pins square by square.

    build/venv/bin/python bench/python/planes.py [--positions N] [--python-chess DIR]

The positions come from random legal playouts (seeded) from the start position. dirfill's
figure is positions per second from FEN text to planes (parsing included), into a reused
output array, the median of 9 runs; one and two threads run alternately and the speed-up is the
median of the paired ratios. python-chess's work per position, from the same FEN text: chess.Board(fen), then
len(board.attackers(color, square)) for both colours and all 64 squares, and
board.is_pinned(side to move, square) for each piece of the side to move -- the counts and
the pin mask that dirfill's planes hold. python-chess is not a Debian package: point
--python-chess at a checkout of its public source (the directory that holds chess/).
"""
import argparse
import platform
import random
import statistics
import sys
import time

import dirfill

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def positions(n, seed=1):
    rng, out = random.Random(seed), []
    while len(out) < n:
        fen = START
        for _ply in range(rng.randrange(20, 120)):
            moves = dirfill.legal_moves(fen)
            if not moves:
                break
            fen = dirfill.push(fen, rng.choice(moves))
            out.append(fen)
    return out[:n]


def seconds(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def median_seconds(fn, runs=5):
    return statistics.median(seconds(fn) for _ in range(runs))


def paired(fn_a, fn_b, runs=9):
    """Medians of a and b, and of the ratios b/a, the two timed back to back each run, so that
    a slow spell of the machine hits both alike."""
    pairs = [(seconds(fn_a), seconds(fn_b)) for _ in range(runs)]
    return (statistics.median(a for a, _ in pairs), statistics.median(b for _, b in pairs),
            statistics.median(a / b for a, b in pairs))


def python_chess_seconds(chess, fens):
    t = time.perf_counter()
    for fen in fens:
        board = chess.Board(fen)
        counts = [len(board.attackers(color, sq)) for color in chess.COLORS for sq in chess.SQUARES]
        pins = [board.is_pinned(board.turn, sq) for sq in chess.SquareSet(board.occupied_co[board.turn])]
        assert len(counts) == 128 and len(pins) >= 1
    return time.perf_counter() - t


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=200000)
    parser.add_argument("--python-chess", help="a checkout of python-chess (holds chess/)")
    args = parser.parse_args()
    fens = positions(args.positions)
    print("dirfill %s, backend %s, %s, %d positions from random playouts"
          % (dirfill.__version__, dirfill.backend(), cpu_model(), len(fens)))
    # A pipeline reuses its output buffer chunk after chunk: the steady state. A new array
    # each call adds the allocation and the first touch of its pages (shown apart).
    out = dirfill.attack_planes(fens, threads=1)
    one, two, speedup = paired(lambda: dirfill.attack_planes(fens, threads=1, out=out),
                               lambda: dirfill.attack_planes(fens, threads=2, out=out))
    fresh = median_seconds(lambda: dirfill.attack_planes(fens, threads=1))
    print("dirfill.attack_planes, 1 thread:  %10.0f positions/s (%.2f us each)"
          % (len(fens) / one, one / len(fens) * 1e6))
    print("dirfill.attack_planes, 2 threads: %10.0f positions/s (%.2fx one thread, median of "
          "paired runs)" % (len(fens) / two, speedup))
    print("  (1 thread into a new array each call: %.0f positions/s)" % (len(fens) / fresh))
    if args.python_chess:
        sys.path.insert(0, args.python_chess)
        import chess
        sample = fens[:2000]
        pc = min(python_chess_seconds(chess, sample) for _ in range(3)) / len(sample)
        print("python-chess %s, counts and pins:   %10.0f positions/s (%.1f us each)"
              % (chess.__version__, 1 / pc, pc * 1e6))
        print("dirfill, 1 thread, over python-chess: %.0fx" % (pc / (one / len(fens))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
