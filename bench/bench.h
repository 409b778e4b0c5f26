/* dirfill bench: shared declarations of the harness, corpora and baselines. The classic
 * per-piece methods live here only, never in the library. */
#ifndef DIRFILL_BENCH_H
#define DIRFILL_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dirfill.h"

/* ---- Corpora (corpus.c) ---- */
typedef struct bench_corpus {
    const char *name;
    const char *how; /* how it was made, for --help and the README */
    df_board *boards;
    size_t count;
} bench_corpus;
enum { CORPUS_MIDDLEGAME, CORPUS_ENDGAME, CORPUS_GAMES, CORPUS_COUNT };
/* Builds the three corpora from fixed seeds (deterministic): count positions each. */
void corpus_build(bench_corpus out[CORPUS_COUNT], size_t count);
void corpus_free(bench_corpus out[CORPUS_COUNT]);

/* ---- Tables shared by the classic methods (tables.c) ---- */
extern df_bb bt_rook_pseudo[64];   /* rook attacks on an empty board */
extern df_bb bt_bishop_pseudo[64]; /* bishop attacks on an empty board */
void tables_init(void);
/* Relevant occupancy of a slider on sq (rook: first_dir 0, bishop: 1): the empty-board rays
 * less their edge square, from which no further step in the ray's direction stays on board. */
df_bb bt_relevant(int sq, int first_dir);

/* ---- Classic methods: per-piece loops over one attack getter each (classic_ops.h) ---- */
struct bench_runners;
typedef struct classic_method {
    const char *name;
    bool (*available)(void);
    void (*init)(void);
    const struct bench_runners *runners;
} classic_method;
extern const classic_method bench_pext, bench_magic, bench_hq;

/* The Stockfish-style pin and check finder (sniper.c): snipers from the king square on an
 * empty board, then the in-between table. */
void sniper_king_safety(df_pins_checks *out, const df_board *b);

/* ---- Output (report.c) ---- */
typedef struct bench_result {
    const char *op, *corpus, *method, *mode;
    double ns_per_pos;
    uint64_t checksum;
} bench_result;

/* ---- Operations and runners ---- */
enum {
    OP_SLIDER_RAYS,
    OP_SLIDER_RAYS_BOTH,
    OP_SLIDER_UNION,
    OP_XRAYS,
    OP_ATTACK_MAP,
    OP_ATTACK_MAPS_BOTH,
    OP_KING_SAFETY,
    OP_ATTACKERS_TO,
    OP_PERFT, /* the program's move generator to depth 2 from each position: ns per node */
    OP_COUNT
};
extern const char *const op_names[OP_COUNT];
extern const int op_words[OP_COUNT]; /* 64-bit words of output per position */

/* Runs one operation over boards[0..n), writing op_words words per position to out. */
typedef void (*bench_run_fn)(const df_board *boards, size_t n, uint64_t *out);
typedef struct bench_runners {
    bench_run_fn throughput[OP_COUNT], latency[OP_COUNT]; /* NULL: cannot produce it */
} bench_runners;

/* Read at run time, always 0: folding a result with it makes the next input's address
 * depend on the result (latency mode) without changing which input is used. */
extern volatile uint64_t bench_zero;

/* Defines name_tp and name_lat from the body (the variadic part), which reads the board `b`
 * and writes the words `o`. */
#define BENCH_RUNNERS(name, op, ...)                                                               \
    static void name##_tp(const df_board *boards, size_t n, uint64_t *out)                         \
    {                                                                                              \
        for (size_t i = 0; i < n; i++) {                                                           \
            const df_board *b = &boards[i];                                                        \
            uint64_t *o = out + i * (size_t)op_words[op];                                          \
            __VA_ARGS__;                                                                           \
        }                                                                                          \
    }                                                                                              \
    static void name##_lat(const df_board *boards, size_t n, uint64_t *out)                        \
    {                                                                                              \
        const uint64_t zero = bench_zero;                                                          \
        size_t next = 0;                                                                           \
        for (size_t i = 0; i < n; i++) {                                                           \
            const df_board *b = &boards[next];                                                     \
            uint64_t *o = out + i * (size_t)op_words[op], fold = 0;                                \
            __VA_ARGS__;                                                                           \
            for (int w = 0; w < op_words[op]; w++) fold |= o[w];                                   \
            next = i + 1 + (size_t)(fold & zero);                                                  \
        }                                                                                          \
    }

/* The attack map as op_words[OP_ATTACK_MAP] words. */
static inline void bench_store_map(uint64_t *o, const df_attack_map *m)
{
    for (int d = 0; d < 8; d++) {
        o[d] = m->rays.r[d];
        o[8 + d] = m->xrays.r[d];
    }
    for (int k = 0; k < DF_ATK_KINDS; k++) o[16 + k] = m->by_type[k];
    o[23] = m->all;
    o[24] = m->twice;
    for (int k = 0; k < DF_COUNT_BITS; k++) o[25 + k] = m->count[k];
}

extern const bench_runners bench_dirfill_runners, bench_sniper_runners;

#endif
