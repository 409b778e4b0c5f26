/* SPDX-License-Identifier: MIT */
/**
 * @file lines.h
 * @brief Geometry without occupancy: in-between and line sets (Chess Programming Wiki, "Square
 * Attacked By",
 *        In Between), empty-board rays, the lines through a square.
 */
#ifndef DIRFILL_LINES_H
#define DIRFILL_LINES_H

#include "bitboard.h"
#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Rectangular lookup: squares strictly between a and b when they share a rank, file or
 *  diagonal, else empty. Built at compile time from DF_BETWEEN_CALC (32 KiB). */
DF_API extern const df_bb df_between_table[64][64];
/** Rectangular lookup: the whole line (edge to edge) through a and b when they are
 *  aligned and distinct, else empty. */
DF_API extern const df_bb df_line_table[64][64];
/** Empty-board rays: df_ray_table[sq][d] holds the squares a slider on sq reaches in
 *  direction d on an empty board (sq excluded); each square's eight rays are contiguous, in
 *  direction order. */
DF_API extern const df_bb df_ray_table[64][DF_DIRS];

/** @cond INTERNAL */
#define DF__BTWN(a, b)  ((DF_FULL << (a)) ^ (DF_FULL << (b)))
#define DF__FILED(a, b) ((uint64_t)((b)&7) - (uint64_t)((a)&7))
#define DF__RANKD(a, b) (((uint64_t)((b) | 7) - (uint64_t)(a)) >> 3)
/** @endcond */
/** Squares strictly between squares a and b (0..63) when aligned, else 0, without a lookup:
 *  the Chess Programming Wiki's branch-less pure calculation (Gerd Isenberg, with Dustin's h1b7
 *  fix), written
 *  as one expression so that it also serves as a constant initializer. */
#define DF_BETWEEN_CALC(a, b)                                                                      \
    ((((((DF__FILED(a, b) & 7) - 1) & UINT64_C(0x0001010101010100)) +                              \
       (2 * (((DF__RANKD(a, b) & 7) - 1) >> 58)) +                                                 \
       ((((DF__RANKD(a, b) - DF__FILED(a, b)) & 15) - 1) & UINT64_C(0x0040201008040200)) +         \
       ((((DF__RANKD(a, b) + DF__FILED(a, b)) & 15) - 1) & UINT64_C(0x0002040810204080))) *        \
      (DF__BTWN(a, b) & (0 - DF__BTWN(a, b)))) &                                                   \
     DF__BTWN(a, b))

/** The diagonal (a1-h8 direction) through square s, as a constant expression; the shift
 *  counts are masked so that the branch not taken has no negative count either. */
#define DF_DIAGONAL_OF(s)                                                                          \
    (((s)&7) >= ((s) >> 3) ? DF_DIAG_A1H8 >> ((8 * (((s)&7) - ((s) >> 3))) & 63)                   \
                           : DF_DIAG_A1H8 << ((8 * (((s) >> 3) - ((s)&7))) & 63))
/** The anti-diagonal (h1-a8 direction) through square s, as a constant expression. */
#define DF_ANTI_DIAGONAL_OF(s)                                                                     \
    ((((s)&7) + ((s) >> 3)) <= 7 ? DF_ANTI_H1A8 >> ((8 * (7 - ((s)&7) - ((s) >> 3))) & 63)         \
                                 : DF_ANTI_H1A8 << ((8 * (((s)&7) + ((s) >> 3) - 7)) & 63))

/** Rank and file through sq (sq included): where a rook could see on an empty board. */
static inline df_bb df_orthogonal_lines(df_square sq)
{
    return (DF_FILE_A << (sq & 7)) | (DF_RANK_1 << (sq & 56));
}
/** Both diagonals through sq (sq included). */
static inline df_bb df_diagonal_lines(df_square sq)
{
    return DF_DIAGONAL_OF(sq) | DF_ANTI_DIAGONAL_OF(sq);
}
/** The empty-board ray from sq in direction d (sq excluded). */
static inline df_bb df_ray_mask(df_square sq, df_dir d)
{
    assert((unsigned)sq < 64 && (unsigned)d < DF_DIRS);
    return df_ray_table[sq & 63][d & 7];
}
/** Squares strictly between a and b (table lookup); empty when they are not aligned. */
static inline df_bb df_between(df_square a, df_square b)
{
    assert((unsigned)a < 64 && (unsigned)b < 64);
    return df_between_table[a & 63][b & 63];
}
/** The full line through a and b, or empty when they are not aligned or equal. */
static inline df_bb df_line(df_square a, df_square b)
{
    assert((unsigned)a < 64 && (unsigned)b < 64);
    return df_line_table[a & 63][b & 63];
}
/** Squares strictly between a and b by pure calculation; equal to df_between. */
static inline df_bb df_between_calc(df_square a, df_square b) { return DF_BETWEEN_CALC(a, b); }
/** True when c lies on the line through a and b (a and b distinct and aligned). */
static inline bool df_aligned(df_square a, df_square b, df_square c)
{
    return df_has(df_line(a, b), c);
}

#ifdef __cplusplus
}
#endif
#endif
