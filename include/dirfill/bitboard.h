/* dirfill — bitboards, directions and the scalar single-direction primitives.
 *
 * Everything here is static inline and dispatch free: engines inline these into hot
 * loops. Whole-board work (all eight directions, attack maps) lives in kernels.h.
 * Square index: a1 = 0, b1 = 1, ..., h8 = 63.
 */
#ifndef DIRFILL_BITBOARD_H
#define DIRFILL_BITBOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A set of squares: bit i is square i. */
typedef uint64_t df_bb;

/** Squares a1..h8 as enumerators (DF_A1 == 0, DF_H8 == 63). */
/* clang-format off */
enum {
    DF_A1, DF_B1, DF_C1, DF_D1, DF_E1, DF_F1, DF_G1, DF_H1,
    DF_A2, DF_B2, DF_C2, DF_D2, DF_E2, DF_F2, DF_G2, DF_H2,
    DF_A3, DF_B3, DF_C3, DF_D3, DF_E3, DF_F3, DF_G3, DF_H3,
    DF_A4, DF_B4, DF_C4, DF_D4, DF_E4, DF_F4, DF_G4, DF_H4,
    DF_A5, DF_B5, DF_C5, DF_D5, DF_E5, DF_F5, DF_G5, DF_H5,
    DF_A6, DF_B6, DF_C6, DF_D6, DF_E6, DF_F6, DF_G6, DF_H6,
    DF_A7, DF_B7, DF_C7, DF_D7, DF_E7, DF_F7, DF_G7, DF_H7,
    DF_A8, DF_B8, DF_C8, DF_D8, DF_E8, DF_F8, DF_G8, DF_H8,
    DF_SQUARE_NONE = 64
};
/* clang-format on */

#define DF_EMPTY     UINT64_C(0)
#define DF_FULL      UINT64_C(0xffffffffffffffff)
#define DF_FILE_A    UINT64_C(0x0101010101010101)
#define DF_FILE_B    (DF_FILE_A << 1)
#define DF_FILE_G    (DF_FILE_A << 6)
#define DF_FILE_H    (DF_FILE_A << 7)
#define DF_RANK_1    UINT64_C(0x00000000000000ff)
#define DF_RANK_2    (DF_RANK_1 << 8)
#define DF_RANK_7    (DF_RANK_1 << 48)
#define DF_RANK_8    (DF_RANK_1 << 56)
#define DF_NOT_A     (~DF_FILE_A)
#define DF_NOT_H     (~DF_FILE_H)
#define DF_NOT_AB    (~(DF_FILE_A | DF_FILE_B))
#define DF_NOT_GH    (~(DF_FILE_G | DF_FILE_H))
#define DF_DIAG_A1H8 UINT64_C(0x8040201008040201)
#define DF_ANTI_H1A8 UINT64_C(0x0102040810204080)

/** The eight ray directions. d < 4 grow the square index; opposite(d) == d ^ 4;
 *  even directions are orthogonal (rook), odd are diagonal (bishop). */
typedef enum df_dir {
    DF_N = 0,  /* << 8 */
    DF_NE = 1, /* << 9, not file A */
    DF_E = 2,  /* << 1, not file A */
    DF_NW = 3, /* << 7, not file H */
    DF_S = 4,  /* >> 8 */
    DF_SW = 5, /* >> 9, not file H */
    DF_W = 6,  /* >> 1, not file H */
    DF_SE = 7  /* >> 7, not file A */
} df_dir;

/** Per-direction sets, indexed by df_dir; aligned for 256-bit loads. */
typedef struct df_rays {
    DF_ALIGN32 df_bb r[8];
} df_rays;

DF_STATIC_ASSERT(sizeof(df_rays) == 64, "df_rays is eight bitboards");

/* The lane layout the AVX2 backend relies on: the positive half and the negative half
 * shift by the same counts, so one variable shift per half covers all eight rays and a
 * ray sits in the same lane as its opposite. */
#define DF_SHIFT_COUNTS                                                                            \
    {                                                                                              \
        8, 9, 1, 7, 8, 9, 1, 7                                                                     \
    }
#define DF_WRAP_MASKS                                                                              \
    {                                                                                              \
        DF_FULL, DF_NOT_A, DF_NOT_A, DF_NOT_H, DF_FULL, DF_NOT_H, DF_NOT_H, DF_NOT_A               \
    }
/** Shift count of direction d (the same for d and d ^ 4). */
static inline unsigned df_dir_shift(int d)
{
    static const unsigned char s[8] = DF_SHIFT_COUNTS;
    return s[d & 7];
}
/** Squares that may be reached after one step in direction d (kills wrap-around). */
static inline df_bb df_dir_wrap(int d)
{
    static const df_bb m[8] = DF_WRAP_MASKS;
    return m[d & 7];
}
/** The direction pointing the other way. */
static inline int df_opposite(int d) { return d ^ 4; }
/** True for N, E, S, W (rooks and queens move this way). */
static inline bool df_dir_is_orthogonal(int d) { return (d & 1) == 0; }

