/* SPDX-License-Identifier: MIT */
/**
 * @file hash.h
 * @brief Polyglot Zobrist keys: the opening-book standard's 781 published random numbers.
 *
 * df_fen_parse, df_board_from_pieces and df_make_move keep df_board.key; a board built by
 * hand gets its key from df_polyglot_key. The en-passant number counts only when a pawn of
 * the side to move stands next to the pawn that just moved (legal or not, as the Polyglot
 * format says). Thread-safety: reentrant; the table is constant.
 */
#ifndef DIRFILL_HASH_H
#define DIRFILL_HASH_H

#include <stdint.h>

#include "board.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The 781 random numbers of the Polyglot book format, in its order: 768 for pieces on
 *  squares, 4 castling rights, 8 en-passant files, 1 for white to move. */
DF_API extern const uint64_t df_polyglot_random[781];

/** Offset of the four castling numbers in df_polyglot_random (WK, WQ, BK, BQ). */
#define DF_POLYGLOT_CASTLING 768
/** Offset of the eight en-passant numbers (file a to h). */
#define DF_POLYGLOT_EN_PASSANT 772
/** Index of the number for white to move. */
#define DF_POLYGLOT_TURN 780

/** The number of a piece on a square: Polyglot orders kinds black pawn, white pawn, black
 *  knight, ... white king. */
static inline uint64_t df_polyglot_piece(df_color c, df_piece_type t, df_square sq)
{
    return df_polyglot_random[64u * (2u * (unsigned)t + (c == DF_WHITE)) + ((unsigned)sq & 63u)];
}

/** The Polyglot key of a board computed from scratch. */
DF_API uint64_t df_polyglot_key(const df_board *b);

#ifdef __cplusplus
}
#endif
#endif
