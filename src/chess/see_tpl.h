/* SPDX-License-Identifier: MIT */
/* Internal template: static exchange evaluation (the Chess Programming Wiki's "X-ray Attacks": what
 * x-rays are for), instantiated after attackers_tpl.h by each backend (the sliders attacking the
 * square from its one-square eight-ray kernel) and each lookup method (from its tables), through
 * df__slider_attackers. After each capture the line the capturer leaves is read again through an
 * occupancy from which it is removed, so a slider behind it joins the exchange: x-rays by modifying
 * occupancy. */

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
 * uncovers only sliders on the line through sq and to, looked up again through it (a knight
 * uncovers none). */
/* The type of the piece on the occupied square sq, without branches (a loop over the types
 * exits at a different type each call, and mispredicts). */
static inline df_piece_type df__type_on(const df_board *b, df_square sq)
{
    unsigned t = 0;
    for (int k = DF_KNIGHT; k < DF_PIECE_TYPES; k++) t += (unsigned)k * ((b->piece[k] >> sq) & 1);
    return (df_piece_type)t;
}

static inline df_bb df__after_leaving(const df_board *b, df_square to, df_square sq, df_bb occ,
                                      df_bb attackers)
{
    const df_bb rq = b->piece[DF_ROOK] | b->piece[DF_QUEEN];
    const df_bb bq = b->piece[DF_BISHOP] | b->piece[DF_QUEEN];
    if (df_has(df_orthogonal_lines(to), sq))
        attackers |= df__slider_attackers(to, occ, rq, 0);
    else if (df_has(df_diagonal_lines(to), sq))
        attackers |= df__slider_attackers(to, occ, 0, bq);
    return attackers & occ;
}

static inline int df__see(const df_board *b, df_move m)
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
        gain[0] = df_has(enemy, to) ? df_see_value[df__type_on(b, to)] : 0;
    }
    df_bb attackers = df__attackers_through(b, to, occ) & occ;
    /* Most moves meet no defender: the exchange ends with the move. */
    if (!(attackers & b->color[side])) return gain[0];
    df_piece_type on_square = df__type_on(b, from); /* a promotion stays a pawn */
    int d = 0;
    for (;;) {
        const df_bb mine = attackers & b->color[side];
        df_piece_type type;
        if (!mine) break;
        const df_square sq = df__least_valuable(b, mine, &type);
        const df_bb after = occ ^ df_square_bb(sq);
        const df_bb next = df__after_leaving(b, to, sq, after, attackers);
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
