/* SPDX-License-Identifier: MIT */
/* Lookup tables of the classic per-piece methods that the library does not already have
 * (its df_ray_table, df_knight_table, df_king_table and df_pawn_table serve the rest). */
#include "bench.h"

df_bb bt_rook_pseudo[64], bt_bishop_pseudo[64];

void tables_init(void)
{
    for (int s = 0; s < 64; s++) {
        const df_square sq = (df_square)s;
        bt_rook_pseudo[sq] = df_orthogonal_lines(sq) & ~df_square_bb(sq);
        bt_bishop_pseudo[sq] = df_diagonal_lines(sq) & ~df_square_bb(sq);
    }
}

df_bb bt_relevant(df_square sq, df_dir first)
{
    df_bb m = 0;
    for (int d = first; d < DF_DIRS; d += 2)
        m |= df_ray_mask(sq, (df_dir)d) & df_shift(DF_FULL, df_opposite((df_dir)d));
    return m;
}
