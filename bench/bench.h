/* SPDX-License-Identifier: MIT */
/* dirfill bench: shared declarations of the harness, corpora and baselines. The classic
 * per-piece methods live here only, never in the library. */
#ifndef DIRFILL_BENCH_H
#define DIRFILL_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dirfill.h"

/* ---- Corpora (corpus.c) ---- */

/* What every runner reads: the positions and what the batch and per-move operations take
 * precomputed (as a batch caller or a search would have them). */
typedef struct bench_input {
    const df_board *boards;     /* the positions */
    const df_sliders *sliders;  /* the side to move's sliders of each position */
    const df_move *moves;       /* every legal move of every position, position by position */
    const uint32_t *move_start; /* position i's moves: moves[move_start[i] .. move_start[i+1]) */
    const char *pgn;            /* the games corpus only (else NULL): PGN text of games */
    const uint32_t *game_start; /* game i: pgn[game_start[i] .. game_start[i+1]) */
} bench_input;

typedef struct bench_corpus {
    const char *name;
    const char *how; /* how it was made, for --help and docs/performance.md */
    df_board *boards;
    df_sliders *sliders;
    df_move *moves;
    uint32_t *move_start;
    size_t count;
    char *pgn; /* random legal games as PGN (the games corpus; NULL for the others) */
    uint32_t *game_start;
    size_t games;
} bench_corpus;
enum { CORPUS_MIDDLEGAME, CORPUS_ENDGAME, CORPUS_GAMES, CORPUS_COUNT };
/* Builds the three corpora from fixed seeds (deterministic): count positions each. Returns
 * false when out of memory. */
bool corpus_build(bench_corpus out[CORPUS_COUNT], size_t count);
void corpus_free(bench_corpus out[CORPUS_COUNT]);
bench_input corpus_input(const bench_corpus *c);

/* ---- Tables shared by the classic methods (tables.c) ---- */
extern df_bb bt_rook_pseudo[64];   /* rook attacks on an empty board */
extern df_bb bt_bishop_pseudo[64]; /* bishop attacks on an empty board */
void tables_init(void);
/* Relevant occupancy of a slider on sq (rook: DF_N, bishop: DF_NE as first): the empty-board
 * rays less their edge square, from which no further step in the ray's direction stays on
 * board. */
df_bb bt_relevant(df_square sq, df_dir first);

/* ---- Operations ---- */
typedef enum {
    OP_SLIDER_RAYS,
    OP_SLIDER_RAYS_BATCH,
    OP_SLIDER_RAYS_BOTH,
    OP_SLIDER_UNION,
    OP_XRAYS,
    OP_ATTACK_MAP,
    OP_ATTACK_MAPS_BOTH,
    OP_KING_SAFETY,
    OP_ATTACKERS_TO,
    OP_PERFT,     /* the library's perft to depth 2 from each position: ns per node */
    OP_MAKE_MOVE, /* df_make_move of every legal move: ns per move */
    OP_SEE,       /* df_see of every legal move: ns per move */
    OP_PGN,       /* read, check and replay the games corpus's PGN games: ns per game */
    OP_COUNT
} bench_op;
/* What an operation's time is divided by. */
typedef enum { UNIT_POSITION, UNIT_NODE, UNIT_MOVE, UNIT_GAME } bench_unit;
typedef struct bench_op_info {
    const char *name;
    int words; /* 64-bit words of output per position */
    bench_unit unit;
    bool dispatched; /* runs on the selected backend (make_move is the same code on all) */
} bench_op_info;
extern const bench_op_info bench_ops[OP_COUNT];
extern const char *const bench_unit_names[4];
/* Whether op runs on corpus c (the PGN operation needs the games corpus's text), and over how
 * many items: positions, or games for the PGN operation. */
bool bench_op_applies(bench_op op, const bench_corpus *c);
size_t bench_op_items(bench_op op, const bench_corpus *c);

/* Runs one operation over items [0, n) of in (positions; games for OP_PGN), writing
 * bench_ops[op].words words per position to out. restrict: the output aliases neither the input nor a method's tables, so
 * the compiler need not reload after each store (every method is built alike). */
