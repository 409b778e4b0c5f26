/* SPDX-License-Identifier: MIT */
/**
 * @file leapers.h
 * @brief Knight and king attacks: set-wise, per jump, and per square (lookup tables).
 */
#ifndef DIRFILL_LEAPERS_H
#define DIRFILL_LEAPERS_H

#include "bitboard.h"
#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Number of knight jumps (see df_knight_jump). */
#define DF_KNIGHT_JUMPS 8

/** How far jump k (0..7, from NNE clockwise) moves a square: target = source + delta. */
static inline int df_knight_jump_delta(int k)
{
    static const signed char delta[DF_KNIGHT_JUMPS] = {17, 10, -6, -15, -17, -10, 6, 15};
    assert((unsigned)k < DF_KNIGHT_JUMPS);
    return delta[k & 7];
}
/** The targets of jump k of every knight in the set. A shift by one jump gives each target
 *  at most one source: the eight are disjoint-per-source sets. */
static inline df_bb df_knight_jump(df_bb knights, int k)
{
    /* Files the jump cannot land on: it moves one or two files east (or west). */
    static const df_bb land[DF_KNIGHT_JUMPS] = {DF_NOT_A, DF_NOT_AB, DF_NOT_AB, DF_NOT_A,
                                                DF_NOT_H, DF_NOT_GH, DF_NOT_GH, DF_NOT_H};
    const int delta = df_knight_jump_delta(k);
    return (delta > 0 ? knights << delta : knights >> -delta) & land[k & 7];
}
/** Union of the knight attacks of every square in knights. */
static inline df_bb df_knight_attacks(df_bb knights)
{
    const df_bb l1 = (knights >> 1) & DF_NOT_H, l2 = (knights >> 2) & DF_NOT_GH;
    const df_bb r1 = (knights << 1) & DF_NOT_A, r2 = (knights << 2) & DF_NOT_AB;
    const df_bb h1 = l1 | r1, h2 = l2 | r2;
    return (h1 << 16) | (h1 >> 16) | (h2 << 8) | (h2 >> 8);
}
/** Union of the king attacks of every square in kings. */
static inline df_bb df_king_attacks(df_bb kings)
{
    const df_bb a = ((kings << 1) & DF_NOT_A) | ((kings >> 1) & DF_NOT_H);
    const df_bb row = a | kings;
    return a | (row << 8) | (row >> 8);
}

/** Knight attacks of each square (compile-time table, equal to df_knight_attacks). */
DF_API extern const df_bb df_knight_table[64];
/** King attacks of each square (compile-time table, equal to df_king_attacks). */
DF_API extern const df_bb df_king_table[64];

#ifdef __cplusplus
}
#endif
#endif
