#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the opening positions of bench/match/match.sh: random legal play from the start position
(dirfill.Board), kept when the example engine, searching each to a fixed depth, scores it
within a small margin of equal. Project-made data: no book of anyone else's.

usage: build/venv/bin/python bench/match/make_openings.py ENGINE COUNT [--plies N] [--depth D]
         [--margin CP] [--seed S] > FILE.epd
"""
import argparse
import random
import subprocess
import sys

import dirfill


def score_of(engine, fen, depth):
    engine.stdin.write(f"position fen {fen}\ngo depth {depth}\n")
    engine.stdin.flush()
    score = None
    for line in engine.stdout:
        if " score cp " in line:
            score = int(line.split(" score cp ")[1].split()[0])
        elif " score mate " in line:
            score = 100000
        if line.startswith("bestmove"):
            return score
    raise RuntimeError("the engine stopped")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("engine")
    p.add_argument("count", type=int)
    p.add_argument("--plies", type=int, default=8, help="random plies from the start (8)")
    p.add_argument("--depth", type=int, default=8, help="search depth of the balance check (8)")
    p.add_argument("--margin", type=int, default=50, help="largest |score| kept, centipawns (50)")
    p.add_argument("--seed", type=int, default=2026)
    args = p.parse_args()
    rng = random.Random(args.seed)
    engine = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)
    seen = set()
    while len(seen) < args.count:
        board = dirfill.Board()
        for _ in range(args.plies):
            moves = board.legal_moves()
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.is_game_over():
            continue
        epd = board.epd()
        if epd in seen:
            continue
        score = score_of(engine, board.fen(), args.depth)
        if score is not None and abs(score) <= args.margin:
            seen.add(epd)
            print(epd, flush=True)
            print(f"{len(seen)}/{args.count}", file=sys.stderr, end="\r")
    engine.stdin.write("quit\n")
    engine.stdin.close()
    engine.wait()


if __name__ == "__main__":
    main()
