/* The operations through dirfill's public API: whichever backend is selected runs them. */
#include <string.h>

#include "../app/movegen.h"
#include "bench.h"

_Static_assert(sizeof(df_pins_checks) == 5 * sizeof(df_bb), "five sets");

static inline void side_sliders(const df_board *b, int side, df_bb *orth, df_bb *diag)
{
    const df_bb own = b->color[side];
    *orth = own & (b->piece[DF_ROOK] | b->piece[DF_QUEEN]);
    *diag = own & (b->piece[DF_BISHOP] | b->piece[DF_QUEEN]);
}

BENCH_RUNNERS(d_rays, OP_SLIDER_RAYS, {
    df_bb orth, diag;
    side_sliders(b, b->stm, &orth, &diag);
    df_rays r;
    df_slider_rays(&r, orth, diag, ~df_board_occupied(b));
    memcpy(o, r.r, sizeof r.r);
})
BENCH_RUNNERS(d_rays_both, OP_SLIDER_RAYS_BOTH, {
    df_bb orth[2], diag[2];
    side_sliders(b, DF_WHITE, &orth[0], &diag[0]);
    side_sliders(b, DF_BLACK, &orth[1], &diag[1]);
    df_rays r[2];
    const df_bb empty[2] = {~df_board_occupied(b), ~df_board_occupied(b)};
    df_slider_rays_both(r, orth, diag, empty);
    memcpy(o, r[0].r, sizeof r[0].r);
    memcpy(o + 8, r[1].r, sizeof r[1].r);
})
BENCH_RUNNERS(d_union, OP_SLIDER_UNION, {
    df_bb orth, diag;
    side_sliders(b, b->stm, &orth, &diag);
    df_rays r;
    df_slider_rays(&r, orth, diag, ~df_board_occupied(b));
    o[0] = r.r[0] | r.r[1] | r.r[2] | r.r[3] | r.r[4] | r.r[5] | r.r[6] | r.r[7];
})
BENCH_RUNNERS(d_xrays, OP_XRAYS, {
    df_bb orth, diag;
    side_sliders(b, b->stm, &orth, &diag);
    const df_bb occ = df_board_occupied(b);
    df_rays r, x;
    df_slider_rays(&r, orth, diag, ~occ);
    df_xrays(&x, &r, ~occ, occ);
    memcpy(o, x.r, sizeof x.r);
})
BENCH_RUNNERS(d_map, OP_ATTACK_MAP, {
    df_attack_map m;
    df_attack_map_side(&m, b, b->stm);
    bench_store_map(o, &m);
})
BENCH_RUNNERS(d_maps, OP_ATTACK_MAPS_BOTH, {
    df_attack_map m[2];
    df_attack_maps(m, b);
    bench_store_map(o, &m[0]);
    bench_store_map(o + op_words[OP_ATTACK_MAP], &m[1]);
})
BENCH_RUNNERS(d_safety, OP_KING_SAFETY, {
    df_pins_checks ks;
    df_king_safety(&ks, b);
    memcpy(o, &ks, sizeof ks);
})
BENCH_RUNNERS(d_attackers, OP_ATTACKERS_TO, df_attackers_to_all(o, b))
BENCH_RUNNERS(d_perft, OP_PERFT, o[0] = mg_perft(b, 2))

const bench_runners bench_dirfill_runners = {
    .throughput = {d_rays_tp, d_rays_both_tp, d_union_tp, d_xrays_tp, d_map_tp, d_maps_tp,
                   d_safety_tp, d_attackers_tp, d_perft_tp},
    .latency = {d_rays_lat, d_rays_both_lat, d_union_lat, d_xrays_lat, d_map_lat, d_maps_lat,
                d_safety_lat, d_attackers_lat, d_perft_lat},
};
