/* SPDX-License-Identifier: MIT */
/* The "rays" method: no tables. One square's attackers and gives-check from per-ray bit
 * scans (square_attacks.h); SEE and the attackers of every square from the active backend's
 * one-square eight-ray kernel (see_tpl.h, attackers_tpl.h). */
#include "method.h"

static inline df_bb df__rook(df_square sq, df_bb occ) { return df_square_rook_attacks(sq, occ); }
static inline df_bb df__bishop(df_square sq, df_bb occ)
{
    return df_square_bishop_attacks(sq, occ);
}
#include "single_tpl.h"

static void l_attackers_to_all(df_bb out[64], const df_board *b)
{
    df__backend_active()->attackers_to_all(out, b);
}
static int l_see(const df_board *b, df_move m) { return df__backend_active()->see(b, m); }

static void df__rays_init(void) {}

const df__lookup df__lookup_rays = {.name = "rays",
                                    .cpu_supports = df__cpu_always,
                                    .init = df__rays_init,
                                    .sliders = DF__SLIDERS_RAYS,
#define DF__LOOKUP_ENTRY(ret, fn, params, args) .fn = l_##fn,
                                    DF__LOOKUP_ENTRIES(DF__LOOKUP_ENTRY)
#undef DF__LOOKUP_ENTRY
};
