/* SPDX-License-Identifier: MIT */
/**
 * @file kernels.h
 * @brief Dispatched whole-board kernels: all eight directions of a slider set per call, or a
 *        batch of them. Each call goes through the active backend's table once (backend.h).
 *
 * Thread-safety: every function here is reentrant (no state besides its arguments). Output
 * and input may be any 8-byte aligned memory; outputs must not overlap inputs.
 */
#ifndef DIRFILL_KERNELS_H
#define DIRFILL_KERNELS_H

#include <stddef.h>

#include "bitboard.h"
#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Inputs of one slider-ray computation: orthogonal sliders move N E S W, diagonal ones
 *  NE SE SW NW; a queen belongs to both sets. */
typedef struct df_sliders {
    df_bb orth;  /**< rooks and queens */
    df_bb diag;  /**< bishops and queens */
    df_bb empty; /**< squares the rays pass through */
} df_sliders;

/** The eight per-direction attack sets: out->r[d] = df_ray_attacks(orth or diag, empty, d),
 *  orth on the orthogonal directions, diag on the diagonal ones. */
DF_API void df_slider_rays(df_rays *out, df_bb orth, df_bb diag, df_bb empty);
/** Two slider sets in one call: out[i] for in[i]. Both sides of a board, or, as a move
 *  generator wants, the enemy's sliders seen through our king beside our own sliders. */
DF_API void df_slider_rays_both(df_rays out[2], const df_sliders in[2]);
/** df_slider_rays over n inputs: out[i] from in[i]. n may be 0. */
DF_API void df_slider_rays_batch(df_rays *out, const df_sliders *in, size_t n);
/** Multi-slider x-rays (Chess Programming Wiki, "X-ray Attacks", Multiple Sliders): out->r[d] is
 *  the ray in
 *  direction d from the blockers that rays->r[d] hit (rays->r[d] & blockers): the squares
 *  behind each first blocker, up to and including the next piece or the edge. */
DF_API void df_xrays(df_rays *out, const df_rays *rays, df_bb empty, df_bb blockers);
/** Per direction d, the squares where the sliders' ray d meets the targets' ray opposite to
 *  d (Chess Programming Wiki, "Blockers by Targets"): the empty squares between a slider and a
 *  target it
 *  attacks, or the one piece between them. */
DF_API void df_between_sliders_and_targets(df_rays *out, df_bb orth, df_bb diag, df_bb targets,
                                           df_bb empty);

#ifdef __cplusplus
}
#endif
#endif
