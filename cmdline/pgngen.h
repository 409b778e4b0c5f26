/* SPDX-License-Identifier: MIT */
/* Random games written as PGN, with what was written kept beside the text: the tests check the
 * reader against it, the benchmark reads it. Every game is a legal playout by the library;
 * the style bits choose how the text looks (comments with [%eval] and [%clk], variations,
 * NAGs, annotation suffixes, line comments, escape lines, odd spacing and line breaks). */
#ifndef DIRFILL_PGNGEN_H
#define DIRFILL_PGNGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmdline.h"
#include "dirfill.h"

enum {
    PGNGEN_EVALS = 1,      /* { [%eval ...] } after most moves, mates now and then */
    PGNGEN_CLOCKS = 2,     /* [%clk h:mm:ss] */
    PGNGEN_VARIATIONS = 4, /* (...) side lines, nested, with comments of their own */
    PGNGEN_NAGS = 8,       /* $1, $14 */
    PGNGEN_SUFFIXES = 16,  /* !, ?, !?, ... on the SAN */
    PGNGEN_COMMENTS = 32,  /* ; line comments and % escape lines */
    PGNGEN_SPACING = 64,   /* line breaks anywhere, tabs, "1.e4", "1...e5", "0-0" */
    PGNGEN_ALL = 127
};

/* What a written game holds. */
typedef struct pgngen_truth {
    df_board start;
    bool chess960; /* a Variant tag says so */
    uint32_t plies;
    df_move *moves;     /* plies of them */
    uint8_t *eval_kind; /* df_pgn_eval_kind per ply */
    int32_t *mate;      /* per ply */
    float *pawns;       /* per ply: exactly representable values (hundredths of a pawn) */
    double *clock;      /* per ply, < 0 for none */
    df_result result;
} pgngen_truth;

/* A growing text. */
typedef cmd_text pgngen_text; /* the games' text, NUL-terminated */

void pgngen_text_free(pgngen_text *t);
void pgngen_truth_free(pgngen_truth *g);

/* Appends one game to out: from start (standard chess, or a Chess960 position when chess960),
 * at most max_plies random legal moves (until mate, stalemate or the limit), in the given
 * style, a [FEN] tag unless start is the standard start, index as the Round tag. *truth (may
 * be NULL) gets what was written (free it with pgngen_truth_free). Returns false when out of
 * memory. */
bool pgngen_game(pgngen_text *out, uint64_t *rng, const df_board *start, bool chess960,
                 uint32_t max_plies, unsigned style, uint64_t index, pgngen_truth *truth);

#endif
