/* SPDX-License-Identifier: MIT */
/* Internal template: one backend's table. Contract: the including file (src/<isa>/backend.c,
 * the only file compiled with that ISA's flags) defines the primitives listed in
 * kernels_tpl.h and planes_tpl.h (and may define pgn/skim_tpl.h's, or name in DF__PGN_SKIM a
 * pgn_skim of its own, compiled elsewhere) and
 *   DF__BACKEND_SYMBOL  the table's name (df__backend_<isa>)
 *   DF__BACKEND_NAME    its name for people ("avx2")
 *   DF__CPU_SUPPORTS    a function telling whether this CPU and OS can run it
 * then includes this file once. Every entry of DF__BACKEND_ENTRIES is a static k_<entry>. */
#include "fill/kernels_tpl.h"
#include "chess/movegen_tpl.h"
#include "chess/perft_tpl.h"
#include "chess/see_tpl.h"
#include "output/planes_tpl.h"
#include "nnue/features_tpl.h"
#ifdef DF__PGN_SKIM
#define k_pgn_skim DF__PGN_SKIM
#else
#include "pgn/skim_tpl.h"
#endif

static int k_see(const df_board *b, df_move m) { return df__see(b, m); }

const df__backend DF__BACKEND_SYMBOL = {.name = DF__BACKEND_NAME,
                                        .cpu_supports = DF__CPU_SUPPORTS,
#define DF__BACKEND_ENTRY(ret, fn, params, args) .fn = k_##fn,
                                        DF__BACKEND_ENTRIES(DF__BACKEND_ENTRY)
#undef DF__BACKEND_ENTRY
};
