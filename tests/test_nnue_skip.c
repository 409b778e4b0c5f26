/* SPDX-License-Identifier: MIT */
/* nnue-pytorch's skip options (nnue_skip.h): the generator against the C++ standard's fixed
 * value; each hard rule against the entries the test finds it must drop, by its own obvious
 * reading of the rule; each random rule's kept share against its probability, counted over
 * random games; the same seed giving the same entries; the guards on the options. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "dft.h"

/* One entry of a stream: a position from random play, the move played, a score, a result. */
typedef struct {
    df_board b;
    df_move move;
    int score;
    unsigned ply;
    int result;
} entry;

/* n entries from random games of up to 120 plies: scores spread over ±1500 with a missing
 * score now and then and zeros (placeholders when the game is decided), results from each
 * side to move's view. */
static entry *make_stream(size_t n)
{
    entry *e = malloc(n * sizeof *e);
    assert_non_null(e);
    size_t i = 0;
    while (i < n) {
        df_board b = dft_fen(DF_FEN_START);
        const int white_result = (int)(dft_rand() % 3) - 1;
        for (unsigned ply = 0; ply < 120 && i < n; ply++, i++) {
            df_move_list list;
            df_generate_legal(&list, &b);
            if (!list.count) break;
            entry *x = &e[i];
            x->b = b;
            x->move = list.moves[dft_rand() % list.count];
            x->ply = ply;
            x->result = b.stm == DF_WHITE ? white_result : -white_result;
            const unsigned kind = (unsigned)(dft_rand() % 20);
            x->score = kind == 0   ? DF_NNUE_SCORE_NONE
                       : kind == 1 ? 0
                                   : (int)(dft_rand() % 3001) - 1500;
            df_board next;
            df_make_move(&next, &b, x->move);
            b = next;
        }
    }
    return e;
}

/* The entries every active predicate drops (a missing score, a placeholder zero), by the
 * test's own reading of those rules. */
static void no_score_or_placeholder(const entry *e, size_t n, bool *dropped)
{
    int last_score = DF_NNUE_SCORE_NONE, last_ply = -1;
    for (size_t i = 0; i < n; i++) {
        const entry *x = &e[i];
        const bool placeholder = (int)x->ply > last_ply && last_score != DF_NNUE_SCORE_NONE &&
                                 abs(last_score) > 100 && x->result != 0 && x->score == 0;
        last_ply = (int)x->ply;
        const bool no_score = x->score == DF_NNUE_SCORE_NONE;
        if (!no_score && !placeholder) last_score = x->score;
        dropped[i] = no_score || placeholder;
    }
}

static size_t count_kept(const df_nnue_skip_options *o, uint64_t seed, const entry *e, size_t n,
                         bool *kept)
{
    df_nnue_skip *s = df_nnue_skip_new(o, seed);
    assert_non_null(s);
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        const bool k =
            !df_nnue_skip_entry(s, &e[i].b, e[i].move, e[i].score, e[i].ply, e[i].result);
        if (kept) kept[i] = k;
        count += k;
    }
    df_nnue_skip_free(s);
    return count;
}

/* Options that turn the predicate on and skip nothing by a rule of their own: every entry's
 * ply is at least 0, so early_fen_skipping -1 ... but 0 would skip ply 0. The stream's plies
 * start at 0, so "on" is early_fen_skipping = -1 with a soft filter of 1 ply kept whole. */
static df_nnue_skip_options only_piece_counts(void)
{
    df_nnue_skip_options o = df_nnue_skip_none();
    o.soft_early_fen_skipping = 1;
    o.ply_y[0] = 1.0; /* ply 0 kept: the soft rule draws but never skips */
    return o;
}

static void test_generator_is_the_standards(void **state)
{
    (void)state;
    /* C++ [rand.predef]: the 10000th consecutive invocation of a default-constructed
     * mt19937_64 produces 9981545732273789042. */
    assert_true(dft_mt19937_64_nth(5489, 10000) == UINT64_C(9981545732273789042));
    assert_true(dft_mt19937_64_nth(1, 1) != dft_mt19937_64_nth(5489, 1));
}

static void test_nothing_on_skips_nothing(void **state)
{
    (void)state;
    const size_t n = 3000;
    entry *e = make_stream(n);
    df_nnue_skip_options o = df_nnue_skip_none();
    o.simple_eval_skipping = 100000; /* alone it does not turn the predicate on */
    assert_int_equal(count_kept(&o, 5489, e, n, NULL), n);
    free(e);
}

