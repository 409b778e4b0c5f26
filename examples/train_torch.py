#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A small value network trained on PGN positions with PyTorch, on the CPU, from dirfill.torch.

    build/venv/bin/python examples/train_torch.py [PGN...] [--games N] [--steps S] [--batch B]
                        [--workers W] [--threads T]

Without PGN files, N games are made by the project's generator (dirfill-pgn-make, built next
to the program by `make build`: random legal games with lichess-style [%eval] and [%clk]) into
a temporary file. The positions stream through PGNDataset and a DataLoader with W workers
(each reads its own share of the files, cut at game boundaries, on T library threads). The
default, no worker and the library's threads on every CPU, is the fast choice on a few cores
(docs/performance.md: the workers' hand-over costs more than it saves there); W is at most the
CPUs. The network (the 768 piece bits and the side to move, two hidden layers) learns the value
of each position for the side to move (PGNDataset's view="side_to_move"): tanh(eval / 4)
where the move's comment has an [%eval], else the game's result (+1 won, 0 drawn, -1 lost;
games without a result are left out). Loss is printed with a progress bar; after S steps, the
mean loss of the first and last tenth of the steps. The generator's games are random moves
with random evaluations: the loss shows the pipeline at work, not a network learning chess
(real games, given as PGN, have something to learn).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

import torch
from torch import nn
from torch.utils.data import DataLoader

import dirfill
from dirfill.torch import PGNDataset

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def generator():
    for path in (os.path.join(ROOT, "build", "release", "dirfill-pgn-make"),
                 shutil.which("dirfill-pgn-make")):
        if path and os.access(path, os.X_OK):
            return path
    sys.exit("dirfill-pgn-make not found: run `make build`, or give PGN files")


def features(batch):
    """(n, 769) floats: the 12 bitboards as 768 bits (int64 views: >> keeps bit 63 in & 1),
    and the side to move (1: White, as turn holds it)."""
    bits = (batch["pieces"].unsqueeze(-1) >> torch.arange(64)) & 1
    return torch.cat([bits.flatten(1).float(), batch["turn"].float().unsqueeze(1)], 1)


def targets(batch):
    """The value for the side to move (the dataset's view), and which rows have one."""
    ev = batch["eval"]
    result = batch["result"].float()
    value = torch.where(torch.isnan(ev), result, torch.tanh(ev / 4))
    return value, ~torch.isnan(ev) | (batch["result"] != dirfill.RESULT_UNKNOWN)


def bar(step, steps, loss, rate):
    done = 30 * step // steps
    return "\r[%s%s] %d/%d loss %.4f %7.0f positions/s" % ("#" * done, "." * (30 - done), step,
                                                           steps, loss, rate)


def train(paths, args):
    torch.manual_seed(args.seed)
    net = nn.Sequential(nn.Linear(769, 128), nn.ReLU(), nn.Linear(128, 32), nn.ReLU(),
                        nn.Linear(32, 1), nn.Tanh())
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    workers = min(args.workers, os.cpu_count() or 1)
    if workers < args.workers:
        print("--workers %d: %d, the CPUs this machine has" % (args.workers, workers))
    ds = PGNDataset(paths, args.batch, threads=args.threads, shuffle_buffer=8 * args.batch,
                    seed=args.seed, columns=["pieces", "turn", "eval", "result"],
                    view="side_to_move")
    losses, step, seen, start = [], 0, 0, time.monotonic()
    while step < args.steps:
        ds.set_epoch(step)  # another order on each pass over the files
        for batch in DataLoader(ds, batch_size=None, num_workers=workers):
            value, keep = targets(batch)
            if not keep.any():
                continue
            pred = net(features(batch)[keep]).squeeze(1)
            loss = nn.functional.mse_loss(pred, value[keep])
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
            step += 1
            seen += int(keep.sum())
            if step % 10 == 0 or step == args.steps:
                print(bar(step, args.steps, losses[-1], seen / (time.monotonic() - start)),
                      end="", flush=True)
            if step == args.steps:
                break
    tenth = max(1, len(losses) // 10)
    first, last = sum(losses[:tenth]) / tenth, sum(losses[-tenth:]) / tenth
    print("\n%d steps, %d positions, %.1f s: loss %.4f in the first tenth, %.4f in the last"
          % (step, seen, time.monotonic() - start, first, last))
    return first, last


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="*", help="PGN files (.pgn, .zst, .gz)")
    parser.add_argument("--games", type=int, default=3000, help="games to make without PGN files")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--workers", type=int, default=0,
                        help="DataLoader workers, at most the CPUs (default 0: the fast choice "
                        "on a few cores)")
    parser.add_argument("--threads", type=int, default=0,
                        help="the library's threads per reader (default 0: every CPU; with "
                        "workers, 1 is one core each)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.pgn:
        return train(args.pgn, args)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "games.pgn")
        with open(path, "wb") as f:
            subprocess.run([generator(), str(args.games), str(args.seed)], stdout=f, check=True)
        return train([path], args)


if __name__ == "__main__":
    main()
