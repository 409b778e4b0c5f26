# SPDX-License-Identifier: MIT
"""The tuner's tests: the fit recovers known weights from a made-up set, the header writer
round-trips, and the features the engine exports give its evaluation. Run: python3
test_tune.py [-v]; DFENGINE_FEATURES names the dfengine_features program (else its tests are
skipped)."""

import importlib.util
import os
import re
import sys
import tempfile
import unittest

try:
    import numpy as np
except ImportError:  # CTest: skipped, not failed, where NumPy is not installed
    print("skipped: no numpy")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import features  # noqa: E402
import texel  # noqa: E402
import weights_header  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
WEIGHTS_H = os.path.join(HERE, "..", "weights.h")
# The hand weights, kept beside the fitted ones the engine builds with (tune/README.md: how they compare).
WEIGHTS_HAND_H = os.path.join(HERE, "weights_hand.h")
PROGRAM = os.environ.get("DFENGINE_FEATURES")
# The PGN reader, for the whole pipeline.
HAVE_DIRFILL = importlib.util.find_spec("dirfill") is not None

GAMES = b"""[Event "a"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "b"]
[Result "1-0"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0

[Event "c"]
[Result "1/2-1/2"]

1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 h6 7. Bh4 b6 8. cxd5 Nxd5
9. Bxe7 Qxe7 10. Nxd5 exd5 1/2-1/2

[Event "d"]
[Result "*"]

1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5 7. Nb3 Be6 8. f3 Be7 *
"""


def made_up(n, w_true, k, seed, noisy):
    """A set shaped as the engine's: per term a count, its features count * phase and count *
    (24 - phase), divisor 24; the scores the sigmoid of the true evaluation (noisy: a result
    drawn from it, 0 or 1)."""
    rng = np.random.default_rng(seed)
    terms = len(w_true) // 2
    counts = rng.integers(-3, 4, size=(n, terms))
    phase = rng.integers(0, 25, size=(n, 1))
    X = np.empty((n, 2 * terms), dtype=np.int32)
    X[:, 0::2] = counts * phase
    X[:, 1::2] = counts * (24 - phase)
    d = np.full(n, 24)
    p = texel.predict(np.asarray(w_true, float), X, d, k)
    y = (rng.random(n) < p).astype(float) if noisy else p
    return X, d, y


class Fit(unittest.TestCase):
    W = np.array([100.0, 120, -30, 10, 45, -60, 0, 25])
    K = 0.004

    def test_exact_scores_recover_the_weights(self):
        X, d, y = made_up(20000, self.W, self.K, seed=1, noisy=False)
        w, history = texel.fit(X, d, y, np.zeros_like(self.W), self.K, iterations=3000, lr=2.0)
        self.assertLess(np.max(np.abs(w - self.W)), 0.5, w)
        self.assertLess(history[-1][1], history[0][1])

    def test_results_recover_the_weights(self):
        X, d, y = made_up(100000, self.W, self.K, seed=2, noisy=True)
        w, _ = texel.fit(X, d, y, np.zeros_like(self.W), self.K, iterations=1500, lr=2.0)
        self.assertLess(np.max(np.abs(w - self.W)), 6.0, w)

    def test_k_is_recovered(self):
        X, d, y = made_up(20000, self.W, self.K, seed=3, noisy=False)
        self.assertAlmostEqual(texel.fit_k(self.W, X, d, y), self.K, delta=self.K * 0.01)

    def test_frozen_weights_stay(self):
        X, d, y = made_up(5000, self.W, self.K, seed=4, noisy=False)
        frozen = np.zeros(len(self.W), bool)
        frozen[:2] = True
        w, _ = texel.fit(X, d, y, np.zeros_like(self.W), self.K, iterations=300, frozen=frozen)
        self.assertEqual(list(w[:2]), [0.0, 0.0])
        self.assertTrue(np.any(w[2:] != 0))


class Blend(unittest.TestCase):
    def test_evals_blend_into_the_results(self):
        y = np.array([1.0, 0.0, 0.5, 1.0, 0.0])
        evals = np.array([np.nan, 0.0, 2.0, 998.0, -999.0])  # none, even, +2 pawns, mates
        k = 0.005
        t = texel.blend(y, evals, k, 0.25)
        self.assertEqual(t[0], 1.0)  # no [%eval]: the result alone
        self.assertAlmostEqual(t[1], 0.75 * 0.0 + 0.25 * 0.5)
        self.assertAlmostEqual(t[2], 0.75 * 0.5 + 0.25 / (1 + np.exp(-k * 200)))
        self.assertAlmostEqual(t[3], 0.75 + 0.25 / (1 + np.exp(-k * 5000)))  # capped at 50
        self.assertAlmostEqual(t[4], 0.25 / (1 + np.exp(k * 5000)))
        np.testing.assert_array_equal(texel.blend(y, evals, k, 0.0), y)


