/* SPDX-License-Identifier: MIT */
/**
 * @file see.h
 * @brief Static exchange evaluation on the library's x-ray machinery: the swap-off on a
 *        move's destination, least valuable attacker first, sliders joining from behind as
 *        the pieces in front of them leave.
 *
 * Rules (also those of `dirfill moves`): the value captured (en passant: a pawn), then both sides
 * capture on the destination in turn with their least valuable attacker (ties: the lowest
 * square index), each free to stop when going on loses; x-rays count; pins are ignored; a
 * king captures only when the other side then has no attacker left; pieces keep their type
 * (a promoting move is a pawn move); castling is 0. Thread-safety: reentrant.
 */
#ifndef DIRFILL_SEE_H
#define DIRFILL_SEE_H

#include <stdbool.h>

#include "moves.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Piece values of the exchange, in centipawns, by df_piece_type: P 100, N 320, B 330,
 *  R 500, Q 900, K 0 (a king is never captured). */
DF_API extern const int df_see_value[DF_PIECE_TYPES];

/** The static exchange evaluation of the legal move m, in centipawns. */
DF_API int df_see(const df_board *b, df_move m);
/** Whether df_see(b, m) >= threshold (a convenience for search: the same swap-off). */
DF_API bool df_see_ge(const df_board *b, df_move m, int threshold);

#ifdef __cplusplus
}
#endif
#endif