typedef void (*bench_run_fn)(const bench_input *restrict in, size_t n, uint64_t *restrict out);
typedef struct bench_runners {
    bench_run_fn throughput[OP_COUNT], latency[OP_COUNT]; /* NULL: cannot produce it */
} bench_runners;

/* Read at run time, always 0: folding a result with it makes the next input's address
 * depend on the result (latency mode) without changing which input is used. */
extern volatile uint64_t bench_zero;

/* Defines name_tp and name_lat from the body (the variadic part), which reads the input `in`,
 * the position index `i` and the board `b`, and writes the words `o`. */
#define BENCH_RUNNERS(name, op, ...)                                                               \
    static void name##_tp(const bench_input *restrict in, size_t n, uint64_t *restrict out)        \
    {                                                                                              \
        const df_board *restrict boards = in->boards;                                              \
        const size_t words = (size_t)bench_ops[op].words;                                          \
        for (size_t i = 0; i < n; i++) {                                                           \
            const df_board *b = &boards[i];                                                        \
            uint64_t *restrict o = out + i * words;                                                \
            __VA_ARGS__;                                                                           \
        }                                                                                          \
    }                                                                                              \
    static void name##_lat(const bench_input *restrict in, size_t n, uint64_t *restrict out)       \
    {                                                                                              \
        const df_board *restrict boards = in->boards;                                              \
        const size_t words = (size_t)bench_ops[op].words;                                          \
        const uint64_t zero = bench_zero;                                                          \
        size_t next = 0;                                                                           \
        for (size_t k = 0; k < n; k++) {                                                           \
            const size_t i = next;                                                                 \
            const df_board *b = &boards[i];                                                        \
            uint64_t *restrict o = out + k * words, bench_fold_ = 0;                               \
            __VA_ARGS__;                                                                           \
            for (size_t w = 0; w < words; w++) bench_fold_ |= o[w];                                \
            next = k + 1 + (size_t)(bench_fold_ & zero);                                           \
        }                                                                                          \
    }

/* The attack map as bench_ops[OP_ATTACK_MAP].words words, field by field. */
enum {
    MAP_RAYS = 0,
    MAP_XRAYS = 8,
    MAP_PAWN_EAST = 16,
    MAP_PAWN_WEST = 17,
    MAP_BY_TYPE = 18,
    MAP_ALL = 24,
    MAP_TWICE = 25,
    MAP_COUNT = 26,
    MAP_WORDS = 31
};
static inline void bench_store_map(uint64_t *restrict o, const df_attack_map *m)
{
    for (int d = 0; d < DF_DIRS; d++) {
        o[MAP_RAYS + d] = m->rays.r[d];
        o[MAP_XRAYS + d] = m->xrays.r[d];
    }
    o[MAP_PAWN_EAST] = m->pawn_east;
    o[MAP_PAWN_WEST] = m->pawn_west;
    for (int t = 0; t < DF_PIECE_TYPES; t++) o[MAP_BY_TYPE + t] = m->by_type[t];
    o[MAP_ALL] = m->all;
    o[MAP_TWICE] = m->twice;
    for (int k = 0; k < DF_COUNT_BITS; k++) o[MAP_COUNT + k] = m->count[k];
}

/* ---- Methods ---- */
/* A method as the harness times it: a name, its runners, and whether it is a dirfill backend
 * (selected with df_backend_select before each run). */
typedef struct bench_method {
    const char *name;
    const bench_runners *runners;
    bool backend;
} bench_method;

typedef struct classic_method {
    const char *name;
    bool (*available)(void);
    void (*init)(void);
    const bench_runners *runners;
} classic_method;
/* The classic per-piece methods over one attack getter each (classic_tpl.h). */
extern const classic_method bench_pext, bench_magic, bench_hq;
/* dirfill's operations through the public API, on whichever backend is selected. */
extern const bench_runners bench_dirfill_runners;
/* The Stockfish-style pin and check finder (sniper.c): snipers from the king square on an
 * empty board, then the in-between table. */
extern const bench_runners bench_sniper_runners;
void sniper_king_safety(df_king_safety_sets *out, const df_board *b);

#endif