class Header(unittest.TestCase):
    def test_the_engine_header_round_trips(self):
        terms, source = weights_header.read_header(WEIGHTS_H)
        with open(WEIGHTS_H, encoding="utf-8") as f:
            self.assertEqual(weights_header.format_header(terms, source), f.read())

    def test_the_hand_weights_fit_the_engine(self):
        terms, source = weights_header.read_header(WEIGHTS_HAND_H)
        with open(WEIGHTS_HAND_H, encoding="utf-8") as f:
            self.assertEqual(weights_header.format_header(terms, source), f.read())
        engine_terms, _ = weights_header.read_header(WEIGHTS_H)
        self.assertEqual([t[0] for t in terms], [t[0] for t in engine_terms])

    def test_written_weights_read_back(self):
        terms = [("pawn", 101, -7), ("knight_centre", -3, 0), ("tempo", 12, 9)]
        source = "tune.py, seed 7, " + "a long line of provenance " * 12 + "end."
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "weights.h")
            weights_header.write_header(path, terms, source)
            self.assertEqual(weights_header.read_header(path), (terms, source))
            with open(path, encoding="utf-8") as f:
                self.assertTrue(all(len(line) <= 100 for line in f.read().splitlines()))

    def test_a_file_without_weights_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "weights.h")
            with open(path, "w") as f:
                f.write("/* nothing */\n")
            with self.assertRaises(ValueError):
                weights_header.read_header(path)


@unittest.skipUnless(PROGRAM, "DFENGINE_FEATURES is not set")
class Export(unittest.TestCase):
    START = [0xFF00, 0x42, 0x24, 0x81, 0x8, 0x10,
             0xFF << 48, 0x42 << 56, 0x24 << 56, 0x81 << 56, 0x8 << 56, 0x10 << 56]

    def test_names_are_the_header(self):
        terms, _ = weights_header.read_header(WEIGHTS_H)
        self.assertEqual(features.names(PROGRAM), terms)

    def test_features_give_the_evaluation(self):
        pieces = np.array([self.START, self.START], dtype=np.uint64)
        stm = np.array([False, True])
        out = features.compute(PROGRAM, pieces, stm)
        np.testing.assert_array_equal(out["status"], [1, 1])  # quiet, playable
        np.testing.assert_array_equal(out["divisor"], [24, 24])
        # The start position is even but for the tempo, at the middlegame's phase.
        tempo = {name: mg for name, mg, _ in features.names(PROGRAM)}["tempo"]
        np.testing.assert_array_equal(out["eval"], [tempo, tempo])
        w = np.array([x for _, mg, eg in features.names(PROGRAM) for x in (mg, eg)])
        np.testing.assert_array_equal(features.evaluate(w, out["X"], out["divisor"]), out["eval"])

    def test_the_side_to_move_is_read(self):
        queenless = self.START[:10] + [0] + self.START[11:]  # black without its queen
        pieces = np.array([queenless, queenless], dtype=np.uint64)
        out = features.compute(PROGRAM, pieces, np.array([False, True]))
        self.assertGreater(out["eval"][0], 800)  # white to move, a queen up
        self.assertLess(out["eval"][1], -800)  # black to move, a queen down
        w = np.array([x for _, mg, eg in features.names(PROGRAM) for x in (mg, eg)])
        np.testing.assert_array_equal(features.evaluate(w, out["X"], out["divisor"]), out["eval"])

    def test_a_bad_board_is_marked(self):
        bad = np.array([self.START[:5] + [0] + self.START[6:]], dtype=np.uint64)  # no white king
        out = features.compute(PROGRAM, bad, np.array([False]))
        self.assertEqual(out["status"][0], -1)


@unittest.skipUnless(PROGRAM and HAVE_DIRFILL, "DFENGINE_FEATURES not set or no dirfill module")
class Pipeline(unittest.TestCase):
    def test_games_in_weights_out(self):
        import io
        from contextlib import redirect_stdout

        import tune

        with tempfile.TemporaryDirectory() as tmp:
            games, out = os.path.join(tmp, "games.pgn"), os.path.join(tmp, "weights.h")
            with open(games, "wb") as f:
                f.write(GAMES)
            printed = io.StringIO()
            with redirect_stdout(printed):
                tune.main([games, "--features", PROGRAM, "--out", out, "--seed", "5",
                           "--min-ply", "2", "--iterations", "200"])
            text = printed.getvalue()
            # 47 positions, 25 of the three games with a result (the fourth is "*") from their
            # third ply (4 + 7 + 20 plies, less 2 each).
            self.assertIn("seed 5: 3 games, 47 positions read, 25 with a result and ply >= 2",
                          text)
            self.assertRegex(text, r"loss before [0-9.]+, after [0-9.]+")
            terms, source = weights_header.read_header(out)
            self.assertEqual([t[0] for t in terms], [t[0] for t in features.names(PROGRAM)])
            self.assertTrue(source.startswith("tune.py, seed 5, 3 games of games.pgn"))
            before, after = (float(x) for x in
                             re.search(r"loss before ([0-9.]+), after ([0-9.]+)", text).groups())
            self.assertLess(after, before)

    def test_frozen_terms_keep_their_weights(self):
        import io
        from contextlib import redirect_stdout

        import tune

        material = ["pawn", "knight", "bishop", "rook", "queen"]
        with tempfile.TemporaryDirectory() as tmp:
            games, out = os.path.join(tmp, "games.pgn"), os.path.join(tmp, "weights.h")
            with open(games, "wb") as f:
                f.write(GAMES)
            with redirect_stdout(io.StringIO()):
                tune.main([games, "--features", PROGRAM, "--out", out, "--min-ply", "2",
                           "--iterations", "200", "--lr", "20", "--freeze", ",".join(material)])
                with self.assertRaises(SystemExit):
                    tune.main([games, "--features", PROGRAM, "--freeze", "pawn,no_such_term"])
            start = {t[0]: t for t in features.names(PROGRAM)}
            tuned = {t[0]: t for t in weights_header.read_header(out)[0]}
            self.assertEqual([tuned[m] for m in material], [start[m] for m in material])
            self.assertNotEqual(tuned, start)  # the other terms moved


if __name__ == "__main__":
    unittest.main()
