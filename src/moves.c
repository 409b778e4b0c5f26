/* SPDX-License-Identifier: MIT */
/* The engine layer around the dispatched generator: copy-make, move predicates, checks. */
#include "dirfill.h"
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

bool df_move_is_legal(const df_board *b, df_move m)
{
    df_move_list list;
    df_generate_legal(&list, b);
    for (uint32_t i = 0; i < list.count; i++)
        if (list.moves[i] == m) return true;
    return false;
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

/* Seed "Checks and Pinned Pieces": direct check by the moved piece on its new square (the
 * rook when castling), discovered check by a slider of ours that did not move, seen through
 * the occupancy after the move. */
int df_gives_check(const df_board *b, df_move m)
{
    const df_color us = df_board_stm(b);
    const df_square from = df_move_from(m), to = df_move_to(m);
    const df_square eksq = df_board_king(b, (df_color)(us ^ 1));
    const df_move_kind kind = df_move_kind_of(m);
    df_bb moved = df_square_bb(from) | df_square_bb(to);
    df_bb occ = (df_board_occupied(b) & ~df_square_bb(from)) | df_square_bb(to);
    int result = DF_CHECK_NONE;

    if (kind == DF_MOVE_CASTLING) {
        const int r = df__castling_right(us, from, to);
        const df_square kto = df_castle_king_to(r), rto = df_castle_rook_to(r);
        occ = (df_board_occupied(b) ^ moved) | df_square_bb(kto) | df_square_bb(rto);
        moved |= df_square_bb(kto) | df_square_bb(rto);
        if (df_piece_attacks_square(rto, eksq, occ, DF_ROOK, us)) result |= DF_CHECK_DIRECT;
    } else {
        if (kind == DF_MOVE_EN_PASSANT) occ &= ~df_square_bb(df_en_passant_victim(to));
        const df_piece_type type =
            kind == DF_MOVE_PROMOTION ? df_move_promotion(m) : df_board_type_at(b, from);
        if (df_piece_attacks_square(to, eksq, occ, type, us)) result |= DF_CHECK_DIRECT;
    }
    const df_bb others = b->color[us] & ~moved;
    const df_bb rq = others & (b->piece[DF_ROOK] | b->piece[DF_QUEEN]);
    const df_bb bq = others & (b->piece[DF_BISHOP] | b->piece[DF_QUEEN]);
    if ((df_square_rook_attacks(eksq, occ) & rq) | (df_square_bishop_attacks(eksq, occ) & bq))
        result |= DF_CHECK_DISCOVERED;
    return result;
}
