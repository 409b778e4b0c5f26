/* SPDX-License-Identifier: MIT */
/* Internal: bits to bytes with 256-bit vectors (SIMDe AVX2 names), for the planes of the AVX2
 * and AVX-512 backends. Included only by files compiled with those ISA flags (or emulated). */
#ifndef DF_SRC_AVX2_EXPAND_H
#define DF_SRC_AVX2_EXPAND_H

#include <simde/x86/avx2.h>

#include "dirfill.h"

/* The 32 bytes of ranks 1-4 (half 0) or 5-8 (half 1) of set, 0xff where the square is in it:
 * each byte takes the byte of set that holds its square, keeps its own bit, and compares. */
static inline simde__m256i df__expand_half(df_bb set, int half)
{
    const simde__m256i v = simde_mm256_set1_epi64x((int64_t)set);
    const simde__m256i pick =
        half ? simde_mm256_setr_epi8(4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6,
                                     6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7)
             : simde_mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2,
                                     2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
    const simde__m256i bit = simde_mm256_set1_epi64x((int64_t)UINT64_C(0x8040201008040201));
    return simde_mm256_cmpeq_epi8(simde_mm256_and_si256(simde_mm256_shuffle_epi8(v, pick), bit),
                                  bit);
}

static inline void df__expand(uint8_t out[64], df_bb set)
{
    const simde__m256i one = simde_mm256_set1_epi8(1);
    for (int h = 0; h < 2; h++)
        simde_mm256_storeu_si256((simde__m256i *)(out + 32 * h),
                                 simde_mm256_and_si256(df__expand_half(set, h), one));
}

static inline void df__expand_count(uint8_t out[64], const df_bb planes[DF_COUNT_BITS])
{
    for (int h = 0; h < 2; h++) {
        simde__m256i n = simde_mm256_setzero_si256();
        for (int k = 0; k < DF_COUNT_BITS; k++)
            n = simde_mm256_or_si256(n,
                                     simde_mm256_and_si256(df__expand_half(planes[k], h),
                                                           simde_mm256_set1_epi8((char)(1 << k))));
        simde_mm256_storeu_si256((simde__m256i *)(out + 32 * h), n);
    }
}

#endif
