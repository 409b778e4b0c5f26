/* SPDX-License-Identifier: MIT */
/* NNUE training entries from generated games, for the tests of the formats and the program. */
#ifndef DFT_NNUE_GAMES_H
#define DFT_NNUE_GAMES_H

#include <stdbool.h>
#include <stdint.h>

#include "dirfill.h"

/* A growing list of entries; {0} is an empty one. */
typedef struct dft_entries {
    df_nnue_entry *e;
    size_t n, cap;
} dft_entries;

/* Appends a copy of e (a cmocka failure when memory runs out). */
void dft_entries_add(dft_entries *es, const df_nnue_entry *e);
void dft_entries_free(dft_entries *es);

/* How dft_game_entries plays: from the standard start, or from two Chess960 starts in turn;
 * min_plies plus a random number below more_plies per game; each entry's score from score;
 * with gap, about one position in gap left out (breaking a .binpack chain). */
typedef struct dft_game_style {
    bool chess960;
    uint32_t min_plies, more_plies;
    int16_t (*score)(uint64_t *rng);
    unsigned gap;
} dft_game_style;

/* The positions of games of random legal moves, one entry before each move, the results the
 * games' (an unfinished game's drawn at random), from each side to move's view. */
void dft_game_entries(dft_entries *out, uint64_t *rng, int games, const dft_game_style *style);

/* Bytes in memory, written by a writer (dft_mem_write) or by hand; {0} is empty. */
typedef struct dft_mem {
    unsigned char *p;
    size_t len, cap;
} dft_mem;

/* Appends n bytes (a cmocka failure when memory runs out). */
void dft_mem_put(dft_mem *m, const void *data, size_t n);
/* A writer's function (df_nnue_writer_to_function) appending to the dft_mem ctx. */
long dft_mem_write(void *ctx, const char *buf, size_t n);
/* es[0, n) written in format to memory (a cmocka failure when one is refused). */
dft_mem dft_nnue_write_all(df_nnue_format format, const df_nnue_entry *es, size_t n);

#endif
