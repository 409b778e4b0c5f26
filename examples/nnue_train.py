#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A small HalfKAv2_hm network trained on NNUE training data with PyTorch, on the CPU, from
dirfill.torch.NNUEDataset: the loop nnue-pytorch runs, with dirfill's loader in place of its
own.

    build/venv/bin/python examples/nnue_train.py [FILE...] [--games N] [--steps S] [--batch B]
                        [--workers W] [--threads T] [--skip] [--seed K] [--lr R]
                        [--shuffle E]

FILEs are .binpack, .plain or .bin (also .zst, .gz). Without them, N games are made by the
project's generator (dirfill-pgn-make: random legal games with [%eval] comments) and turned
into a .binpack by `dirfill nnue --write` in a temporary directory. The batches are
nnue-pytorch's training tuples (us, them, white_indices, black_indices, outcome, score,
piece_count), read as nnue-pytorch's loader reads them: shuffled in buffers of E entries
(65,536 by default, for these few games; nnue-pytorch's is 1,048,576) and cyclic, every batch
full across the files' ends and the passes, until S steps are done. The network: a feature transformer
(an embedding bag of the 24,576 HalfKAv2_hm inputs into 64 values per perspective), the side to
move's accumulator first, clipped ReLU, 32 hidden, one output; nnue-pytorch's loss on scores
scaled by 400: the squared difference of sigmoid(prediction) and a blend of sigmoid(score) with
the game's outcome. Entries without a score (32002) are left out of the loss; --skip asks
nnue-pytorch's default skip options instead. Loss is printed with a progress bar; after S steps
the mean loss of the first and last tenth of the steps. The generator's evaluations are random:
the falling loss shows the pipeline at work, not a network learning chess.
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

from dirfill.torch import NNUEDataset

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INPUTS = 24576  # HalfKAv2_hm's
NONE = 32002  # the score of an entry that has none
SCALE = 400.0


def tool(name):
    for path in (os.path.join(ROOT, "build", "release", name), shutil.which(name)):
        if path and os.access(path, os.X_OK):
            return path
    sys.exit("%s not found: run `make build`, or give training files" % name)


def make_data(directory, games, seed):
    """A .binpack of generated games: the program's PGN converter's output."""
    pgn, out = os.path.join(directory, "games.pgn"), os.path.join(directory, "games.binpack")
    with open(pgn, "wb") as f:
        subprocess.run([tool("dirfill-pgn-make"), str(games), str(seed)], stdout=f, check=True)
    subprocess.run([tool("dirfill"), "nnue", "--write", out, pgn], check=True,
                   stdout=subprocess.DEVNULL)
    return [out]


class Net(nn.Module):
    """HalfKAv2_hm -> 2 x 64 -> 32 -> 1, as nnue-pytorch's model is laid out (smaller)."""

    def __init__(self, hidden=64):
        super().__init__()
        # Row padding (-1) becomes INPUTS, an input of zero weight.
        # Sparse gradients: a step touches the rows of the active inputs, not all 24,576.
        self.ft = nn.EmbeddingBag(INPUTS + 1, hidden, mode="sum", padding_idx=INPUTS,
                                  sparse=True)
        self.ft_bias = nn.Parameter(torch.zeros(hidden))
        self.l1 = nn.Linear(2 * hidden, 32)
        self.out = nn.Linear(32, 1)

    def forward(self, us, them, white, black):
        w = self.ft(torch.where(white < 0, INPUTS, white).long()) + self.ft_bias
        b = self.ft(torch.where(black < 0, INPUTS, black).long()) + self.ft_bias
        # The side to move's accumulator first (us: 1.0 when White is to move).
        x = us * torch.cat([w, b], 1) + them * torch.cat([b, w], 1)
        x = torch.clamp(self.l1(torch.clamp(x, 0, 1)), 0, 1)
        return self.out(x)


def loss_of(net, batch, lam=0.75):
    us, them, white, black, outcome, score, _ = batch
    keep = score != NONE
    q = torch.sigmoid(net(us, them, white, black) * 600 / SCALE)
    p = lam * torch.sigmoid(score / SCALE) + (1 - lam) * outcome
    return ((q - p) ** 2 * keep).sum() / keep.sum().clamp(min=1)


def bar(step, steps, loss, rate):
    done = 30 * step // steps
    return "\r[%s%s] %d/%d loss %.5f %7.0f entries/s" % ("#" * done, "." * (30 - done), step,
                                                         steps, loss, rate)


def train(paths, args):
    torch.manual_seed(args.seed)
    net = Net()
    sparse = list(net.ft.parameters())
    dense = [p for p in net.parameters() if all(p is not q for q in sparse)]
    opts = [torch.optim.SparseAdam(sparse, lr=args.lr), torch.optim.Adam(dense, lr=args.lr)]
    # One endless, shuffled stream per worker: no pass ends in a short batch.
    ds = NNUEDataset(paths, args.batch, "HalfKAv2_hm", threads=args.threads, seed=args.seed,
                     skip={} if args.skip else None, shuffle=args.shuffle, cyclic=True)
    losses, seen, start = [], 0, time.monotonic()
    for batch in DataLoader(ds, batch_size=None, num_workers=args.workers):
        loss = loss_of(net, batch)
        for opt in opts:
            opt.zero_grad()
        loss.backward()
        for opt in opts:
            opt.step()
        losses.append(loss.item())
        seen += len(batch[0])
        rate = seen / max(time.monotonic() - start, 1e-9)
        print(bar(len(losses), args.steps, losses[-1], rate), end="", flush=True)
        if len(losses) == args.steps:
            break
    if not losses:
        sys.exit("no entries to train on")
    tenth = max(1, args.steps // 10)
    first, last = sum(losses[:tenth]) / tenth, sum(losses[-tenth:]) / tenth
    print("\nafter %d steps: mean loss %.5f then %.5f (first and last tenth)"
          % (args.steps, first, last))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--workers", type=int, default=0)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--skip", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--shuffle", type=int, default=1 << 16)
    args = ap.parse_args()
    if args.files:
        return train(args.files, args)
    with tempfile.TemporaryDirectory() as d:
        train(make_data(d, args.games, args.seed), args)


if __name__ == "__main__":
    main()
