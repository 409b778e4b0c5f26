/* SPDX-License-Identifier: MIT */
/* A shuffling stream's buffer (shuffle.h): its memory, the shuffle of its order, the entries
 * handed out in that order. */
#include <stdlib.h>
#include <string.h>

#include "nnue/shuffle.h"

/* Entries ahead of the one handed out whose memory is fetched, and draws ahead of the swap
 * that shuffles with them: both read a buffer far larger than the caches in a random order. */
enum { PREFETCH = 16, AHEAD = 16 };

bool df__shuffle_init(df__shuffle *b, size_t cap)
{
    memset(b, 0, sizeof *b);
    /* One block for both arrays, its pages untouched until the buffer first fills them (a
     * large block is mapped by the allocator, and a page costs only once written). */
    const size_t entries = (cap * sizeof *b->entries + 63) & ~(size_t)63;
    char *at = malloc(entries + cap * sizeof *b->order);
    if (!at) return false;
    b->entries = (df_nnue_entry *)at;
    b->order = (uint64_t *)(at + entries);
    b->cap = cap;
    return true;
}

void df__shuffle_free(df__shuffle *b)
{
    free(b->entries);
    memset(b, 0, sizeof *b);
}

void df__shuffle_mix(df__shuffle *b, df__mt19937_64 *rng)
{
    /* The draws are made AHEAD swaps before their swap, in the same sequence, so that the place
     * each one swaps with is fetched meanwhile: the places are far apart in a large buffer. */
    uint64_t *order = b->order;
    size_t drawn[AHEAD];
    size_t next = b->held; /* the next swap to draw for: places next - 1 down to 1 */
    for (size_t k = 0; k < AHEAD && next > 1; k++, next--) {
        drawn[k] = (size_t)df__mt_below(rng, next);
        __builtin_prefetch(&order[drawn[k]], 1);
    }
    for (size_t i = b->held, k = 0; i-- > 1; k = (k + 1) % AHEAD) {
        const size_t j = drawn[k];
        if (next > 1) {
            drawn[k] = (size_t)df__mt_below(rng, next--);
            __builtin_prefetch(&order[drawn[k]], 1);
        }
        const uint64_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    b->handed = 0;
    b->draining = true;
}

bool df__shuffle_take(df__shuffle *b, df_nnue_entry *out, size_t *input)
{
    if (b->handed == b->held) {
        b->held = b->handed = 0;
        b->draining = false;
        return false;
    }
    if (b->handed + PREFETCH < b->held) {
        const char *ahead = (const char *)&b->entries[(uint32_t)b->order[b->handed + PREFETCH]];
        __builtin_prefetch(ahead);
        __builtin_prefetch(ahead + sizeof *b->entries - 1);
    }
    const uint64_t at = b->order[b->handed++];
    *out = b->entries[(uint32_t)at];
    *input = (size_t)(at >> 32);
    return true;
}
