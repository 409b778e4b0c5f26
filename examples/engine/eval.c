/* SPDX-License-Identifier: MIT */
/* The evaluation: what dirfill computes set-wise, turned into centipawns. Each term says
 * which library call gives it. Middlegame and endgame values are blended by the phase (the
 * minor and major pieces left). The piece-square values are formulas, not tables: centre
 * distance, advancement, the king's shelter. Every term is a count weighted by weights.h
 * (a middlegame and an endgame weight), so that the evaluation is linear in the weights and
 * eval_features can hand a tuner the counts. */
#include <stdlib.h>

#include "engine.h"

const int piece_value[DF_PIECE_TYPES] = {100, 320, 330, 500, 900, 0};

const char *const eval_term_names[EVAL_TERMS] = {
#define EVAL_TERM_NAME(name, mg, eg) #name,
    DFENGINE_WEIGHTS(EVAL_TERM_NAME)
#undef EVAL_TERM_NAME
};

const int eval_weights[EVAL_FEATURES] = {
#define EVAL_TERM_WEIGHTS(name, mg, eg) mg, eg,
    DFENGINE_WEIGHTS(EVAL_TERM_WEIGHTS)
#undef EVAL_TERM_WEIGHTS
};

typedef struct {
    int mg, eg;
} score;

/* The term walk is inlined into evaluate and eval_features alike, so that evaluate's copy,
 * where counts is NULL, loses every count: without it evaluate kept the counting and measured
 * markedly slower (gcc -O3). */
#define EVAL_INLINE static inline __attribute__((always_inline))

/* One side's sum of weighted terms and, when the features are asked for (counts), each term's
 * count with the side's sign (white +, black -): the one code path both evaluate and
 * eval_features take, so that the features are the evaluation's by construction. */
typedef struct {
    score s;
    int32_t *counts; /* NULL: evaluate, which needs the sum alone */
    int sign;
} terms;

/* n units of term t. The weights are compile-time constants, so evaluate's sums fold into
 * immediate multiplies as the hand-written constants did. */
static inline void term(terms *a, enum eval_term t, int n)
{
    a->s.mg += eval_weights[2 * t] * n;
    a->s.eg += eval_weights[2 * t + 1] * n;
    if (a->counts) a->counts[t] += a->sign * n;
}

static int centre_distance(df_square sq)
{
    const int f = df_file_of(sq), r = df_rank_of(sq);
    return abs(2 * f - 7) / 2 + abs(2 * r - 7) / 2; /* 0 in the centre, 6 in a corner */
}

/* A piece of colour c on sq: its material and its placement, formulas of centre and rank (the
 * constant part of a formula is folded into the material: a knight's 8 centre - 20 in the
 * middlegame makes its material 320 - 20). */
static void placement(terms *a, df_piece_type t, df_color c, df_square sq)
{
    const int rank = c == DF_WHITE ? df_rank_of(sq) : 7 - df_rank_of(sq), file = df_file_of(sq);
    const int centre = 6 - centre_distance(sq);
    switch (t) {
    case DF_PAWN:
        term(a, TERM_pawn, 1);
        term(a, TERM_pawn_rank, rank);
        term(a, TERM_pawn_centre, (file == 3 || file == 4) && rank >= 3);
        break;
    case DF_KNIGHT:
        term(a, TERM_knight, 1);
        term(a, TERM_knight_centre, centre);
        break;
    case DF_BISHOP:
        term(a, TERM_bishop, 1);
        term(a, TERM_bishop_centre, centre);
        break;
    case DF_ROOK:
        term(a, TERM_rook, 1);
        term(a, TERM_rook_seventh, rank == 6);
        break;
    case DF_QUEEN:
        term(a, TERM_queen, 1);
        term(a, TERM_queen_centre, centre);
        break;
    default: /* the king: sheltered on its first rank in the middlegame, central at the end */
        term(a, TERM_king_home, rank == 0 && file != 3 && file != 4);
        term(a, TERM_king_rank, rank);
        term(a, TERM_king_centre, centre);
        break;
    }
}

/* placement's sums as a table filled once, [colour][type][square]: evaluate adds one entry a
 * piece; eval_features calls placement for the counts. */
static score piece_square[2][DF_PIECE_TYPES][64];

