/* SPDX-License-Identifier: MIT */
/* The evaluation: what dirfill computes set-wise, turned into centipawns. Each term says
 * which library call gives it. Middlegame and endgame values are blended by the phase (the
 * minor and major pieces left). The piece-square values are formulas, not tables: centre
 * distance, advancement, the king's shelter. */
#include <stdlib.h>

#include "engine.h"

const int piece_value[DF_PIECE_TYPES] = {100, 320, 330, 500, 900, 0};

typedef struct {
    int mg, eg;
} score;

static void add(score *s, int mg, int eg)
{
    s->mg += mg;
    s->eg += eg;
}

static int centre_distance(df_square sq)
{
    const int f = df_file_of(sq), r = df_rank_of(sq);
    return abs(2 * f - 7) / 2 + abs(2 * r - 7) / 2; /* 0 in the centre, 6 in a corner */
}

/* The piece-square value of a piece of colour c on sq (formulas of centre and rank). */
static score placement(df_piece_type t, df_color c, df_square sq)
{
    const int rank = c == DF_WHITE ? df_rank_of(sq) : 7 - df_rank_of(sq), file = df_file_of(sq);
    const int centre = 6 - centre_distance(sq);
    switch (t) {
    case DF_PAWN:
        return (score){4 * rank + ((file == 3 || file == 4) && rank >= 3 ? 12 : 0), 10 * rank};
    case DF_KNIGHT:
        return (score){8 * centre - 20, 6 * centre - 15};
    case DF_BISHOP:
        return (score){4 * centre - 8, 4 * centre - 8};
    case DF_ROOK:
        return (score){rank == 6 ? 15 : 0, 0};
    case DF_QUEEN:
        return (score){2 * centre - 4, 4 * centre - 8};
    default: /* the king: sheltered on its first rank in the middlegame, central at the end */
        return (score){rank == 0 && file != 3 && file != 4 ? 15 : -25 * rank, 8 * centre - 16};
    }
}

/* The formulas above, with the piece's value, as a table filled once: [colour][type][square]. */
static score piece_square[2][DF_PIECE_TYPES][64];

void eval_init(void)
{
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < DF_PIECE_TYPES; t++)
            for (int sq = 0; sq < 64; sq++) {
                const score p = placement((df_piece_type)t, (df_color)c, (df_square)sq);
                piece_square[c][t][sq] = (score){piece_value[t] + p.mg, piece_value[t] + p.eg};
            }
}

int non_pawn_material(const df_board *b, df_color c)
{
    int m = 0;
    for (int t = DF_KNIGHT; t <= DF_QUEEN; t++)
        m += piece_value[t] * df_popcount(df_board_pieces(b, c, (df_piece_type)t));
    return m;
}

/* The squares in front of pawns of colour c (their files toward the far side). */
static df_bb front_span(df_bb pawns, df_color c)
{
    const df_dir up = df_pawn_push_dir(c);
    return df_fill(df_shift(pawns, up), DF_FULL, up);
}

/* The king's pawn shelter, a middlegame term: on the king's file and the files beside it, an
 * own pawn close in front of the king is worth most; a file without one costs, an open file
 * (no pawn of either side: a road for rooks) more. */
static int shelter(df_color c, df_square ksq, df_bb pawns, df_bb enemy_pawns)
{
    const int kf = df_file_of(ksq);
    int v = 0;
    for (int f = kf > 0 ? kf - 1 : 0; f <= (kf < 7 ? kf + 1 : 7); f++) {
        const df_bb ahead = front_span(df_square_bb(df_make_square(f, df_rank_of(ksq))), c);
        const df_bb own = pawns & ahead;
        if (own) {
            const df_square near = c == DF_WHITE ? df_lsb(own) : df_msb(own);
            const int distance = abs(df_rank_of(near) - df_rank_of(ksq));
            v += distance == 1 ? 20 : distance == 2 ? 12 : 4;
        } else {
            v -= 18;
            if (!(df_file_bb(f) & (pawns | enemy_pawns))) v -= 12;
        }
    }
    return v;
}

