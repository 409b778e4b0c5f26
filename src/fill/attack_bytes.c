/* SPDX-License-Identifier: MIT */
/* Per-square attack bytes after REBEL (the Chess Programming Wiki's "Attack and Defend Maps"). */
#include "dirfill.h"

void df_attack_bytes(uint8_t out[64], const df_attack_map *m)
{
    const df_bb minor = m->by_type[DF_KNIGHT] | m->by_type[DF_BISHOP];
    for (int s = 0; s < 64; s++) {
        const df_square sq = (df_square)s;
        const int n = df_attack_count(m, sq);
        out[s] = (uint8_t)((n > DF_ATTACK_BYTE_COUNT ? DF_ATTACK_BYTE_COUNT : n) |
                           (df_has(m->by_type[DF_PAWN], sq) ? DF_ATTACK_BYTE_PAWN : 0) |
                           (df_has(minor, sq) ? DF_ATTACK_BYTE_MINOR : 0) |
                           (df_has(m->by_type[DF_ROOK], sq) ? DF_ATTACK_BYTE_ROOK : 0) |
                           (df_has(m->by_type[DF_QUEEN], sq) ? DF_ATTACK_BYTE_QUEEN : 0) |
                           (df_has(m->by_type[DF_KING], sq) ? DF_ATTACK_BYTE_KING : 0));
    }
}
