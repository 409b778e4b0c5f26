/* SPDX-License-Identifier: MIT */
/* The PGN skimmer's block classifier (pgn/skim_tpl.h) on one 512-bit vector: a 64-byte block is
 * one load and a compare per class straight into a 64-bit mask (vpcmpeqb to k), where
 * avx2/pgn_skim.h takes two loads, two compares and two movemasks per class and shifts and ors
 * the halves together. Byte compares into masks and vpshufb on 512 bits are AVX-512BW, which
 * the backend's own file is kept without: hence this file (pgn_skim.h). */
#include <simde/x86/avx512.h>

#include "avx2/prefix_xor.h"
#include "scalar/byte_search.h"
#include "pgn_skim.h"

#if !defined(DF_AVX512_EMULATED) && !defined(__AVX512BW__)
#error "src/avx512/pgn_skim.c must be compiled with -mavx512bw (or DF_AVX512_EMULATED)"
#endif

/* The stops ('(', '*', '-', ';', '['), as avx2/pgn_skim.h finds them: a shuffle gives each byte the
 * stop its low nibble names, equal to the byte exactly when it is that stop ('[' shares ';''s
 * nibble and is compared apart). */
static inline uint64_t df__skim_stops_bw(simde__m512i x)
{
    const simde__m512i named = simde_mm512_broadcast_i32x4(
        simde_mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, '(', -1, '*', ';', -1, '-', -1, -1));
    return simde_mm512_cmpeq_epi8_mask(simde_mm512_shuffle_epi8(named, x), x) |
           simde_mm512_cmpeq_epi8_mask(x, simde_mm512_set1_epi8('['));
}

static inline df__skim_bits df__skim_block_bw(const char *p)
{
    const simde__m512i x = simde_mm512_loadu_si512((const void *)p);
    return (df__skim_bits){
        .open = simde_mm512_cmpeq_epi8_mask(x, simde_mm512_set1_epi8('{')),
        .close = simde_mm512_cmpeq_epi8_mask(x, simde_mm512_set1_epi8('}')),
        .newline = simde_mm512_cmpeq_epi8_mask(x, simde_mm512_set1_epi8('\n')),
        .stop = df__skim_stops_bw(x),
    };
}

static inline uint64_t df__skim_line_stops_bw(const char *p)
{
    const simde__m512i x = simde_mm512_loadu_si512((const void *)p);
    return simde_mm512_cmpeq_epi8_mask(x, simde_mm512_set1_epi8('%')) |
           simde_mm512_cmpeq_epi8_mask(x, simde_mm512_set1_epi8('['));
}

#define DF__SKIM_BLOCK      df__skim_block_bw
#define DF__SKIM_LINE_STOPS df__skim_line_stops_bw
#include "pgn/skim_tpl.h"

size_t DF__PGN_SKIM_BW(const char *p, const char *end, bool line_start, uint64_t *line)
{
    return k_pgn_skim(p, end, line_start, line);
}
