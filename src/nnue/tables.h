/* SPDX-License-Identifier: MIT */
/* Internal: the index arithmetic of the NNUE input sets (nnue.h), tables built once. */
#ifndef DF_SRC_NNUE_TABLES_H
#define DF_SRC_NNUE_TABLES_H

#include <stdint.h>

#include "dirfill.h"

/* The inputs of each part, by df_nnue_part. */
enum {
    DF__NNUE_HALFKA_INPUTS = 24576, /* 64 squares * 12 planes * 32 king buckets */
    DF__NNUE_THREAT_INPUTS = 59808, /* the sum over attackers of numValid * total below */
    DF__NNUE_PAIRS_INPUTS = 4560,   /* 96 * 95 / 2 pairs of pawn ids */
    DF__NNUE_HALFKA_ACTIVE = 32,    /* nnue-pytorch's row widths */
    DF__NNUE_THREAT_ACTIVE = 128,
    DF__NNUE_PAIRS_ACTIVE = 128,
    DF__NNUE_ATTACKERS = DF_KING /* attacker types: pawn to queen */
};

/* The attacked types each attacker type keeps, a bit per type (pawn 1, knight 2, ...; slots
 * in type order): a pawn knights and rooks, a bishop or rook no queen, no attacker a king. */
static const uint8_t df__nnue_kept[DF__NNUE_ATTACKERS] = {0x0a, 0x1f, 0x0f, 0x0f, 0x1f};

/* Full_Threats in the perspective's frame (colours relative, 0 its own; squares turned).
 * For an attacker of relative colour ac and type t on `from` attacking a piece of relative
 * colour dc and a type u it keeps on `to`, the index is
 *     group[t][8 * dc + u] + from_base[t][ac][from] + popcount(reach[t][ac][from] & below(to))
 * (by attacker type first, so that 2 * t + ac, which a relative colour flips, is one index). */
typedef struct df__nnue_tables {
    /* The attacker's block (base) plus the offset of its square (the empty-board targets of
     * the squares below it; for pawns only ranks 2 to 7 count). */
    int32_t from_base[DF__NNUE_ATTACKERS][DF_COLORS][64];
    /* Empty-board attacks: a pawn's of its relative colour (0 attacks toward rank 8). */
    df_bb reach[DF__NNUE_ATTACKERS][DF_COLORS][64];
    /* (dc * numValid / 2 + slot) * total by the attacked piece's class 8 * dc + u; -1 for
     * the types not kept. */
    int32_t group[DF__NNUE_ATTACKERS][16];
    /* Each byte value's bits spread to bytes: bit i to byte i (read little-endian, as a
     * rank's eight squares). */
    uint64_t spread[256];
    /* PP_3Wide: the pair of pawn ids a and b (0..95, a != b), hi * (hi - 1) / 2 + lo. */
    int16_t pair[96][96];
} df__nnue_tables;

/* The tables, built on the first call (thread-safe, once). */
const df__nnue_tables *df__nnue_tables_get(void);

#endif
