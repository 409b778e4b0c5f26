/* SPDX-License-Identifier: MIT */
/* Baseline: fancy magic bitboards, magics searched at start-up from a fixed seed (sparse
 * random candidates, the usual method), tables shared per square as in Stockfish. */
#include <string.h>

#include "bench.h"

typedef struct {
    df_bb mask, magic;
    df_bb *attacks;
    unsigned shift;
} magic_entry;

static magic_entry rook_m[64], bishop_m[64];
static df_bb rook_table[102400], bishop_table[5248];
static uint64_t seed = UINT64_C(0x2545f4914f6cdd1d);

static uint64_t rnd(void)
{
    seed ^= seed >> 12;
    seed ^= seed << 25;
    seed ^= seed >> 27;
    return seed * UINT64_C(2685821657736338717);
}

static df_bb slow_attacks(df_square sq, df_bb occ, df_dir first)
{
    df_bb att = 0;
    for (int d = first; d < DF_DIRS; d += 2)
        att |= df_ray_attacks(df_square_bb(sq), ~occ, (df_dir)d);
    return att;
}

static void find_magic(magic_entry *e, df_bb *table, df_square sq, df_dir first)
{
    df_bb occ[4096], ref[4096];
    int epoch[4096] = {0}, size = 0, cur = 0;
    e->mask = bt_relevant(sq, first);
    e->shift = 64u - (unsigned)df_popcount(e->mask);
    e->attacks = table;
    df_bb sub = 0;
    do {
        occ[size] = sub;
        ref[size++] = slow_attacks(sq, sub, first);
        sub = (sub - e->mask) & e->mask;
    } while (sub);
    for (;;) {
        do e->magic = rnd() & rnd() & rnd();
        while (df_popcount((e->mask * e->magic) >> 56) < 6);
        cur++;
        int i = 0;
        for (; i < size; i++) {
            unsigned idx = (unsigned)(((occ[i] & e->mask) * e->magic) >> e->shift);
            if (epoch[idx] < cur) {
                epoch[idx] = cur;
                table[idx] = ref[i];
            } else if (table[idx] != ref[i]) {
                break;
            }
        }
        if (i == size) return;
    }
}

static void magic_init(void)
{
    df_bb *r = rook_table, *b = bishop_table;
    for (int s = 0; s < 64; s++) {
        const df_square sq = (df_square)s;
        find_magic(&rook_m[sq], r, sq, DF_N);
        find_magic(&bishop_m[sq], b, sq, DF_NE);
        r += UINT64_C(1) << (64 - rook_m[sq].shift);
        b += UINT64_C(1) << (64 - bishop_m[sq].shift);
    }
}

static inline df_bb lookup(const magic_entry *e, df_bb occ)
{
    return e->attacks[((occ & e->mask) * e->magic) >> e->shift];
}
static inline df_bb classic_rook(df_square sq, df_bb occ) { return lookup(&rook_m[sq], occ); }
static inline df_bb classic_bishop(df_square sq, df_bb occ) { return lookup(&bishop_m[sq], occ); }
static bool magic_available(void) { return true; }

#define CLASSIC_RUNNERS magic_runners
#include "classic_tpl.h"
const classic_method bench_magic = {"magic", magic_available, magic_init, &magic_runners};
