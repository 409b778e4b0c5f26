/* SPDX-License-Identifier: MIT */
/* Internal: what castling needs to know of the squares, by right (its colour's first rank),
 * king file and rook file, for Chess960 and standard chess alike (castling.c). The move
 * generator, the one-move legality check and the lookup methods' gives-check read them. */
#ifndef DF_SRC_CHESS_CASTLING_H
#define DF_SRC_CHESS_CASTLING_H

#include "dirfill.h"

/* The squares that must be empty, but for the king and the rook, by right, king file and rook
 * file. */
extern const df_bb df__castle_empty[DF_CASTLE_RIGHTS][8][8];
/* The squares the king passes or lands on (none may be attacked), by right and king file. */
extern const df_bb df__castle_safe[DF_CASTLE_RIGHTS][8];

#endif
