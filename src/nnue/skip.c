/* SPDX-License-Identifier: MIT */
/* nnue-pytorch's skip predicate (nnue_skip.h): its rules in its order, its draws from an
 * mt19937_64, its adaptive piece-count filter. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "dirfill.h"
#include "nnue/mt19937_64.h"

/* Piece counts the filter keeps a histogram of: 0 to 32 (a position with more is skipped). */
enum { PIECE_COUNTS = 33, SOFT_PLIES_MAX = 1 << 16 };

struct df_nnue_skip {
    df_nnue_skip_options o;
    bool active; /* false: every option off, nothing is skipped */
    df__mt19937_64 rng;
    uint64_t random_threshold;
    int last_ply, last_score;
    /* The piece-count filter: target weights, the histogram it keeps, its scale. */
    double weight[PIECE_COUNTS], weight_sum;
    double hist[PIECE_COUNTS], total, alpha;
    uint64_t step;
    /* The soft early-ply filter: what is kept at ply 0 .. soft_early_fen_skipping. */
    double *soft_keep;
};

df_nnue_skip_options df_nnue_skip_defaults(void)
{
    return (df_nnue_skip_options){.filtered = true,
                                  .wld_filtered = true,
                                  .random_fen_skipping = 0,
                                  .early_fen_skipping = -1,
                                  .soft_early_fen_skipping = 20,
                                  .simple_eval_skipping = -1,
                                  .pc_y = {0.0, 0.4, 1.0, 1.0, 0.75},
                                  .ply_x = {0, 6, 10, 18},
                                  .ply_y = {0.1, 0.15, 0.25, 0.75}};
}

df_nnue_skip_options df_nnue_skip_none(void)
{
    df_nnue_skip_options o = df_nnue_skip_defaults();
    o.filtered = o.wld_filtered = false;
    o.soft_early_fen_skipping = 0;
    return o;
}

/* The options by nnue-pytorch's names: where each lives in the struct and its kind. */
typedef enum { OPT_BOOL, OPT_INT, OPT_REAL } opt_kind;
static const struct {
    const char *name;
    opt_kind kind;
    size_t at;
} option_table[] = {
#define OPT(name, kind, member)                                                                    \
    {                                                                                              \
        name, kind, offsetof(df_nnue_skip_options, member)                                         \
    }
    OPT("filtered", OPT_BOOL, filtered),
    OPT("wld_filtered", OPT_BOOL, wld_filtered),
    OPT("random_fen_skipping", OPT_INT, random_fen_skipping),
    OPT("early_fen_skipping", OPT_INT, early_fen_skipping),
    OPT("soft_early_fen_skipping", OPT_INT, soft_early_fen_skipping),
    OPT("simple_eval_skipping", OPT_INT, simple_eval_skipping),
    OPT("pc_y0", OPT_REAL, pc_y[0]),
    OPT("pc_y1", OPT_REAL, pc_y[1]),
    OPT("pc_y2", OPT_REAL, pc_y[2]),
    OPT("pc_y3", OPT_REAL, pc_y[3]),
    OPT("pc_y4", OPT_REAL, pc_y[4]),
    OPT("ply_x1", OPT_REAL, ply_x[0]),
    OPT("ply_x2", OPT_REAL, ply_x[1]),
    OPT("ply_x3", OPT_REAL, ply_x[2]),
    OPT("ply_x4", OPT_REAL, ply_x[3]),
    OPT("ply_y1", OPT_REAL, ply_y[0]),
    OPT("ply_y2", OPT_REAL, ply_y[1]),
    OPT("ply_y3", OPT_REAL, ply_y[2]),
    OPT("ply_y4", OPT_REAL, ply_y[3]),
#undef OPT
};

df_status df_nnue_skip_option_set(df_nnue_skip_options *o, const char *key, const char *value)
{
    if (!o || !key || !value || !*value || isspace((unsigned char)*value)) return DF_ERR_ARGUMENT;
    for (size_t i = 0; i < sizeof option_table / sizeof *option_table; i++) {
        if (strcmp(key, option_table[i].name)) continue;
        char *at = (char *)o + option_table[i].at, *end;
        errno = 0;
        if (option_table[i].kind == OPT_BOOL) {
            const bool yes = !strcmp(value, "1") || !strcmp(value, "true");
            if (!yes && strcmp(value, "0") && strcmp(value, "false")) return DF_ERR_ARGUMENT;
            *(bool *)at = yes;
        } else if (option_table[i].kind == OPT_INT) {
            const long n = strtol(value, &end, 10);
            if (*end || errno || n < -1000000 || n > 1000000) return DF_ERR_ARGUMENT;
            *(int *)at = (int)n;
        } else {
            const double x = strtod(value, &end);
            if (*end || errno || !isfinite(x)) return DF_ERR_ARGUMENT;
            *(double *)at = x;
        }
        return DF_OK;
    }
    return DF_ERR_ARGUMENT;
}

