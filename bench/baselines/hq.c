/* SPDX-License-Identifier: MIT */
/* Baseline: hyperbola quintessence (o ^ (o - 2r) with a byte swap) for files and both
 * diagonals, and the classic first-rank lookup for ranks. */
#include "bench.h"

static df_bb file_mask[64], diag_mask[64], anti_mask[64];
static uint8_t rank_attacks[64][8]; /* [inner six occupancy bits][file] */

static inline df_bb hq_line(df_bb occ, df_bb mask, df_square sq)
{
    const df_bb s = df_square_bb(sq);
    df_bb fwd = occ & mask, rev = __builtin_bswap64(fwd);
    fwd -= s;
    rev -= __builtin_bswap64(s);
    return (fwd ^ __builtin_bswap64(rev)) & mask;
}

static void hq_init(void)
{
    for (int sq = 0; sq < 64; sq++) {
        const df_bb s = df_square_bb(sq);
        file_mask[sq] = (df_ray_table[sq][DF_N] | df_ray_table[sq][DF_S]) & ~s;
        diag_mask[sq] = (df_ray_table[sq][DF_NE] | df_ray_table[sq][DF_SW]) & ~s;
        anti_mask[sq] = (df_ray_table[sq][DF_NW] | df_ray_table[sq][DF_SE]) & ~s;
    }
    for (int occ6 = 0; occ6 < 64; occ6++)
        for (int f = 0; f < 8; f++) {
            const df_bb from = df_square_bb((df_square)f), empty = ~((df_bb)occ6 << 1);
            const df_bb a = df_ray_attacks(from, empty, DF_E) | df_ray_attacks(from, empty, DF_W);
            rank_attacks[occ6][f] = (uint8_t)a;
        }
}

static inline df_bb rank_lookup(df_square sq, df_bb occ)
{
    const int shift = sq & 56;
    return (df_bb)rank_attacks[(occ >> (shift + 1)) & 63][sq & 7] << shift;
}

static inline df_bb classic_rook(df_square sq, df_bb occ)
{
    return hq_line(occ, file_mask[sq], sq) | rank_lookup(sq, occ);
}
static inline df_bb classic_bishop(df_square sq, df_bb occ)
{
    return hq_line(occ, diag_mask[sq], sq) | hq_line(occ, anti_mask[sq], sq);
}
static bool hq_available(void) { return true; }

#define CLASSIC_RUNNERS hq_runners
#include "classic_tpl.h"
const classic_method bench_hq = {"hq", hq_available, hq_init, &hq_runners};
