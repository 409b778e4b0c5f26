/* SPDX-License-Identifier: MIT */
/**
 * @file types.h
 * @brief The vocabulary of the library: bitboards, squares, colours, piece types, directions.
 *
 * Square index: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63 (little-endian rank-file).
 */
#ifndef DIRFILL_TYPES_H
#define DIRFILL_TYPES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A set of squares: bit i is square i. */
typedef uint64_t df_bb;

/** A square, a1 = 0 to h8 = 63; DF_SQUARE_NONE stands for "no square". */
/* clang-format off */
typedef enum df_square {
    DF_A1, DF_B1, DF_C1, DF_D1, DF_E1, DF_F1, DF_G1, DF_H1,
    DF_A2, DF_B2, DF_C2, DF_D2, DF_E2, DF_F2, DF_G2, DF_H2,
    DF_A3, DF_B3, DF_C3, DF_D3, DF_E3, DF_F3, DF_G3, DF_H3,
    DF_A4, DF_B4, DF_C4, DF_D4, DF_E4, DF_F4, DF_G4, DF_H4,
    DF_A5, DF_B5, DF_C5, DF_D5, DF_E5, DF_F5, DF_G5, DF_H5,
    DF_A6, DF_B6, DF_C6, DF_D6, DF_E6, DF_F6, DF_G6, DF_H6,
    DF_A7, DF_B7, DF_C7, DF_D7, DF_E7, DF_F7, DF_G7, DF_H7,
    DF_A8, DF_B8, DF_C8, DF_D8, DF_E8, DF_F8, DF_G8, DF_H8,
    DF_SQUARE_NONE /**< no square (64) */
} df_square;
/* clang-format on */

/** The two sides. */
typedef enum df_color {
    DF_WHITE = 0, /**< moves up the board, toward rank 8 */
    DF_BLACK = 1, /**< moves down the board, toward rank 1 */
    DF_COLORS = 2 /**< number of colours */
} df_color;

/** Piece types: the index of df_board.piece and of df_attack_map.by_type. */
typedef enum df_piece_type {
    DF_PAWN = 0,        /**< pawn */
    DF_KNIGHT = 1,      /**< knight */
    DF_BISHOP = 2,      /**< bishop */
    DF_ROOK = 3,        /**< rook */
    DF_QUEEN = 4,       /**< queen */
    DF_KING = 5,        /**< king */
    DF_PIECE_TYPES = 6, /**< number of piece types; also "no piece" where a type is returned */
} df_piece_type;

/**
 * The eight ray directions, numbered so that the vector lanes line up: d < 4 grow the
 * square index, the opposite of d is d ^ 4 (df_opposite), even directions are orthogonal
 * (rooks and queens move along them), odd ones diagonal (bishops and queens).
 */
typedef enum df_dir {
    DF_N = 0,   /**< toward rank 8: << 8 */
    DF_NE = 1,  /**< << 9, never onto file a */
    DF_E = 2,   /**< toward file h: << 1, never onto file a */
    DF_NW = 3,  /**< << 7, never onto file h */
    DF_S = 4,   /**< toward rank 1: >> 8 */
    DF_SW = 5,  /**< >> 9, never onto file h */
    DF_W = 6,   /**< toward file a: >> 1, never onto file h */
    DF_SE = 7,  /**< >> 7, never onto file a */
    DF_DIRS = 8 /**< number of directions */
} df_dir;

#ifdef __cplusplus
}
#endif
#endif
