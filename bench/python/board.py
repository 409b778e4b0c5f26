#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""dirfill.Board against python-chess's chess.Board on the same games, side by side.

    build/venv/bin/python bench/python/board.py [--games N] [--runs R] [--python-chess DIR]

The games are random legal playouts (seeded) made with dirfill.Board and written as SAN.
Each measure runs both libraries alternately, R times (default 7), and gives the median time
per operation and the median of the paired ratios (python-chess time / dirfill time):

- push_san + pop: every SAN move of every game pushed, then every move popped;
- legal_moves: the legal moves of every position of every game, as each library gives them
  (dirfill: a list of UCI strings; python-chess: list(board.legal_moves), Move objects);
- replay + outcome: a new board, every SAN move of a game pushed, outcome() at the end;
- planes: Board.planes() (75 feature planes, uint8) of every position, one call per board,
  each array dropped before the next (dirfill only: python-chess has no such call).

python-chess is not a Debian package: point --python-chess at a checkout of its public source
(the directory that holds chess/); without it only dirfill's figures are printed.
"""
import argparse
import platform
import random
import statistics
import sys
import time

import dirfill


def make_games(n, seed=7):
    rng, games = random.Random(seed), []
    while len(games) < n:
        b, sans = dirfill.Board(), []
        for _ply in range(rng.randrange(60, 160)):
            moves = b.legal_moves()
            if not moves:
                break
            move = rng.choice(moves)
            sans.append(b.san(move))
            b.push(move)
            if b.outcome() is not None:
                break
        games.append(sans)
    return games


def timed(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


class Library:
    """The three game measures written once against a board class and its names."""

    def __init__(self, name, new_board, legal):
        self.name, self.new_board, self.legal = name, new_board, legal

    def push_pop(self, games):
        for sans in games:
            b = self.new_board()
            for s in sans:
                b.push_san(s)
            for _ in sans:
                b.pop()

    def legal_moves(self, boards):
        legal = self.legal
        for b in boards:
            legal(b)

    def replay(self, games):
        for sans in games:
            b = self.new_board()
            for s in sans:
                b.push_san(s)
            b.outcome()


def boards_of(lib, games):
    out = []
    for sans in games:
        b = lib.new_board()
        for s in sans:
            out.append(b.copy(stack=False))
            b.push_san(s)
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--python-chess", metavar="DIR")
    args = p.parse_args()

    games = make_games(args.games)
    plies = sum(len(g) for g in games)
    libs = [Library("dirfill", dirfill.Board, lambda b: b.legal_moves())]
    if args.python_chess:
        sys.path.insert(0, args.python_chess)
        import chess
        libs.append(Library("python-chess %s" % chess.__version__, chess.Board,
                            lambda b: list(b.legal_moves)))
    boards = [boards_of(lib, games) for lib in libs]

    measures = [  # name, per what, the work of one library
        ("push_san + pop", "move", plies, lambda lib, i: lib.push_pop(games)),
        ("legal_moves", "position", plies, lambda lib, i: lib.legal_moves(boards[i])),
        ("replay + outcome", "game", len(games), lambda lib, i: lib.replay(games)),
    ]
    print("dirfill %s (%s backend), Python %s, %s; %d games, %d plies; median of %d runs"
          % (dirfill.__version__, dirfill.backend(), platform.python_version(),
             platform.processor() or platform.machine(), len(games), plies, args.runs))
    print("%-18s %-9s %14s %14s %9s" % ("measure", "per", "dirfill us", "python-chess us",
                                        "ratio"))
    for name, per, count, work in measures:
        times = [[] for _ in libs]
        for _ in range(args.runs):
            for i, lib in enumerate(libs):
                times[i].append(timed(lambda: work(lib, i)) / count * 1e6)
        ours = statistics.median(times[0])
        if len(libs) > 1:
            theirs = statistics.median(times[1])
            ratio = statistics.median(t / o for o, t in zip(times[0], times[1]))
            print("%-18s %-9s %14.3f %14.3f %8.1fx" % (name, per, ours, theirs, ratio))
        else:
            print("%-18s %-9s %14.3f %14s %9s" % (name, per, ours, "-", "-"))
    # Each array is dropped as the next is made, as a loop that consumes them does: keeping
    # thousands of fresh 4.8 KB arrays alive would time the first touch of new heap pages
    # (far dearer in a new process than once the heap has grown).
    planes = [timed(lambda: [b.planes().shape for b in boards[0]]) for _ in range(args.runs)]
    rate = len(boards[0]) / statistics.median(planes)
    print("%-18s %-9s %14.3f %14s %9s   (%.0f boards/s)" % ("planes()", "board",
                                                         1e6 / rate, "-", "-", rate))


if __name__ == "__main__":
    main()
