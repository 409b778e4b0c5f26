/* SPDX-License-Identifier: MIT */
/* Boards from fuzzer bytes, shared by the fuzz targets. */
#ifndef DFT_FUZZ_BOARD_H
#define DFT_FUZZ_BOARD_H

#include <string.h>

#include "dirfill.h"

/* A board from 35 bytes: two king squares (the side to move in bit 7 of the first), a
 * nibble per square (0..9 empty, else a piece), then castling and en-passant bits. Pawns
 * that would stand on the first or last rank become rooks; castling rights are granted
 * where king and rook stand as a Chess960 start would have them; en passant where a double
 * push could have just happened. */
static inline bool fuzz_board(df_board *b, const uint8_t *p, size_t size)
{
    if (size < 35) return false;
    uint64_t pieces[12] = {0};
    const df_square wk = (df_square)(p[0] & 63), bk = (df_square)(p[1] & 63);
    if (wk == bk) return false;
    pieces[df_piece_index(DF_WHITE, DF_KING)] = df_square_bb(wk);
    pieces[df_piece_index(DF_BLACK, DF_KING)] = df_square_bb(bk);
    for (int s = 0; s < 64; s++) {
        const int nib = (p[2 + s / 2] >> (4 * (s & 1))) & 15;
        const df_square sq = (df_square)s;
        if (nib < 6 || sq == wk || sq == bk) continue;
        df_piece_type type = (df_piece_type)((nib - 6) % 5);
        if (type == DF_PAWN && df_has(DF_RANK_1 | DF_RANK_8, sq)) type = DF_ROOK;
        pieces[df_piece_index((df_color)(nib >= 11), type)] |= df_square_bb(sq);
    }
    if (df_board_from_pieces(b, pieces, (df_color)(p[0] >> 7)) != DF_OK) return false;
    /* Castling rights: each right whose king and rook stand on their first rank, the rook on
     * the right side, Chess960 style (standard chess is the special case). */
    const uint8_t rights = p[34] & 15;
    for (int r = 0; r < DF_CASTLE_RIGHTS; r++) {
        if (!((rights >> r) & 1)) continue;
        const df_color c = (df_color)(r >> 1);
        const df_bb first = df_relative_rank_bb(c, 0), king = b->color[c] & b->piece[DF_KING];
        if (!(king & first)) continue;
        const df_square ksq = df_lsb(king);
        const df_bb rooks = b->color[c] & b->piece[DF_ROOK] & first;
        const df_bb side = r & 1 ? rooks & ~(DF_FULL << ksq) : rooks & (DF_FULL << ksq);
        if (!side) continue;
        b->castling |= (uint8_t)(1 << r);
        b->castle_rook[r] = (uint8_t)(r & 1 ? df_lsb(side) : df_msb(side));
        b->chess960 = 1;
    }
    /* En passant on the file p[34] >> 4 names, when a pawn could have just moved two. */
    const int file = p[34] >> 4;
    if (file < 8) {
        const df_color them = (df_color)(b->stm ^ 1);
        const df_square ep = df_make_square(file, b->stm == DF_WHITE ? 5 : 2);
        const df_square victim = df_en_passant_victim(ep);
        const df_square origin = (df_square)(2 * victim - ep);
        if (df_has(b->color[them] & b->piece[DF_PAWN], victim) &&
            !df_has(df_board_occupied(b), ep) && !df_has(df_board_occupied(b), origin))
            b->ep = (uint8_t)ep;
    }
    b->key = df_polyglot_key(b);
    return true;
}

#endif