/* The hard rules: every entry the test's reading of a rule drops is dropped, with the rule
 * alone on and with every option on. */
static bool is_capture(const df_board *b, df_move m)
{
    const df_square from = df_move_from(m), to = df_move_to(m);
    const int mover = (int)((b->color[DF_BLACK] >> from) & 1);
    return (b->color[mover ^ 1] >> to) & 1;
}

static int material_stm(const df_board *b)
{
    static const int value[5] = {208, 781, 825, 1276, 2538};
    int v = 0;
    for (int sq = 0; sq < 64; sq++) {
        const df_piece_type t = df_board_type_at(b, (df_square)sq);
        if (t >= DF_KING) continue;
        v += ((b->color[DF_WHITE] >> sq) & 1) ? value[t] : -value[t];
    }
    return b->stm == DF_WHITE ? v : -v;
}

static void test_hard_rules_drop_their_entries(void **state)
{
    (void)state;
    const size_t n = 40000;
    entry *e = make_stream(n);
    bool *kept = malloc(n), *always = malloc(n);
    assert_non_null(kept);
    assert_non_null(always);
    no_score_or_placeholder(e, n, always);
    const df_nnue_skip_options all_on = {.filtered = true,
                                         .wld_filtered = true,
                                         .random_fen_skipping = 2,
                                         .early_fen_skipping = 6,
                                         .soft_early_fen_skipping = 20,
                                         .simple_eval_skipping = 150,
                                         .pc_y = {0, 0.4, 1, 1, 0.75},
                                         .ply_x = {0, 6, 10, 18},
                                         .ply_y = {0.1, 0.15, 0.25, 0.75}};
    for (int rule = 0; rule < 5; rule++) {
        for (int with_all = 0; with_all < 2; with_all++) {
            df_nnue_skip_options o = with_all ? all_on : only_piece_counts();
            if (rule == 1) o.early_fen_skipping = 6;
            if (rule == 2) o.filtered = true;
            if (rule == 3) o.simple_eval_skipping = 150;
            const size_t count = count_kept(&o, 5489, e, n, kept);
            assert_true(count > 0);
            size_t dropped = 0;
            for (size_t i = 0; i < n; i++) {
                const entry *x = &e[i];
                bool must = always[i]; /* rule 0: every predicate */
                if (rule == 1 || with_all) must |= (int)x->ply <= o.early_fen_skipping;
                if (rule == 2 || with_all) must |= is_capture(&x->b, x->move) || df_checkers(&x->b);
                if (rule == 3 || with_all)
                    must |= abs(material_stm(&x->b)) < o.simple_eval_skipping;
                if (rule == 4) must |= df_popcount(df_board_occupied(&x->b)) > 32;
                if (must) {
                    dropped++;
                    if (kept[i])
                        fail_msg("rule %d (all options %d): entry %zu (ply %u, score %d) kept",
                                 rule, with_all, i, x->ply, x->score);
                }
            }
            assert_true(dropped > n / 20); /* each rule had something to drop */
        }
    }
    free(always);
    free(kept);
    free(e);
}

/* A share counted over n draws against its probability p: within five standard deviations. */
static void assert_share(double kept, double n, double p, const char *what)
{
    const double sd = sqrt(n * p * (1 - p)) + 1;
    if (fabs(kept - n * p) > 5 * sd)
        fail_msg("%s: %.0f kept of %.0f, expected %.1f (p %.4f)", what, kept, n, n * p, p);
}

/* Each random rule alone: its kept share against its probability. The piece-count filter
 * comes after every random rule and adapts to the piece counts it sees, so the stream holds
 * one position (one piece count: the filter then keeps a steady 2.5 %, whatever reaches it)
 * with plies, scores and results that vary; the rule's share is counted against the entries
 * the filter alone keeps from the same stream. */