/** The set holding only square sq (0..63). */
static inline df_bb df_square_bb(int sq) { return UINT64_C(1) << sq; }
/** File of a square, 0 (a) to 7 (h). */
static inline int df_file_of(int sq) { return sq & 7; }
/** Rank of a square, 0 (rank 1) to 7 (rank 8). */
static inline int df_rank_of(int sq) { return sq >> 3; }
/** The square on file and rank (both 0..7). */
static inline int df_make_square(int file, int rank) { return rank * 8 + file; }
/** All squares of file f (0 = a). */
static inline df_bb df_file_bb(int f) { return DF_FILE_A << f; }
/** All squares of rank r (0 = rank 1). */
static inline df_bb df_rank_bb(int r) { return DF_RANK_1 << (8 * r); }
/** Number of squares in a set. */
static inline int df_popcount(df_bb b)
{
#if defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
    return __builtin_popcountll(b);
#else
    /* Baseline x86-64 has no POPCNT instruction; SWAR beats libgcc's __popcountdi2 call. */
    b -= (b >> 1) & UINT64_C(0x5555555555555555);
    b = (b & UINT64_C(0x3333333333333333)) + ((b >> 2) & UINT64_C(0x3333333333333333));
    b = (b + (b >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (int)((b * UINT64_C(0x0101010101010101)) >> 56);
#endif
}
/** Lowest square of a non-empty set. */
static inline int df_lsb(df_bb b) { return __builtin_ctzll(b); }
/** Removes and returns the lowest square of a non-empty set. */
static inline int df_pop_lsb(df_bb *b)
{
    int sq = __builtin_ctzll(*b);
    *b &= *b - 1;
    return sq;
}
/** True when the set has more than one square. */
static inline bool df_more_than_one(df_bb b) { return (b & (b - 1)) != 0; }

/** Every square of bb moved one step in direction d; squares leaving the board vanish. */
static inline df_bb df_shift(df_bb bb, int d)
{
    unsigned s = df_dir_shift(d);
    return (d < 4 ? bb << s : bb >> s) & df_dir_wrap(d);
}

/** Kogge-Stone occluded fill: gen and every square reachable from it in direction d
 *  through squares of empty. Generator squares are included. */
static inline df_bb df_fill(df_bb gen, df_bb empty, int d)
{
    unsigned s = df_dir_shift(d);
    df_bb pro = empty & df_dir_wrap(d);
    if (d < 4) {
        gen |= pro & (gen << s);
        pro &= pro << s;
        gen |= pro & (gen << 2 * s);
        pro &= pro << 2 * s;
        gen |= pro & (gen << 4 * s);
    } else {
        gen |= pro & (gen >> s);
        pro &= pro >> s;
        gen |= pro & (gen >> 2 * s);
        pro &= pro >> 2 * s;
        gen |= pro & (gen >> 4 * s);
    }
    return gen;
}

/** Squares attacked in direction d by the sliders of a set: each empty square along the
 *  ray and the first occupied one. Disjoint per source: one attacker per square. */
static inline df_bb df_ray_attacks(df_bb sliders, df_bb empty, int d)
{
    return df_shift(df_fill(sliders, empty, d), d);
}

/** Union of the rook attacks of every square in rooks. */
static inline df_bb df_rook_attacks(df_bb rooks, df_bb empty)
{
    return df_ray_attacks(rooks, empty, DF_N) | df_ray_attacks(rooks, empty, DF_E) |
           df_ray_attacks(rooks, empty, DF_S) | df_ray_attacks(rooks, empty, DF_W);
}
/** Union of the bishop attacks of every square in bishops. */
static inline df_bb df_bishop_attacks(df_bb bishops, df_bb empty)
{
    return df_ray_attacks(bishops, empty, DF_NE) | df_ray_attacks(bishops, empty, DF_NW) |
           df_ray_attacks(bishops, empty, DF_SE) | df_ray_attacks(bishops, empty, DF_SW);
}
/** Union of the queen attacks of every square in queens. */
static inline df_bb df_queen_attacks(df_bb queens, df_bb empty)
{
    return df_rook_attacks(queens, empty) | df_bishop_attacks(queens, empty);
}

/** out[d] = a[d] & b[opposite(d)]: where a ray of a meets a ray of b coming the other way
 *  (check-block squares, pinned pieces, discovered-check candidates). Eight ANDs: inline. */
static inline void df_meet(df_rays *out, const df_rays *a, const df_rays *b)
{
    for (int d = 0; d < 8; d++) out->r[d] = a->r[d] & b->r[d ^ 4];
}

/* ---- Leapers ------------------------------------------------------------------------ */

/** Number of knight jumps (see df_knight_jump). */
#define DF_KNIGHT_JUMPS 8
/** How far jump k (0..7, from NNE clockwise) moves a square: target = source + delta. */
static inline int df_knight_jump_delta(int k)
{
    static const signed char delta[8] = {17, 10, -6, -15, -17, -10, 6, 15};
    return delta[k & 7];
}
/** The targets of jump k of every knight in the set. A shift by one jump gives each target
 *  at most one source: the eight are disjoint-per-source sets. */
static inline df_bb df_knight_jump(df_bb knights, int k)
{
    /* Files the jump cannot land on: it moves one or two files east (or west). */
    static const df_bb land[8] = {DF_NOT_A, DF_NOT_AB, DF_NOT_AB, DF_NOT_A,
                                  DF_NOT_H, DF_NOT_GH, DF_NOT_GH, DF_NOT_H};
    const int delta = df_knight_jump_delta(k);
    return (delta > 0 ? knights << delta : knights >> -delta) & land[k & 7];
}
/** Union of the knight attacks of every square in knights. */
static inline df_bb df_knight_attacks(df_bb knights)
{
    df_bb l1 = (knights >> 1) & DF_NOT_H, l2 = (knights >> 2) & DF_NOT_GH;
    df_bb r1 = (knights << 1) & DF_NOT_A, r2 = (knights << 2) & DF_NOT_AB;
    df_bb h1 = l1 | r1, h2 = l2 | r2;
    return (h1 << 16) | (h1 >> 16) | (h2 << 8) | (h2 >> 8);
}
/** Union of the king attacks of every square in kings. */
static inline df_bb df_king_attacks(df_bb kings)
{
    df_bb a = ((kings << 1) & DF_NOT_A) | ((kings >> 1) & DF_NOT_H);
    df_bb row = a | kings;
    return a | (row << 8) | (row >> 8);
}

/* ---- Pawns (seed "Pawn Attacks (Bitboards)"); color 0 = white, 1 = black ------------- */

/** Squares the pawns attack toward the h-file. */
static inline df_bb df_pawn_east_attacks(df_bb pawns, int color)
{
    return color ? df_shift(pawns, DF_SE) : df_shift(pawns, DF_NE);
}
/** Squares the pawns attack toward the a-file. */
static inline df_bb df_pawn_west_attacks(df_bb pawns, int color)
{
    return color ? df_shift(pawns, DF_SW) : df_shift(pawns, DF_NW);
}
/** Squares attacked by at least one pawn. */
static inline df_bb df_pawn_any_attacks(df_bb pawns, int color)
{
    return df_pawn_east_attacks(pawns, color) | df_pawn_west_attacks(pawns, color);
}
/** Squares attacked by two pawns. */
static inline df_bb df_pawn_double_attacks(df_bb pawns, int color)
{
    return df_pawn_east_attacks(pawns, color) & df_pawn_west_attacks(pawns, color);
}
/** Squares attacked by exactly one pawn. */
static inline df_bb df_pawn_single_attacks(df_bb pawns, int color)
{
    return df_pawn_east_attacks(pawns, color) ^ df_pawn_west_attacks(pawns, color);
}
/** Squares where own pawn defenders are at least as many as enemy pawn attackers. */
static inline df_bb df_pawn_safe_squares(df_bb own_pawns, df_bb enemy_pawns, int color)
{
    df_bb own_dbl = df_pawn_double_attacks(own_pawns, color);
    df_bb own_odd = df_pawn_single_attacks(own_pawns, color);
    df_bb opp_dbl = df_pawn_double_attacks(enemy_pawns, color ^ 1);
    df_bb opp_any = df_pawn_any_attacks(enemy_pawns, color ^ 1);
    return own_dbl | ~opp_any | (own_odd & ~opp_dbl);
}
/** Pawns that can capture a target toward the h-file. */
static inline df_bb df_pawns_able_to_capture_east(df_bb pawns, df_bb targets, int color)
{
    return pawns & df_pawn_west_attacks(targets, color ^ 1);
}
/** Pawns that can capture a target toward the a-file. */
static inline df_bb df_pawns_able_to_capture_west(df_bb pawns, df_bb targets, int color)
{
    return pawns & df_pawn_east_attacks(targets, color ^ 1);
}
/** Pawns that can capture some target. */
static inline df_bb df_pawns_able_to_capture(df_bb pawns, df_bb targets, int color)
{
    return pawns & df_pawn_any_attacks(targets, color ^ 1);
}

#ifdef __cplusplus
}
#endif
#endif
