/* SPDX-License-Identifier: MIT */
/* The 64-bit Mersenne Twister as the C++ standard defines std::mt19937_64 (Matsumoto and
 * Nishimura's MT19937-64): the generator nnue-pytorch's skip predicate draws from, so that
 * the same seed gives the same draws. The standard fixes its 10,000th output for the default
 * seed 5489: 9981545732273789042 (tests/test_nnue_skip.c checks it). */
#ifndef DF_SRC_NNUE_MT19937_64_H
#define DF_SRC_NNUE_MT19937_64_H

#include <stdint.h>

enum { DF__MT_N = 312, DF__MT_M = 156 };

typedef struct {
    uint64_t state[DF__MT_N];
    unsigned next; /* the index of the next output; DF__MT_N: the state must be twisted */
} df__mt19937_64;

static inline void df__mt_seed(df__mt19937_64 *g, uint64_t seed)
{
    g->state[0] = seed;
    for (unsigned i = 1; i < DF__MT_N; i++) {
        const uint64_t prev = g->state[i - 1];
        g->state[i] = UINT64_C(6364136223846793005) * (prev ^ (prev >> 62)) + i;
    }
    g->next = DF__MT_N;
}

static inline void df__mt_twist(df__mt19937_64 *g)
{
    const uint64_t upper = UINT64_C(0xFFFFFFFF80000000), lower = UINT64_C(0x7FFFFFFF);
    for (unsigned k = 0; k < DF__MT_N; k++) {
        const uint64_t y = (g->state[k] & upper) | (g->state[(k + 1) % DF__MT_N] & lower);
        g->state[k] = g->state[(k + DF__MT_M) % DF__MT_N] ^ (y >> 1) ^
                      ((y & 1) ? UINT64_C(0xB5026F5AA96619E9) : 0);
    }
    g->next = 0;
}

static inline uint64_t df__mt_next(df__mt19937_64 *g)
{
    if (g->next >= DF__MT_N) df__mt_twist(g);
    uint64_t y = g->state[g->next++];
    y ^= (y >> 29) & UINT64_C(0x5555555555555555);
    y ^= (y << 17) & UINT64_C(0x71D67FFFEDA60000);
    y ^= (y << 37) & UINT64_C(0xFFF7EEE000000000);
    return y ^ (y >> 43);
}

/* A number drawn uniformly from 0 to n - 1 (n > 0): Lemire's multiply-and-reject, the high half
 * of a draw times n, drawn again in the rare case the low half falls in the biased part. */
static inline uint64_t df__mt_below(df__mt19937_64 *g, uint64_t n)
{
    for (;;) {
        const uint64_t x = df__mt_next(g);
        /* x * n as 128 bits, from 32-bit halves (no 128-bit type in C11). */
        const uint64_t xl = (uint32_t)x, xh = x >> 32, nl = (uint32_t)n, nh = n >> 32;
        const uint64_t ll = xl * nl, lh = xl * nh, hl = xh * nl, hh = xh * nh;
        const uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
        const uint64_t high = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
        const uint64_t low = (mid << 32) | (uint32_t)ll;
        if (low >= n || low >= (0 - n) % n) return high;
    }
}

#endif