/* One side's terms (for c, positive is good for c). */
static score side_terms(const df_board *b, df_color c, const df_attack_map m[2])
{
    const df_color them = (df_color)(c ^ 1);
    const df_bb own = b->color[c], enemy = b->color[them];
    const df_bb pawns = own & b->piece[DF_PAWN], enemy_pawns = enemy & b->piece[DF_PAWN];
    score s = {0, 0};

    for (int t = DF_PAWN; t <= DF_KING; t++)
        for (df_bb set = own & b->piece[t]; set;) {
            const score p = piece_square[c][t][df_pop_lsb(&set)];
            add(&s, p.mg, p.eg);
        }

    /* Mobility (df_attack_maps: rays per direction, disjoint per slider; the knight's eight
     * jumps): squares not held by own pieces nor attacked by enemy pawns. */
    const df_bb safe = ~own & ~m[them].by_type[DF_PAWN];
    for (int d = 0; d < DF_DIRS; d++) {
        const int n = df_popcount(m[c].rays.r[d] & safe);
        if (df_dir_is_orthogonal((df_dir)d))
            add(&s, 2 * n, 4 * n);
        else
            add(&s, 3 * n, 3 * n);
    }
    const df_bb knights = own & b->piece[DF_KNIGHT];
    for (int k = 0; k < DF_KNIGHT_JUMPS; k++) {
        const int n = df_popcount(df_knight_jump(knights, k) & safe);
        add(&s, 4 * n, 4 * n);
    }

    /* King-zone pressure: the exact number of enemy attacks on each square of the zone
     * (df_attack_map.count, summed from the bit-sliced counters), weighted by who attacks
     * (df_attack_map.by_type: a queen's attack on the zone weighs more than a pawn's). */
    const df_square ksq = df_board_king(b, c);
    const df_bb zone = df_king_table[ksq] | df_square_bb(ksq);
    int attacks = 0;
    for (int k = 0; k < DF_COUNT_BITS; k++) attacks += df_popcount(m[them].count[k] & zone) << k;
    static const int attack_weight[DF_PIECE_TYPES] = {1, 2, 2, 3, 5, 0};
    int units = 0;
    for (int t = DF_PAWN; t < DF_KING; t++)
        units += attack_weight[t] * df_popcount(m[them].by_type[t] & zone);
    const bool enemy_queen = (enemy & b->piece[DF_QUEEN]) != 0;
    const int danger = units * units / (enemy_queen ? 3 : 8);
    add(&s, -(danger < 600 ? danger : 600), -attacks);
    add(&s, shelter(c, ksq, pawns, enemy_pawns), 0);

    /* Pieces in danger (df_attack_map.all and .twice): attacked and not defended, or attacked
     * twice and defended once; a piece attacked by a pawn. */
    const df_bb pieces = own & ~b->piece[DF_KING];
    const df_bb loose = pieces & m[them].all & ~m[c].all;
    const df_bb overloaded = pieces & m[them].twice & ~m[c].twice & m[c].all;
    const df_bb hit_by_pawn = pieces & ~b->piece[DF_PAWN] & m[them].by_type[DF_PAWN];
    add(&s, -20 * df_popcount(loose) - 10 * df_popcount(overloaded) - 30 * df_popcount(hit_by_pawn),
        -20 * df_popcount(loose) - 10 * df_popcount(overloaded) - 30 * df_popcount(hit_by_pawn));

    /* Pawn structure (the set-wise pawn routines): passed pawns by their rank, doubled and
     * isolated pawns, pawns able to capture. */
    const df_bb blocked = front_span(enemy_pawns, them);
    const df_bb passed = pawns & ~(blocked | df_shift(blocked, DF_E) | df_shift(blocked, DF_W));
    for (df_bb set = passed; set;) {
        const df_square sq = df_pop_lsb(&set);
        const int r = c == DF_WHITE ? df_rank_of(sq) : 7 - df_rank_of(sq);
        add(&s, 4 * r * r, 9 * r * r);
    }
    const df_bb doubled = pawns & front_span(pawns, them);
    add(&s, -12 * df_popcount(doubled), -20 * df_popcount(doubled));
    /* Isolated: no own pawn on a file beside (the files of the pawns by two fills, df_fill). */
    const df_bb files = df_fill(pawns, DF_FULL, DF_N) | df_fill(pawns, DF_FULL, DF_S);
    const int isolated = df_popcount(pawns & ~(df_shift(files, DF_E) | df_shift(files, DF_W)));
    add(&s, -10 * isolated, -12 * isolated);
    const int captures = df_popcount(df_pawns_able_to_capture(pawns, enemy & ~enemy_pawns, c));
    add(&s, 10 * captures, 10 * captures);

    /* Rooks on open and half-open files; the bishop pair. */
    for (df_bb set = own & b->piece[DF_ROOK]; set;) {
        const df_bb file = df_file_bb(df_file_of(df_pop_lsb(&set)));
        if (!(file & pawns)) add(&s, file & enemy_pawns ? 10 : 20, 5);
    }
    if (df_popcount(own & b->piece[DF_BISHOP]) >= 2) add(&s, 30, 50);
    return s;
}

int evaluate(const df_board *b)
{
    df_attack_map m[2];
    df_attack_maps(m, b); /* both sides: rays, counts, twice, by type */
    const df_color us = df_board_stm(b);
    const score w = side_terms(b, DF_WHITE, m), k = side_terms(b, DF_BLACK, m);
    score s = {w.mg - k.mg, w.eg - k.eg};

    /* Pins and discovered-check threats of the side to move (df_king_safety, opposite rays). */
    df_king_safety_sets ks;
    df_king_safety(&ks, b);
    const int sign = us == DF_WHITE ? 1 : -1;
    const int pins = df_popcount(ks.pinned & ~b->piece[DF_PAWN]);
    const int discoverers = df_popcount(ks.discoverers & ~b->piece[DF_KING]);
    add(&s, sign * (-15 * pins + 10 * discoverers), sign * (-10 * pins + 5 * discoverers));

    /* The phase: 24 with every minor and major piece, 0 without. */
    int phase = df_popcount(b->piece[DF_KNIGHT] | b->piece[DF_BISHOP]) +
                2 * df_popcount(b->piece[DF_ROOK]) + 4 * df_popcount(b->piece[DF_QUEEN]);
    if (phase > 24) phase = 24;
    int v = (s.mg * phase + s.eg * (24 - phase)) / 24;
    /* Without pawns, a side up only a minor piece cannot win. */
    if (!(b->piece[DF_PAWN]) &&
        abs(non_pawn_material(b, DF_WHITE) - non_pawn_material(b, DF_BLACK)) <= 330)
        v /= 8;
    return (us == DF_WHITE ? v : -v) + 10; /* and the move is worth a little */
}
