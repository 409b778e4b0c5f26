/* SPDX-License-Identifier: MIT */
/**
 * @file pawns.h
 * @brief Set-wise pawn attacks after the Chess Programming Wiki page "Pawn Attacks (Bitboards)":
 * east and west per
 *        colour, any, double, single, safe squares, pawns able to capture; the pawn deltas.
 *
 * White pawns move toward rank 8, black ones toward rank 1. "East" is toward the h-file.
 */
#ifndef DIRFILL_PAWNS_H
#define DIRFILL_PAWNS_H

#include "bitboard.h"
#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The direction a pawn of color pushes: DF_N for white, DF_S for black. */
static inline df_dir df_pawn_push_dir(df_color color) { return color ? DF_S : DF_N; }
/** How far a one-square push moves a pawn of color: +8 or -8. */
static inline int df_pawn_push_delta(df_color color) { return color ? -8 : 8; }
/** How far a capture toward the h-file moves a pawn of color: +9 or -7. */
static inline int df_pawn_east_delta(df_color color) { return color ? -7 : 9; }
/** How far a capture toward the a-file moves a pawn of color: +7 or -9. */
static inline int df_pawn_west_delta(df_color color) { return color ? -9 : 7; }
/** The square of the pawn an en-passant capture onto ep removes (one rank behind ep,
 *  seen from the capturer): e6 -> e5, e3 -> e4. */
static inline df_square df_en_passant_victim(df_square ep) { return (df_square)(ep ^ 8); }

/** Squares the pawns attack toward the h-file. */
static inline df_bb df_pawn_east_attacks(df_bb pawns, df_color color)
{
    return color ? df_shift(pawns, DF_SE) : df_shift(pawns, DF_NE);
}
/** Squares the pawns attack toward the a-file. */
static inline df_bb df_pawn_west_attacks(df_bb pawns, df_color color)
{
    return color ? df_shift(pawns, DF_SW) : df_shift(pawns, DF_NW);
}
/** Squares attacked by at least one pawn. */
static inline df_bb df_pawn_any_attacks(df_bb pawns, df_color color)
{
    return df_pawn_east_attacks(pawns, color) | df_pawn_west_attacks(pawns, color);
}
/** Squares attacked by two pawns. */
static inline df_bb df_pawn_double_attacks(df_bb pawns, df_color color)
{
    return df_pawn_east_attacks(pawns, color) & df_pawn_west_attacks(pawns, color);
}
/** Squares attacked by exactly one pawn. */
static inline df_bb df_pawn_single_attacks(df_bb pawns, df_color color)
{
    return df_pawn_east_attacks(pawns, color) ^ df_pawn_west_attacks(pawns, color);
}
/** Squares where own pawn defenders are at least as many as enemy pawn attackers. */
static inline df_bb df_pawn_safe_squares(df_bb own_pawns, df_bb enemy_pawns, df_color color)
{
    const df_color them = (df_color)(color ^ 1);
    const df_bb own_dbl = df_pawn_double_attacks(own_pawns, color);
    const df_bb own_odd = df_pawn_single_attacks(own_pawns, color);
    const df_bb opp_dbl = df_pawn_double_attacks(enemy_pawns, them);
    const df_bb opp_any = df_pawn_any_attacks(enemy_pawns, them);
    return own_dbl | ~opp_any | (own_odd & ~opp_dbl);
}
/** Pawns that can capture a target toward the h-file. */
static inline df_bb df_pawns_able_to_capture_east(df_bb pawns, df_bb targets, df_color color)
{
    return pawns & df_pawn_west_attacks(targets, (df_color)(color ^ 1));
}
/** Pawns that can capture a target toward the a-file. */
static inline df_bb df_pawns_able_to_capture_west(df_bb pawns, df_bb targets, df_color color)
{
    return pawns & df_pawn_east_attacks(targets, (df_color)(color ^ 1));
}
/** Pawns that can capture some target. */
static inline df_bb df_pawns_able_to_capture(df_bb pawns, df_bb targets, df_color color)
{
    return pawns & df_pawn_any_attacks(targets, (df_color)(color ^ 1));
}

/** Pawn attacks of one square by colour: df_pawn_table[color][sq]. */
DF_API extern const df_bb df_pawn_table[DF_COLORS][64];

#ifdef __cplusplus
}
#endif
#endif
