#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""dfengine against itself, a small set of games for the tuner when no referee is built (for
thousands of games use bench/match/match.sh with fastchess: see examples/engine/README.md). The library referees:
dirfill.Board checks every move and ends the game (mate, stalemate, repetition, fifty moves,
insufficient material); a game longer than --max-plies is a draw.

    build/venv/bin/python examples/engine/tune/selfplay.py --games 100 --nodes 2000 --seed 1
        --out games.pgn

Each game starts from a position of bench/match/openings.epd plus --random-plies random moves, both
drawn with the seed, and the engine searches --nodes nodes a move; its score is written as
an [%eval] comment on the move. One engine process plays
both sides (ucinewgame between games), on one core."""

import argparse
import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  bufsize=1)
        self.send("uci")
        self.wait("uciok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, prefix, info=None):
        for line in self.p.stdout:
            if line.startswith(prefix):
                return line.split()
            if info is not None and line.startswith("info ") and " score " in line:
                words = line.split()
                at = words.index("score")
                info[:] = words[at + 1 : at + 3]
        raise RuntimeError("dfengine quit")

    def move(self, fen, moves, nodes):
        """The engine's move and its last score, ["cp", "35"] or ["mate", "-2"], for the side
        to move."""
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go nodes {nodes}")
        score = []
        return self.wait("bestmove", score)[1], score

    def close(self):
        self.send("quit")
        self.p.wait(timeout=10)


def eval_comment(score, white):
    """The score as lichess writes [%eval]: pawns, or #N for a mate, from White's view."""
    if len(score) != 2:
        return ""
    kind, value = score[0], int(score[1]) * (1 if white else -1)
    return f" {{[%eval #{value}]}}" if kind == "mate" else f" {{[%eval {value / 100:.2f}]}}"


def play(engine, dirfill, fen, nodes, max_plies):
    """One game from fen: (result, SAN moves, termination)."""
    board = dirfill.Board(fen)
    moves, sans = [], []
    engine.send("ucinewgame")
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            return board.result(claim_draw=True), sans, str(outcome.termination)
        if len(moves) >= max_plies:
            return "1/2-1/2", sans, "adjudication: max plies"
        m, score = engine.move(fen, moves, nodes)
        if not board.is_legal(m):
            raise RuntimeError(f"dfengine played the illegal {m} in {board.fen()}")
        # The search's score, a comment on the move as lichess writes it: tune.py --eval-blend.
        sans.append(board.san(m) + eval_comment(score, board.turn))
        board.push_uci(m)
        moves.append(m)


def pgn(index, fen, result, sans, termination, nodes):
    white_first = fen.split()[1] == "w"
    number = int(fen.split()[5]) if len(fen.split()) > 5 else 1
    tokens = [] if white_first else [f"{number}..."]
    for i, san in enumerate(sans):
        if white_first == (i % 2 == 0):
            tokens.append(f"{number}.")
        tokens.append(san)
        if white_first != (i % 2 == 0):
            number += 1
    tags = [("Event", f"dfengine self-play, {nodes} nodes"), ("Site", "selfplay.py"),
            ("Round", str(index + 1)), ("White", "dfengine"), ("Black", "dfengine"),
            ("Result", result), ("FEN", fen), ("SetUp", "1"), ("Termination", termination)]
    text = "".join(f'[{k} "{v}"]\n' for k, v in tags) + "\n"
    line = ""
    for token in tokens + [result]:
        if len(line) + len(token) + 1 > 79:
            text += line + "\n"
            line = ""
        line = (line + " " + token) if line else token
    return text + line + "\n\n"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--nodes", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--random-plies", type=int, default=2)
    p.add_argument("--max-plies", type=int, default=300)
    p.add_argument("--engine", default=os.path.join(ROOT, "build", "release", "examples",
                                                    "dfengine"))
    p.add_argument("--openings", default=os.path.join(ROOT, "bench", "openings.epd"))
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)
    import dirfill

    rng = random.Random(args.seed)
    with open(args.openings) as f:
        openings = [line.split(";")[0].strip() for line in f if line.strip()]
    engine = Engine(args.engine)
    t0, scores = time.time(), {"1-0": 0, "0-1": 0, "1/2-1/2": 0}
    with open(args.out, "w") as out:
        for g in range(args.games):
            board = dirfill.Board(rng.choice(openings) + " 0 1")
            for _ in range(args.random_plies):
                legal = board.legal_moves()
                if not legal or board.outcome() is not None:
                    break
                board.push_uci(rng.choice(sorted(legal)))
            fen = board.fen()
            result, sans, termination = play(engine, dirfill, fen, args.nodes, args.max_plies)
            scores[result] += 1
            out.write(pgn(g, fen, result, sans, termination, args.nodes))
    engine.close()
    print(f"seed {args.seed}: {args.games} games at {args.nodes} nodes a move, "
          f"+{scores['1-0']} ={scores['1/2-1/2']} -{scores['0-1']} (white's view), "
          f"{time.time() - t0:.0f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
