/* SPDX-License-Identifier: MIT */
/* Internal template: a table-based lookup method (pext.c, magic.c) as one df__lookup.
 * Contract: the including file defines df__rook and df__bishop (single_tpl.h) and
 *   DF__LOOKUP_SYMBOL  the table's name (df__lookup_<method>)
 *   DF__LOOKUP_NAME    its name for people ("pext")
 *   DF__LOOKUP_SUPPORTED, DF__LOOKUP_INIT  the functions of df__lookup's fields
 *   DF__LOOKUP_SLIDERS  its tables for the move generator (df__sliders)
 * then includes this file once. */
#include "single_tpl.h"

static inline df_bb df__slider_attackers(df_square sq, df_bb occ, df_bb rq, df_bb bq)
{
    return (df__rook(sq, occ) & rq) | (df__bishop(sq, occ) & bq);
}

static inline df_bb df__slider_attacks(df_square sq, df_bb occ, bool orth, bool diag)
{
    return (orth ? df__rook(sq, occ) : 0) | (diag ? df__bishop(sq, occ) : 0);
}

#include "fill/attackers_tpl.h"
#include "chess/see_tpl.h"

static void l_attackers_to_all(df_bb out[64], const df_board *b) { df__attackers_to_all(out, b); }
static int l_see(const df_board *b, df_move m) { return df__see(b, m); }

const df__lookup DF__LOOKUP_SYMBOL = {.name = DF__LOOKUP_NAME,
                                      .cpu_supports = DF__LOOKUP_SUPPORTED,
                                      .init = DF__LOOKUP_INIT,
                                      .sliders = DF__LOOKUP_SLIDERS,
#define DF__LOOKUP_ENTRY(ret, fn, params, args) .fn = l_##fn,
                                      DF__LOOKUP_ENTRIES(DF__LOOKUP_ENTRY)
#undef DF__LOOKUP_ENTRY
};
