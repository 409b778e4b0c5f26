#!/usr/bin/env python3
"""Feature planes from Python: dirfill.attack_planes from FEN strings, on one thread and on
two, against python-chess computing the same attacker counts and pins square by square.

    build/venv/bin/python bench/python_planes.py [--positions N] [--python-chess DIR]

The positions come from random legal playouts (seeded) from the start position. dirfill's
figure is positions per second from FEN text to planes (parsing included), the median of 5
runs. python-chess's work per position, from the same FEN text: chess.Board(fen), then
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


def median_seconds(fn, runs=5):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


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
    one = median_seconds(lambda: dirfill.attack_planes(fens, threads=1))
    two = median_seconds(lambda: dirfill.attack_planes(fens, threads=2))
    print("dirfill.attack_planes, 1 thread:  %10.0f positions/s (%.2f us each)"
          % (len(fens) / one, one / len(fens) * 1e6))
    print("dirfill.attack_planes, 2 threads: %10.0f positions/s (%.2fx one thread)"
          % (len(fens) / two, one / two))
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
