/* SPDX-License-Identifier: MIT */
/* Template: the classic per-piece operations, written once over a method's attack getters.
 * Contract: the including file defines
 *     static inline df_bb classic_rook(df_square sq, df_bb occ);
 *     static inline df_bb classic_bishop(df_square sq, df_bb occ);
 * and CLASSIC_RUNNERS (the name of the bench_runners it exports), then includes this file
 * once; every loop below inlines the getters, as an engine would. Per-direction output is the
 * piece's attacks masked with the empty-board ray of that direction. */
#include <string.h>

#include "bench.h"

static inline df_bb classic_attacks(df_piece_type type, df_square sq, df_bb occ)
{
    switch (type) {
    case DF_BISHOP:
        return classic_bishop(sq, occ);
    case DF_ROOK:
        return classic_rook(sq, occ);
    default:
        return classic_rook(sq, occ) | classic_bishop(sq, occ);
    }
}

/* Per-direction rays (and x-rays when xr is not NULL) of one side's sliders. */
/* The slider type that moves along direction d. */
static inline df_piece_type classic_mover(int d)
{
    return df_dir_is_orthogonal((df_dir)d) ? DF_ROOK : DF_BISHOP;
}

/* The directions a slider type moves along: first, then every step-th. */
static inline int classic_first_dir(df_piece_type type) { return type == DF_BISHOP; }
static inline int classic_dir_step(df_piece_type type) { return type == DF_QUEEN ? 1 : 2; }

/* Adds one slider's attacks per direction to rays and, when xr is not NULL, what lies behind
 * its first blocker in each direction to xr. */
static inline void classic_slider_rays(df_piece_type type, df_square sq, df_bb att, df_bb occ,
                                       df_bb *rays, df_bb *xr)
{
    for (int d = classic_first_dir(type); d < DF_DIRS; d += classic_dir_step(type)) {
        const df_bb r = att & df_ray_table[sq][d], hit = r & occ;
        rays[d] |= r;
        if (xr && hit) {
            const df_square h = df_lsb(hit);
            xr[d] |= classic_attacks(classic_mover(d), h, occ) & df_ray_table[h][d];
        }
    }
}

/* Per-direction rays (and x-rays when xr is not NULL) of one side's sliders. */
static inline void classic_rays(const df_board *b, df_color side, df_bb *rays, df_bb *xr)
{
    const df_bb occ = df_board_occupied(b);
    for (int type = DF_BISHOP; type <= DF_QUEEN; type++) {
        df_bb s = b->color[side] & b->piece[type];
        while (s) {
            const df_square sq = df_pop_lsb(&s);
            classic_slider_rays((df_piece_type)type, sq,
                                classic_attacks((df_piece_type)type, sq, occ), occ, rays, xr);
        }
    }
}

static inline void count_add(df_bb planes[DF_COUNT_BITS], df_bb x)
{
    for (int k = 0; k < DF_COUNT_BITS && x; k++) {
        const df_bb carry = planes[k] & x;
        planes[k] ^= x;
        x = carry;
    }
}

static inline void classic_attack_map(df_attack_map *m, const df_board *b, df_color side)
{
    const df_bb occ = df_board_occupied(b), own = b->color[side];
    memset(m, 0, sizeof *m);
    const df_bb pawns = own & b->piece[DF_PAWN];
    m->pawn_east = df_pawn_east_attacks(pawns, side);
    m->pawn_west = df_pawn_west_attacks(pawns, side);
    m->by_type[DF_PAWN] = m->pawn_east | m->pawn_west;
    count_add(m->count, m->pawn_east);
    count_add(m->count, m->pawn_west);
    for (int type = DF_KNIGHT; type <= DF_KING; type++) {
        df_bb s = own & b->piece[type];
        while (s) {
            const df_square sq = df_pop_lsb(&s);
            df_bb att;
            if (type == DF_KNIGHT)
                att = df_knight_table[sq];
            else if (type == DF_KING)
                att = df_king_table[sq];
            else {
                att = classic_attacks((df_piece_type)type, sq, occ);
                classic_slider_rays((df_piece_type)type, sq, att, occ, m->rays.r, m->xrays.r);
            }
            m->by_type[type] |= att;
            count_add(m->count, att);
        }
    }
    for (int t = 0; t < DF_PIECE_TYPES; t++) m->all |= m->by_type[t];
    m->twice = m->count[1] | m->count[2] | m->count[3] | m->count[4];
}

