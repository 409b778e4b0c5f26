/* SPDX-License-Identifier: MIT */
/* Internal: what the table-based lookup methods (pext.c, magic.c) share. */
#ifndef DF_SRC_LOOKUP_TABLES_H
#define DF_SRC_LOOKUP_TABLES_H

#include "method.h"

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

/* A square's PEXT entry: the occupancy's relevant squares gathered (pext) index attacks. */
typedef struct {
    df_bb mask;
    const df_bb *attacks;
} df__pext_square;

/* A square's magic entry: what the lookup reads, in one 32-byte half of a cache line. */
typedef struct {
    df_bb mask, magic;
    const df_bb *attacks;
    unsigned shift;
} df__magic_square;

/* The tables' entries by square (pext.c, magic.c), filled by their methods' init before the
 * method is installed: the move generator of every backend inlines its lookups from these
 * (movegen_tpl.h). */
extern df__pext_square df__pext_rook[64], df__pext_bishop[64];
extern df__magic_square df__magic_rook[64], df__magic_bishop[64];

static inline df_bb df__magic_lookup(const df__magic_square *e, df_bb occ)
{
    return e->attacks[((occ & e->mask) * e->magic) >> e->shift];
}

#if defined(__x86_64__)
/* PEXT from any translation unit, whatever its flags: an instruction the assembler knows,
 * run only where the pext method was installed (a CPU with BMI2). */
#define DF__HAVE_PEXT_ASM
static inline df_bb df__pext_asm(df_bb x, df_bb mask)
{
    df_bb r;
    __asm__("pextq %2, %1, %0" : "=r"(r) : "r"(x), "rm"(mask));
    return r;
}
static inline df_bb df__pext_lookup(const df__pext_square *e, df_bb occ)
{
    return e->attacks[df__pext_asm(occ, e->mask)];
}
#endif

/* A slider's attacks from sq through occ by per-ray bit scans: what the tables hold. */
static inline df_bb df__slow_attacks(df_square sq, df_bb occ, bool orth)
{
    return orth ? df_square_rook_attacks(sq, occ) : df_square_bishop_attacks(sq, occ);
}

#endif
