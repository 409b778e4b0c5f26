/* SPDX-License-Identifier: MIT */
/* The engine layer around the dispatched generator: copy-make, move predicates, checks. */
#include "lookup/lookup.h"
#include "castling.h"
#include "make_move.h"

void df_make_move(df_board *out, const df_board *b, df_move m)
{
    assert(b && out && df_move_is_legal(b, m));
    df__make_move(out, b, m, true);
}

df_status df_make_move_checked(df_board *out, const df_board *b, df_move m)
{
    if (!out || !b) return DF_ERR_ARGUMENT;
    if (!df_board_is_valid(b) || !df_board_playable(b)) return DF_ERR_BOARD;
    if (!df_move_is_legal(b, m)) return DF_ERR_MOVE;
    df__make_move(out, b, m, true);
    return DF_OK;
}

void df_make_null_move(df_board *out, const df_board *b)
{
    assert(b && out);
    df_board n = *b;
    if (df__ep_capturable(b)) n.key ^= df__ep_key((df_square)b->ep);
    n.key ^= df_polyglot_random[DF_POLYGLOT_TURN];
    n.ep = DF_SQUARE_NONE;
    n.halfmove = b->halfmove + 1;
    n.fullmove = b->fullmove + (b->stm & 1);
    n.stm = (uint8_t)(b->stm ^ 1);
    *out = n;
}

/* Whether our king stands unattacked on ksq once the board holds occ and the enemy pieces
 * enemy (a captured piece removed). */
static bool df__king_safe(const df_board *b, df_color us, df_square ksq, df_bb occ, df_bb enemy)
{
    /* Only the enemy sliders on the king's lines can reach it: most often none of one kind,
     * and its rays need not be walked (the PGN reader checks every move here). */
    const df_bb rq = (b->piece[DF_ROOK] | b->piece[DF_QUEEN]) & enemy & df_orthogonal_lines(ksq);
    const df_bb bq = (b->piece[DF_BISHOP] | b->piece[DF_QUEEN]) & enemy & df_diagonal_lines(ksq);
    if ((df_knight_table[ksq] & enemy & b->piece[DF_KNIGHT]) |
        (df_pawn_table[us][ksq] & enemy & b->piece[DF_PAWN]) |
        (df_king_table[ksq] & enemy & b->piece[DF_KING]))
        return false;
    return !((rq && (df_square_rook_attacks(ksq, occ) & rq)) ||
             (bq && (df_square_bishop_attacks(ksq, occ) & bq)));
}

/* Castling by the generator's rule (mg_castling), decided here rather than by generating
 * every move: the generator's first call builds its lookup tables (millions of instructions,
 * every page of the tables touched), which a PGN file's first castling would otherwise cost
 * every process that reads one. The king's path is looked at without the king and the castling
 * rook: that adds to the generator's attacked squares (the king removed) only what its second
 * look along the rank (the rook removed) finds. */
static bool df__castling_legal(const df_board *b, df_color us, df_square from, df_square to,
                               df_bb occ, df_bb enemy)
{
    const int r = df__castling_right(us, from, to);
    if (from != df_board_king(b, us) || !(b->castling >> r & 1) || b->castle_rook[r] != to ||
        (occ & df__castle_empty[r][df_file_of(from)][df_file_of(to)]) ||
        !df__king_safe(b, us, from, occ, enemy))
        return false;
    const df_bb without = occ ^ df_square_bb(from) ^ df_square_bb(to);
    for (df_bb path = df__castle_safe[r][df_file_of(from)]; path;)
        if (!df__king_safe(b, us, df_pop_lsb(&path), without, enemy)) return false;
    return true;
}

/* Decides legality from the move itself, as an engine checks a hash move: the piece can go
 * there, then the king is safe on the occupancy after. */
bool df_move_is_legal(const df_board *b, df_move m)
{
    const df_color us = df_board_stm(b), them = (df_color)(us ^ 1);
    const df_square from = df_move_from(m), to = df_move_to(m);
    const df_move_kind kind = df_move_kind_of(m);
    const df_bb own = b->color[us], enemy = b->color[them], occ = own | enemy;
    if (!df_has(own, from)) return false;
    if (kind == DF_MOVE_CASTLING)
        return !((m >> 12) & 3) && df__castling_legal(b, us, from, to, occ, enemy);
    /* The generator writes no promotion bits on other moves: such a value is no move. */
    if ((kind != DF_MOVE_PROMOTION && (m >> 12) & 3) || df_has(own, to) ||
        df_has(enemy & b->piece[DF_KING], to))
        return false;
    const df_piece_type type = df_board_type_at(b, from);
    const df_bb target = df_square_bb(to);
    df_bb captured = enemy & target, landed = target;
    if (type == DF_PAWN) {
        const bool last = df_has(df_relative_rank_bb(us, 7), to);
        const int push = df_pawn_push_delta(us);
        if (kind == DF_MOVE_EN_PASSANT) {
            if (to != b->ep || !df_has(df_pawn_table[us][from], to)) return false;
            captured = df_square_bb(df_en_passant_victim(to));
        } else if ((kind == DF_MOVE_PROMOTION) != last) {
            return false;
        } else if (df_has(df_pawn_table[us][from], to)) {
            if (!captured) return false;
        } else if ((int)to - (int)from == push) {
            if (df_has(occ, to)) return false;
        } else if ((int)to - (int)from == 2 * push) {
            if (!df_has(df_relative_rank_bb(us, 1), from) ||
                (occ & (target | df_square_bb((df_square)((int)from + push)))))
                return false;
        } else {
            return false;
        }
    } else {
        if (kind != DF_MOVE_NORMAL) return false;
        df_bb reach;
        switch (type) {
        case DF_KNIGHT:
            reach = df_knight_table[from];
            break;
        case DF_BISHOP:
            reach = df_square_bishop_attacks(from, occ);
            break;
        case DF_ROOK:
            reach = df_square_rook_attacks(from, occ);
            break;
        case DF_QUEEN:
            reach = df_square_queen_attacks(from, occ);
            break;
        default:
            reach = df_king_table[from];
        }
        if (!(reach & target)) return false;
    }
    const df_square ksq = type == DF_KING ? to : df_board_king(b, us);
    return df__king_safe(b, us, ksq, (occ ^ df_square_bb(from) ^ captured) | landed,
                         enemy & ~captured);
}

bool df_move_is_capture(const df_board *b, df_move m)
{
    const df_move_kind kind = df_move_kind_of(m);
    return kind == DF_MOVE_EN_PASSANT ||
           (kind != DF_MOVE_CASTLING && df_has(b->color[b->stm ^ 1], df_move_to(m)));
}

df_bb df_checkers(const df_board *b)
{
    const df_color us = df_board_stm(b);
    return df_attackers_to(b, df_board_king(b, us), df_board_occupied(b)) & b->color[us ^ 1];
}

/* The lookup method's (src/lookup/single_tpl.h). */
int df_gives_check(const df_board *b, df_move m)
{
    assert(b);
    return df__lookup_active()->gives_check(b, m);
}
