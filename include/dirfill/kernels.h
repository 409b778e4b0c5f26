/* dirfill — dispatched whole-board kernels: eight directions per call, or more.
 * Each call goes through the active backend's table once (see backend.h). */
#ifndef DIRFILL_KERNELS_H
#define DIRFILL_KERNELS_H

#include <stddef.h>

#include "bitboard.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Inputs of one slider-ray computation: orthogonal sliders move N E S W, diagonal ones
 *  NE SE SW NW; a queen belongs to both sets. */
typedef struct df_sliders {
    df_bb orth, diag, empty;
} df_sliders;

/** The eight per-direction attack sets: out->r[d] = df_ray_attacks(orth or diag, empty, d),
 *  orth on even directions, diag on odd ones. */
DF_API void df_slider_rays(df_rays *out, df_bb orth, df_bb diag, df_bb empty);
/** Two slider sets in one call: out[i] for orth[i], diag[i] through empty[i]. Both sides
 *  of a board, or, as a move generator wants, the enemy's sliders seen through our king
 *  (empty[1] = empty | king) beside our own sliders. */
DF_API void df_slider_rays_both(df_rays out[2], const df_bb orth[2], const df_bb diag[2],
                                const df_bb empty[2]);
/** Multi-slider x-rays (seed "X-ray Attacks", Multiple Sliders): out->r[d] is the ray in
 *  direction d from the blockers that rays->r[d] hit (rays->r[d] & blockers): the squares
 *  behind each first blocker, up to and including the next piece or the edge. */
DF_API void df_xrays(df_rays *out, const df_rays *rays, df_bb empty, df_bb blockers);
/** Per direction d, the squares where the sliders' ray d meets the targets' ray d ^ 4
 *  (seed "Blockers by Targets"): the empty squares between a slider and a target it
 *  attacks, or the one piece between them. */
DF_API void df_between_sliders_and_targets(df_rays *out, df_bb orth, df_bb diag, df_bb targets,
                                           df_bb empty);
/** df_slider_rays over n inputs: out[i] from in[i]. */
DF_API void df_slider_rays_batch(df_rays *out, const df_sliders *in, size_t n);

#ifdef __cplusplus
}
#endif
#endif
