/* SPDX-License-Identifier: MIT */
/**
 * @file nnue_skip.h
 * @brief nnue-pytorch's skip options: which training entries a trainer leaves out, with the
 *        same meanings, the same random draws and the same adaptive piece-count filter as its
 *        loader's skip predicate (make_skip_predicate, nnue-pytorch at commit 9f72946).
 *
 * A predicate is asked about each entry in turn (position, move, score, ply, result) and
 * answers whether to skip it. Its rules, in the order it applies them, the first that says
 * skip winning:
 *  1. a missing score (DF_NNUE_SCORE_NONE, 32002);
 *  2. a placeholder zero: score 0 in a decided game (result not 0) right after an entry of the
 *     same stream with a score beyond ±100 (a later ply);
 *  3. early_fen_skipping: ply <= n;
 *  4. random_fen_skipping: with probability n / (n + 1);
 *  5. filtered: the move captures (its destination holds a piece of the other colour; en
 *     passant and castling do not count) or the side to move is in check;
 *  6. wld_filtered: with probability 1 - P, P the win-rate model's probability of the game's
 *     actual result given the score and the ply (Stockfish's model, scores scaled by 208);
 *  7. simple_eval_skipping: |material balance| below n, in Stockfish's piece values from the
 *     side to move's view;
 *  8. soft_early_fen_skipping: for ply < n, with probability 1 - f(ply), f the piecewise
 *     linear curve through the four ply points and (n, 1);
 *  9. the adaptive piece-count filter: every entry that got this far counts in a histogram of
 *     piece counts (halved every 10,000 entries), and is kept with a probability that brings
 *     the kept entries' piece counts toward the weights pc_y (a cubic Hermite curve through
 *     0, 8, 16, 24 and 32 pieces): the most over-represented count is kept with about 2.5 %.
 * Rules 1-3, 5 and 7 are the hard rules: deterministic. Rules 4, 6, 8 and 9 each draw one
 * 64-bit number from an mt19937_64 (the C++ standard's generator) seeded by the caller, in
 * that order, whenever they are reached; a probability p is met when the number is below
 * p * 2^64. So the same options, seed and entries give the same answers, and with seed 5489
 * (the C++ default) a predicate answers as nnue-pytorch's does on one thread.
 *
 * As in nnue-pytorch, a predicate whose options are all off (filtered, wld_filtered false,
 * random_fen_skipping <= 0, early_fen_skipping < 0, soft_early_fen_skipping <= 0) skips
 * nothing, not even a missing score; simple_eval_skipping alone does not turn it on, and the
 * piece-count filter runs whenever any of them is on.
 *
 * Thread-safety: a predicate holds the state of one stream of entries and belongs to one
 * thread at a time.
 */
#ifndef DIRFILL_NNUE_SKIP_H
#define DIRFILL_NNUE_SKIP_H

#include <stdbool.h>
#include <stdint.h>

#include "binpack.h"
#include "board.h"
#include "export.h"
#include "moves.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The options of nnue-pytorch's SkipConfig, with its meanings (see the file's comment). */
typedef struct df_nnue_skip_options {
    bool filtered;               /**< skip captures and positions in check */
    bool wld_filtered;           /**< skip by the win-rate model's probability of the result */
    int random_fen_skipping;     /**< skip with probability n / (n + 1); 0: off */
    int early_fen_skipping;      /**< skip ply <= n; -1: off */
    int soft_early_fen_skipping; /**< skip ply < n with probability 1 - curve(ply); 0: off */
    int simple_eval_skipping;    /**< skip |material| < n; 0 or less: off */
    double pc_y[5];              /**< piece-count weights at 0, 8, 16, 24 and 32 pieces */
    double ply_x[4];             /**< the soft early-ply curve's points: plies ... */
    double ply_y[4];             /**< ... and what is kept at each */
} df_nnue_skip_options;

/** The options nnue-pytorch's Python side passes by default (its data_loader/config.py):
 *  filtered, wld_filtered, soft_early_fen_skipping 20, pc_y 0, 0.4, 1, 1, 0.75, ply points
 *  (0, 0.1), (6, 0.15), (10, 0.25), (18, 0.75). */
DF_API df_nnue_skip_options df_nnue_skip_defaults(void);

/** All options off: a predicate that skips nothing. The curves keep the defaults' values. */
DF_API df_nnue_skip_options df_nnue_skip_none(void);

/** Sets one option by nnue-pytorch's name for it (its SkipConfig's fields): filtered and
 *  wld_filtered take 0, 1, false or true; random_fen_skipping, early_fen_skipping,
 *  soft_early_fen_skipping and simple_eval_skipping a whole number (-1000000 to 1000000);
 *  pc_y0 .. pc_y4, ply_x1 .. ply_x4 and ply_y1 .. ply_y4 a finite number (in C's notation, no
 *  leading space). Returns
 *  DF_ERR_ARGUMENT, leaving o as it was, for a NULL argument, an unknown key or a value that is
 *  not of its kind; DF_OK else. The one parser of the program's --skip and Python's skip=. */
DF_API df_status df_nnue_skip_option_set(df_nnue_skip_options *o, const char *key,
                                         const char *value);

/** One stream's predicate (opaque). */
typedef struct df_nnue_skip df_nnue_skip;

/** A predicate for these options, its generator seeded with seed (5489: nnue-pytorch's); NULL
 *  when out of memory or when an option is out of range (soft_early_fen_skipping above
 *  65,536 plies, a weight that is not a finite number). Free it with df_nnue_skip_free. */
DF_API df_nnue_skip *df_nnue_skip_new(const df_nnue_skip_options *options, uint64_t seed);

/** Frees a predicate; NULL is accepted. */
DF_API void df_nnue_skip_free(df_nnue_skip *s);

/** Whether the entry is to be skipped: position b, the move played from it, its score and
 *  result from the side to move's view, its ply. Entries must come in their stream's order:
 *  the placeholder rule and the piece-count filter remember the ones before. */
DF_API bool df_nnue_skip_entry(df_nnue_skip *s, const df_board *b, df_move move, int score,
                               unsigned ply, int result);

#ifdef __cplusplus
}
#endif

#endif
