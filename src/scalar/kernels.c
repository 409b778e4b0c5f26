/* The scalar backend: eight independent Kogge-Stone fills, one per direction. Built with
 * baseline flags; the compiler may still auto-vectorise the loop with SSE2. */
#include "dirfill/between.h"

static inline void df__rays_of(df_rays *out, df_bb orth, df_bb diag, df_bb empty)
{
    for (int d = 0; d < 8; d++) out->r[d] = df_ray_attacks(d & 1 ? diag : orth, empty, d);
}

static inline void df__rays_from(df_rays *out, const df_rays *gen, df_bb mask, df_bb empty)
{
    for (int d = 0; d < 8; d++) out->r[d] = df_ray_attacks(gen->r[d] & mask, empty, d);
}

static inline void df__square_rays2(df_rays *out, int sq, df_bb occ_orth, df_bb occ_diag)
{
    for (int d = 0; d < 8; d++) out->r[d] = df_square_ray(sq, d & 1 ? occ_diag : occ_orth, d);
}

#define DF__BACKEND_SYMBOL df__backend_scalar
#define DF__BACKEND_NAME   "scalar"
#define DF__CPU_SUPPORTS   df__cpu_always
#include "../kernels_impl.h"
