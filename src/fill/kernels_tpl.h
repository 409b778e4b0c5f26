/* SPDX-License-Identifier: MIT */
/* Internal template: the whole-board kernels, written once over the primitives each backend
 * supplies. Contract: the including backend file defines, before including backend_tpl.h,
 *
 *   static inline void df__rays_of(df_rays *out, df_bb orth, df_bb diag, df_bb empty);
 *       out->r[d] = df_ray_attacks(orth or diag, empty, d) for all eight d
 *   static inline void df__rays_from(df_rays *out, const df_rays *gen, df_bb mask,
 *                                    df_bb empty);
 *       out->r[d] = df_ray_attacks(gen->r[d] & mask, empty, d) for all eight d
 *   static inline void df__square_rays2(df_rays *out, df_square sq, df_bb occ_orth,
 *                                       df_bb occ_diag);
 *       see king_scans_tpl.h
 *
 * and optionally its own king scans (king_scans_tpl.h), its own slider attackers of a square
 * and slider move count (defining DF__HAVE_SLIDER_ATTACKERS, DF__HAVE_RAYS_COUNT: see
 * df__slider_attackers and df__rays_count below) and its own attack map (defining
 * DF__HAVE_ATTACK_MAP and static inline void df__attack_map(df_attack_map *, const df_board *,
 * df_color), equal to the one below). The including file is the only one
 * compiled with its ISA flags, so every kernel below inlines these primitives. Generators go
 * in as values, not through memory: eight scalar stores read back as one vector would defeat
 * store-to-load forwarding. */
#include "backend.h"
#include "bitslice.h"
#include "king_scans_tpl.h"

/* The rooks and queens (rq) and bishops and queens (bq) that attack sq through occ, from the
 * backend's one-square kernel. A backend may define DF__HAVE_SLIDER_ATTACKERS and reduce its
 * vectors in registers. */
#ifndef DF__HAVE_SLIDER_ATTACKERS
static inline df_bb df__slider_attackers(df_square sq, df_bb occ, df_bb rq, df_bb bq)
{
    df_rays rays;
    df__square_rays2(&rays, sq, occ, occ);
    df_bb found = 0;
    for (int d = 0; d < DF_DIRS; d++)
        found |= rays.r[d] & (df_dir_is_orthogonal((df_dir)d) ? rq : bq);
    return found;
}
#endif

/* The moves of sliders counted: the sum over the eight rays of orth and diag through empty
 * of the squares of target they reach (perft's last ply). A backend may define
 * DF__HAVE_RAYS_COUNT and its own, that counts without a round trip through memory. */
#ifndef DF__HAVE_RAYS_COUNT
static inline uint64_t df__rays_count(df_bb orth, df_bb diag, df_bb empty, df_bb target)
{
    df_rays rays;
    df__rays_of(&rays, orth, diag, empty);
    uint64_t n = 0;
    for (int d = 0; d < DF_DIRS; d++) n += (uint64_t)df_popcount(rays.r[d] & target);
    return n;
}
#endif

static void k_slider_rays(df_rays *out, df_bb orth, df_bb diag, df_bb empty)
{
    df__rays_of(out, orth, diag, empty);
}

static void k_slider_rays_both(df_rays out[2], const df_sliders in[2])
{
    df__rays_of(&out[0], in[0].orth, in[0].diag, in[0].empty);
    df__rays_of(&out[1], in[1].orth, in[1].diag, in[1].empty);
}

