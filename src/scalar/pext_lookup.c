/* SPDX-License-Identifier: MIT */
/* PEXT bitboards: a slider's relevant occupancy gathered into a dense index (BMI2 pext), one
 * table entry per occupancy. The only file built with -mbmi2; chosen only on a CPU with BMI2
 * (and by "auto" only where pext is fast: dispatch.c). */
#include <immintrin.h>
#include <pthread.h>

#include "lookup/tables.h"

static df_bb df__pext_table[DF__ROOK_ENTRIES + DF__BISHOP_ENTRIES];
df__pext_square df__pext_rook[64], df__pext_bishop[64];

static inline df_bb df__rook(df_square sq, df_bb occ)
{
    const df__pext_square *e = &df__pext_rook[sq];
    return e->attacks[_pext_u64(occ, e->mask)];
}
static inline df_bb df__bishop(df_square sq, df_bb occ)
{
    const df__pext_square *e = &df__pext_bishop[sq];
    return e->attacks[_pext_u64(occ, e->mask)];
}

/* Fills sq's part of the table from next on; returns where the next square's part starts. */
static df_bb *df__pext_fill(df__pext_square *e, df_bb *next, df_square sq, bool orth)
{
    const df_bb mask = df__relevant(sq, orth);
    df_bb sub = 0;
    do {
        next[_pext_u64(sub, mask)] = df__slow_attacks(sq, sub, orth);
        sub = (sub - mask) & mask;
    } while (sub);
    e->mask = mask;
    e->attacks = next;
    return next + (UINT64_C(1) << df_popcount(mask));
}

static void df__pext_build(void)
{
    df_bb *next = df__pext_table;
    for (int s = 0; s < 64; s++) {
        next = df__pext_fill(&df__pext_rook[s], next, (df_square)s, true);
        next = df__pext_fill(&df__pext_bishop[s], next, (df_square)s, false);
    }
}

static void df__pext_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, df__pext_build);
}

static bool df__pext_supported(void) { return df__cpu_describe().bmi2; }

#define DF__LOOKUP_SYMBOL    df__lookup_pext
#define DF__LOOKUP_NAME      "pext"
#define DF__LOOKUP_SUPPORTED df__pext_supported
#define DF__LOOKUP_INIT      df__pext_init
#define DF__LOOKUP_SLIDERS   DF__SLIDERS_PEXT
#include "lookup/table_tpl.h"
