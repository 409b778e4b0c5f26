/* SPDX-License-Identifier: MIT */
/**
 * @file square_attacks.h
 * @brief Attacks of one slider on one square through an occupancy, and single-slider x-rays
 *        by modifying the occupancy (Chess Programming Wiki, "X-ray Attacks").
 */
#ifndef DIRFILL_SQUARE_ATTACKS_H
#define DIRFILL_SQUARE_ATTACKS_H

#include "lines.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Attacks of one slider on sq in direction d through occ: the ray up to and including its
 *  first occupied square (classic ray lookup with a bit scan; the a1 and h8 sentinels have
 *  empty rays, so no branch is needed). */
static inline df_bb df_square_ray(df_square sq, df_bb occ, df_dir d)
{
    const df_bb ray = df_ray_mask(sq, d), blockers = ray & occ;
    const df_square first =
        df_dir_is_positive(d) ? df_lsb(blockers | (UINT64_C(1) << 63)) : df_msb(blockers | 1);
    return ray ^ df_ray_mask(first, d);
}
/** Rook attacks of the single square sq through occ. */
static inline df_bb df_square_rook_attacks(df_square sq, df_bb occ)
{
    return df_square_ray(sq, occ, DF_N) | df_square_ray(sq, occ, DF_E) |
           df_square_ray(sq, occ, DF_S) | df_square_ray(sq, occ, DF_W);
}
/** Bishop attacks of the single square sq through occ. */
static inline df_bb df_square_bishop_attacks(df_square sq, df_bb occ)
{
    return df_square_ray(sq, occ, DF_NE) | df_square_ray(sq, occ, DF_NW) |
           df_square_ray(sq, occ, DF_SE) | df_square_ray(sq, occ, DF_SW);
}
/** Queen attacks of the single square sq through occ. */
static inline df_bb df_square_queen_attacks(df_square sq, df_bb occ)
{
    return df_square_rook_attacks(sq, occ) | df_square_bishop_attacks(sq, occ);
}
/** Single-slider x-rays by modifying occupancy: the rook attacks from sq gained when its
 *  first blockers that are in blockers are removed. */
static inline df_bb df_xray_rook_attacks(df_square sq, df_bb occ, df_bb blockers)
{
    const df_bb attacks = df_square_rook_attacks(sq, occ);
    return attacks ^ df_square_rook_attacks(sq, occ ^ (blockers & attacks));
}
/** The bishop form of df_xray_rook_attacks. */
static inline df_bb df_xray_bishop_attacks(df_square sq, df_bb occ, df_bb blockers)
{
    const df_bb attacks = df_square_bishop_attacks(sq, occ);
    return attacks ^ df_square_bishop_attacks(sq, occ ^ (blockers & attacks));
}

#ifdef __cplusplus
}
#endif
#endif
