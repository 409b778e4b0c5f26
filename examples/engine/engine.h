/* SPDX-License-Identifier: MIT */
/* dfengine: a small UCI chess engine on dirfill's public API, the example engine authors copy
 * from. Search (search.c), evaluation from set-wise attack maps (eval.c), a transposition table
 * (tt.c), the UCI protocol and the clock (uci.c). */
#ifndef DFENGINE_H
#define DFENGINE_H

#include <dirfill.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "weights.h"

enum {
    MAX_PLY = 128,
    INF = 32000,
    MATE = 31000,               /* mate in n plies scores MATE - n */
    MATE_BOUND = MATE - MAX_PLY /* scores beyond are mates */
};

/* ---- evaluation (eval.c) ---- */

/* Fills the evaluation's tables (once, before the first evaluate). */
void eval_init(void);
/* The position's value for the side to move, in centipawns. */
int evaluate(const df_board *b);
/* Material of the pieces but pawns and kings of a side (null-move and endgame decisions). */
int non_pawn_material(const df_board *b, df_color c);
/* Piece values by df_piece_type, the same as the library's SEE values (the search's; the
 * evaluation's material is a tunable term of weights.h). */
extern const int piece_value[DF_PIECE_TYPES];

/* The evaluation is linear in its weights (weights.h): each term counts something for white
 * and for black, and weighs (white's count - black's) by a middlegame and an endgame weight,
 * blended by the phase. The terms, named as in weights.h: */
enum eval_term {
#define EVAL_TERM_ENUM(name, mg, eg) TERM_##name,
    DFENGINE_WEIGHTS(EVAL_TERM_ENUM)
#undef EVAL_TERM_ENUM
        EVAL_TERMS
};
/* The features are two a term, the middlegame's and the endgame's, as are the weights:
 * weights[2 t] and weights[2 t + 1] are term t's. */
enum { EVAL_FEATURES = 2 * EVAL_TERMS, PHASE_MAX = 24 };
extern const char *const eval_term_names[EVAL_TERMS];
extern const int eval_weights[EVAL_FEATURES];
/* The features of b for the side to move: term t's count (the side to move's minus the
 * other's) times the phase (0..PHASE_MAX) at 2 t, times PHASE_MAX - phase at 2 t + 1. Returns the
 * divisor d such that, exactly (C's integer division),
 *     evaluate(b) == (sum of eval_weights[i] * features[i]) / d:
 * PHASE_MAX, or 8 PHASE_MAX where the position is a draw-ish ending (evaluate divides by 8).
 * A tuner fits the weights to (w . features) / d, the evaluation before its rounding. */
int eval_features(const df_board *b, int32_t features[EVAL_FEATURES]);

/* ---- transposition table (tt.c) ---- */

enum { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT };

typedef struct {
    uint64_t key;
    df_move move;
    int16_t score, eval;
    uint8_t depth, bound, age;
} tt_entry;

/* Sets the table's size in megabytes (1 at least); false when out of memory. */
bool tt_resize(size_t megabytes);
void tt_clear(void);
void tt_new_search(void);
/* Starts loading key's slot into the cache (a child's, before it is searched). */
void tt_prefetch(uint64_t key);
/* The entry of key, or NULL. */
const tt_entry *tt_probe(uint64_t key);
void tt_store(uint64_t key, df_move move, int score, int eval, int depth, int bound);

/* ---- search (search.c) ---- */

typedef struct {
    df_board root;
    df_history history;       /* the game's positions before the root */
    int64_t soft_ms, hard_ms; /* stop after an iteration past soft, at once past hard; 0: none */
    int max_depth;            /* 0: as deep as time allows */
    uint64_t max_nodes;       /* 0: no limit */
    bool infinite;            /* wait for stop even when the search is done */
} search_limits;

/* Set by the UCI thread: stop as soon as possible. */
extern atomic_bool search_stop;

/* Searches and prints UCI info lines; returns the best move (DF_MOVE_NONE without one). */
df_move search(const search_limits *limits, df_move *ponder);
/* Milliseconds since an arbitrary start. */
int64_t now_ms(void);

#endif
