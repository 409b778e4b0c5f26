/* SPDX-License-Identifier: MIT */
/* Internal template: static exchange evaluation (seed "X-ray Attacks": what x-rays are for),
 * instantiated once per backend after kernels_tpl.h, so that the sliders attacking the square
 * come from the backend's one-square eight-ray kernel (df__slider_attackers). After each
 * capture they are read again through an occupancy from which the capturer is removed, so a
 * slider behind it joins the exchange: x-rays by modifying occupancy. */

/* The least valuable piece of a set (ties: the lowest square), its type in *type. */
static inline df_square df__least_valuable(const df_board *b, df_bb set, df_piece_type *type)
{
    for (int t = DF_PAWN; t <= DF_KING; t++)
        if (set & b->piece[t]) {
            *type = (df_piece_type)t;
            return df_lsb(set & b->piece[t]);
        }
    *type = DF_PIECE_TYPES;
    return DF_SQUARE_NONE;
}

/* The attackers of to after the piece on sq has left it for to: taking sq off the occupancy
 * changes only slider attacks, looked up again through it. */
static inline df_bb df__after_leaving(const df_board *b, df_square to, df_bb occ, df_bb attackers)
{
    return (attackers | df__slider_attackers(to, occ, b->piece[DF_ROOK] | b->piece[DF_QUEEN],
                                             b->piece[DF_BISHOP] | b->piece[DF_QUEEN])) &
           occ;
}

static int k_see(const df_board *b, df_move m)
{
    const df_move_kind kind = df_move_kind_of(m);
    if (kind == DF_MOVE_CASTLING) return 0;
    const df_square from = df_move_from(m), to = df_move_to(m);
    df_color side = (df_color)(b->stm ^ 1);
    df_bb occ = df_board_occupied(b) ^ df_square_bb(from);
    /* gain[d]: what the side making capture d has won if the exchange stops after it. One
     * entry per piece that can leave the board, and the first move. */
    int gain[66];
    if (kind == DF_MOVE_EN_PASSANT) {
        occ ^= df_square_bb(df_en_passant_victim(to));
        gain[0] = df_see_value[DF_PAWN];
    } else {
        const df_bb enemy = b->color[side];
        gain[0] = df_has(enemy, to) ? df_see_value[df_board_type_at(b, to)] : 0;
    }
    df_piece_type on_square = df_board_type_at(b, from); /* a promotion stays a pawn */
    df_bb attackers = df__attackers_through(b, to, occ) & occ;
    int d = 0;
    for (;;) {
        const df_bb mine = attackers & b->color[side];
        df_piece_type type;
        if (!mine) break;
        const df_square sq = df__least_valuable(b, mine, &type);
        const df_bb after = occ ^ df_square_bb(sq);
        const df_bb next = df__after_leaving(b, to, after, attackers);
        /* A king captures only when the other side then has no attacker left. */
        if (type == DF_KING && (next & b->color[side ^ 1])) break;
        d++;
        gain[d] = df_see_value[on_square] - gain[d - 1];
        on_square = type;
        occ = after;
        attackers = next;
        side = (df_color)(side ^ 1);
    }
    /* Each side takes the better of stopping and going on, from the last capture back. */
    for (; d > 0; d--) gain[d - 1] = -(-gain[d - 1] > gain[d] ? -gain[d - 1] : gain[d]);
    return gain[0];
}