void eval_init(void)
{
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < DF_PIECE_TYPES; t++)
            for (int sq = 0; sq < 64; sq++) {
                terms a = {{0, 0}, NULL, 1};
                placement(&a, (df_piece_type)t, (df_color)c, (df_square)sq);
                piece_square[c][t][sq] = a.s;
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
EVAL_INLINE void shelter(terms *a, df_color c, df_square ksq, df_bb pawns, df_bb enemy_pawns)
{
    const int kf = df_file_of(ksq);
    for (int f = kf > 0 ? kf - 1 : 0; f <= (kf < 7 ? kf + 1 : 7); f++) {
        const df_bb ahead = front_span(df_square_bb(df_make_square(f, df_rank_of(ksq))), c);
        const df_bb own = pawns & ahead;
        if (own) {
            const df_square near = c == DF_WHITE ? df_lsb(own) : df_msb(own);
            const int distance = abs(df_rank_of(near) - df_rank_of(ksq));
            term(a,
                 distance == 1   ? TERM_shelter_pawn_1
                 : distance == 2 ? TERM_shelter_pawn_2
                                 : TERM_shelter_pawn_far,
                 1);
        } else {
            term(a, TERM_shelter_no_pawn, 1);
            if (!(df_file_bb(f) & (pawns | enemy_pawns))) term(a, TERM_shelter_open_file, 1);
        }
    }
}

/* One side's terms (for c, positive is good for c) added to a. */
EVAL_INLINE void side_terms(terms *a, const df_board *b, df_color c, const df_attack_map m[2])
{
    const df_color them = (df_color)(c ^ 1);
    const df_bb own = b->color[c], enemy = b->color[them];
    const df_bb pawns = own & b->piece[DF_PAWN], enemy_pawns = enemy & b->piece[DF_PAWN];

    for (int t = DF_PAWN; t <= DF_KING; t++)
        for (df_bb set = own & b->piece[t]; set;) {
            const df_square sq = df_pop_lsb(&set);
            if (a->counts) {
                placement(a, (df_piece_type)t, c, sq);
            } else {
                a->s.mg += piece_square[c][t][sq].mg;
                a->s.eg += piece_square[c][t][sq].eg;
            }
        }

    /* Mobility (df_attack_maps: rays per direction, disjoint per slider; the knight's eight
     * jumps): squares not held by own pieces nor attacked by enemy pawns. */
    const df_bb safe = ~own & ~m[them].by_type[DF_PAWN];
    int orthogonal = 0, diagonal = 0, jumps = 0;
    for (int d = 0; d < DF_DIRS; d++) {
        const int n = df_popcount(m[c].rays.r[d] & safe);
        if (df_dir_is_orthogonal((df_dir)d))
            orthogonal += n;
        else
            diagonal += n;
    }
    term(a, TERM_mobility_orthogonal, orthogonal);
    term(a, TERM_mobility_diagonal, diagonal);
    const df_bb knights = own & b->piece[DF_KNIGHT];
    for (int k = 0; k < DF_KNIGHT_JUMPS; k++)
        jumps += df_popcount(df_knight_jump(knights, k) & safe);
    term(a, TERM_mobility_knight, jumps);

    /* King-zone pressure: the exact number of enemy attacks on each square of the zone
     * (df_attack_map.count, summed from the bit-sliced counters), weighted by who attacks
     * (df_attack_map.by_type: a queen's attack on the zone weighs more than a pawn's). The
     * danger curve's shape (square of the attack units, capped) is fixed; its weight scales it. */
    const df_square ksq = df_board_king(b, c);
    const df_bb zone = df_king_table[ksq] | df_square_bb(ksq);
    int attacks = 0;
    for (int k = 0; k < DF_COUNT_BITS; k++) attacks += df_popcount(m[them].count[k] & zone) << k;
    static const int attack_weight[DF_PIECE_TYPES] = {1, 2, 2, 3, 5, 0};
    int units = 0;
    for (int t = DF_PAWN; t < DF_KING; t++)
        units += attack_weight[t] * df_popcount(m[them].by_type[t] & zone);
    const bool enemy_queen = (enemy & b->piece[DF_QUEEN]) != 0;
    /* Two divisions by constants (a multiply, a shift), not one by a variable (idiv). */
    const int danger = enemy_queen ? units * units / 3 : units * units / 8;
    term(a, TERM_king_danger, danger < 600 ? danger : 600);
    term(a, TERM_king_zone_attacks, attacks);
    shelter(a, c, ksq, pawns, enemy_pawns);

    /* Pieces in danger (df_attack_map.all and .twice): attacked and not defended, or attacked
     * twice and defended once; a piece attacked by a pawn. Threats are weighed apart for the
     * side to move, which may answer them, and for the side waiting, whose endangered piece the
     * mover may take next (and whose captures the mover may prevent). One weight for both
     * misjudged each: fitted apart (weights.h), the two differ by tens of centipawns. */
    const bool moving = df_board_stm(b) == c;
    const df_bb pieces = own & ~b->piece[DF_KING];
    term(a, moving ? TERM_loose : TERM_loose_waiting,
         df_popcount(pieces & m[them].all & ~m[c].all));
    term(a, moving ? TERM_overloaded : TERM_overloaded_waiting,
         df_popcount(pieces & m[them].twice & ~m[c].twice & m[c].all));
    term(a, moving ? TERM_hit_by_pawn : TERM_hit_by_pawn_waiting,
         df_popcount(pieces & ~b->piece[DF_PAWN] & m[them].by_type[DF_PAWN]));

    /* Pawn structure (the set-wise pawn routines): passed pawns by their rank, doubled and
     * isolated pawns, pawns able to capture. */
    const df_bb blocked = front_span(enemy_pawns, them);
    const df_bb passed = pawns & ~(blocked | df_shift(blocked, DF_E) | df_shift(blocked, DF_W));
    int passed_ranks = 0;
    for (df_bb set = passed; set;) {
        const df_square sq = df_pop_lsb(&set);
        const int r = c == DF_WHITE ? df_rank_of(sq) : 7 - df_rank_of(sq);
        passed_ranks += r * r;
    }
    term(a, TERM_passed_rank_squared, passed_ranks);
    term(a, TERM_doubled, df_popcount(pawns & front_span(pawns, them)));
    /* Isolated: no own pawn on a file beside (the files of the pawns by two fills, df_fill). */
    const df_bb files = df_fill(pawns, DF_FULL, DF_N) | df_fill(pawns, DF_FULL, DF_S);
    term(a, TERM_isolated, df_popcount(pawns & ~(df_shift(files, DF_E) | df_shift(files, DF_W))));
    term(a, moving ? TERM_pawn_can_capture : TERM_pawn_can_capture_waiting,
         df_popcount(df_pawns_able_to_capture(pawns, enemy & ~enemy_pawns, c)));

    /* Rooks on open and half-open files; the bishop pair. */
    for (df_bb set = own & b->piece[DF_ROOK]; set;) {
        const df_bb file = df_file_bb(df_file_of(df_pop_lsb(&set)));
        if (!(file & pawns))
            term(a, file & enemy_pawns ? TERM_rook_half_open_file : TERM_rook_open_file, 1);
    }
    term(a, TERM_bishop_pair, df_popcount(own & b->piece[DF_BISHOP]) >= 2);
}

/* The terms from white's side (white's minus black's) summed into *a, and the phase; returns
 * the divisor that makes the blend centipawns. */
EVAL_INLINE int white_sum(terms *a, const df_board *b, int *phase)
{
    df_attack_map m[2];
    df_attack_maps(m, b); /* both sides: rays, counts, twice, by type */
    const df_color us = df_board_stm(b);
    terms k = {{0, 0}, a->counts, -1};
    a->sign = 1;
    side_terms(a, b, DF_WHITE, m);
    side_terms(&k, b, DF_BLACK, m);
    a->s.mg -= k.s.mg;
    a->s.eg -= k.s.eg;

    /* The side to move's: pins and discovered-check threats (df_king_safety, opposite rays),
     * and the move itself (a tempo). */
    df_king_safety_sets ks;
    df_king_safety(&ks, b);
    terms mover = {{0, 0}, a->counts, us == DF_WHITE ? 1 : -1};
    term(&mover, TERM_pinned, df_popcount(ks.pinned & ~b->piece[DF_PAWN]));
    term(&mover, TERM_discoverer, df_popcount(ks.discoverers & ~b->piece[DF_KING]));
    term(&mover, TERM_tempo, 1);
    a->s.mg += mover.sign * mover.s.mg;
    a->s.eg += mover.sign * mover.s.eg;

    /* The phase: 24 with every minor and major piece, 0 without. */
    int p = df_popcount(b->piece[DF_KNIGHT] | b->piece[DF_BISHOP]) +
            2 * df_popcount(b->piece[DF_ROOK]) + 4 * df_popcount(b->piece[DF_QUEEN]);
    *phase = p < PHASE_MAX ? p : PHASE_MAX;
    /* Without pawns, a side up only a minor piece cannot win: an eighth of the value. */
    const bool drawish = !(b->piece[DF_PAWN]) && abs(non_pawn_material(b, DF_WHITE) -
                                                     non_pawn_material(b, DF_BLACK)) <= 330;
    return drawish ? 8 * PHASE_MAX : PHASE_MAX;
}

int evaluate(const df_board *b)
{
    terms a = {{0, 0}, NULL, 1};
    int phase;
    const int divisor = white_sum(&a, b, &phase);
    const int v = a.s.mg * phase + a.s.eg * (PHASE_MAX - phase);
    /* The side to move's view, then one rounding (toward zero, as eval_features promises). */
    return (df_board_stm(b) == DF_WHITE ? v : -v) / divisor;
}

int eval_features(const df_board *b, int32_t features[EVAL_FEATURES])
{
    int32_t counts[EVAL_TERMS] = {0};
    terms a = {{0, 0}, counts, 1};
    int phase;
    const int divisor = white_sum(&a, b, &phase);
    const int sign = df_board_stm(b) == DF_WHITE ? 1 : -1;
    for (int t = 0; t < EVAL_TERMS; t++) {
        features[2 * t] = sign * counts[t] * phase;
        features[2 * t + 1] = sign * counts[t] * (PHASE_MAX - phase);
    }
    return divisor;
}
