/* SPDX-License-Identifier: MIT */
/* The PGN skimmer's block classifier (pgn/skim_tpl.h) on 256-bit vectors, for the AVX2 backend
 * (src/avx2; src/avx512 has its own, avx512/pgn_skim.c): a 64-byte block is two loads, a compare
 * per brace and newline and half, a shuffle and two compares for the five stops, and a movemask
 * per class and half, where scalar/byte_search.h's SSE2 classifier takes four of each with a
 * register copy before every compare. Included after SIMDe's avx2.h. */
#ifndef DF_SRC_AVX2_PGN_SKIM_H
#define DF_SRC_AVX2_PGN_SKIM_H

#include "prefix_xor.h"
#include "scalar/byte_search.h"

/* The bytes of x equal to c, bit i for byte i. */
static inline uint64_t df__skim_eq32(simde__m256i x, char c)
{
    return (uint32_t)simde_mm256_movemask_epi8(simde_mm256_cmpeq_epi8(x, simde_mm256_set1_epi8(c)));
}

/* The bytes of x equal to any of the n values of c. */
static inline uint64_t df__skim_any32(simde__m256i x, const char *c, int n)
{
    simde__m256i hit = simde_mm256_cmpeq_epi8(x, simde_mm256_set1_epi8(c[0]));
    for (int i = 1; i < n; i++)
        hit = simde_mm256_or_si256(hit, simde_mm256_cmpeq_epi8(x, simde_mm256_set1_epi8(c[i])));
    return (uint32_t)simde_mm256_movemask_epi8(hit);
}

/* The bytes of x that are stops ('(', '*', '-', ';', '['): the first four differ in their low
 * nibble, so one shuffle gives each byte the stop its low nibble names (0xff, no ASCII byte,
 * where none), equal to the byte itself exactly when it is that stop; '[' shares ';''s nibble
 * and is compared apart. Two compares and a shuffle where a compare per stop took five. */
static inline uint64_t df__skim_stops32(simde__m256i x)
{
    const simde__m256i named = simde_mm256_setr_epi8(
        -1, -1, -1, -1, -1, -1, -1, -1, '(', -1, '*', ';', -1, '-', -1, -1, /* a lane each */
        -1, -1, -1, -1, -1, -1, -1, -1, '(', -1, '*', ';', -1, '-', -1, -1);
    const simde__m256i hit =
        simde_mm256_or_si256(simde_mm256_cmpeq_epi8(simde_mm256_shuffle_epi8(named, x), x),
                             simde_mm256_cmpeq_epi8(x, simde_mm256_set1_epi8('[')));
    return (uint32_t)simde_mm256_movemask_epi8(hit);
}

static inline df__skim_bits df__skim_block_avx2(const char *p)
{
    const simde__m256i lo = simde_mm256_loadu_si256((const void *)p),
                       hi = simde_mm256_loadu_si256((const void *)(p + 32));
    return (df__skim_bits){
        .open = df__skim_eq32(lo, '{') | df__skim_eq32(hi, '{') << 32,
        .close = df__skim_eq32(lo, '}') | df__skim_eq32(hi, '}') << 32,
        .newline = df__skim_eq32(lo, '\n') | df__skim_eq32(hi, '\n') << 32,
        .stop = df__skim_stops32(lo) | df__skim_stops32(hi) << 32,
    };
}

static inline uint64_t df__skim_line_stops_avx2(const char *p)
{
    static const char line_stops[2] = {'%', '['};
    return df__skim_any32(simde_mm256_loadu_si256((const void *)p), line_stops, 2) |
           df__skim_any32(simde_mm256_loadu_si256((const void *)(p + 32)), line_stops, 2) << 32;
}

#define DF__SKIM_BLOCK      df__skim_block_avx2
#define DF__SKIM_LINE_STOPS df__skim_line_stops_avx2

#endif
