/* The public dispatched entry points: one indirect call each, through the active table. */
#include "backend.h"

void df_slider_rays(df_rays *out, df_bb orth, df_bb diag, df_bb empty)
{
    df__backend_active()->slider_rays(out, orth, diag, empty);
}

void df_slider_rays_both(df_rays out[2], const df_bb orth[2], const df_bb diag[2],
                         const df_bb empty[2])
{
    df__backend_active()->slider_rays_both(out, orth, diag, empty);
}

void df_xrays(df_rays *out, const df_rays *rays, df_bb empty, df_bb blockers)
{
    df__backend_active()->xrays(out, rays, empty, blockers);
}

void df_between_sliders_and_targets(df_rays *out, df_bb orth, df_bb diag, df_bb targets,
                                    df_bb empty)
{
    df__backend_active()->between_sliders_and_targets(out, orth, diag, targets, empty);
}

void df_slider_rays_batch(df_rays *out, const df_sliders *in, size_t n)
{
    df__backend_active()->slider_rays_batch(out, in, n);
}

void df_attack_map_side(df_attack_map *out, const df_board *b, int color)
{
    df__backend_active()->attack_map(out, b, color & 1);
}

void df_attack_maps(df_attack_map out[2], const df_board *b)
{
    df__backend_active()->attack_maps(out, b);
}

void df_attack_maps_batch(df_attack_map *out, const df_board *boards, size_t n)
{
    df__backend_active()->attack_maps_batch(out, boards, n);
}

void df_king_safety(df_pins_checks *out, const df_board *b)
{
    df__backend_active()->king_safety(out, b);
}

void df_checks_and_pins(df_pins_checks *out, const df_board *b)
{
    df__backend_active()->checks_and_pins(out, b);
}

void df_attackers_to_all(df_bb out[64], const df_board *b)
{
    df__backend_active()->attackers_to_all(out, b);
}
