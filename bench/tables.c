/* Lookup tables of the classic per-piece methods, built once at start-up. */
#include "bench.h"

df_bb bt_ray[8][64], bt_rook_pseudo[64], bt_bishop_pseudo[64];
df_bb bt_knight[64], bt_king[64], bt_pawn[2][64];

void tables_init(void)
{
    for (int sq = 0; sq < 64; sq++) {
        const df_bb s = df_square_bb(sq);
        bt_rook_pseudo[sq] = bt_bishop_pseudo[sq] = 0;
        for (int d = 0; d < 8; d++) {
            bt_ray[d][sq] = df_ray_attacks(s, DF_FULL, d);
            if (d & 1)
                bt_bishop_pseudo[sq] |= bt_ray[d][sq];
            else
                bt_rook_pseudo[sq] |= bt_ray[d][sq];
        }
        bt_knight[sq] = df_knight_attacks(s);
        bt_king[sq] = df_king_attacks(s);
        bt_pawn[0][sq] = df_pawn_any_attacks(s, DF_WHITE);
        bt_pawn[1][sq] = df_pawn_any_attacks(s, DF_BLACK);
    }
}
