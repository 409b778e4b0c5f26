/* The scalar backend: eight independent Kogge-Stone fills, one per direction. Built with
 * baseline flags (the compiler may still auto-vectorise the loops with SSE2) and, on x86,
 * again with -mpopcnt as DF_BUILD_SCALAR_POPCNT; both tables are named "scalar" and the
 * dispatcher takes the POPCNT one where the CPU has it. */
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

#ifdef DF_BUILD_SCALAR_POPCNT
#define DF__BACKEND_SYMBOL df__backend_scalar_popcnt
#define DF__CPU_SUPPORTS   df__cpu_has_popcnt
#else
#define DF__BACKEND_SYMBOL df__backend_scalar
#define DF__CPU_SUPPORTS   df__cpu_always
#endif
#define DF__BACKEND_NAME "scalar"
#include "../expand_scalar.h"
#include "../backend_tpl.h"
