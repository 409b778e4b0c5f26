/* SPDX-License-Identifier: MIT */
/* Internal: what a Polyglot key takes of en passant, for the key of a whole board (polyglot.c)
 * and copy-make's incremental one (make_move.h). */
#ifndef DF_SRC_CHESS_POLYGLOT_H
#define DF_SRC_CHESS_POLYGLOT_H

#include "dirfill.h"

/* The Polyglot en-passant condition: a pawn of the side to move next to the pawn that just
 * moved (seen from ep: the squares from which a pawn of the side to move attacks it). */
static inline bool df__ep_capturable(const df_board *b)
{
    return b->ep < 64 &&
           (df_pawn_table[b->stm ^ 1][b->ep] & b->piece[DF_PAWN] & b->color[b->stm & 1]);
}

static inline uint64_t df__ep_key(df_square ep)
{
    return df_polyglot_random[DF_POLYGLOT_EN_PASSANT + df_file_of(ep)];
}

#endif
