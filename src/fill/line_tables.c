/* SPDX-License-Identifier: MIT */
/* The rectangular in-between and line tables, as compile-time constants: no init call,
 * no race, read-only data shared by every process that maps the library. */
#include "dirfill.h"

/* Line through a and b: the rank, file, diagonal or anti-diagonal holding both. */
#define DF__LINE(a, b)                                                                             \
    ((a) == (b)                                     ? DF_EMPTY                                     \
     : ((a)&7) == ((b)&7)                           ? DF_FILE_A << ((a)&7)                         \
     : ((a) >> 3) == ((b) >> 3)                     ? DF_RANK_1 << ((a)&56)                        \
     : ((a)&7) - ((a) >> 3) == ((b)&7) - ((b) >> 3) ? DF_DIAGONAL_OF(a)                            \
     : ((a)&7) + ((a) >> 3) == ((b)&7) + ((b) >> 3) ? DF_ANTI_DIAGONAL_OF(a)                       \
                                                    : DF_EMPTY)

#define DF__ROW8(F, a, b0)                                                                         \
    F(a, b0), F(a, b0 + 1), F(a, b0 + 2), F(a, b0 + 3), F(a, b0 + 4), F(a, b0 + 5), F(a, b0 + 6),  \
        F(a, b0 + 7)
#define DF__ROW(F, a)                                                                              \
    {                                                                                              \
        DF__ROW8(F, a, 0), DF__ROW8(F, a, 8), DF__ROW8(F, a, 16), DF__ROW8(F, a, 24),              \
            DF__ROW8(F, a, 32), DF__ROW8(F, a, 40), DF__ROW8(F, a, 48), DF__ROW8(F, a, 56)         \
    }
#define DF__ROWS8(F, a0)                                                                           \
    DF__ROW(F, a0), DF__ROW(F, a0 + 1), DF__ROW(F, a0 + 2), DF__ROW(F, a0 + 3),                    \
        DF__ROW(F, a0 + 4), DF__ROW(F, a0 + 5), DF__ROW(F, a0 + 6), DF__ROW(F, a0 + 7)
#define DF__TABLE(F)                                                                               \
    {                                                                                              \
        DF__ROWS8(F, 0), DF__ROWS8(F, 8), DF__ROWS8(F, 16), DF__ROWS8(F, 24), DF__ROWS8(F, 32),    \
            DF__ROWS8(F, 40), DF__ROWS8(F, 48), DF__ROWS8(F, 56)                                   \
    }

/* Ray from s in direction d: the line of that direction through s, less the squares on the
 * other side of s (index order: the positive directions grow the index). */
#define DF__LINE_OF(s, d)                                                                          \
    ((d) % 4 == 0   ? DF_FILE_A << ((s)&7)                                                         \
     : (d) % 4 == 2 ? DF_RANK_1 << ((s)&56)                                                        \
     : (d) % 4 == 1 ? DF_DIAGONAL_OF(s)                                                            \
                    : DF_ANTI_DIAGONAL_OF(s))
#define DF__RAY(s, d) (DF__LINE_OF(s, d) & ((d) < 4 ? DF_FULL << (s) << 1 : ~(DF_FULL << (s))))
#define DF__RAYS(s)                                                                                \
    {                                                                                              \
        DF__RAY(s, 0), DF__RAY(s, 1), DF__RAY(s, 2), DF__RAY(s, 3), DF__RAY(s, 4), DF__RAY(s, 5),  \
            DF__RAY(s, 6), DF__RAY(s, 7)                                                           \
    }
#define DF__RAYS8(s)                                                                               \
    DF__RAYS(s), DF__RAYS(s + 1), DF__RAYS(s + 2), DF__RAYS(s + 3), DF__RAYS(s + 4),               \
        DF__RAYS(s + 5), DF__RAYS(s + 6), DF__RAYS(s + 7)

/* Each square's eight rays fill one 64-byte cache line. */
_Alignas(64) const df_bb df_ray_table[64][DF_DIRS] = {DF__RAYS8(0),  DF__RAYS8(8),  DF__RAYS8(16),
                                                      DF__RAYS8(24), DF__RAYS8(32), DF__RAYS8(40),
                                                      DF__RAYS8(48), DF__RAYS8(56)};
const df_bb df_between_table[64][64] = DF__TABLE(DF_BETWEEN_CALC);
const df_bb df_line_table[64][64] = DF__TABLE(DF__LINE);

/* Leaper attacks of one square: the set-wise formulas of bitboard.h applied to a constant. */
#define DF__BIT(s) (UINT64_C(1) << (s))
#define DF__H1(s)  ((((DF__BIT(s)) >> 1) & DF_NOT_H) | (((DF__BIT(s)) << 1) & DF_NOT_A))
#define DF__H2(s)  ((((DF__BIT(s)) >> 2) & DF_NOT_GH) | (((DF__BIT(s)) << 2) & DF_NOT_AB))
#define DF__KNIGHT_OF(s)                                                                           \
    ((DF__H1(s) << 16) | (DF__H1(s) >> 16) | (DF__H2(s) << 8) | (DF__H2(s) >> 8))
#define DF__KING_OF(s)                                                                             \
    (DF__H1(s) | ((DF__H1(s) | DF__BIT(s)) << 8) | ((DF__H1(s) | DF__BIT(s)) >> 8))
#define DF__ROW_OF(F, s) F(s), F(s + 1), F(s + 2), F(s + 3), F(s + 4), F(s + 5), F(s + 6), F(s + 7)
#define DF__BOARD_OF(F)                                                                            \
    {                                                                                              \
        DF__ROW_OF(F, 0), DF__ROW_OF(F, 8), DF__ROW_OF(F, 16), DF__ROW_OF(F, 24),                  \
            DF__ROW_OF(F, 32), DF__ROW_OF(F, 40), DF__ROW_OF(F, 48), DF__ROW_OF(F, 56)             \
    }

const df_bb df_knight_table[64] = DF__BOARD_OF(DF__KNIGHT_OF);
const df_bb df_king_table[64] = DF__BOARD_OF(DF__KING_OF);
/* Squares a pawn of each colour on s attacks: up the board for white, down for black. */
#define DF__WPAWN_OF(s) (((DF__BIT(s) << 9) & DF_NOT_A) | ((DF__BIT(s) << 7) & DF_NOT_H))
#define DF__BPAWN_OF(s) (((DF__BIT(s) >> 7) & DF_NOT_A) | ((DF__BIT(s) >> 9) & DF_NOT_H))
const df_bb df_pawn_table[DF_COLORS][64] = {DF__BOARD_OF(DF__WPAWN_OF), DF__BOARD_OF(DF__BPAWN_OF)};
