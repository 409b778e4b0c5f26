/* SPDX-License-Identifier: MIT */
/**
 * @file bitboard.h
 * @brief Masks, square and direction helpers, and the single-direction set-wise primitives:
 *        shift, Kogge-Stone occluded fill, ray attacks.
 *
 * Everything here is static inline and dispatch free: engines inline it into hot loops.
 * Whole-board work (all eight directions, attack maps) is dispatched: see kernels.h.
 *
 * Argument conventions, the same in every header of the library:
 * - a function that writes its result into caller memory takes that destination first (as
 *   memcpy and snprintf do), then the board, then squares and moves, then colours and flags,
 *   and an optional error report last: df_attack_map_side(out, board, color),
 *   df_make_move(out, board, move), df_fen_format(buf, size, board, flags);
 * - set-wise functions take sets first, then @c empty (the squares sliders pass through),
 *   then a direction: df_fill(gen, empty, dir), df_ray_attacks(sliders, empty, dir);
 * - single-square functions take the square first, then @c occ (the occupied squares):
 *   df_square_ray(sq, occ, dir), df_square_rook_attacks(sq, occ).
 * @c empty appears only in set-wise fills; every query takes @c occ.
 *
 * Preconditions are checked with assert() (active unless NDEBUG is defined): squares are
 * 0..63, directions 0..7, colours 0 or 1, and df_lsb/df_pop_lsb need a non-empty set.
 */
