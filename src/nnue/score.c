/* SPDX-License-Identifier: MIT */
/* Stockfish's score scale (binpack.h): its UCI output's centipawns from its internal Value and
 * back. Stockfish prints round(100 v / a), a from the position's material by a cubic its
 * authors fit to game results (src/uci.cpp, to_cp and win_rate_params); the data generators
 * store v. The coefficients are those of Stockfish's master at the commit docs/nnue.md names. */
#include <math.h>

#include "nnue/internal.h"

/* Stockfish's a(material): the Value its win-rate model puts at a 50 % win rate, which its
 * output calls 100 centipawns. Material counts pawns 1, minors 3, rooks 5, queens 9, both
 * sides, clamped to the fit's range [17, 78] and taken relative to 58. */
static double win_rate_a(const df_board *b)
{
    const int material = df_popcount(b->piece[DF_PAWN]) +
                         3 * df_popcount(b->piece[DF_KNIGHT] | b->piece[DF_BISHOP]) +
                         5 * df_popcount(b->piece[DF_ROOK]) + 9 * df_popcount(b->piece[DF_QUEEN]);
    const double m = (material < 17 ? 17 : material > 78 ? 78 : material) / 58.0;
    static const double as[] = {-72.32565836, 185.93832038, -144.58862193, 416.44950446};
    return ((as[0] * m + as[1]) * m + as[2]) * m + as[3];
}

int df_nnue_cp_from_value(int value, const df_board *b)
{
    return (int)round(100 * value / win_rate_a(b));
}

int df_nnue_value_from_cp(int cp, const df_board *b)
{
    /* a is above 100 for every material count, so each centipawn holds a Value or more: the
     * nearest to cp a / 100 prints cp again. */
    return (int)round(cp * win_rate_a(b) / 100);
}
