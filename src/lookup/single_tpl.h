/* SPDX-License-Identifier: MIT */
/* Internal template: the queries about one square, written once over a method's slider
 * lookups. Contract: the including file (src/lookup/<method>.c) defines
 *     static inline df_bb df__rook(df_square sq, df_bb occ);
 *     static inline df_bb df__bishop(df_square sq, df_bb occ);
 * (a rook's and a bishop's attacks from sq through occ), then includes this file once. */
#include "chess/make_move.h"

static df_bb l_attackers_to(const df_board *b, df_square sq, df_bb occ)
{
    const df_bb pawns = b->piece[DF_PAWN];
    return (df_pawn_table[DF_WHITE][sq] & pawns & b->color[DF_BLACK]) |
           (df_pawn_table[DF_BLACK][sq] & pawns & b->color[DF_WHITE]) |
           (df_knight_table[sq] & b->piece[DF_KNIGHT]) | (df_king_table[sq] & b->piece[DF_KING]) |
           (df__rook(sq, occ) & (b->piece[DF_ROOK] | b->piece[DF_QUEEN])) |
           (df__bishop(sq, occ) & (b->piece[DF_BISHOP] | b->piece[DF_QUEEN]));
}

static bool l_is_attacked(const df_board *b, df_square sq, df_color by, df_bb occ)
{
    const df_bb them = b->color[by & 1], queens = b->piece[DF_QUEEN];
    if (df_pawn_table[(by & 1) ^ 1][sq] & them & b->piece[DF_PAWN]) return true;
    if (df_knight_table[sq] & them & b->piece[DF_KNIGHT]) return true;
    if (df_king_table[sq] & them & b->piece[DF_KING]) return true;
    if (df__bishop(sq, occ) & them & (b->piece[DF_BISHOP] | queens)) return true;
    return (df__rook(sq, occ) & them & (b->piece[DF_ROOK] | queens)) != 0;
}

/* All ones when c, else zero. */
static inline df_bb df__mask_if(df_bb c) { return 0 - (df_bb)(c != 0); }

/* The Chess Programming Wiki's "Checks and Pinned Pieces", with Stockfish's two lookups: the rook
 * and bishop attacks from the enemy king through the occupancy after the move. The moved piece
 * checks directly when it lands on one of them and moves that way (a knight or pawn: when its
 * attacks from there reach the king); a piece of ours that did not move checks by discovery when it
 * is a slider of the kind of the one it stands on (none did before the move: the position is
 * legal). The moved piece is tested through the piece sets holding from, not by a branch on its
 * type, which mispredicts from move to move. */
static int l_gives_check(const df_board *b, df_move m)
{
    const df_color us = df_board_stm(b);
    const df_square from = df_move_from(m), to = df_move_to(m);
    const df_square eksq = df_board_king(b, (df_color)(us ^ 1));
    const df_move_kind kind = df_move_kind_of(m);
    const df_bb k = df_square_bb(eksq);
    df_bb occ = (df_board_occupied(b) & ~df_square_bb(from)) | df_square_bb(to);
    df_bb unmoved = b->color[us] & ~df_square_bb(from);
    /* The moved piece: where it lands and the sets it counts in as a pawn, a knight, a mover
     * along ranks and files and along diagonals (each all ones or none). */
    df_square lands = to;
    df_bb pawn, knight, orth, diag;
    if (kind == DF_MOVE_NORMAL) {
        const df_bb f = df_square_bb(from);
        pawn = df__mask_if(b->piece[DF_PAWN] & f);
        knight = df__mask_if(b->piece[DF_KNIGHT] & f);
        orth = df__mask_if((b->piece[DF_ROOK] | b->piece[DF_QUEEN]) & f);
        diag = df__mask_if((b->piece[DF_BISHOP] | b->piece[DF_QUEEN]) & f);
    } else {
        df_piece_type type = DF_PAWN;
        if (kind == DF_MOVE_CASTLING) {
            /* The king goes to kto, the rook (on to) to rto: it is the checker. */
            const int r = df__castling_right(us, from, to);
            lands = df_castle_rook_to(r);
            occ = (df_board_occupied(b) & ~df_square_bb(from) & ~df_square_bb(to)) |
                  df_square_bb(df_castle_king_to(r)) | df_square_bb(lands);
            unmoved &= ~df_square_bb(to);
            type = DF_ROOK;
        } else if (kind == DF_MOVE_EN_PASSANT) {
            occ &= ~df_square_bb(df_en_passant_victim(to));
        } else {
            type = df_move_promotion(m);
        }
        pawn = df__mask_if(type == DF_PAWN);
        knight = df__mask_if(type == DF_KNIGHT);
        orth = df__mask_if(type == DF_ROOK || type == DF_QUEEN);
        diag = df__mask_if(type == DF_BISHOP || type == DF_QUEEN);
    }
    const df_bb rook = df__rook(eksq, occ), bishop = df__bishop(eksq, occ);
    const df_bb at = df_square_bb(lands);
    const df_bb direct = (pawn & df_pawn_table[us][lands] & k) |
                         (knight & df_knight_table[lands] & k) | (orth & rook & at) |
                         (diag & bishop & at);
    const df_bb rq = b->piece[DF_ROOK] | b->piece[DF_QUEEN];
    const df_bb bq = b->piece[DF_BISHOP] | b->piece[DF_QUEEN];
    const df_bb discovered = ((rook & rq) | (bishop & bq)) & unmoved;
    return (direct ? DF_CHECK_DIRECT : DF_CHECK_NONE) |
           (discovered ? DF_CHECK_DISCOVERED : DF_CHECK_NONE);
}
