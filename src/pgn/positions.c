/* SPDX-License-Identifier: MIT */
/* Per-position filters (pgn.h): which plies of a read game pass, one rule for every place that
 * writes positions (the program's rows, Python's). */
#include "dirfill.h"

bool df_pgn_position_passes(const df_pgn_position_filter *f, df_pgn_clocks *clocks,
                            const df_pgn_game *g, const df_pgn_ply *p)
{
    const unsigned side = p->ply & 1; /* the side to move, by the parity of its moves */
    if (p->ply == 0) {
        double base = 0;
        clocks->known[0] = clocks->known[1] =
            df_pgn_field_value(g, DF_PGN_FIELD_BASE_SECONDS, &base);
        clocks->seconds[0] = clocks->seconds[1] = base;
    }
    /* The side to move's clock: its last move's [%clk] (ply k - 2), or the base before it has
     * moved; then this move's clock is kept for ply k + 2. */
    const bool known = clocks->known[side];
    const double clock = clocks->seconds[side];
    clocks->known[side] = p->has_clock;
    clocks->seconds[side] = p->has_clock ? p->clock : 0;
    if (!f) return true;
    const unsigned c = f->conditions;
    return !((c & DF_PGN_MIN_PLY && p->ply < f->min_ply) ||
             (c & DF_PGN_MAX_PLY && p->ply > f->max_ply) ||
             (c & DF_PGN_MIN_CLOCK && (!known || clock < f->min_clock)) ||
             (c & DF_PGN_REQUIRE_EVAL && p->eval_kind == DF_PGN_EVAL_NONE));
}
