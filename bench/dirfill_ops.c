/* SPDX-License-Identifier: MIT */
/* The operations through dirfill's public API: whichever backend is selected runs them.
 * Results go straight into the output words (df_rays and df_king_safety_sets are plain words). */
#include <stdlib.h>
#include <string.h>

#include "bench.h"

_Static_assert(sizeof(df_king_safety_sets) == 5 * sizeof(df_bb), "five sets");
_Static_assert(sizeof(df_rays) == 8 * sizeof(df_bb), "eight sets");

static inline df_sliders side_sliders(const df_board *b, df_color side)
{
    const df_bb own = b->color[side];
    return (df_sliders){own & (b->piece[DF_ROOK] | b->piece[DF_QUEEN]),
                        own & (b->piece[DF_BISHOP] | b->piece[DF_QUEEN]), ~df_board_occupied(b)};
}

BENCH_RUNNERS(d_rays, OP_SLIDER_RAYS, {
    const df_sliders s = side_sliders(b, df_board_stm(b));
    df_slider_rays((df_rays *)o, s.orth, s.diag, s.empty);
})
BENCH_RUNNERS(d_rays_both, OP_SLIDER_RAYS_BOTH, {
    const df_sliders s[2] = {side_sliders(b, DF_WHITE), side_sliders(b, DF_BLACK)};
    df_slider_rays_both((df_rays *)o, s);
})
BENCH_RUNNERS(d_union, OP_SLIDER_UNION, {
    const df_sliders s = side_sliders(b, df_board_stm(b));
    df_rays r;
    df_slider_rays(&r, s.orth, s.diag, s.empty);
    o[0] = r.r[0] | r.r[1] | r.r[2] | r.r[3] | r.r[4] | r.r[5] | r.r[6] | r.r[7];
})
BENCH_RUNNERS(d_xrays, OP_XRAYS, {
    const df_sliders s = side_sliders(b, df_board_stm(b));
    df_rays r;
    df_slider_rays(&r, s.orth, s.diag, s.empty);
    df_xrays((df_rays *)o, &r, s.empty, ~s.empty);
})
BENCH_RUNNERS(d_map, OP_ATTACK_MAP, {
    df_attack_map m;
    df_attack_map_side(&m, b, df_board_stm(b));
    bench_store_map(o, &m);
})
BENCH_RUNNERS(d_maps, OP_ATTACK_MAPS_BOTH, {
    df_attack_map m[2];
    df_attack_maps(m, b);
    bench_store_map(o, &m[0]);
    bench_store_map(o + MAP_WORDS, &m[1]);
})
BENCH_RUNNERS(d_safety, OP_KING_SAFETY, df_king_safety((df_king_safety_sets *)o, b))
BENCH_RUNNERS(d_attackers, OP_ATTACKERS_TO, df_attackers_to_all(o, b))
BENCH_RUNNERS(d_perft, OP_PERFT, df_perft(o, b, 2))
/* The key of every child, folded: the result depends on every make. */
BENCH_RUNNERS(d_make, OP_MAKE_MOVE, {
    uint64_t fold = 0;
    for (uint32_t m = in->move_start[i]; m < in->move_start[i + 1]; m++) {
        df_board child;
        df_make_move(&child, b, in->moves[m]);
        fold = (fold << 1 | fold >> 63) ^ child.key;
    }
    o[0] = fold;
})
BENCH_RUNNERS(d_see, OP_SEE, {
    uint64_t fold = 0;
    for (uint32_t m = in->move_start[i]; m < in->move_start[i + 1]; m++)
        fold = fold * 31 + (uint64_t)(int64_t)df_see(b, in->moves[m]);
    o[0] = fold;
})

/* PGN: each game's text fed to one reader, which replays every move; a game's word folds its
 * final key, plies and result (written by the end callback, which the result token triggers
 * inside the game's own piece). Latency: the next game's index depends on that word. */
typedef struct {
    uint64_t *out;
    size_t k;
} pgn_sink;

static df_pgn_action pgn_game_end(void *ctx, const df_pgn_game *g)
{
    pgn_sink *s = ctx;
    s->out[s->k] = g->board.key ^ (uint64_t)g->plies << 32 ^ (uint64_t)g->result ^
                   (g->error ? UINT64_C(1) << 63 : 0);
    return DF_PGN_READ;
}

static void pgn_run(const bench_input *restrict in, size_t n, uint64_t *restrict out, bool latency)
{
    /* A reader per pass, as a caller reading a file would have (its ~20 KB cost nothing
     * beside the games). */
    df_pgn_reader *reader = df_pgn_reader_new();
    if (!reader) abort();
    pgn_sink sink = {out, 0};
    const df_pgn_visitor v = {NULL, NULL, pgn_game_end, &sink};
    const uint64_t zero = bench_zero;
    size_t next = 0;
    for (size_t k = 0; k < n; k++) {
        const size_t i = latency ? next : k;
        sink.k = k;
        out[k] = 0;
        df_pgn_feed(reader, in->pgn + in->game_start[i], in->game_start[i + 1] - in->game_start[i],
                    &v);
        next = k + 1 + (size_t)(out[k] & zero);
    }
    df_pgn_finish(reader, &v);
    df_pgn_reader_free(reader);
}

static void d_pgn_tp(const bench_input *restrict in, size_t n, uint64_t *restrict out)
{
    pgn_run(in, n, out, false);
}

static void d_pgn_lat(const bench_input *restrict in, size_t n, uint64_t *restrict out)
{
    pgn_run(in, n, out, true);
}

/* One call over the whole corpus: the kernel's own speed, no per-call cost. */
static void d_rays_batch(const bench_input *restrict in, size_t n, uint64_t *restrict out)
{
    df_slider_rays_batch((df_rays *)out, in->sliders, n);
}

const bench_runners bench_dirfill_runners = {
    .throughput = {[OP_SLIDER_RAYS] = d_rays_tp,
                   [OP_SLIDER_RAYS_BATCH] = d_rays_batch,
                   [OP_SLIDER_RAYS_BOTH] = d_rays_both_tp,
                   [OP_SLIDER_UNION] = d_union_tp,
                   [OP_XRAYS] = d_xrays_tp,
                   [OP_ATTACK_MAP] = d_map_tp,
                   [OP_ATTACK_MAPS_BOTH] = d_maps_tp,
                   [OP_KING_SAFETY] = d_safety_tp,
                   [OP_ATTACKERS_TO] = d_attackers_tp,
                   [OP_PERFT] = d_perft_tp,
                   [OP_MAKE_MOVE] = d_make_tp,
                   [OP_SEE] = d_see_tp,
                   [OP_PGN] = d_pgn_tp},
    .latency = {[OP_SLIDER_RAYS] = d_rays_lat,
                [OP_SLIDER_RAYS_BOTH] = d_rays_both_lat,
                [OP_SLIDER_UNION] = d_union_lat,
                [OP_XRAYS] = d_xrays_lat,
                [OP_ATTACK_MAP] = d_map_lat,
                [OP_ATTACK_MAPS_BOTH] = d_maps_lat,
                [OP_KING_SAFETY] = d_safety_lat,
                [OP_ATTACKERS_TO] = d_attackers_lat,
                [OP_PERFT] = d_perft_lat,
                [OP_MAKE_MOVE] = d_make_lat,
                [OP_SEE] = d_see_lat,
                [OP_PGN] = d_pgn_lat},
};