static void test_random_rules_keep_their_share(void **state)
{
    (void)state;
    const size_t n = 200000;
    entry *e = malloc(n * sizeof *e);
    assert_non_null(e);
    const df_board start = dft_fen(DF_FEN_START);
    for (size_t i = 0; i < n; i++) {
        /* Scores lean toward the result, as real ones do: the model's probabilities of a
         * result and of its opposite then differ. */
        const int result = (int)(dft_rand() % 3) - 1;
        e[i] =
            (entry){start, df_move_make(DF_G1, DF_F3, DF_MOVE_NORMAL, DF_PAWN),
                    400 * result + (int)(dft_rand() % 1001) - 500 + 1, (unsigned)(i % 60), result};
    }
    const df_nnue_skip_options base = only_piece_counts();
    const double kept_base = (double)count_kept(&base, 7, e, n, NULL);
    assert_true(kept_base > 2000);
    for (int k = 1; k <= 9; k += 4) {
        df_nnue_skip_options o = base;
        o.random_fen_skipping = k;
        assert_share((double)count_kept(&o, 7, e, n, NULL), kept_base, 1.0 / (k + 1),
                     "random_fen_skipping");
    }
    /* wld_filtered: an entry is kept with the model's probability of its result. */
    df_nnue_skip_options o = base;
    o.wld_filtered = true;
    double p = 0;
    for (size_t i = 0; i < n; i++) {
        const double m = (e[i].ply < 240 ? e[i].ply : 240) / 64.0;
        const double a = ((-3.68389304 * m + 30.07065921) * m - 60.52878723) * m + 149.53378557;
        const double b =
            (((-2.0181857 * m + 15.85685038) * m - 29.83452023) * m + 47.59078827) * 1.5;
        const double x = fmax(-2000, fmin(2000, 100.0 * e[i].score / 208));
        const double w = 1 / (1 + exp((a - x) / b)), l = 1 / (1 + exp((a + x) / b));
        p += e[i].result > 0 ? w : e[i].result < 0 ? l : 1 - w - l;
    }
    assert_share((double)count_kept(&o, 7, e, n, NULL), kept_base, p / n, "wld_filtered");
    /* The soft early-ply filter: plies below 20 kept along the curve (0.1 at ply 0 to 1 at
     * 20), the rest whole. */
    o = base;
    o.soft_early_fen_skipping = 20;
    o.ply_x[0] = 0, o.ply_x[1] = 6, o.ply_x[2] = 10, o.ply_x[3] = 18;
    o.ply_y[0] = 0.1, o.ply_y[1] = 0.15, o.ply_y[2] = 0.25, o.ply_y[3] = 0.75;
    p = 0;
    for (size_t i = 0; i < n; i++) {
        const double x = e[i].ply;
        p += x <= 6    ? 0.1 + x / 6 * 0.05
             : x <= 10 ? 0.15 + (x - 6) / 4 * 0.1
             : x <= 18 ? 0.25 + (x - 10) / 8 * 0.5
             : x < 20  ? 0.75 + (x - 18) / 2 * 0.25
                       : 1;
    }
    assert_share((double)count_kept(&o, 7, e, n, NULL), kept_base, p / n,
                 "soft_early_fen_skipping");
    free(e);
}

/* The piece-count filter keeps the most over-represented count at about 2.5 %: on a stream of
 * one piece count it keeps 1/33 of the first 100 entries (alpha 1, every weight 1) and 2.5 %
 * after. */
static void test_piece_count_filter(void **state)
{
    (void)state;
    const size_t n = 100000;
    entry *e = malloc(n * sizeof *e);
    assert_non_null(e);
    const df_board b = dft_fen("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1");
    for (size_t i = 0; i < n; i++)
        e[i] = (entry){b, df_move_make(DF_E1, DF_D1, DF_MOVE_NORMAL, DF_PAWN), 30, 40, 0};
    df_nnue_skip_options o = only_piece_counts();
    for (int k = 0; k < 5; k++) o.pc_y[k] = 1;
    bool *kept = malloc(n);
    assert_non_null(kept);
    count_kept(&o, 11, e, n, kept);
    size_t later = 0;
    for (size_t i = 100; i < n; i++) later += kept[i];
    assert_share((double)later, (double)(n - 100), 0.025, "piece counts");
    free(kept);
    free(e);
}

static void test_same_seed_same_entries(void **state)
{
    (void)state;
    const size_t n = 20000;
    entry *e = make_stream(n);
    bool *a = malloc(n), *b = malloc(n);
    assert_non_null(a);
    assert_non_null(b);
    df_nnue_skip_options o = df_nnue_skip_defaults();
    o.random_fen_skipping = 3;
    count_kept(&o, 42, e, n, a);
    count_kept(&o, 42, e, n, b);
    assert_memory_equal(a, b, n);
    count_kept(&o, 43, e, n, b);
    assert_true(memcmp(a, b, n) != 0);
    free(a);
    free(b);
    free(e);
}