/* p * 2^64 as the threshold a draw is compared with. A probability of 1 or more (a weight of
 * 0) always skips, as the comparison means; nnue-pytorch converts 2^64 to an integer there,
 * which C and C++ leave undefined. */
static bool below(df__mt19937_64 *rng, double p)
{
    const uint64_t u = df__mt_next(rng);
    if (!(p > 0)) return false;
    if (p >= 1) return true;
    return u < (uint64_t)(p * 18446744073709551616.0);
}

/* The piece-count weight at x pieces: a cubic Hermite curve through y at 0, 8, 16, 24, 32,
 * its slopes (per 8 pieces) the neighbours' mean difference, one-sided at the ends; never
 * below 0. */
static double piece_count_weight(int x, const double y[5])
{
    if (x <= 0) return y[0];
    if (x >= 32) return y[4];
    const int i = x / 8 < 3 ? x / 8 : 3;
    const double t = (x - 8.0 * i) / 8.0, t2 = t * t, t3 = t2 * t;
    double m[2];
    for (int k = 0; k < 2; k++) {
        const int j = i + k;
        m[k] = j == 0 ? y[1] - y[0] : j == 4 ? y[4] - y[3] : (y[j + 1] - y[j - 1]) / 2;
    }
    const double v = (2 * t3 - 3 * t2 + 1) * y[i] + (t3 - 2 * t2 + t) * m[0] +
                     (-2 * t3 + 3 * t2) * y[i + 1] + (t3 - t2) * m[1];
    return v > 0 ? v : 0;
}

/* The soft early-ply curve at ply p: y1 up to x1, then linear between the points, 1 from
 * soft on; the first segment holding p decides (a vertical one gives its first value). */
static double soft_curve(double p, const df_nnue_skip_options *o)
{
    const double x[5] = {o->ply_x[0], o->ply_x[1], o->ply_x[2], o->ply_x[3],
                         (double)o->soft_early_fen_skipping};
    const double y[5] = {o->ply_y[0], o->ply_y[1], o->ply_y[2], o->ply_y[3], 1.0};
    if (p <= x[0]) return y[0];
    if (p >= x[4]) return y[4];
    for (int i = 0; i < 4; i++)
        if (x[i] <= p && p <= x[i + 1])
            return x[i + 1] == x[i] ? y[i]
                                    : y[i] + (p - x[i]) / (x[i + 1] - x[i]) * (y[i + 1] - y[i]);
    return 1.0;
}

static bool finite_all(const double *v, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i])) return false;
    return true;
}

df_nnue_skip *df_nnue_skip_new(const df_nnue_skip_options *options, uint64_t seed)
{
    if (!options || options->soft_early_fen_skipping > SOFT_PLIES_MAX ||
        !finite_all(options->pc_y, 5) || !finite_all(options->ply_x, 4) ||
        !finite_all(options->ply_y, 4))
        return NULL;
    df_nnue_skip *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    const df_nnue_skip_options *o = &s->o;
    s->o = *options;
    s->active = o->filtered || o->wld_filtered || o->random_fen_skipping > 0 ||
                o->early_fen_skipping >= 0 || o->soft_early_fen_skipping > 0;
    df__mt_seed(&s->rng, seed);
    const int rfs = o->random_fen_skipping;
    s->random_threshold =
        rfs > 0 ? (uint64_t)((double)rfs / (rfs + 1) * 18446744073709551616.0) : 0;
    s->last_ply = -1;
    s->last_score = DF_NNUE_SCORE_NONE;
    for (int i = 0; i < PIECE_COUNTS; i++)
        s->weight_sum += s->weight[i] = piece_count_weight(i, o->pc_y);
    if (s->weight_sum <= 0) {
        for (int i = 0; i < PIECE_COUNTS; i++) s->weight[i] = 1;
        s->weight_sum = PIECE_COUNTS;
    }
    s->alpha = 1;
    if (o->soft_early_fen_skipping > 0) {
        s->soft_keep = malloc(((size_t)o->soft_early_fen_skipping + 1) * sizeof *s->soft_keep);
        if (!s->soft_keep) {
            free(s);
            return NULL;
        }
        for (int i = 0; i <= o->soft_early_fen_skipping; i++) {
            const double v = soft_curve(i, o);
            s->soft_keep[i] = v < 0 ? 0 : v > 1 ? 1 : v;
        }
    }
    return s;
}

