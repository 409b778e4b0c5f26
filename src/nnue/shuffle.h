/* SPDX-License-Identifier: MIT */
/* Internal: a shuffling stream's buffer (shuffle.c): entries kept as they are read, then handed
 * out in the order of a Fisher-Yates shuffle. */
#ifndef DF_SRC_NNUE_SHUFFLE_H
#define DF_SRC_NNUE_SHUFFLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dirfill.h"
#include "nnue/mt19937_64.h"

typedef struct df__shuffle {
    df_nnue_entry *entries; /* room for cap entries: [0, held) kept */
    uint64_t *order;        /* for each kept entry, its input << 32 | its place in entries; once
                               mixed, in the order they are handed out */
    size_t cap, held, handed;
    bool draining; /* mixed: order[handed, held) are still to hand out */
} df__shuffle;

/* Room for cap entries (cap > 0), taken at once: its pages cost as they are first written, so a
 * small input takes little of it. False when out of memory. */
bool df__shuffle_init(df__shuffle *b, size_t cap);
void df__shuffle_free(df__shuffle *b);

/* Where the next entry is read to (held < cap), and keeping it, read from input. */
static inline df_nnue_entry *df__shuffle_slot(df__shuffle *b) { return &b->entries[b->held]; }
static inline void df__shuffle_keep(df__shuffle *b, size_t input)
{
    b->order[b->held] = (uint64_t)input << 32 | b->held;
    b->held++;
}

/* The hand-out order of what is held: for i from held - 1 down to 1, places i and j swapped, j
 * drawn below i + 1 (df__mt_below); then draining. */
void df__shuffle_mix(df__shuffle *b, df__mt19937_64 *rng);

/* The next entry in the mixed order and its input: true, or false (the buffer emptied, no
 * longer draining) when every one was handed out. */
bool df__shuffle_take(df__shuffle *b, df_nnue_entry *out, size_t *input);

#endif
