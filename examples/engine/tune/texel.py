# SPDX-License-Identifier: MIT
"""Texel's tuning with NumPy: the evaluation is linear in its weights (eval = X . w / d, the
features X and divisors d from the engine, see engine.h: eval_features), and a sigmoid of it
predicts the game's result from the side to move's view. The fit minimises the logistic loss
(cross-entropy) of that prediction against the result, first over the sigmoid's scale k with
the weights held (so that the hand weights' centipawns keep their meaning), then over the
weights with k held."""

import numpy as np


def predict(w, X, d, k):
    """The expected score of the side to move: sigmoid(k * eval), eval in centipawns."""
    z = k * (X @ w) / d
    return 0.5 * (1.0 + np.tanh(0.5 * z))  # the logistic function, without exp's overflow


def loss(w, X, d, y, k):
    """The mean cross-entropy of the predictions against the scores y (0, 0.5, 1 or soft)."""
    p = np.clip(predict(w, X, d, k), 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit_k(w, X, d, y, lo=1e-4, hi=0.1, steps=60):
    """The scale k (per centipawn) that best predicts y from the weights w: a golden-section
    search (the loss is convex in k for fixed evaluations)."""
    g = (np.sqrt(5) - 1) / 2
    a, b = lo, hi
    c, e = b - g * (b - a), a + g * (b - a)
    fc, fe = loss(w, X, d, y, c), loss(w, X, d, y, e)
    for _ in range(steps):
        if fc < fe:
            b, e, fe = e, c, fc
            c = b - g * (b - a)
            fc = loss(w, X, d, y, c)
        else:
            a, c, fc = c, e, fe
            e = a + g * (b - a)
            fe = loss(w, X, d, y, e)
    return (a + b) / 2


def fit(X, d, y, w0, k, iterations=2000, lr=1.0, l2=0.0, frozen=None):
    """The weights (floats) minimising the loss from w0, by full-batch Adam: lr is the step in
    centipawns, l2 a pull toward w0 (per squared centipawn, in the loss's units), frozen a mask
    of weights kept at w0. Returns (weights, losses every 100 iterations)."""
    X = np.asarray(X, dtype=np.float64)
    scale = k / np.asarray(d, dtype=np.float64)
    w0 = np.asarray(w0, dtype=np.float64)
    w = w0.copy()
    free = np.ones_like(w) if frozen is None else (~np.asarray(frozen, dtype=bool)).astype(float)
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    b1, b2, eps = 0.9, 0.999, 1e-8
    history = []
    for t in range(1, iterations + 1):
        z = scale * (X @ w)
        p = 0.5 * (1.0 + np.tanh(0.5 * z))
        grad = X.T @ ((p - y) * scale) / len(y) + 2 * l2 * (w - w0)
        grad *= free
        m = b1 * m + (1 - b1) * grad
        v = b2 * v + (1 - b2) * grad * grad
        w -= lr * (m / (1 - b1**t)) / (np.sqrt(v / (1 - b2**t)) + eps)
        if t % 100 == 0 or t == iterations:
            history.append((t, loss(w, X, d, y, k)))
    return w, history


def blend(y, evals, k, weight):
    """The targets y blended with the expected score of each position's [%eval] (pawns from
    the side to move's view, as pgn_batches gives it: NaN where there is none, a mate as
    +-(1000 - N), capped at 50 pawns) by the same sigmoid: (1 - weight) y + weight sigmoid."""
    evals = np.asarray(evals, dtype=np.float64)
    known = ~np.isnan(evals)
    cp = np.clip(np.where(known, evals, 0.0), -50, 50) * 100
    expected = 0.5 * (1.0 + np.tanh(0.5 * k * cp))
    return np.where(known, (1 - weight) * np.asarray(y, dtype=np.float64) + weight * expected, y)
