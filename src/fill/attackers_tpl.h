/* SPDX-License-Identifier: MIT */
/* Internal template: the attackers of a square and of every square, over the slider attacks
 * the including file supplies (a backend's one-square kernel in kernels_tpl.h, a lookup
 * method's tables in src/lookup/). Contract: defined before including this file,
 *     static inline df_bb df__slider_attackers(df_square sq, df_bb occ, df_bb rq, df_bb bq);
 *         the rooks and queens (rq) and bishops and queens (bq) attacking sq through occ
 *     static inline df_bb df__slider_attacks(df_square sq, df_bb occ, bool orth, bool diag);
 *         one slider's attacks from sq: its orthogonal lines when orth, diagonal when diag
 * and optionally DF__ATTACKERS_SCATTER_MAX (below). */

/* Up to this many pieces the scatter wins (measured over the bench's corpora with the
 * eight-ray kernel: on the endgame corpus the scatter is faster, on the middlegame square by
 * square). */
#ifndef DF__ATTACKERS_SCATTER_MAX
#define DF__ATTACKERS_SCATTER_MAX 20
#endif

/* Attackers of every square at once (Chess 4.5's ATKTO, the transpose of each piece's
 * attack set): each piece's attacks are scattered into the squares they reach. Leapers and
 * pawns go set-wise per jump or direction, where a target's source is a fixed offset away. */
static inline void df__scatter(df_bb out[64], df_bb targets, df_bb source)
{
    while (targets) out[df_pop_lsb(&targets)] |= source;
}

/* Targets of a set-wise shift: each one's source is delta squares back. */
static inline void df__scatter_shifted(df_bb out[64], df_bb targets, int delta)
{
    while (targets) {
        const df_square to = df_pop_lsb(&targets);
        out[to] |= df_square_bb((df_square)((int)to - delta));
    }
}

/* The pieces of both colours that attack sq with the sliders seeing through occ: leapers
 * and pawns from their tables (pieces off occ included: callers with a reduced occupancy
 * mask them). */
static inline df_bb df__attackers_through(const df_board *b, df_square sq, df_bb occ)
{
    const df_bb pawns = b->piece[DF_PAWN];
    return (df_pawn_table[DF_WHITE][sq] & pawns & b->color[DF_BLACK]) |
           (df_pawn_table[DF_BLACK][sq] & pawns & b->color[DF_WHITE]) |
           (df_knight_table[sq] & b->piece[DF_KNIGHT]) | (df_king_table[sq] & b->piece[DF_KING]) |
           df__slider_attackers(sq, occ, b->piece[DF_ROOK] | b->piece[DF_QUEEN],
                                b->piece[DF_BISHOP] | b->piece[DF_QUEEN]);
}

/* Square by square. Each output is written once; the scatter below writes each once per
 * attack, and its read-modify-writes of the same words chain through memory (many pieces:
 * slower). */
static inline void df__attackers_by_square(df_bb out[64], const df_board *b)
{
    /* A copy of the board: stores to out may alias it, and would make every square reload
     * the piece sets. */
    const df_board board = *b;
    const df_bb occ = df_board_occupied(&board);
    for (int s = 0; s < 64; s++) out[s] = df__attackers_through(&board, (df_square)s, occ);
}

static inline void df__attackers_to_all(df_bb out[64], const df_board *b)
{
    const df_bb occ = df_board_occupied(b);
    if (df_popcount(occ) > DF__ATTACKERS_SCATTER_MAX) {
        df__attackers_by_square(out, b);
        return;
    }
    for (int sq = 0; sq < 64; sq++) out[sq] = 0;
    df_bb sliders = b->piece[DF_BISHOP] | b->piece[DF_ROOK] | b->piece[DF_QUEEN];
    while (sliders) {
        const df_square sq = df_pop_lsb(&sliders);
        const bool orth = df_has(b->piece[DF_ROOK] | b->piece[DF_QUEEN], sq);
        const bool diag = df_has(b->piece[DF_BISHOP] | b->piece[DF_QUEEN], sq);
        df__scatter(out, df__slider_attacks(sq, occ, orth, diag), df_square_bb(sq));
    }
    df_bb kings = b->piece[DF_KING];
    while (kings) {
        const df_square k = df_pop_lsb(&kings);
        df__scatter(out, df_king_table[k], df_square_bb(k));
    }
    for (int k = 0; k < DF_KNIGHT_JUMPS; k++)
        df__scatter_shifted(out, df_knight_jump(b->piece[DF_KNIGHT], k), df_knight_jump_delta(k));
    for (int c = 0; c < DF_COLORS; c++) {
        const df_color color = (df_color)c;
        const df_bb pawns = b->piece[DF_PAWN] & b->color[c];
        df__scatter_shifted(out, df_pawn_east_attacks(pawns, color), df_pawn_east_delta(color));
        df__scatter_shifted(out, df_pawn_west_attacks(pawns, color), df_pawn_west_delta(color));
    }
}