BENCH_RUNNERS(c_rays, OP_SLIDER_RAYS, {
    df_bb r[DF_DIRS] = {0};
    classic_rays(b, df_board_stm(b), r, NULL);
    memcpy(o, r, sizeof r);
})
BENCH_RUNNERS(c_rays_both, OP_SLIDER_RAYS_BOTH, {
    df_bb r[2 * DF_DIRS] = {0};
    classic_rays(b, DF_WHITE, r, NULL);
    classic_rays(b, DF_BLACK, r + DF_DIRS, NULL);
    memcpy(o, r, sizeof r);
})
BENCH_RUNNERS(c_union, OP_SLIDER_UNION, {
    const df_bb occ = df_board_occupied(b), own = b->color[df_board_stm(b)];
    df_bb u = 0, s = own & (b->piece[DF_ROOK] | b->piece[DF_QUEEN]);
    while (s) u |= classic_rook(df_pop_lsb(&s), occ);
    s = own & (b->piece[DF_BISHOP] | b->piece[DF_QUEEN]);
    while (s) u |= classic_bishop(df_pop_lsb(&s), occ);
    o[0] = u;
})
BENCH_RUNNERS(c_xrays, OP_XRAYS, {
    df_bb r[DF_DIRS] = {0}, x[DF_DIRS] = {0};
    classic_rays(b, df_board_stm(b), r, x);
    memcpy(o, x, sizeof x);
})
BENCH_RUNNERS(c_map, OP_ATTACK_MAP, {
    df_attack_map m;
    classic_attack_map(&m, b, df_board_stm(b));
    bench_store_map(o, &m);
})
BENCH_RUNNERS(c_maps, OP_ATTACK_MAPS_BOTH, {
    df_attack_map m;
    classic_attack_map(&m, b, DF_WHITE);
    bench_store_map(o, &m);
    classic_attack_map(&m, b, DF_BLACK);
    bench_store_map(o + MAP_WORDS, &m);
})
BENCH_RUNNERS(c_attackers, OP_ATTACKERS_TO, {
    const df_bb occ = df_board_occupied(b);
    const df_bb rq = b->piece[DF_ROOK] | b->piece[DF_QUEEN];
    const df_bb bq = b->piece[DF_BISHOP] | b->piece[DF_QUEEN];
    const df_bb wp = b->piece[DF_PAWN] & b->color[DF_WHITE];
    const df_bb bp = b->piece[DF_PAWN] & b->color[DF_BLACK];
    for (int s = 0; s < 64; s++) {
        const df_square sq = (df_square)s;
        o[sq] = (df_pawn_table[DF_WHITE][sq] & bp) | (df_pawn_table[DF_BLACK][sq] & wp) |
                (df_knight_table[sq] & b->piece[DF_KNIGHT]) |
                (df_king_table[sq] & b->piece[DF_KING]) | (classic_rook(sq, occ) & rq) |
                (classic_bishop(sq, occ) & bq);
    }
})

static const bench_runners CLASSIC_RUNNERS = {
    .throughput = {[OP_SLIDER_RAYS] = c_rays_tp,
                   [OP_SLIDER_RAYS_BOTH] = c_rays_both_tp,
                   [OP_SLIDER_UNION] = c_union_tp,
                   [OP_XRAYS] = c_xrays_tp,
                   [OP_ATTACK_MAP] = c_map_tp,
                   [OP_ATTACK_MAPS_BOTH] = c_maps_tp,
                   [OP_ATTACKERS_TO] = c_attackers_tp},
    .latency = {[OP_SLIDER_RAYS] = c_rays_lat,
                [OP_SLIDER_RAYS_BOTH] = c_rays_both_lat,
                [OP_SLIDER_UNION] = c_union_lat,
                [OP_XRAYS] = c_xrays_lat,
                [OP_ATTACK_MAP] = c_map_lat,
                [OP_ATTACK_MAPS_BOTH] = c_maps_lat,
                [OP_ATTACKERS_TO] = c_attackers_lat},
};
