/* Internal: the whole-board kernels, written once over three primitives that each backend
 * supplies before including this file:
 *
 *   static inline void df__rays_of(df_rays *out, df_bb orth, df_bb diag, df_bb empty);
 *       out->r[d] = df_ray_attacks(d & 1 ? diag : orth, empty, d) for all eight d
 *   static inline void df__rays_from(df_rays *out, const df_rays *gen, df_bb mask,
 *                                    df_bb empty);
 *       out->r[d] = df_ray_attacks(gen->r[d] & mask, empty, d) for all eight d
 *
 *   static inline void df__square_rays2(df_rays *out, int sq, df_bb occ_orth, df_bb occ_diag);
 *       out->r[d] = df_square_ray(sq, d & 1 ? occ_diag : occ_orth, d), all d: the eight
 *       rays of one square (a king seen as a super-piece), from the empty-board ray table
 *
 * optionally its own king scans (DF__HAVE_KING_SCANS: df__pin_scan, df__discover_scan),
 * and DF__BACKEND_SYMBOL, DF__BACKEND_NAME, DF__CPU_SUPPORTS. The including file is the
 * only one compiled with its ISA flags, so every kernel below inlines these primitives.
 * Generators go in as values, not through memory: eight scalar stores read back as one
 * vector would defeat store-to-load forwarding. */
#include "backend.h"
#include "bitslice.h"

static void k_slider_rays(df_rays *out, df_bb orth, df_bb diag, df_bb empty)
{
    df__rays_of(out, orth, diag, empty);
}

static void k_slider_rays_both(df_rays out[2], const df_bb orth[2], const df_bb diag[2],
                               const df_bb empty[2])
{
    df__rays_of(&out[0], orth[0], diag[0], empty[0]);
    df__rays_of(&out[1], orth[1], diag[1], empty[1]);
}

static void k_xrays(df_rays *out, const df_rays *rays, df_bb empty, df_bb blockers)
{
    df__rays_from(out, rays, blockers, empty);
}

static void k_between_sliders_and_targets(df_rays *out, df_bb orth, df_bb diag, df_bb targets,
                                          df_bb empty)
{
    df_rays from_sliders, from_targets;
    df__rays_of(&from_sliders, orth, diag, empty);
    df__rays_of(&from_targets, targets, targets, empty);
    df_meet(out, &from_sliders, &from_targets);
}

static void k_slider_rays_batch(df_rays *out, const df_sliders *in, size_t n)
{
    for (size_t i = 0; i < n; i++) k_slider_rays(&out[i], in[i].orth, in[i].diag, in[i].empty);
}

/* Rooks on the orthogonal directions and bishops on the diagonals share one eight-way fill;
 * queens take a second so that the per-type unions can be told apart. In one direction each
 * square has at most one attacker, so the per-direction union of both fills, the knight
 * jumps, the two pawn directions and the king are disjoint per source: counting them with
 * carry-save adders counts attackers exactly. */
static void k_attack_map(df_attack_map *m, const df_board *b, int color)
{
    const df_bb occ = df_board_occupied(b), empty = ~occ, own = b->color[color];
    const df_bb rooks = own & b->piece[DF_ROOK], bishops = own & b->piece[DF_BISHOP];
    const df_bb queens = own & b->piece[DF_QUEEN], knights = own & b->piece[DF_KNIGHT];
    df_rays rb, q;
    df_bb count_in[19];

    df__rays_of(&rb, rooks, bishops, empty);
    if (queens) {
        df__rays_of(&q, queens, queens, empty);
    } else {
        q = (df_rays){{0}};
    }
    df_bb orth = 0, diag = 0, queen = 0;
    for (int d = 0; d < 8; d += 2) {
        orth |= rb.r[d];
        diag |= rb.r[d + 1];
        queen |= q.r[d] | q.r[d + 1];
    }
    for (int d = 0; d < 8; d++) count_in[d] = m->rays.r[d] = rb.r[d] | q.r[d];
    df__rays_from(&m->xrays, &m->rays, occ, empty);

    df_bb knight = 0;
    for (int k = 0; k < DF_KNIGHT_JUMPS; k++)
        knight |= count_in[8 + k] = df_knight_jump(knights, k);
    const df_bb pawns = own & b->piece[DF_PAWN];
    count_in[16] = m->by_type[DF_ATK_PAWN_EAST] = df_pawn_east_attacks(pawns, color);
    count_in[17] = m->by_type[DF_ATK_PAWN_WEST] = df_pawn_west_attacks(pawns, color);
    count_in[18] = m->by_type[DF_ATK_KING] = df_king_attacks(own & b->piece[DF_KING]);
    m->by_type[DF_ATK_KNIGHT] = knight;
    m->by_type[DF_ATK_BISHOP] = diag;
    m->by_type[DF_ATK_ROOK] = orth;
    m->by_type[DF_ATK_QUEEN] = queen;
    m->all = orth | diag | queen | knight | count_in[16] | count_in[17] | count_in[18];
    df__count19(m->count, count_in);
    m->twice = m->count[1] | m->count[2] | m->count[3] | m->count[4];
}

