/* SPDX-License-Identifier: MIT */
/**
 * @file queries.h
 * @brief Square-centric queries (Chess Programming Wiki, "Square Attacked By"): attackers of a
 * square, of every
 *        square, whether a square is attacked, whether one piece attacks a square.
 *
 * Thread-safety: reentrant. The board needs no king for these.
 */
#ifndef DIRFILL_QUERIES_H
#define DIRFILL_QUERIES_H

#include <stdbool.h>

#include "board.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The squares a piece of type and color on sq attacks through occ. */
DF_API df_bb df_piece_attacks(df_square sq, df_bb occ, df_piece_type type, df_color color);
/** Whether a piece of type and color on from attacks to through occ (Chess Programming Wiki,
 *  "Attacked by Piece
 *  on Square"); false when from == to. */
DF_API bool df_piece_attacks_square(df_square from, df_square to, df_bb occ, df_piece_type type,
                                    df_color color);
/** Pieces of both colours attacking sq, sliders seen through occ (any occupancy: x-ray
 *  queries remove pieces from it). */
DF_API df_bb df_attackers_to(const df_board *b, df_square sq, df_bb occ);
/** Attackers (both colours) of every square at once: out[sq] == df_attackers_to(b, sq,
 *  occupied), each piece's attacks scattered into the squares they reach (dispatched). */
DF_API void df_attackers_to_all(df_bb out[64], const df_board *b);
/** Whether a piece of colour by attacks sq through occ (returns at the first hit). */
DF_API bool df_is_attacked(const df_board *b, df_square sq, df_color by, df_bb occ);

#ifdef __cplusplus
}
#endif
#endif
