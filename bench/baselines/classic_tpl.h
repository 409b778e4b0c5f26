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

/* Static exchange evaluation as an engine writes it (a swap list; the attackers of the square
 * read once, then the sliders along the line each capturer leaves looked up again through
 * the new occupancy), on this method's lookups. Same values and rules as df_see: a king
 * takes only when nothing then attacks it, a promotion stays a pawn in the exchange. */
static inline df_bb classic_attackers(const df_board *b, df_square sq, df_bb occ)
{
    const df_bb pawns = b->piece[DF_PAWN];
    return ((df_pawn_table[DF_WHITE][sq] & pawns & b->color[DF_BLACK]) |
            (df_pawn_table[DF_BLACK][sq] & pawns & b->color[DF_WHITE]) |
            (df_knight_table[sq] & b->piece[DF_KNIGHT]) | (df_king_table[sq] & b->piece[DF_KING]) |
            (classic_rook(sq, occ) & (b->piece[DF_ROOK] | b->piece[DF_QUEEN])) |
            (classic_bishop(sq, occ) & (b->piece[DF_BISHOP] | b->piece[DF_QUEEN]))) &
           occ;
}

static inline int classic_see(const df_board *b, df_move m)
{
    if (df_move_kind_of(m) == DF_MOVE_CASTLING) return 0;
    const df_square from = df_move_from(m), to = df_move_to(m);
    const df_bb rq = b->piece[DF_ROOK] | b->piece[DF_QUEEN];
    const df_bb bq = b->piece[DF_BISHOP] | b->piece[DF_QUEEN];
    int side = (b->stm & 1) ^ 1, gain[66], d = 0;
    df_bb occ = df_board_occupied(b) ^ df_square_bb(from);
    if (df_move_kind_of(m) == DF_MOVE_EN_PASSANT) {
        occ ^= df_square_bb(df_en_passant_victim(to));
        gain[0] = df_see_value[DF_PAWN];
    } else {
        const df_piece_type victim = df_board_type_at(b, to);
        gain[0] = victim < DF_PIECE_TYPES ? df_see_value[victim] : 0;
    }
    int on_square = df_board_type_at(b, from);
    df_bb attackers = classic_attackers(b, to, occ);
    for (;;) {
        const df_bb mine = attackers & b->color[side];
        if (!mine) break;
        int type = DF_PAWN;
        while (!(mine & b->piece[type])) type++;
        const df_bb piece = mine & b->piece[type] & (0 - (mine & b->piece[type]));
        const df_bb after = occ ^ piece;
        df_bb next = attackers;
        if (df_orthogonal_lines(to) & piece)
            next |= classic_rook(to, after) & rq;
        else if (df_diagonal_lines(to) & piece)
            next |= classic_bishop(to, after) & bq;
        next &= after;
        if (type == DF_KING && (next & b->color[side ^ 1])) break;
        d++;
        gain[d] = df_see_value[on_square] - gain[d - 1];
        on_square = type;
        occ = after;
        attackers = next;
        side ^= 1;
    }
    for (; d > 0; d--) gain[d - 1] = -(-gain[d - 1] > gain[d] ? -gain[d - 1] : gain[d]);
    return gain[0];
}

BENCH_RUNNERS(c_see, OP_SEE, {
    uint64_t fold = 0;
    for (uint32_t m = in->move_start[i]; m < in->move_start[i + 1]; m++)
        fold = fold * 31 + (uint64_t)(int64_t)classic_see(b, in->moves[m]);
    o[0] = fold;
})

static const bench_runners CLASSIC_RUNNERS = {
    .throughput = {[OP_SLIDER_RAYS] = c_rays_tp,
                   [OP_SLIDER_RAYS_BOTH] = c_rays_both_tp,
                   [OP_SLIDER_UNION] = c_union_tp,
                   [OP_XRAYS] = c_xrays_tp,
                   [OP_ATTACK_MAP] = c_map_tp,
                   [OP_ATTACK_MAPS_BOTH] = c_maps_tp,
                   [OP_ATTACKERS_TO] = c_attackers_tp,
                   [OP_SEE] = c_see_tp},
    .latency = {[OP_SLIDER_RAYS] = c_rays_lat,
                [OP_SLIDER_RAYS_BOTH] = c_rays_both_lat,
                [OP_SLIDER_UNION] = c_union_lat,
                [OP_XRAYS] = c_xrays_lat,
                [OP_ATTACK_MAP] = c_map_lat,
                [OP_ATTACK_MAPS_BOTH] = c_maps_lat,
                [OP_ATTACKERS_TO] = c_attackers_lat,
                [OP_SEE] = c_see_lat},
};