static void k_attack_maps(df_attack_map out[2], const df_board *b)
{
    k_attack_map(&out[0], b, 0);
    k_attack_map(&out[1], b, 1);
}

static void k_attack_maps_batch(df_attack_map *out, const df_board *boards, size_t n)
{
    for (size_t i = 0; i < n; i++) k_attack_maps(&out[2 * i], &boards[i]);
}

/* King safety of the side to move in two eight-ray passes from the kings (seed "Checks and
 * Pinned Pieces", Opposite Ray-Directions, with the king's ray made to do the enemy ray's
 * work: it sees through the pieces that may stand between):
 *  - from our king through empty squares and our own pieces (occupancy: the enemy's only),
 *    each ray stops at the first enemy piece. If that is a slider moving along the ray, the
 *    own pieces passed are none (a check: the empty squares passed are the block squares) or
 *    one (a pin);
 *  - from the enemy king through empty squares and those of our pieces that do not slide
 *    along the ray, it stops at the first enemy piece or at our first slider of the ray's
 *    kind; one own piece passed on the way to such a slider is a discoverer.
 * Either pass is skipped when no slider of that side stands on a line through the king. */
static inline bool df__single(df_bb x) { return x && !(x & (x - 1)); }
/* All ones when c holds: the per-direction decisions stay branch-free (they are data
 * dependent and would mispredict). */
static inline df_bb df__mask(bool c) { return 0 - (df_bb)c; }

/* Our slider sees the enemy king directly (not a legal position, still analysed): it is a
 * discoverer when another of the same kind stands right behind it. */
static inline df_bb df__discoverer_behind(df_bb hit, df_bb sliders, df_bb empty, int d)
{
    return (df_ray_attacks(hit, empty, d) & sliders) ? hit : 0;
}

#ifndef DF__HAVE_KING_SCANS
/* Whether a slider of orth or diag stands on a line through sq (on an empty board). */
static inline bool df__sees(int sq, df_bb orth, df_bb diag)
{
    const df_bb *r = df_ray_table[sq];
    return ((orth & (r[DF_N] | r[DF_E] | r[DF_S] | r[DF_W])) |
            (diag & (r[DF_NE] | r[DF_NW] | r[DF_SE] | r[DF_SW]))) != 0;
}

/* The first pass (our king, seen through our own pieces): adds the sliding checkers, block
 * squares, pinned pieces and pinners to o. A backend may supply its own (DF__HAVE_KING_SCANS). */
static inline void df__pin_scan(df_pins_checks *o, int ksq, df_bb own, df_bb enemy, df_bb e_orth,
                                df_bb e_diag)
{
    if (!df__sees(ksq, e_orth, e_diag)) return;
    df_rays a;
    df__square_rays2(&a, ksq, enemy, enemy);
    for (int d = 0; d < 8; d++) {
        const df_bb hit = a.r[d] & (d & 1 ? e_diag : e_orth), passed = a.r[d] & own;
        const df_bb hit_mask = df__mask(hit != 0), none = df__mask(passed == 0);
        const df_bb one = df__mask(df__single(passed));
        o->checkers |= hit & none;
        o->check_block |= a.r[d] & ~hit & none & hit_mask;
        o->pinned |= passed & one & hit_mask;
        o->pinners |= hit & one;
    }
}

/* The second pass (the enemy king, seen through our non-sliders): the discoverers. */
static inline df_bb df__discover_scan(int eksq, df_bb own, df_bb enemy, df_bb u_orth, df_bb u_diag,
                                      df_bb empty)
{
    if (!df__sees(eksq, u_orth, u_diag)) return 0;
    df_rays a;
    df_bb found = 0;
    df__square_rays2(&a, eksq, enemy | u_orth, enemy | u_diag);
    for (int d = 0; d < 8; d++) {
        const df_bb sliders = d & 1 ? u_diag : u_orth;
        const df_bb hit = a.r[d] & sliders, passed = a.r[d] & own & ~hit;
        found |= passed & df__mask(df__single(passed) && hit);
        if (hit && !passed) found |= df__discoverer_behind(hit, sliders, empty, d);
    }
    return found;
}
#endif

