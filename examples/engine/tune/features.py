# SPDX-License-Identifier: MIT
"""The engine's evaluation features of positions, from its own C code: dfengine_features
(examples/engine/features.c) run on batches of positions, bitboards in, int32 rows out."""

import subprocess

import numpy as np


def names(program):
    """The evaluation's terms and their compiled weights, [(name, mg, eg)]."""
    text = subprocess.run([program, "--names"], check=True, capture_output=True, text=True).stdout
    return [(n, int(mg), int(eg)) for n, mg, eg in (line.split() for line in text.splitlines())]


def compute(program, pieces, stm, terms=None):
    """Features of n positions given as pgn_batches gives them: pieces (n, 12) uint64 (white
    P N B R Q K, then black), stm (n,) bool (True: black to move). Returns a dict: status
    (n,) int32 (1 quiet, 0 not quiet, -1 not a playable board), divisor, eval (the engine's
    evaluate), X (n, 2 * terms) int32 (the features, engine.h: eval_features)."""
    terms = terms if terms is not None else len(names(program))
    pieces = np.asarray(pieces, dtype="<u8").reshape(-1, 12)
    rows = np.empty((len(pieces), 13), dtype="<u8")
    rows[:, :12] = pieces
    rows[:, 12] = np.asarray(stm, dtype=bool)
    out = subprocess.run([program], input=rows.tobytes(), check=True, capture_output=True).stdout
    table = np.frombuffer(out, dtype="<i4").reshape(len(pieces), 3 + 2 * terms)
    return {"status": table[:, 0], "divisor": table[:, 1], "eval": table[:, 2], "X": table[:, 3:]}


def evaluate(w, X, d):
    """The engine's evaluation from integer weights: X . w / d, divided as C divides (toward
    zero), which is exactly its evaluate (engine.h)."""
    dot = np.asarray(X, dtype=np.int64) @ np.asarray(w, dtype=np.int64)
    d = np.asarray(d, dtype=np.int64)
    return np.sign(dot) * (np.abs(dot) // d)
