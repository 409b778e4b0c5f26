/* SPDX-License-Identifier: MIT */
/* The AVX-512 backend's PGN skimmer (pgn_skim.c), in a translation unit of its own: its block
 * classifier needs AVX-512BW, which backend.c must not be compiled with (see there). Built with
 * the ISA's flags for the real backend and without them (DF_AVX512_EMULATED) for the tests'
 * emulated one, as backend.c is, under a name for each. */
#ifndef DF_SRC_AVX512_PGN_SKIM_H
#define DF_SRC_AVX512_PGN_SKIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(DF_AVX512_EMULATED)
#define DF__PGN_SKIM_BW df__pgn_skim_avx512bwemu
#else
#define DF__PGN_SKIM_BW df__pgn_skim_avx512bw
#endif

/* k_pgn_skim of pgn/skim_tpl.h, on 512-bit vectors. */
size_t DF__PGN_SKIM_BW(const char *p, const char *end, bool line_start, uint64_t *line);

#endif
