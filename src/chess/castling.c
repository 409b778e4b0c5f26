/* SPDX-License-Identifier: MIT */
/* The castling masks (chess/castling.h), as compile-time constants. */
#include "chess/castling.h"

#define DF__BIT(s) (UINT64_C(1) << (s))
/* Castling by right r (its colour's first rank) with the king on file kf and the rook on
 * file rf: the squares that must be empty but for those two (between them, and both paths)
 * and, by king file alone, those the king passes or lands on (none may be attacked). */
#define DF__FIRST(r)        ((r) >> 1 ? 56 : 0)
#define DF__KING_TO(r)      (DF__FIRST(r) + ((r)&1 ? 2 : 6))
#define DF__ROOK_TO(r)      (DF__FIRST(r) + ((r)&1 ? 3 : 5))
#define DF__KING_PATH(r, k) (DF_BETWEEN_CALC(k, DF__KING_TO(r)) | DF__BIT(DF__KING_TO(r)))
#define DF__CASTLE_EMPTY_SQ(r, k, rk)                                                              \
    ((DF_BETWEEN_CALC(k, rk) | DF__KING_PATH(r, k) | DF_BETWEEN_CALC(rk, DF__ROOK_TO(r)) |         \
      DF__BIT(DF__ROOK_TO(r))) &                                                                   \
     ~(DF__BIT(k) | DF__BIT(rk)))
#define DF__CASTLE_EMPTY(r, kf, rf) DF__CASTLE_EMPTY_SQ(r, DF__FIRST(r) + (kf), DF__FIRST(r) + (rf))
#define DF__BY_FILE(F, ...)                                                                        \
    {                                                                                              \
        F(__VA_ARGS__, 0), F(__VA_ARGS__, 1), F(__VA_ARGS__, 2), F(__VA_ARGS__, 3),                \
            F(__VA_ARGS__, 4), F(__VA_ARGS__, 5), F(__VA_ARGS__, 6), F(__VA_ARGS__, 7)             \
    }
/* Rows by rook file, nested in rows by king file (a macro cannot expand within itself). */
#define DF__CASTLE_EMPTY_ROW(r, kf)                                                                \
    {                                                                                              \
        DF__CASTLE_EMPTY(r, kf, 0), DF__CASTLE_EMPTY(r, kf, 1), DF__CASTLE_EMPTY(r, kf, 2),        \
            DF__CASTLE_EMPTY(r, kf, 3), DF__CASTLE_EMPTY(r, kf, 4), DF__CASTLE_EMPTY(r, kf, 5),    \
            DF__CASTLE_EMPTY(r, kf, 6), DF__CASTLE_EMPTY(r, kf, 7)                                 \
    }
#define DF__CASTLE_EMPTY_OF(r) DF__BY_FILE(DF__CASTLE_EMPTY_ROW, r)
#define DF__CASTLE_SAFE(r, kf) DF__KING_PATH(r, DF__FIRST(r) + (kf))
const df_bb df__castle_empty[DF_CASTLE_RIGHTS][8][8] = {
    DF__CASTLE_EMPTY_OF(0), DF__CASTLE_EMPTY_OF(1), DF__CASTLE_EMPTY_OF(2), DF__CASTLE_EMPTY_OF(3)};
const df_bb df__castle_safe[DF_CASTLE_RIGHTS][8] = {
    DF__BY_FILE(DF__CASTLE_SAFE, 0), DF__BY_FILE(DF__CASTLE_SAFE, 1),
    DF__BY_FILE(DF__CASTLE_SAFE, 2), DF__BY_FILE(DF__CASTLE_SAFE, 3)};
