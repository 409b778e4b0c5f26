#include "reference.h"

#include <string.h>

static const int ref_df[8] = {0, 1, 1, -1, 0, -1, -1, 1};
static const int ref_dr[8] = {1, 1, 0, 1, -1, -1, 0, -1};

int ref_step(int sq, int d)
{
    int f = sq % 8 + ref_df[d], r = sq / 8 + ref_dr[d];
    return f < 0 || f > 7 || r < 0 || r > 7 ? -1 : r * 8 + f;
}

static bool has(df_bb bb, int sq) { return (bb >> sq) & 1; }
static df_bb bit(int sq) { return UINT64_C(1) << sq; }

df_bb ref_shift(df_bb bb, int d)
{
    df_bb out = 0;
    for (int sq = 0; sq < 64; sq++)
        if (has(bb, sq) && ref_step(sq, d) >= 0) out |= bit(ref_step(sq, d));
    return out;
}

df_bb ref_fill(df_bb gen, df_bb empty, int d)
{
    df_bb out = gen;
    for (int sq = 0; sq < 64; sq++) {
        if (!has(gen, sq)) continue;
        for (int s = ref_step(sq, d); s >= 0 && has(empty, s); s = ref_step(s, d)) out |= bit(s);
    }
    return out;
}

df_bb ref_ray(int sq, df_bb occ, int d)
{
    df_bb out = 0;
    for (int s = ref_step(sq, d); s >= 0; s = ref_step(s, d)) {
        out |= bit(s);
        if (has(occ, s)) break;
    }
    return out;
}

df_bb ref_ray_attacks(df_bb sliders, df_bb empty, int d)
{
    df_bb out = 0;
    for (int sq = 0; sq < 64; sq++)
        if (has(sliders, sq)) out |= ref_ray(sq, ~empty, d);
    return out;
}

df_bb ref_xray(int sq, df_bb occ, int d)
{
    int s = ref_step(sq, d);
    while (s >= 0 && !has(occ, s)) s = ref_step(s, d);
    return s < 0 ? 0 : ref_ray(s, occ, d);
}

static df_bb ref_offsets(df_bb from, const int (*off)[2], int n)
{
    df_bb out = 0;
    for (int sq = 0; sq < 64; sq++) {
        if (!has(from, sq)) continue;
        for (int i = 0; i < n; i++) {
            int f = sq % 8 + off[i][0], r = sq / 8 + off[i][1];
            if (f >= 0 && f < 8 && r >= 0 && r < 8) out |= bit(r * 8 + f);
        }
    }
    return out;
}

