#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Texel tuning of dfengine's evaluation on games in PGN.

    build/venv/bin/python examples/engine/tune/tune.py GAMES.pgn [...]
        --out examples/engine/weights.h

The games are read with dirfill.pgn_batches (results and [%eval]s from the side to move's
view, as the engine's evaluation is), the positions' features computed by the engine's own code (dfengine_features), the quiet positions kept (not in
check, no capture winning material by SEE, ply >= --min-ply, result known), at most
--max-positions of them drawn with --seed, the weights fitted to the results by logistic loss
(texel.py) from the weights dfengine_features was built with, rounded, and written as a
weights.h. It prints the seed, the counts of games and positions, the sigmoid's scale and the
loss before and after (of the rounded weights). Rebuild the engine afterwards."""

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import features  # noqa: E402
import texel  # noqa: E402
import weights_header  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PROGRAM = os.path.join(HERE, "..", "..", "..", "build", "release", "examples",
                               "dfengine_features")


def positions(sources, batch_size):
    """The positions of the games as numpy batches (pieces, turn, result, eval, ply, game), the
    result and eval from the side to move's view."""
    import dirfill

    columns = ["pieces", "turn", "result", "eval", "ply", "game"]
    it = dirfill.pgn_batches(sources, batch_size, columns=columns, view="side_to_move")
    for batch in it:
        yield batch
    positions.stats = it.stats