void df_nnue_skip_free(df_nnue_skip *s)
{
    if (!s) return;
    free(s->soft_keep);
    free(s);
}

/* The probability the win-rate model gives the result, from the side to move's view: the
 * model's a and b are cubic in min(ply, 240) / 64, the score is scaled by 100 / 208 and
 * clamped to ±2000. */
static double result_probability(int score, unsigned ply, int result)
{
    const double m = (ply < 240 ? ply : 240) / 64.0;
    const double a = ((-3.68389304 * m + 30.07065921) * m - 60.52878723) * m + 149.53378557;
    const double b = (((-2.0181857 * m + 15.85685038) * m - 29.83452023) * m + 47.59078827) * 1.5;
    double x = (double)(100 * score) / 208;
    x = x < -2000 ? -2000 : x > 2000 ? 2000 : x;
    const double w = 1 / (1 + exp((a - x) / b)), l = 1 / (1 + exp((a + x) / b));
    return result > 0 ? w : result < 0 ? l : 1 - w - l;
}

/* The material balance in Stockfish's values, from the side to move's view, as a 16-bit
 * value. */
static int material(const df_board *b)
{
    static const int value[DF_KING] = {208, 781, 825, 1276, 2538};
    int v = 0;
    for (int t = DF_PAWN; t < DF_KING; t++)
        v += value[t] * (df_popcount(df_board_pieces(b, DF_WHITE, (df_piece_type)t)) -
                         df_popcount(df_board_pieces(b, DF_BLACK, (df_piece_type)t)));
    return (int16_t)(uint16_t)(b->stm == DF_WHITE ? v : -v);
}

/* The piece-count filter's answer for a position of pc pieces (rule 9). */
static bool skip_piece_count(df_nnue_skip *s, int pc)
{
    if (pc >= PIECE_COUNTS) return true;
    s->hist[pc] += 1;
    s->total += 1;
    const uint64_t step = ++s->step;
    if (step == 100 || step == 500 || step == 1000 || step == 2500 || step == 5000 ||
        (step > 5000 && step % 10000 == 0)) {
        double least = INFINITY;
        for (int i = 0; i < PIECE_COUNTS; i++)
            if (s->weight[i] > 0 && s->hist[i] > 0) {
                const double r = s->total * s->weight[i] / (s->weight_sum * s->hist[i]);
                least = r < least ? r : least;
            }
        if (least != INFINITY && least > 0) s->alpha = (1 - 0.975) / least;
        if (step >= 10000 && step % 10000 == 0) {
            for (int i = 0; i < PIECE_COUNTS; i++) s->hist[i] *= 0.5;
            s->total *= 0.5;
        }
    }
    double keep = 0;
    if (s->weight[pc] > 0 && s->hist[pc] > 0)
        keep = s->alpha * (s->total * s->weight[pc] / (s->weight_sum * s->hist[pc]));
    keep = keep < 0 ? 0 : keep > 1 ? 1 : keep;
    return below(&s->rng, 1 - keep);
}

bool df_nnue_skip_entry(df_nnue_skip *s, const df_board *b, df_move move, int score, unsigned ply,
                        int result)
{
    if (!s->active) return false;
    const df_nnue_skip_options *o = &s->o;
    const bool placeholder = (int)ply > s->last_ply && s->last_score != DF_NNUE_SCORE_NONE &&
                             abs(s->last_score) > 100 && result != 0 && score == 0;
    s->last_ply = (int)ply;
    if (score == DF_NNUE_SCORE_NONE || placeholder) return true;
    s->last_score = score;
    if ((long)ply <= (long)o->early_fen_skipping) return true;
    if (o->random_fen_skipping != 0 && df__mt_next(&s->rng) < s->random_threshold) return true;
    if (o->filtered) {
        const df_bb to = df_square_bb(df_move_to(move)), from = df_square_bb(df_move_from(move));
        const df_color mover = (b->color[DF_WHITE] & from) ? DF_WHITE : DF_BLACK;
        if ((b->color[mover ^ 1] & to) || df_checkers(b)) return true;
    }
    if (o->wld_filtered && below(&s->rng, 1 - result_probability(score, ply, result))) return true;
    if (o->simple_eval_skipping > 0 && abs(material(b)) < o->simple_eval_skipping) return true;
    if (o->soft_early_fen_skipping > 0 && (long)ply < (long)o->soft_early_fen_skipping &&
        below(&s->rng, 1 - s->soft_keep[ply]))
        return true;
    return skip_piece_count(s, df_popcount(df_board_occupied(b)));
}
