/* SPDX-License-Identifier: MIT */
/* The scalar backend: eight independent Kogge-Stone fills, one per direction, in 64-bit
 * general-purpose registers. GCC may still auto-vectorise the batch loops with SSE2
 * (docs/performance.md measures what that is worth). */
#include "dirfill.h"

static inline void df__rays_of(df_rays *out, df_bb orth, df_bb diag, df_bb empty)
{
    for (int d = 0; d < DF_DIRS; d++)
        out->r[d] = df_ray_attacks(df_dir_is_orthogonal((df_dir)d) ? orth : diag, empty, (df_dir)d);
}

static inline void df__rays_from(df_rays *out, const df_rays *gen, df_bb mask, df_bb empty)
{
    for (int d = 0; d < DF_DIRS; d++)
        out->r[d] = df_ray_attacks(gen->r[d] & mask, empty, (df_dir)d);
}

static inline void df__square_rays2(df_rays *out, df_square sq, df_bb occ_orth, df_bb occ_diag)
{
    for (int d = 0; d < DF_DIRS; d++)
        out->r[d] =
            df_square_ray(sq, df_dir_is_orthogonal((df_dir)d) ? occ_orth : occ_diag, (df_dir)d);
}

/* The sliders attacking sq: the classic per-ray bit scans, unmasked by direction. */
#define DF__HAVE_SLIDER_ATTACKERS
static inline df_bb df__slider_attackers(df_square sq, df_bb occ, df_bb rq, df_bb bq)
{
    return (df_square_rook_attacks(sq, occ) & rq) | (df_square_bishop_attacks(sq, occ) & bq);
}

/* On x86-64 two builds: "scalar" with POPCNT (what an engine compiles to; the move generator
 * sums popcounts) and "scalar-baseline" for CPUs without it. Elsewhere one, "scalar". */
#ifdef DF_BUILD_SCALAR_POPCNT
#define DF__BACKEND_SYMBOL df__backend_scalar_popcnt
#define DF__CPU_SUPPORTS   df__cpu_has_popcnt
#define DF__BACKEND_NAME   "scalar"
#else
#define DF__BACKEND_SYMBOL df__backend_scalar
#define DF__CPU_SUPPORTS   df__cpu_always
#ifdef DF_HAVE_SCALAR_POPCNT
#define DF__BACKEND_NAME "scalar-baseline"
#else
#define DF__BACKEND_NAME "scalar"
#endif
#endif
#include "expand.h"
#include "backend_tpl.h"