#ifndef DIRFILL_BITBOARD_H
#define DIRFILL_BITBOARD_H

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @name Masks
 *  @{ */
#define DF_EMPTY     UINT64_C(0)                  /**< no square */
#define DF_FULL      UINT64_C(0xffffffffffffffff) /**< every square */
#define DF_FILE_A    UINT64_C(0x0101010101010101) /**< file a */
#define DF_FILE_B    (DF_FILE_A << 1)             /**< file b */
#define DF_FILE_G    (DF_FILE_A << 6)             /**< file g */
#define DF_FILE_H    (DF_FILE_A << 7)             /**< file h */
#define DF_RANK_1    UINT64_C(0x00000000000000ff) /**< rank 1 */
#define DF_RANK_2    (DF_RANK_1 << 8)             /**< rank 2 */
#define DF_RANK_3    (DF_RANK_1 << 16)            /**< rank 3 */
#define DF_RANK_6    (DF_RANK_1 << 40)            /**< rank 6 */
#define DF_RANK_7    (DF_RANK_1 << 48)            /**< rank 7 */
#define DF_RANK_8    (DF_RANK_1 << 56)            /**< rank 8 */
#define DF_NOT_A     (~DF_FILE_A)                 /**< every file but a */
#define DF_NOT_H     (~DF_FILE_H)                 /**< every file but h */
#define DF_NOT_AB    (~(DF_FILE_A | DF_FILE_B))   /**< every file but a and b */
#define DF_NOT_GH    (~(DF_FILE_G | DF_FILE_H))   /**< every file but g and h */
#define DF_DIAG_A1H8 UINT64_C(0x8040201008040201) /**< the long diagonal a1-h8 */
#define DF_ANTI_H1A8 UINT64_C(0x0102040810204080) /**< the long anti-diagonal h1-a8 */
/** @} */

/** @name Direction geometry
 *  The positive half and the negative half shift by the same counts, so one variable shift
 *  per half covers all eight rays and each ray shares its vector lane with its opposite.
 *  @{ */
/** Shift count of each direction, indexed by df_dir. */
#define DF_SHIFT_COUNTS                                                                            \
    {                                                                                              \
        8, 9, 1, 7, 8, 9, 1, 7                                                                     \
    }
/** Squares a one-step shift in each direction may land on (kills wrap-around). */
#define DF_WRAP_MASKS                                                                              \
    {                                                                                              \
        DF_FULL, DF_NOT_A, DF_NOT_A, DF_NOT_H, DF_FULL, DF_NOT_H, DF_NOT_H, DF_NOT_A               \
    }
/** @} */

/** Shift count of direction d (the same for d and its opposite). */
static inline unsigned df_dir_shift(df_dir d)
{
    static const unsigned char s[DF_DIRS] = DF_SHIFT_COUNTS;
    assert((unsigned)d < DF_DIRS);
    return s[d & 7];
}
/** Squares that may be reached after one step in direction d (kills wrap-around). */
static inline df_bb df_dir_wrap(df_dir d)
{
    static const df_bb m[DF_DIRS] = DF_WRAP_MASKS;
    assert((unsigned)d < DF_DIRS);
    return m[d & 7];
}
/** The direction pointing the other way. */
static inline df_dir df_opposite(df_dir d) { return (df_dir)(d ^ 4); }
/** True for N, E, S, W (rooks and queens move this way), false for the diagonals. */
static inline bool df_dir_is_orthogonal(df_dir d) { return (d & 1) == 0; }
/** True for the four directions that grow the square index (N, NE, E, NW). */
static inline bool df_dir_is_positive(df_dir d) { return d < 4; }
/** The directions clockwise from north, N NE E SE S SW W NW: the order in which people read
 *  them and in which the program, the Python package and the feature planes list
 *  per-direction sets. An X-macro, X(arg, N) X(arg, NE) ... X(arg, NW), the one place the
 *  order is written. */
#define DF_DIRS_CLOCKWISE(X, arg)                                                                  \
    X(arg, N) X(arg, NE) X(arg, E) X(arg, SE) X(arg, S) X(arg, SW) X(arg, W) X(arg, NW)
/** @cond internal */
#define DF__DIR_VALUE(unused, d) DF_##d,
#define DF__DIR_TEXT(unused, d)  #d,
/** @endcond */
/** The i-th direction clockwise from north (i = 0..7): DF_N, DF_NE, DF_E, DF_SE, ... */
static inline df_dir df_dir_clockwise(int i)
{
    static const df_dir order[DF_DIRS] = {DF_DIRS_CLOCKWISE(DF__DIR_VALUE, 0)};
    assert((unsigned)i < DF_DIRS);
    return order[i & 7];
}
/** The name of a direction: "N", "NE", "E", "SE", "S", "SW", "W" or "NW". */
static inline const char *df_dir_name(df_dir d)
{
    static const char *const names[DF_DIRS] = {DF_DIRS_CLOCKWISE(DF__DIR_TEXT, 0)};
    for (int i = 0; i < DF_DIRS; i++)
        if (df_dir_clockwise(i) == d) return names[i];
    return "?";
}

/** The set holding only square sq. */
static inline df_bb df_square_bb(df_square sq)
{
    assert((unsigned)sq < 64);
    return UINT64_C(1) << (sq & 63);
}
/** File of a square, 0 (a) to 7 (h). */
static inline int df_file_of(df_square sq) { return sq & 7; }
/** Rank of a square, 0 (rank 1) to 7 (rank 8). */
static inline int df_rank_of(df_square sq) { return (int)(sq >> 3); }
/** The square on file and rank (both 0..7). */
static inline df_square df_make_square(int file, int rank)
{
    assert((unsigned)file < 8 && (unsigned)rank < 8);
    return (df_square)(rank * 8 + file);
}
/** The square seen from the other side: a1 <-> a8 (the rank mirrored). */
static inline df_square df_flip_rank(df_square sq) { return (df_square)(sq ^ 56); }
/** All squares of file f (0 = a). */
static inline df_bb df_file_bb(int f) { return DF_FILE_A << (f & 7); }
/** All squares of rank r (0 = rank 1). */
static inline df_bb df_rank_bb(int r) { return DF_RANK_1 << (8 * (r & 7)); }
/** The rank of a colour counted from its own side: r = 0 is its first rank. */
static inline df_bb df_relative_rank_bb(df_color c, int r) { return df_rank_bb(c ? 7 - r : r); }
/** Whether sq is in the set. */
static inline bool df_has(df_bb set, df_square sq) { return (set >> (sq & 63)) & 1; }

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
/** Lowest square of a set; the set must not be empty. */
static inline df_square df_lsb(df_bb b)
{
    assert(b != 0);
    return (df_square)__builtin_ctzll(b);
}
/** Highest square of a set; the set must not be empty. */
static inline df_square df_msb(df_bb b)
{
    assert(b != 0);
    return (df_square)(63 ^ __builtin_clzll(b));
}
/** Removes and returns the lowest square of a set; the set must not be empty. */
static inline df_square df_pop_lsb(df_bb *b)
{
    const df_square sq = df_lsb(*b);
    *b &= *b - 1;
    return sq;
}
/** True when the set has more than one square. */
static inline bool df_more_than_one(df_bb b) { return (b & (b - 1)) != 0; }

/** Every square of bb moved one step in direction d; squares leaving the board vanish. */
static inline df_bb df_shift(df_bb bb, df_dir d)
{
    const unsigned s = df_dir_shift(d);
    return (df_dir_is_positive(d) ? bb << s : bb >> s) & df_dir_wrap(d);
}

/** Kogge-Stone occluded fill: gen and every square reachable from it in direction d
 *  through squares of empty. Generator squares are included. */
static inline df_bb df_fill(df_bb gen, df_bb empty, df_dir d)
{
    const unsigned s = df_dir_shift(d);
    df_bb pro = empty & df_dir_wrap(d);
    if (df_dir_is_positive(d)) {
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
static inline df_bb df_ray_attacks(df_bb sliders, df_bb empty, df_dir d)
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

/** Eight per-direction sets, indexed by df_dir. Any 8-byte aligned memory holds one: the
 *  vector backends load and store it unaligned. */
typedef struct df_rays {
    df_bb r[DF_DIRS]; /**< the set of each direction */
} df_rays;

/** out->r[d] = a->r[d] & b->r[df_opposite(d)]: where a ray of a meets a ray of b coming the
 *  other way (check-block squares, pinned pieces, discovered-check candidates). Eight
 *  ANDs, so inline. out may be a or b. */
static inline void df_meet(df_rays *out, const df_rays *a, const df_rays *b)
{
    df_rays m;
    for (int d = 0; d < DF_DIRS; d++) m.r[d] = a->r[d] & b->r[df_opposite((df_dir)d)];
    *out = m;
}

#ifdef __cplusplus
}
#endif
#endif
