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

df_status df_board_from_parts(df_board *out, const df_board_parts *parts)
{
    if (!out || !parts || parts->ep < -1 || parts->ep > 63 || (unsigned)parts->stm >= DF_COLORS)
        return DF_ERR_ARGUMENT;
    df_board b;
    memset(&b, 0, sizeof b);
    df_bb seen = 0;
    for (int c = 0; c < DF_COLORS; c++)
        for (int t = 0; t < DF_PIECE_TYPES; t++) {
            const df_bb set = parts->pieces[df_piece_index((df_color)c, (df_piece_type)t)];
            if (set & seen) return DF_ERR_BOARD;
            seen |= set;
            b.color[c] |= set;
            b.piece[t] |= set;
        }
    for (int c = 0; c < DF_COLORS; c++)
        if (df_popcount(b.color[c] & b.piece[DF_KING]) != 1) return DF_ERR_BOARD;
    b.stm = (uint8_t)parts->stm;
    b.chess960 = parts->chess960;
    b.halfmove = parts->halfmove;
    b.fullmove = parts->fullmove ? parts->fullmove : 1;
    b.ep = DF_SQUARE_NONE;
    /* Each castling rook: its colour's rook on the first rank; the side of the right is the
     * side of the king it stands on; standard chess wants the home squares. */
    for (df_bb rooks = parts->castling_rooks; rooks;) {
        const df_square rook = df_pop_lsb(&rooks);
        const df_color c = df_rank_of(rook) == 0 ? DF_WHITE : DF_BLACK;
        const df_square king = df_board_king(&b, c);
        if (!df_has(df_relative_rank_bb(c, 0) & b.color[c] & b.piece[DF_ROOK], rook) ||
            df_rank_of(king) != df_rank_of(rook))
            return DF_ERR_BOARD;
        const int r = 2 * (int)c + (rook < king);
        if (!parts->chess960 &&
            (df_file_of(king) != 4 || (df_file_of(rook) != 0 && df_file_of(rook) != 7)))
            return DF_ERR_BOARD;
        if ((b.castling >> r) & 1) return DF_ERR_BOARD; /* two rooks for one right */
        b.castling |= (uint8_t)(1u << r);
        b.castle_rook[r] = (uint8_t)rook;
    }
    if (parts->ep >= 0) {
        b.ep = (uint8_t)parts->ep;
        if (!df_board_is_valid(&b)) return DF_ERR_BOARD;
        const df_color them = (df_color)(b.stm ^ 1);
        if (!(df_pawn_table[them][b.ep] & b.color[b.stm] & b.piece[DF_PAWN]))
            b.ep = DF_SQUARE_NONE; /* as df_fen_parse keeps it */
    }
    if (!df_board_is_valid(&b)) return DF_ERR_BOARD;
    b.key = df_polyglot_key(&b);
    *out = b;
    return DF_OK;
}

void df_board_to_parts(df_board_parts *out, const df_board *b)
{
    memset(out, 0, sizeof *out);
    df_board_piece_sets(out->pieces, b);
    out->castling_rooks = df_board_castling_rooks(b);
    out->ep = b->ep < 64 ? b->ep : -1;
    out->halfmove = b->halfmove;
    out->fullmove = b->fullmove;
    out->stm = df_board_stm(b);
    out->chess960 = b->chess960 != 0;
}

df_status df_board_from_pieces(df_board *out, const uint64_t pieces[12], df_color stm)
{
    if (!pieces) return DF_ERR_ARGUMENT;
    df_board_parts parts;
    memset(&parts, 0, sizeof parts);
    memcpy(parts.pieces, pieces, sizeof parts.pieces);
    parts.stm = stm;
    parts.ep = -1;
    return df_board_from_parts(out, &parts);
}