def collect(args, terms):
    """The quiet positions' features, divisors, results and [%eval]s, and the counts."""
    w_hand = np.array([x for _, mg, eg in terms for x in (mg, eg)], dtype=np.int64)
    Xs, ds, ys, evals, ids = [], [], [], [], []
    games, seen, kept = set(), 0, 0
    for batch in positions(args.pgn, args.batch_size):
        if len(batch["pieces"]) == 0:
            continue
        keep = (batch["result"] != -128) & (batch["ply"] >= args.min_ply)
        seen += len(keep)
        kept += int(keep.sum())
        if not keep.any():
            continue
        out = features.compute(args.features, batch["pieces"][keep], ~batch["turn"][keep],
                               len(terms))
        # The export is the engine's evaluation, exactly: checked on every position read.
        if not np.array_equal(features.evaluate(w_hand, out["X"], out["divisor"]), out["eval"]):
            sys.exit("tune.py: weights . features / divisor is not the engine's evaluation "
                     "(dfengine_features built from other weights than --names says?)")
        quiet = out["status"] == 1
        Xs.append(out["X"][quiet])
        ds.append(out["divisor"][quiet])
        ys.append((batch["result"][keep][quiet].astype(np.float64) + 1) / 2)
        evals.append(batch["eval"][keep][quiet])
        ids.append(batch["game"][keep][quiet])
        games.update(np.unique(ids[-1]).tolist())
    if not Xs:
        sys.exit("tune.py: no position to fit (no game with a result?)")
    return (np.concatenate(Xs), np.concatenate(ds), np.concatenate(ys), np.concatenate(evals),
            np.concatenate(ids), len(games), seen, kept)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("pgn", nargs="+", help="PGN files (.zst and .gz too)")
    p.add_argument("--features", default=os.environ.get("DFENGINE_FEATURES", DEFAULT_PROGRAM),
                   help="the dfengine_features program (default: the release build's)")
    p.add_argument("--out", help="the weights.h to write (default: print the weights only)")
    p.add_argument("--seed", type=int, default=1, help="draws the positions kept")
    p.add_argument("--max-positions", type=int, default=1_000_000)
    p.add_argument("--min-ply", type=int, default=8, help="skip the opening book's plies")
    p.add_argument("--iterations", type=int, default=2000)
    p.add_argument("--lr", type=float, default=1.0, help="Adam's step, in centipawns")
    p.add_argument("--l2", type=float, default=0.0, help="pull toward the starting weights")
    p.add_argument("--freeze", default="",
                   help="terms kept at their starting weights, comma-separated (e.g. "
                   "pawn,knight,bishop,rook,queen: the scale of the evaluation, which the "
                   "search's margins assume)")
    p.add_argument("--eval-blend", type=float, default=0.0,
                   help="weight of the [%%eval]'s expected score in the target (0: results only)")
    p.add_argument("--holdout", type=float, default=0.1,
                   help="share of the games left out of the fit, their loss printed")
    p.add_argument("--batch-size", type=int, default=65536)
    args = p.parse_args(argv)

    t0 = time.time()
    terms = features.names(args.features)
    X, d, y, evals, ids, games, seen, kept = collect(args, terms)
    quiet = len(y)
    rng = np.random.default_rng(args.seed)
    if quiet > args.max_positions:
        pick = np.sort(rng.choice(quiet, args.max_positions, replace=False))
        X, d, y, evals, ids = X[pick], d[pick], y[pick], evals[pick], ids[pick]
    # Whole games held out (positions of one game are alike): the loss on them says whether
    # the fit learnt chess or the games.
    held_games = rng.permutation(np.unique(ids))[: int(round(args.holdout * games))]
    held = np.isin(ids, held_games)
    Xh, dh, yh = X[held], d[held], y[held]
    X, d, y, evals = X[~held], d[~held], y[~held], evals[~held]
    w0 = np.array([x for _, mg, eg in terms for x in (mg, eg)], dtype=np.float64)
    frozen_names = set(filter(None, args.freeze.split(",")))
    unknown = frozen_names - {name for name, _, _ in terms}
    if unknown:
        sys.exit(f"tune.py: --freeze names no term: {', '.join(sorted(unknown))}")
    frozen = np.repeat([name in frozen_names for name, _, _ in terms], 2)
    k = texel.fit_k(w0, X, d, y)
    if args.eval_blend > 0:
        y = texel.blend(y, evals, k, args.eval_blend)
    before = texel.loss(w0, X, d, y, k)
    print(f"seed {args.seed}: {games} games, {seen} positions read, {kept} with a result and "
          f"ply >= {args.min_ply}, {quiet} of them quiet, {len(y)} fitted, {len(yh)} of "
          f"{len(held_games)} games held out; k = {k:.6f} per cp")
    w, history = texel.fit(X, d, y, w0, k, args.iterations, args.lr, args.l2, frozen)
    w_int = np.rint(w).astype(np.int64)
    after = texel.loss(w_int.astype(np.float64), X, d, y, k)
    for t, value in history[:: max(1, len(history) // 5)]:
        print(f"  iteration {t}: loss {value:.6f}")
    print(f"loss before {before:.6f}, after {after:.6f} (rounded weights), "
          f"{time.time() - t0:.1f} s")
    if len(yh):
        print(f"held-out loss before {texel.loss(w0, Xh, dh, yh, k):.6f}, after "
              f"{texel.loss(w_int.astype(np.float64), Xh, dh, yh, k):.6f}")
    tuned = [(name, int(w_int[2 * i]), int(w_int[2 * i + 1])) for i, (name, _, _) in
             enumerate(terms)]
    for (name, mg0, eg0), (_, mg, eg) in zip(terms, tuned):
        if (mg, eg) != (mg0, eg0):
            print(f"  {name}: {mg0} {eg0} -> {mg} {eg}")
    if args.out:
        source = (f"tune.py, seed {args.seed}, {games} games of "
                  f"{', '.join(os.path.basename(s) for s in args.pgn)}, {len(y)} quiet positions, "
                  f"k {k:.6f}, {args.iterations} iterations, lr {args.lr}, l2 {args.l2}, "
                  f"eval blend {args.eval_blend}, frozen {args.freeze or 'none'}; "
                  f"loss {before:.6f} -> {after:.6f}.")
        weights_header.write_header(args.out, tuned, source)
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
