/* SPDX-License-Identifier: MIT */
/* The NNUE index tables (tables.h), built from the library's attack tables on first use. */
#include <assert.h>
#include <pthread.h>

#include "tables.h"

/* Which attacked types each attacker type keeps, in slot order (attacked type order), and
 * -1 for those it does not: a pawn only knights and rooks, a bishop or rook no queen. */
static const int8_t df__slot[DF__NNUE_ATTACKERS][DF__NNUE_ATTACKERS] = {
    {-1, 0, -1, 1, -1}, /* pawn */
    {0, 1, 2, 3, 4},    /* knight */
    {0, 1, 2, 3, -1},   /* bishop */
    {0, 1, 2, 3, -1},   /* rook */
    {0, 1, 2, 3, 4},    /* queen */
};

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
                tb->reach[c][t][s] = df__reach(c, t, (df_square)s);
                tb->from_base[c][t][s] = base + offset;
                /* A pawn's squares are ranks 2 to 7: nnue-pytorch counts no other. */
                if (t != DF_PAWN || (s >= 8 && s < 56)) offset += df_popcount(tb->reach[c][t][s]);
            }
            int valid = 0;
            for (int u = 0; u < DF__NNUE_ATTACKERS; u++) valid += df__slot[t][u] >= 0;
            for (int dc = 0; dc < DF_COLORS; dc++)
                for (int u = 0; u < DF__NNUE_ATTACKERS; u++)
                    tb->group[t][dc][u] =
                        df__slot[t][u] < 0 ? -1 : (dc * valid + df__slot[t][u]) * offset;
            base += 2 * valid * offset;
        }
    assert(base == DF__NNUE_THREAT_INPUTS);
}

const df__nnue_tables *df__nnue_tables_get(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, df__tables_build);
    return &df__tables;
}