static inline void df__king_safety(df_pins_checks *o, const df_board *b, bool discoverers)
{
    const int us = b->stm, them = us ^ 1;
    const df_bb own = b->color[us], enemy = b->color[them];
    const df_bb king = own & b->piece[DF_KING], eking = enemy & b->piece[DF_KING];
    const df_bb rq = b->piece[DF_ROOK] | b->piece[DF_QUEEN];
    const df_bb bq = b->piece[DF_BISHOP] | b->piece[DF_QUEEN];

    /* The enemy king counts too: adjacent kings are no legal position, but analysed. */
    const int ksq = df_lsb(king);
    o->checkers = (df_knight_table[ksq] & enemy & b->piece[DF_KNIGHT]) |
                  (df_pawn_table[us][ksq] & enemy & b->piece[DF_PAWN]) |
                  (df_king_table[ksq] & eking);
    o->pinned = o->pinners = o->check_block = 0;
    df__pin_scan(o, ksq, own, enemy, enemy & rq, enemy & bq);
    o->discoverers = discoverers ? df__discover_scan(df_lsb(eking), own, enemy, own & rq, own & bq,
                                                     ~df_board_occupied(b))
                                 : 0;
}

static void k_king_safety(df_pins_checks *o, const df_board *b) { df__king_safety(o, b, true); }
static void k_checks_and_pins(df_pins_checks *o, const df_board *b)
{
    df__king_safety(o, b, false);
}

/* Attackers of every square at once (Chess 4.5's ATKTO, the transpose of each piece's
 * attack set): each piece's attacks are scattered into the squares they reach. Slider
 * attacks come from the eight-ray kernel of one square; leapers and pawns go set-wise per
 * jump or direction, where a target's source is a fixed offset away. */
static inline void df__scatter(df_bb out[64], df_bb targets, df_bb source)
{
    while (targets) out[df_pop_lsb(&targets)] |= source;
}

/* Targets of a set-wise shift: each one's source is delta squares back. */
static inline void df__scatter_shifted(df_bb out[64], df_bb targets, int delta)
{
    while (targets) {
        const int to = df_pop_lsb(&targets);
        out[to] |= df_square_bb(to - delta);
    }
}

static void k_attackers_to_all(df_bb out[64], const df_board *b)
{
    const df_bb occ = df_board_occupied(b);
    for (int sq = 0; sq < 64; sq++) out[sq] = 0;
    df_bb sliders = b->piece[DF_BISHOP] | b->piece[DF_ROOK] | b->piece[DF_QUEEN];
    while (sliders) {
        const int sq = df_pop_lsb(&sliders);
        df_rays r;
        df__square_rays2(&r, sq, occ, occ);
        const int type = df_board_type_at(b, sq);
        df_bb att = 0;
        for (int d = type == DF_BISHOP; d < 8; d += type == DF_QUEEN ? 1 : 2) att |= r.r[d];
        df__scatter(out, att, df_square_bb(sq));
    }
    df_bb kings = b->piece[DF_KING];
    while (kings) {
        const df_bb k = df_square_bb(df_pop_lsb(&kings));
        df__scatter(out, df_king_attacks(k), k);
    }
    for (int k = 0; k < DF_KNIGHT_JUMPS; k++)
        df__scatter_shifted(out, df_knight_jump(b->piece[DF_KNIGHT], k), df_knight_jump_delta(k));
    for (int c = 0; c < 2; c++) {
        const df_bb pawns = b->piece[DF_PAWN] & b->color[c];
        df__scatter_shifted(out, df_pawn_east_attacks(pawns, c), c ? -7 : 9);
        df__scatter_shifted(out, df_pawn_west_attacks(pawns, c), c ? -9 : 7);
    }
}

const df__backend DF__BACKEND_SYMBOL = {
    .name = DF__BACKEND_NAME,
    .cpu_supports = DF__CPU_SUPPORTS,
    .slider_rays = k_slider_rays,
    .slider_rays_both = k_slider_rays_both,
    .xrays = k_xrays,
    .between_sliders_and_targets = k_between_sliders_and_targets,
    .slider_rays_batch = k_slider_rays_batch,
    .attack_map = k_attack_map,
    .attack_maps = k_attack_maps,
    .attack_maps_batch = k_attack_maps_batch,
    .king_safety = k_king_safety,
    .checks_and_pins = k_checks_and_pins,
    .attackers_to_all = k_attackers_to_all,
};
