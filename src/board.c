/* SPDX-License-Identifier: MIT */
/* Board-level checks and construction. */
#include <string.h>

#include "dirfill.h"

bool df_board_playable(const df_board *b)
{
    const df_color us = df_board_stm(b), them = (df_color)(us ^ 1);
    return !df_is_attacked(b, df_board_king(b, them), us, df_board_occupied(b));
}

bool df_board_is_valid(const df_board *b)
{
    if (!b || (b->color[DF_WHITE] & b->color[DF_BLACK]) || b->stm > 1) return false;
    df_bb all = 0;
    for (int t = 0; t < DF_PIECE_TYPES; t++) {
        if (all & b->piece[t]) return false;
        all |= b->piece[t];
    }
    if (all != df_board_occupied(b) || (b->piece[DF_PAWN] & (DF_RANK_1 | DF_RANK_8))) return false;
    for (int c = 0; c < DF_COLORS; c++)
        if (df_popcount(b->color[c] & b->piece[DF_KING]) != 1) return false;
    /* Each right held: the king and that rook on their first rank, on the right's side. */
    for (int r = 0; r < DF_CASTLE_RIGHTS; r++) {
        if (!((b->castling >> r) & 1)) continue;
        const df_color c = (df_color)(r >> 1);
        const df_square rook = (df_square)b->castle_rook[r], king = df_board_king(b, c);
        const df_bb first = df_relative_rank_bb(c, 0);
        if (rook >= 64 || !df_has(first & b->color[c] & b->piece[DF_ROOK], rook) ||
            !df_has(first, king) || (rook < king) != (r & 1))
            return false;
    }
    if (b->castling >> DF_CASTLE_RIGHTS) return false;
    if (b->ep == DF_SQUARE_NONE) return true;
    /* En passant: the empty square behind an enemy pawn that just moved two squares. */
    const df_color us = df_board_stm(b), them = (df_color)(us ^ 1);
    if (b->ep >= 64) return false;
    const df_square ep = (df_square)b->ep;
    return df_has(df_relative_rank_bb(us, 5), ep) && !df_has(all, ep) &&
           df_has(b->color[them] & b->piece[DF_PAWN], df_en_passant_victim(ep));
}

df_status df_board_from_pieces(df_board *out, const uint64_t pieces[12], df_color stm)
{
    if (!out || !pieces || (unsigned)stm >= DF_COLORS) return DF_ERR_ARGUMENT;
    df_board b;
    memset(&b, 0, sizeof b);
    df_bb seen = 0;
    for (int c = 0; c < DF_COLORS; c++)
        for (int t = 0; t < DF_PIECE_TYPES; t++) {
            const df_bb set = pieces[df_piece_index((df_color)c, (df_piece_type)t)];
            if (set & seen) return DF_ERR_BOARD;
            seen |= set;
            b.color[c] |= set;
            b.piece[t] |= set;
        }
    for (int c = 0; c < DF_COLORS; c++)
        if (df_popcount(b.color[c] & b.piece[DF_KING]) != 1) return DF_ERR_BOARD;
    if (b.piece[DF_PAWN] & (DF_RANK_1 | DF_RANK_8)) return DF_ERR_BOARD;
    b.stm = (uint8_t)stm;
    b.ep = DF_SQUARE_NONE;
    b.fullmove = 1;
    b.key = df_polyglot_key(&b);
    *out = b;
    return DF_OK;
}
