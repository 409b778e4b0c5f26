/* SPDX-License-Identifier: MIT */
/* Internal: copy-make, shared by df_make_move and the perft of every backend. With with_key
 * false (perft, a compile-time constant after inlining) the Polyglot key is left alone. */
#ifndef DF_SRC_CHESS_MAKE_MOVE_H
#define DF_SRC_CHESS_MAKE_MOVE_H

#include <string.h>

#include "dirfill.h"
#include "polyglot.h"

/* The castling right a castling move uses: the king side when the rook stands on the h-file
 * side of the king. */
static inline int df__castling_right(df_color us, df_square king, df_square rook)
{
    return 2 * (int)us + (rook < king);
}

/* Bit r set when byte r of x is zero (x holds four bytes; exact, no false positives). */
static inline unsigned df__zero_bytes(uint32_t x)
{
    const uint32_t high = ~(((x & 0x7f7f7f7fu) + 0x7f7f7f7fu) | x) & 0x80808080u;
    /* Gathers bits 7, 15, 23, 31 into bits 21-24 of one product (no two terms collide). */
    return (unsigned)((((uint64_t)(high >> 7)) * 0x204081u) >> 21) & 15u;
}

/* The castling rights lost by a move touching from and to: both of a colour when its king
 * moves, one when its rook leaves or is captured. The four rook squares are compared at once,
 * as the bytes of one word. */
static inline unsigned df__rights_lost(const df_board *b, df_square from, df_square to,
                                       bool king_moves)
{
    if (!b->castling) return 0;
    uint32_t rooks;
    memcpy(&rooks, b->castle_rook, sizeof rooks);
    const unsigned lost = df__zero_bytes(rooks ^ (0x01010101u * (uint32_t)from)) |
                          df__zero_bytes(rooks ^ (0x01010101u * (uint32_t)to)) |
                          (king_moves ? df_castle_rights_of(df_board_stm(b)) : 0);
    return lost & b->castling;
}

/* Toggles a piece of colour c and type t on sq: lifts it, or places it on an empty square. */
static inline void df__lift(df_board *n, df_color c, df_piece_type t, df_square sq)
{
    n->color[c] ^= df_square_bb(sq);
    n->piece[t] ^= df_square_bb(sq);
}

/* Writes the board after m into *out, which may be b: everything read from b is read before
 * *out is written, and the board is copied once. */
static inline void df__make_move(df_board *out, const df_board *b, df_move m, bool with_key)
{
    const df_color us = df_board_stm(b), them = (df_color)(us ^ 1);
    const df_square from = df_move_from(m), to = df_move_to(m);
    const df_move_kind kind = df_move_kind_of(m);
    const df_piece_type type = df_board_type_at(b, from);
    const df_square victim = kind == DF_MOVE_EN_PASSANT ? df_en_passant_victim(to) : to;
    const bool capture = kind != DF_MOVE_CASTLING && df_has(b->color[them], victim);
    /* A capture's piece is lifted by a mask, not a branch (whether a move takes varies from
     * move to move): with none, a pawn's set and the key are changed by nothing. */
    const df_bb taken = df_square_bb(victim) & -(df_bb)capture;
    const df_piece_type captured = capture ? df_board_type_at(b, victim) : DF_PAWN;
    const unsigned lost = df__rights_lost(b, from, to, type == DF_KING);
    const uint32_t halfmove = b->halfmove, fullmove = b->fullmove;
    uint64_t key = b->key;
    if (with_key && df__ep_capturable(b)) key ^= df__ep_key((df_square)b->ep);

    df_board *n = out;
    if (n != b) *n = *b;
    n->ep = DF_SQUARE_NONE;
    if (kind == DF_MOVE_CASTLING) {
        /* The king "takes" its own rook: lift both, then place them, as in Chess960 their
         * squares may overlap. */
        const int r = df__castling_right(us, from, to);
        const df_square kto = df_castle_king_to(r), rto = df_castle_rook_to(r);
        df__lift(n, us, DF_KING, from);
        df__lift(n, us, DF_ROOK, to);
        df__lift(n, us, DF_KING, kto);
        df__lift(n, us, DF_ROOK, rto);
        if (with_key)
            key ^= df_polyglot_piece(us, DF_KING, from) ^ df_polyglot_piece(us, DF_KING, kto) ^
                   df_polyglot_piece(us, DF_ROOK, to) ^ df_polyglot_piece(us, DF_ROOK, rto);
    } else {
        n->color[them] ^= taken;
        n->piece[captured] ^= taken;
        if (with_key) key ^= df_polyglot_piece(them, captured, victim) & -(uint64_t)capture;
        const df_piece_type placed = kind == DF_MOVE_PROMOTION ? df_move_promotion(m) : type;
        n->color[us] ^= df_square_bb(from) | df_square_bb(to);
        n->piece[type] ^= df_square_bb(from);
        n->piece[placed] ^= df_square_bb(to);
        if (with_key) key ^= df_polyglot_piece(us, type, from) ^ df_polyglot_piece(us, placed, to);
        /* A double push: en passant is possible when an enemy pawn stands next to it. */
        if (type == DF_PAWN && (from ^ to) == 16) {
            const df_square ep = (df_square)((from + to) / 2);
            if (df_pawn_table[us][ep] & n->piece[DF_PAWN] & n->color[them]) {
                n->ep = (uint8_t)ep;
                if (with_key) key ^= df__ep_key(ep);
            }
        }
    }
    n->castling = (uint8_t)(n->castling & ~lost);
    if (with_key)
        for (unsigned l = lost; l; l &= l - 1)
            key ^= df_polyglot_random[DF_POLYGLOT_CASTLING + __builtin_ctz(l)];
    n->halfmove = type == DF_PAWN || capture ? 0 : halfmove + 1;
    n->fullmove = fullmove + (uint32_t)us;
    n->stm = (uint8_t)them;
    if (with_key) n->key = key ^ df_polyglot_random[DF_POLYGLOT_TURN];
}

#endif