df_bb ref_knight(df_bb knights)
{
    static const int off[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                  {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    return ref_offsets(knights, off, 8);
}

df_bb ref_king(df_bb kings)
{
    static const int off[8][2] = {{0, 1},  {1, 1},   {1, 0},  {1, -1},
                                  {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}};
    return ref_offsets(kings, off, 8);
}

df_bb ref_pawn(df_bb pawns, int color, int east)
{
    const int off[1][2] = {{east ? 1 : -1, color ? -1 : 1}};
    return ref_offsets(pawns, off, 1);
}

/* Direction from a to b when they are aligned, else -1. */
static int ref_direction(int a, int b)
{
    for (int d = 0; d < 8; d++)
        for (int s = ref_step(a, d); s >= 0; s = ref_step(s, d))
            if (s == b) return d;
    return -1;
}

df_bb ref_between(int a, int b)
{
    int d = ref_direction(a, b);
    df_bb out = 0;
    if (d < 0) return 0;
    for (int s = ref_step(a, d); s != b; s = ref_step(s, d)) out |= bit(s);
    return out;
}

df_bb ref_line(int a, int b)
{
    int d = ref_direction(a, b);
    if (d < 0) return 0;
    return bit(a) | ref_ray(a, 0, d) | ref_ray(a, 0, d ^ 4);
}

df_bb ref_piece_attacks(int type, int color, int sq, df_bb occ)
{
    df_bb out = 0;
    switch (type) {
    case DF_PAWN:
        return ref_pawn(bit(sq), color, 0) | ref_pawn(bit(sq), color, 1);
    case DF_KNIGHT:
        return ref_knight(bit(sq));
    case DF_KING:
        return ref_king(bit(sq));
    default:
        for (int d = 0; d < 8; d++)
            if (type == DF_QUEEN || (type == DF_ROOK) == (d % 2 == 0)) out |= ref_ray(sq, occ, d);
        return out;
    }
}

static bool moves_along(int type, int d)
{
    return type == DF_QUEEN || (type == DF_ROOK && d % 2 == 0) || (type == DF_BISHOP && d % 2);
}

void ref_attack_map(df_attack_map *m, const df_board *b, int color)
{
    const df_bb occ = df_board_occupied(b);
    int count[64] = {0};
    memset(m, 0, sizeof *m);
    for (int sq = 0; sq < 64; sq++) {
        if (!has(b->color[color], sq)) continue;
        int type = df_board_type_at(b, sq);
        df_bb att = ref_piece_attacks(type, color, sq, occ);
        for (int t = 0; t < 64; t++) count[t] += has(att, t);
        m->all |= att;
        switch (type) {
        case DF_PAWN:
            m->by_type[DF_ATK_PAWN_EAST] |= ref_pawn(bit(sq), color, 1);
            m->by_type[DF_ATK_PAWN_WEST] |= ref_pawn(bit(sq), color, 0);
            break;
        case DF_KNIGHT:
            m->by_type[DF_ATK_KNIGHT] |= att;
            break;
        case DF_KING:
            m->by_type[DF_ATK_KING] |= att;
            break;
        default:
            m->by_type[type == DF_BISHOP ? DF_ATK_BISHOP
                       : type == DF_ROOK ? DF_ATK_ROOK
                                         : DF_ATK_QUEEN] |= att;
            for (int d = 0; d < 8; d++) {
                if (!moves_along(type, d)) continue;
                m->rays.r[d] |= ref_ray(sq, occ, d);
                m->xrays.r[d] |= ref_xray(sq, occ, d);
            }
        }
    }
    for (int t = 0; t < 64; t++) {
        for (int k = 0; k < DF_COUNT_BITS; k++)
            if ((count[t] >> k) & 1) m->count[k] |= bit(t);
        if (count[t] >= 2) m->twice |= bit(t);
    }
}

void ref_king_safety(df_pins_checks *ks, const df_board *b)
{
    const int us = b->stm, them = us ^ 1;
    const df_bb occ = df_board_occupied(b);
    memset(ks, 0, sizeof *ks);
    int ksq = df_board_king(b, us), eksq = df_board_king(b, them);
    for (int sq = 0; sq < 64; sq++) {
        if (!has(b->color[them], sq)) continue;
        int type = df_board_type_at(b, sq);
        if (has(ref_piece_attacks(type, them, sq, occ), ksq)) ks->checkers |= bit(sq);
    }
    for (int d = 0; d < 8; d++) {
        /* From our king: first and second piece along d. */
        df_bb walked = 0;
        int first = -1, second = -1;
        for (int s = ref_step(ksq, d); s >= 0; s = ref_step(s, d)) {
            if (!has(occ, s)) {
                if (first < 0) walked |= bit(s);
                continue;
            }
            if (first < 0)
                first = s;
            else {
                second = s;
                break;
            }
        }
        /* A slider on the line that moves toward the king moves in direction d ^ 4. */
        if (first >= 0 && has(b->color[them], first) && moves_along(df_board_type_at(b, first), d))
            ks->check_block |= walked;
        if (first >= 0 && second >= 0 && has(b->color[us], first) && has(b->color[them], second) &&
            moves_along(df_board_type_at(b, second), d)) {
            ks->pinned |= bit(first);
            ks->pinners |= bit(second);
        }
        /* From the enemy king: ours alone in front of one of our sliders. */
        first = second = -1;
        for (int s = ref_step(eksq, d); s >= 0; s = ref_step(s, d)) {
            if (!has(occ, s)) continue;
            if (first < 0)
                first = s;
            else {
                second = s;
                break;
            }
        }
        if (first >= 0 && second >= 0 && has(b->color[us], first) && has(b->color[us], second) &&
            moves_along(df_board_type_at(b, second), d))
            ks->discoverers |= bit(first);
    }
}

df_bb ref_attackers_to(const df_board *b, int sq, df_bb occ)
{
    df_bb out = 0;
    for (int s = 0; s < 64; s++) {
        int type = df_board_type_at(b, s);
        if (type == DF_PIECE_TYPES) continue;
        int color = (int)((b->color[DF_BLACK] >> s) & 1);
        if (has(ref_piece_attacks(type, color, s, occ), sq)) out |= bit(s);
    }
    return out;
}