static void k_slider_rays_batch(df_rays *out, const df_sliders *in, size_t n)
{
    for (size_t i = 0; i < n; i++) df__rays_of(&out[i], in[i].orth, in[i].diag, in[i].empty);
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

/* Rooks on the orthogonal directions and bishops on the diagonals share one eight-way fill;
 * queens take a second so that the per-type unions can be told apart. In one direction each
 * square has at most one attacker, so the per-direction union of both fills, the knight
 * jumps, the two pawn directions and the king are disjoint per source: counting them with
 * carry-save adders counts attackers exactly. */
#ifndef DF__HAVE_ATTACK_MAP
static inline void df__attack_map(df_attack_map *m, const df_board *b, df_color color)
{
    const df_bb occ = df_board_occupied(b), empty = ~occ, own = b->color[color];
    const df_bb queens = own & b->piece[DF_QUEEN], knights = own & b->piece[DF_KNIGHT];
    df_rays rb, q;
    df_bb in[DF__COUNT_INPUTS];

    df__rays_of(&rb, own & b->piece[DF_ROOK], own & b->piece[DF_BISHOP], empty);
    if (queens)
        df__rays_of(&q, queens, queens, empty);
    else
        q = (df_rays){{0}};
    df_bb orth = 0, diag = 0, queen = 0;
    for (int d = 0; d < DF_DIRS; d += 2) {
        orth |= rb.r[d];
        diag |= rb.r[d + 1];
        queen |= q.r[d] | q.r[d + 1];
    }
    for (int d = 0; d < DF_DIRS; d++) in[DF__IN_RAYS + d] = m->rays.r[d] = rb.r[d] | q.r[d];
    df__rays_from(&m->xrays, &m->rays, occ, empty);

    df_bb knight = 0;
    for (int k = 0; k < DF_KNIGHT_JUMPS; k++)
        knight |= in[DF__IN_KNIGHT + k] = df_knight_jump(knights, k);
    const df_bb pawns = own & b->piece[DF_PAWN];
    in[DF__IN_PAWN_EAST] = m->pawn_east = df_pawn_east_attacks(pawns, color);
    in[DF__IN_PAWN_WEST] = m->pawn_west = df_pawn_west_attacks(pawns, color);
    in[DF__IN_KING] = m->by_type[DF_KING] = df_king_attacks(own & b->piece[DF_KING]);
    m->by_type[DF_PAWN] = m->pawn_east | m->pawn_west;
    m->by_type[DF_KNIGHT] = knight;
    m->by_type[DF_BISHOP] = diag;
    m->by_type[DF_ROOK] = orth;
    m->by_type[DF_QUEEN] = queen;
    m->all = orth | diag | queen | knight | m->by_type[DF_PAWN] | m->by_type[DF_KING];
    df__count19(m->count, in);
    m->twice = m->count[1] | m->count[2] | m->count[3] | m->count[4];
}
#endif

static void k_attack_map(df_attack_map *m, const df_board *b, df_color color)
{
    df__attack_map(m, b, color);
}

static void k_attack_maps(df_attack_map out[2], const df_board *b)
{
    df__attack_map(&out[DF_WHITE], b, DF_WHITE);
    df__attack_map(&out[DF_BLACK], b, DF_BLACK);
}

static void k_attack_maps_batch(df_attack_map *out, const df_board *boards, size_t n)
{
    for (size_t i = 0; i < n; i++) k_attack_maps(&out[2 * i], &boards[i]);
}

/* King safety of the side to move in two eight-ray passes from the kings (king_scans_tpl.h).
 * The leaper checkers come from tables; the enemy king counts too (adjacent kings are no
 * legal position, but analysed). */
/* Inlined into the move generator, which calls it at every node. */
static inline __attribute__((always_inline)) void
df__king_safety(df_king_safety_sets *o, const df_board *b, df_color us, bool discoverers)
{
    const df_color them = (df_color)(us ^ 1);
    const df_bb own = b->color[us], enemy = b->color[them];
    const df_bb rq = b->piece[DF_ROOK] | b->piece[DF_QUEEN];
    const df_bb bq = b->piece[DF_BISHOP] | b->piece[DF_QUEEN];
    const df_square ksq = df_board_king(b, us);
    df__pin_scan(o, ksq, own, enemy, enemy & rq, enemy & bq);
    o->checkers |= (df_knight_table[ksq] & enemy & b->piece[DF_KNIGHT]) |
                   (df_pawn_table[us][ksq] & enemy & b->piece[DF_PAWN]) |
                   (df_king_table[ksq] & enemy & b->piece[DF_KING]);
    o->discoverers = discoverers ? df__discover_scan(df_board_king(b, them), own, enemy, own & rq,
                                                     own & bq, ~df_board_occupied(b))
                                 : 0;
}

static void k_king_safety(df_king_safety_sets *o, const df_board *b)
{
    df__king_safety(o, b, df_board_stm(b), true);
}
static void k_checks_and_pins(df_king_safety_sets *o, const df_board *b)
{
    df__king_safety(o, b, df_board_stm(b), false);
}

/* The attacks of one slider on sq through occ, along its orthogonal lines when orth and its
 * diagonal ones when diag (attackers_tpl.h). */
static inline df_bb df__slider_attacks(df_square sq, df_bb occ, bool orth, bool diag)
{
    df_rays r;
    df__square_rays2(&r, sq, occ, occ);
    df_bb att = 0;
    for (int d = 0; d < DF_DIRS; d++)
        att |= r.r[d] & df__mask(df_dir_is_orthogonal((df_dir)d) ? orth : diag);
    return att;
}

#include "attackers_tpl.h"

static void k_attackers_to_all(df_bb out[64], const df_board *b) { df__attackers_to_all(out, b); }