static void test_bad_options_are_refused(void **state)
{
    (void)state;
    df_nnue_skip_options o = df_nnue_skip_defaults();
    assert_null(df_nnue_skip_new(NULL, 1));
    o.soft_early_fen_skipping = (1 << 16) + 1;
    assert_null(df_nnue_skip_new(&o, 1));
    o = df_nnue_skip_defaults();
    o.pc_y[2] = NAN;
    assert_null(df_nnue_skip_new(&o, 1));
    o = df_nnue_skip_defaults();
    o.ply_x[1] = INFINITY;
    assert_null(df_nnue_skip_new(&o, 1));
    o = df_nnue_skip_defaults();
    df_nnue_skip *s = df_nnue_skip_new(&o, 1);
    assert_non_null(s);
    df_nnue_skip_free(s);
    df_nnue_skip_free(NULL);
}

/* df_nnue_skip_option_set: each name sets its own field and no other; a bad key or value is
 * refused and changes nothing. */
static void test_options_by_name(void **state)
{
    (void)state;
    static const struct {
        const char *key, *value;
        size_t at, size;
    } good[] = {
#define F(key, value, member)                                                                      \
    {key, value, offsetof(df_nnue_skip_options, member),                                           \
     sizeof(((df_nnue_skip_options *)0)->member)}
        F("filtered", "false", filtered),
        F("wld_filtered", "0", wld_filtered),
        F("random_fen_skipping", "3", random_fen_skipping),
        F("early_fen_skipping", "16", early_fen_skipping),
        F("soft_early_fen_skipping", "32", soft_early_fen_skipping),
        F("simple_eval_skipping", "-1000000", simple_eval_skipping),
        F("pc_y0", "0.5", pc_y[0]),
        F("pc_y4", "1e-3", pc_y[4]),
        F("ply_x1", "2", ply_x[0]),
        F("ply_x4", "28", ply_x[3]),
        F("ply_y1", "0.025", ply_y[0]),
        F("ply_y4", "1", ply_y[3]),
#undef F
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        df_nnue_skip_options o = df_nnue_skip_defaults();
        const df_nnue_skip_options before = o;
        assert_int_equal(DF_OK, df_nnue_skip_option_set(&o, good[i].key, good[i].value));
        for (size_t byte = 0; byte < sizeof o; byte++) {
            const bool inside = byte >= good[i].at && byte < good[i].at + good[i].size;
            if (!inside && ((unsigned char *)&o)[byte] != ((unsigned char *)&before)[byte])
                fail_msg("%s changed byte %zu, outside its field", good[i].key, byte);
        }
        assert_memory_not_equal((char *)&o + good[i].at, (char *)&before + good[i].at,
                                good[i].size);
    }
    df_nnue_skip_options o = df_nnue_skip_none();
    assert_int_equal(DF_OK, df_nnue_skip_option_set(&o, "filtered", "true"));
    assert_true(o.filtered);
    assert_int_equal(DF_OK, df_nnue_skip_option_set(&o, "pc_y2", "0.25"));
    assert_true(o.pc_y[2] == 0.25);
    static const char *const bad[][2] = {
        {"filtered", "2"},
        {"filtered", "yes"},
        {"random_fen_skipping", "1.5"},
        {"random_fen_skipping", "0x10"},
        {"early_fen_skipping", "1000001"},
        {"simple_eval_skipping", ""},
        {"pc_y0", "nan"},
        {"ply_y2", "inf"},
        {"ply_x1", "1e999"},
        {"pc_y5", "1"},
        {"ply_x0", "1"},
        {"param_index", "1"},
        {"random_fen_skipping", " 3"},
        {"Filtered", "1"},
        {"", "1"},
    };
    const df_nnue_skip_options before = o;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        if (df_nnue_skip_option_set(&o, bad[i][0], bad[i][1]) != DF_ERR_ARGUMENT)
            fail_msg("%s=%s was taken", bad[i][0], bad[i][1]);
        assert_memory_equal(&o, &before, sizeof o);
    }
    assert_int_equal(DF_ERR_ARGUMENT, df_nnue_skip_option_set(NULL, "filtered", "1"));
    assert_int_equal(DF_ERR_ARGUMENT, df_nnue_skip_option_set(&o, NULL, "1"));
    assert_int_equal(DF_ERR_ARGUMENT, df_nnue_skip_option_set(&o, "filtered", NULL));
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generator_is_the_standards),
        cmocka_unit_test(test_nothing_on_skips_nothing),
        cmocka_unit_test(test_hard_rules_drop_their_entries),
        cmocka_unit_test(test_random_rules_keep_their_share),
        cmocka_unit_test(test_piece_count_filter),
        cmocka_unit_test(test_same_seed_same_entries),
        cmocka_unit_test(test_bad_options_are_refused),
        cmocka_unit_test(test_options_by_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
