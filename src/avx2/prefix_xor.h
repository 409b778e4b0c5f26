/* SPDX-License-Identifier: MIT */
/* The PGN skimmer's prefix parity (pgn/skim_tpl.h) by one carry-less multiply by all ones, for
 * the backends built with PCLMULQDQ (AVX2 and AVX-512). The intrinsic is used as it is rather
 * than through SIMDe: SIMDe 0.7's native mapping names itself and falls back to a portable
 * sixteen-multiply version, slower than the template's shifts. Without PCLMULQDQ (the emulated
 * builds) the template keeps its shifts. */
#ifndef DF_SRC_AVX2_PREFIX_XOR_H
#define DF_SRC_AVX2_PREFIX_XOR_H

#if defined(__PCLMUL__)
#include <stdint.h>
#include <wmmintrin.h>

static inline uint64_t df__clmul_prefix_xor(uint64_t x)
{
    return (uint64_t)_mm_cvtsi128_si64(
        _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)x), _mm_set1_epi8((char)0xff), 0));
}
#define DF__SKIM_PREFIX_XOR df__clmul_prefix_xor
#endif

#endif
