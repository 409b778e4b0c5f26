/* SPDX-License-Identifier: MIT */
/* The NNUE index tables (tables.h), built from the library's attack tables on first use. */
#include <assert.h>
#include <pthread.h>

#include "tables.h"

static df__nnue_tables df__tables;

/* The empty-board attacks of a piece of relative colour c and type t on sq. */
static df_bb df__reach(int c, int t, df_square sq)
{
    const df_bb own = df_square_bb(sq);
    switch (t) {
    case DF_PAWN:
        return df_pawn_table[c][sq];
    case DF_KNIGHT:
        return df_knight_table[sq];
    case DF_BISHOP:
        return df_diagonal_lines(sq) & ~own;
    case DF_ROOK:
        return df_orthogonal_lines(sq) & ~own;
    default:
        return (df_diagonal_lines(sq) | df_orthogonal_lines(sq)) & ~own;
    }
}

static void df__tables_build(void)
{
    df__nnue_tables *tb = &df__tables;
    int32_t base = 0;
    for (int c = 0; c < DF_COLORS; c++)
        for (int t = 0; t < DF__NNUE_ATTACKERS; t++) {
            int32_t offset = 0;
            for (int s = 0; s < 64; s++) {
                tb->reach[t][c][s] = df__reach(c, t, (df_square)s);
                tb->from_base[t][c][s] = base + offset;
                /* A pawn's squares are ranks 2 to 7: nnue-pytorch counts no other. */
                if (t != DF_PAWN || (s >= 8 && s < 56)) offset += df_popcount(tb->reach[t][c][s]);
            }
            const unsigned kept = df__nnue_kept[t];
            const int valid = df_popcount(kept);
            for (int k = 0; k < 16; k++) {
                /* The slot: the kept types below u. */
                const int dc = k >> 3, u = k & 7;
                tb->group[t][k] = (kept >> u) & 1
                                      ? (dc * valid + df_popcount(kept & ((1u << u) - 1))) * offset
                                      : -1;
            }
            base += 2 * valid * offset;
        }
    assert(base == DF__NNUE_THREAT_INPUTS);
    for (unsigned v = 0; v < 256; v++) {
        tb->spread[v] = 0;
        for (unsigned i = 0; i < 8; i++) tb->spread[v] |= (uint64_t)(v >> i & 1) << (8 * i);
    }
    for (int a = 0; a < 96; a++)
        for (int b = 0; b < 96; b++) {
            const int hi = a > b ? a : b, lo = a > b ? b : a;
            tb->pair[a][b] = (int16_t)(hi * (hi - 1) / 2 + lo);
        }
}

const df__nnue_tables *df__nnue_tables_get(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, df__tables_build);
    return &df__tables;
}
