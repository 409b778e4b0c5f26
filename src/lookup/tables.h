/* SPDX-License-Identifier: MIT */
/* Internal: what the table-based lookup methods (pext.c, magic.c) share. */
#ifndef DF_SRC_LOOKUP_TABLES_H
#define DF_SRC_LOOKUP_TABLES_H

#include "lookup.h"

/* Entries of every square's table together: rooks 2^10 to 2^12 occupancies a square (102400),
 * bishops 2^5 to 2^9 (5248). */
#define DF__ROOK_ENTRIES   102400
#define DF__BISHOP_ENTRIES 5248

/* The squares whose occupancy matters to a rook (orth) or bishop on sq: its empty-board rays
 * less the last square of each, which is attacked whether occupied or not. */
static inline df_bb df__relevant(df_square sq, bool orth)
{
    df_bb mask = 0;
    for (int d = orth ? DF_N : DF_NE; d < DF_DIRS; d += 2) {
        const df_bb ray = df_ray_mask(sq, (df_dir)d);
        if (!ray) continue;
        const df_square last = df_dir_is_positive((df_dir)d) ? df_msb(ray) : df_lsb(ray);
        mask |= ray & ~df_square_bb(last);
    }
    return mask;
}

/* A slider's attacks from sq through occ by per-ray bit scans: what the tables hold. */
static inline df_bb df__slow_attacks(df_square sq, df_bb occ, bool orth)
{
    return orth ? df_square_rook_attacks(sq, occ) : df_square_bishop_attacks(sq, occ);
}

#endif
