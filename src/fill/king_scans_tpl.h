/* SPDX-License-Identifier: MIT */
/* Internal template: the two king scans of king safety, after the Chess Programming Wiki's "Checks
 * and Pinned Pieces" (Opposite Ray-Directions), with the king's ray made to do the enemy ray's
 * work.
 *
 * Contract: the including backend file defines, before including this one,
 *   static inline void df__square_rays2(df_rays *out, df_square sq, df_bb occ_orth,
 *                                       df_bb occ_diag);
 *       out->r[d] = df_square_ray(sq, occ_orth or occ_diag, d) for all eight d (the
 *       orthogonal occupancy on orthogonal directions): one square's eight rays.
 * It may define DF__HAVE_KING_SCANS and then supply df__pin_scan and df__discover_scan
 * itself, after including this file (the helpers below are shared). */
#ifndef DF_SRC_FILL_KING_SCANS_TPL_H
#define DF_SRC_FILL_KING_SCANS_TPL_H

#include "dirfill.h"

static inline bool df__single(df_bb x) { return x && !(x & (x - 1)); }
/* All ones when c holds: per-direction decisions stay branch-free (they are data dependent
 * and would mispredict). */
static inline df_bb df__mask(bool c) { return 0 - (df_bb)c; }

/* Our sliders that see the enemy king directly (direct->r[d]: in direction d from the king;
 * no legal position, still analysed) are discoverers when another slider of the same kind
 * stands right behind them. */
static inline df_bb df__discoverers_behind(const df_rays *direct, df_bb u_orth, df_bb u_diag,
                                           df_bb empty)
{
    df_bb found = 0;
    for (int d = 0; d < DF_DIRS; d++) {
        const df_dir dir = (df_dir)d;
        const df_bb sliders = df_dir_is_orthogonal(dir) ? u_orth : u_diag;
        if (df_ray_attacks(direct->r[d], empty, dir) & sliders) found |= direct->r[d];
    }
    return found;
}

#ifndef DF__HAVE_KING_SCANS
/* Whether a slider of orth or diag stands on a line through sq (on an empty board). */
static inline bool df__sees(df_square sq, df_bb orth, df_bb diag)
{
    return ((orth & df_orthogonal_lines(sq)) | (diag & df_diagonal_lines(sq))) != 0;
}

/* The first pass: from our king through empty squares and our own pieces (occupancy: the
 * enemy's only), each ray stops at the first enemy piece. If that is a slider moving along
 * the ray, the own pieces passed are none (a check: the empty squares passed are the block
 * squares) or one (a pin). Writes o's checkers (the sliding ones), pinned, pinners and
 * check_block; a vector backend writes the four at once, so that no wide load reads back
 * narrow stores. */
static inline void df__pin_scan(df_king_safety_sets *o, df_square ksq, df_bb own, df_bb enemy,
                                df_bb e_orth, df_bb e_diag)
{
    o->checkers = o->pinned = o->pinners = o->check_block = 0;
    if (!df__sees(ksq, e_orth, e_diag)) return;
    df_rays a;
    df__square_rays2(&a, ksq, enemy, enemy);
    for (int d = 0; d < DF_DIRS; d++) {
        const df_bb sliders = df_dir_is_orthogonal((df_dir)d) ? e_orth : e_diag;
        const df_bb hit = a.r[d] & sliders, passed = a.r[d] & own;
        const df_bb hit_mask = df__mask(hit != 0), none = df__mask(passed == 0);
        const df_bb one = df__mask(df__single(passed));
        o->checkers |= hit & none;
        o->check_block |= a.r[d] & ~hit & none & hit_mask;
        o->pinned |= passed & one & hit_mask;
        o->pinners |= hit & one;
    }
}

/* The second pass: from the enemy king through empty squares and those of our pieces that
 * do not slide along the ray, it stops at the first enemy piece or at our first slider of
 * the ray's kind; one own piece passed on the way to such a slider is a discoverer. */
static inline df_bb df__discover_scan(df_square eksq, df_bb own, df_bb enemy, df_bb u_orth,
                                      df_bb u_diag, df_bb empty)
{
    if (!df__sees(eksq, u_orth, u_diag)) return 0;
    df_rays a, direct;
    df_bb found = 0, any_direct = 0;
    df__square_rays2(&a, eksq, enemy | u_orth, enemy | u_diag);
    for (int d = 0; d < DF_DIRS; d++) {
        const df_bb sliders = df_dir_is_orthogonal((df_dir)d) ? u_orth : u_diag;
        const df_bb hit = a.r[d] & sliders, passed = a.r[d] & own & ~hit;
        found |= passed & df__mask(df__single(passed) && hit);
        any_direct |= direct.r[d] = hit & df__mask(passed == 0);
    }
    return any_direct ? found | df__discoverers_behind(&direct, u_orth, u_diag, empty) : found;
}
#endif

#endif
