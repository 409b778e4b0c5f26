/* SPDX-License-Identifier: MIT */
/* Baseline: PEXT bitboards (BMI2), the fastest per-piece lookup on CPUs with fast pext.
 * The only file built with -mbmi2; called only when the CPU has BMI2. */
#include "bench.h"

#if defined(__BMI2__)
#include <immintrin.h>

static df_bb rook_table[102400], bishop_table[5248];
static df_bb rook_mask[64], bishop_mask[64];
static df_bb *rook_at[64], *bishop_at[64];

static void fill(df_bb *table, df_bb mask, df_square sq, df_dir first)
{
    df_bb sub = 0;
    do {
        df_bb att = 0;
        for (int d = first; d < DF_DIRS; d += 2)
            att |= df_ray_attacks(df_square_bb(sq), ~sub, (df_dir)d);
        table[_pext_u64(sub, mask)] = att;
        sub = (sub - mask) & mask;
    } while (sub);
}

static void pext_init(void)
{
    df_bb *r = rook_table, *b = bishop_table;
    for (int s = 0; s < 64; s++) {
        const df_square sq = (df_square)s;
        rook_mask[sq] = bt_relevant(sq, DF_N);
        bishop_mask[sq] = bt_relevant(sq, DF_NE);
        rook_at[sq] = r;
        bishop_at[sq] = b;
        fill(r, rook_mask[sq], sq, DF_N);
        fill(b, bishop_mask[sq], sq, DF_NE);
        r += UINT64_C(1) << df_popcount(rook_mask[sq]);
        b += UINT64_C(1) << df_popcount(bishop_mask[sq]);
    }
}

static inline df_bb classic_rook(df_square sq, df_bb occ)
{
    return rook_at[sq][_pext_u64(occ, rook_mask[sq])];
}
static inline df_bb classic_bishop(df_square sq, df_bb occ)
{
    return bishop_at[sq][_pext_u64(occ, bishop_mask[sq])];
}
static bool pext_available(void) { return __builtin_cpu_supports("bmi2"); }
#define CLASSIC_RUNNERS pext_runners
#include "classic_tpl.h"
const classic_method bench_pext = {"pext", pext_available, pext_init, &pext_runners};
#else
/* Built without BMI2 (not x86): the baseline is absent, never called. */
static bool pext_available(void) { return false; }
static void pext_init(void) {}
static const bench_runners pext_runners;
const classic_method bench_pext = {"pext", pext_available, pext_init, &pext_runners};
#endif
