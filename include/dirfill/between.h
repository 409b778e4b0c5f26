/* dirfill — in-between and line sets (seed "Square Attacked By", "In Between"). */
#ifndef DIRFILL_BETWEEN_H
#define DIRFILL_BETWEEN_H

#include "bitboard.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Rectangular lookup: squares strictly between a and b when they share a rank, file or
 *  diagonal, else empty. Built at compile time from DF_BETWEEN_CALC (32 KiB). */
DF_API extern const df_bb df_between_table[64][64];
/** Rectangular lookup: the whole line (edge to edge) through a and b when they are
 *  aligned and distinct, else empty. */
DF_API extern const df_bb df_line_table[64][64];

/* The seed's branch-less pure calculation (Gerd Isenberg, with Dustin's h1b7 fix),
 * written as one expression so it also serves as a constant initializer. */
#define DF__BTWN(a, b)  ((DF_FULL << (a)) ^ (DF_FULL << (b)))
#define DF__FILED(a, b) ((uint64_t)((b)&7) - (uint64_t)((a)&7))
#define DF__RANKD(a, b) (((uint64_t)((b) | 7) - (uint64_t)(a)) >> 3)
/** Squares strictly between squares a and b (0..63) when aligned, else 0: no lookup. */
#define DF_BETWEEN_CALC(a, b)                                                                      \
    ((((((DF__FILED(a, b) & 7) - 1) & UINT64_C(0x0001010101010100)) +                              \
       (2 * (((DF__RANKD(a, b) & 7) - 1) >> 58)) +                                                 \
       ((((DF__RANKD(a, b) - DF__FILED(a, b)) & 15) - 1) & UINT64_C(0x0040201008040200)) +         \
       ((((DF__RANKD(a, b) + DF__FILED(a, b)) & 15) - 1) & UINT64_C(0x0002040810204080))) *        \
      (DF__BTWN(a, b) & (0 - DF__BTWN(a, b)))) &                                                   \
     DF__BTWN(a, b))

/** The diagonal (a1-h8 direction) and anti-diagonal (h1-a8 direction) through square s.
 *  Constant expressions; the shift counts are masked so that the branch not taken has no
 *  negative count either. */
#define DF_DIAGONAL_OF(s)                                                                          \
    (((s)&7) >= ((s) >> 3) ? DF_DIAG_A1H8 >> ((8 * (((s)&7) - ((s) >> 3))) & 63)                   \
                           : DF_DIAG_A1H8 << ((8 * (((s) >> 3) - ((s)&7))) & 63))
#define DF_ANTI_DIAGONAL_OF(s)                                                                     \
    ((((s)&7) + ((s) >> 3)) <= 7 ? DF_ANTI_H1A8 >> ((8 * (7 - ((s)&7) - ((s) >> 3))) & 63)         \
                                 : DF_ANTI_H1A8 << ((8 * (((s)&7) + ((s) >> 3) - 7)) & 63))

/** Rank and file through sq (sq included): where a rook could see on an empty board. */
static inline df_bb df_orthogonal_lines(int sq)
{
    return (DF_FILE_A << (sq & 7)) | (DF_RANK_1 << (sq & 56));
}
/** Both diagonals through sq (sq included). */
static inline df_bb df_diagonal_lines(int sq)
{
    return DF_DIAGONAL_OF(sq) | DF_ANTI_DIAGONAL_OF(sq);
}

/** Empty-board rays: df_ray_table[sq][d] holds the squares a slider on sq reaches in
 *  direction d on an empty board (sq excluded). Compile-time constant, 4 KiB, each square's
 *  eight rays contiguous and 32-byte aligned in direction order. */
DF_API extern const df_bb df_ray_table[64][8];

/** Knight and king attacks of one square (compile-time tables, equal to the set-wise
 *  df_knight_attacks and df_king_attacks of that square). */
DF_API extern const df_bb df_knight_table[64];
DF_API extern const df_bb df_king_table[64];
/** Pawn attacks of one square by colour: df_pawn_table[color][sq] (white attacks upward). */
DF_API extern const df_bb df_pawn_table[2][64];

/** The empty-board ray from sq in direction d. */
static inline df_bb df_ray_mask(int sq, int d) { return df_ray_table[sq][d]; }

/** Attacks of one slider on sq in direction d through occupancy occ: the ray up to and
 *  including its first occupied square (classic ray lookup with a bit scan; the a1 and h8
 *  sentinels have empty rays, so no branch is needed). */
static inline df_bb df_square_ray(int sq, df_bb occ, int d)
{
    const df_bb ray = df_ray_table[sq][d], blockers = ray & occ;
    const int first = d < 4 ? __builtin_ctzll(blockers | (UINT64_C(1) << 63))
                            : 63 - __builtin_clzll(blockers | 1);
    return ray ^ df_ray_table[first][d];
}
/** Rook attacks of the single square sq through occ. */
static inline df_bb df_square_rook_attacks(int sq, df_bb occ)
{
    return df_square_ray(sq, occ, DF_N) | df_square_ray(sq, occ, DF_E) |
           df_square_ray(sq, occ, DF_S) | df_square_ray(sq, occ, DF_W);
}
/** Bishop attacks of the single square sq through occ. */
static inline df_bb df_square_bishop_attacks(int sq, df_bb occ)
{
    return df_square_ray(sq, occ, DF_NE) | df_square_ray(sq, occ, DF_NW) |
           df_square_ray(sq, occ, DF_SE) | df_square_ray(sq, occ, DF_SW);
}

/** Squares strictly between a and b (table lookup). */
static inline df_bb df_between(int a, int b) { return df_between_table[a][b]; }
/** The full line through a and b, or empty (table lookup). */
static inline df_bb df_line(int a, int b) { return df_line_table[a][b]; }
/** Squares strictly between a and b by pure calculation; equal to df_between. */
static inline df_bb df_between_calc(int a, int b) { return DF_BETWEEN_CALC(a, b); }
/** True when c lies on the line through a and b (a != b, aligned). */
static inline bool df_aligned(int a, int b, int c) { return (df_line_table[a][b] >> c) & 1; }

#ifdef __cplusplus
}
#endif
#endif
