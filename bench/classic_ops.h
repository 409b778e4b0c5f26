/* The classic per-piece operations, written once over a method's attack getters. The
 * including file defines
 *     static inline df_bb classic_rook(int sq, df_bb occ);
 *     static inline df_bb classic_bishop(int sq, df_bb occ);
 * and CLASSIC_RUNNERS (the name of the bench_runners it exports); every loop below
 * inlines them, as an engine would. Per-direction output is the piece's attacks masked
 * with the empty-board ray of that direction. */
#include <string.h>

#include "bench.h"

static inline df_bb classic_attacks(int type, int sq, df_bb occ)
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
static inline void classic_rays(const df_board *b, int side, df_bb *rays, df_bb *xr)
{
    const df_bb occ = df_board_occupied(b);
    for (int type = DF_BISHOP; type <= DF_QUEEN; type++) {
        df_bb s = b->color[side] & b->piece[type];
        while (s) {
            const int sq = df_pop_lsb(&s);
            const df_bb att = classic_attacks(type, sq, occ);
            for (int d = type == DF_BISHOP; d < 8; d += type == DF_QUEEN ? 1 : 2) {
                const df_bb r = att & df_ray_table[sq][d];
                rays[d] |= r;
                const df_bb hit = r & occ;
                if (xr && hit) {
                    const int h = df_lsb(hit);
                    xr[d] |= classic_attacks(d & 1 ? DF_BISHOP : DF_ROOK, h, occ) & df_ray_table[h][d];
                }
            }
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

static inline void classic_attack_map(df_attack_map *m, const df_board *b, int side)
{
    const df_bb occ = df_board_occupied(b), own = b->color[side];
    memset(m, 0, sizeof *m);
    const df_bb pawns = own & b->piece[DF_PAWN];
    m->by_type[DF_ATK_PAWN_EAST] = df_pawn_east_attacks(pawns, side);
    m->by_type[DF_ATK_PAWN_WEST] = df_pawn_west_attacks(pawns, side);
    count_add(m->count, m->by_type[DF_ATK_PAWN_EAST]);
    count_add(m->count, m->by_type[DF_ATK_PAWN_WEST]);
    for (int type = DF_KNIGHT; type <= DF_KING; type++) {
        df_bb s = own & b->piece[type];
        while (s) {
            const int sq = df_pop_lsb(&s);
            df_bb att;
            if (type == DF_KNIGHT)
                att = df_knight_table[sq];
            else if (type == DF_KING)
                att = df_king_table[sq];
            else {
                att = classic_attacks(type, sq, occ);
                for (int d = type == DF_BISHOP; d < 8; d += type == DF_QUEEN ? 1 : 2) {
                    const df_bb r = att & df_ray_table[sq][d], hit = r & occ;
                    m->rays.r[d] |= r;
                    if (hit) {
                        const int h = df_lsb(hit);
                        m->xrays.r[d] |=
                            classic_attacks(d & 1 ? DF_BISHOP : DF_ROOK, h, occ) & df_ray_table[h][d];
                    }
                }
            }
            m->by_type[type + 1] |= att; /* DF_ATK_KNIGHT == DF_KNIGHT + 1, ... */
            count_add(m->count, att);
        }
    }
    for (int k = 0; k < DF_ATK_KINDS; k++) m->all |= m->by_type[k];
    m->twice = m->count[1] | m->count[2] | m->count[3] | m->count[4];
}

_Static_assert(DF_ATK_KNIGHT == DF_KNIGHT + 1 && DF_ATK_KING == DF_KING + 1,
               "attack kinds follow piece types after the two pawn directions");

BENCH_RUNNERS(c_rays, OP_SLIDER_RAYS, {
    df_bb r[8] = {0};
    classic_rays(b, b->stm, r, NULL);
    memcpy(o, r, sizeof r);
})
BENCH_RUNNERS(c_rays_both, OP_SLIDER_RAYS_BOTH, {
    df_bb r[16] = {0};
    classic_rays(b, DF_WHITE, r, NULL);
    classic_rays(b, DF_BLACK, r + 8, NULL);
    memcpy(o, r, sizeof r);
})
BENCH_RUNNERS(c_union, OP_SLIDER_UNION, {
    const df_bb occ = df_board_occupied(b), own = b->color[b->stm];
    df_bb u = 0, s = own & (b->piece[DF_ROOK] | b->piece[DF_QUEEN]);
    while (s) u |= classic_rook(df_pop_lsb(&s), occ);
    s = own & (b->piece[DF_BISHOP] | b->piece[DF_QUEEN]);
    while (s) u |= classic_bishop(df_pop_lsb(&s), occ);
    o[0] = u;
})
BENCH_RUNNERS(c_xrays, OP_XRAYS, {
    df_bb r[8] = {0}, x[8] = {0};
    classic_rays(b, b->stm, r, x);
    memcpy(o, x, sizeof x);
})
BENCH_RUNNERS(c_map, OP_ATTACK_MAP, {
    df_attack_map m;
    classic_attack_map(&m, b, b->stm);
    bench_store_map(o, &m);
})
BENCH_RUNNERS(c_maps, OP_ATTACK_MAPS_BOTH, {
    df_attack_map m;
    classic_attack_map(&m, b, DF_WHITE);
    bench_store_map(o, &m);
    classic_attack_map(&m, b, DF_BLACK);
    bench_store_map(o + op_words[OP_ATTACK_MAP], &m);
})
BENCH_RUNNERS(c_attackers, OP_ATTACKERS_TO, {
    const df_bb occ = df_board_occupied(b);
    const df_bb rq = b->piece[DF_ROOK] | b->piece[DF_QUEEN];
    const df_bb bq = b->piece[DF_BISHOP] | b->piece[DF_QUEEN];
    const df_bb wp = b->piece[DF_PAWN] & b->color[DF_WHITE];
    const df_bb bp = b->piece[DF_PAWN] & b->color[DF_BLACK];
    for (int sq = 0; sq < 64; sq++)
        o[sq] = (df_pawn_table[DF_WHITE][sq] & bp) | (df_pawn_table[DF_BLACK][sq] & wp) |
                (df_knight_table[sq] & b->piece[DF_KNIGHT]) | (df_king_table[sq] & b->piece[DF_KING]) |
                (classic_rook(sq, occ) & rq) | (classic_bishop(sq, occ) & bq);
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
