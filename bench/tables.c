/* Lookup tables of the classic per-piece methods that the library does not already have
 * (its df_ray_table, df_knight_table, df_king_table and df_pawn_table serve the rest). */
#include "bench.h"

df_bb bt_rook_pseudo[64], bt_bishop_pseudo[64];

void tables_init(void)
{
    for (int sq = 0; sq < 64; sq++) {
        bt_rook_pseudo[sq] = df_orthogonal_lines(sq) & ~df_square_bb(sq);
        bt_bishop_pseudo[sq] = df_diagonal_lines(sq) & ~df_square_bb(sq);
    }
}

df_bb bt_relevant(int sq, int first_dir)
{
    df_bb m = 0;
    for (int d = first_dir; d < 8; d += 2) m |= df_ray_table[sq][d] & df_shift(DF_FULL, d ^ 4);
    return m;
}
