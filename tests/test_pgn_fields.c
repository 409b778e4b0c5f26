/* SPDX-License-Identifier: MIT */
/* Fields derived from a game's tags (Speed, BaseSeconds, Increment, the Elo fields, Year, Month,
 * Bot) at every boundary and on missing, odd and malformed tags; filters on them against a
 * reference written here; and the per-position filter against an obvious reading of its rule,
 * on hand-made plies and on generated games read by the reader. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmdline.h"
#include "dft.h"
#include "pgngen.h"

/* A game of the tags "Name=value;Name=value" (a value may be empty). */
typedef struct {
    df_pgn_game g;
    df_pgn_tag tags[8];
    char text[256];
} made_game;

static void make_game(made_game *m, const char *spec)
{
    memset(m, 0, sizeof *m);
    snprintf(m->text, sizeof m->text, "%s", spec);
    for (char *save, *pair = strtok_r(m->text, ";", &save); pair;
         pair = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(pair, '=');
        assert_non_null(eq);
        *eq = '\0';
        df_pgn_tag *t = &m->tags[m->g.ntags++];
        t->name = pair;
        t->name_len = (uint32_t)strlen(pair);
        t->value = eq + 1;
        t->value_len = (uint32_t)strlen(eq + 1);
    }
    m->g.tags = m->tags;
}

/* The field's value of the game spec as text: "none" when it is not known. */
static void expect_field(const char *spec, df_pgn_field f, const char *want)
{
    made_game m;
    make_game(&m, spec);
    double x = -12345;
    char got[32];
    if (!df_pgn_field_value(&m.g, f, &x)) {
        assert_true(x == -12345); /* untouched */
        snprintf(got, sizeof got, "none");
    } else if (f == DF_PGN_FIELD_SPEED) {
        snprintf(got, sizeof got, "%s", df_pgn_speed_name((df_pgn_speed)x));
    } else {
        snprintf(got, sizeof got, "%.15g", x);
    }
    if (strcmp(got, want))
        fail_msg("%s of [%s]: %s, want %s", df_pgn_field_name(f), spec, got, want);
}

static void test_speed_and_clock(void **state)
{
    (void)state;
    static const struct {
        const char *tc, *speed, *base, *increment;
    } cases[] = {
        /* The boundaries of lichess's rule, on the base alone and with increments. */
        {"29", "ultrabullet", "29", "0"},
        {"30", "bullet", "30", "0"},
        {"179", "bullet", "179", "0"},
        {"180", "blitz", "180", "0"},
        {"479", "blitz", "479", "0"},
        {"480", "rapid", "480", "0"},
        {"1499", "rapid", "1499", "0"},
        {"1500", "classical", "1500", "0"},
        {"0+0", "ultrabullet", "0", "0"},
        {"15+0", "ultrabullet", "15", "0"},
        {"0+1", "bullet", "0", "1"},
        {"59+3", "bullet", "59", "3"},
        {"60+3", "blitz", "60", "3"},
        {"119+9", "blitz", "119", "9"},
        {"120+9", "rapid", "120", "9"},
        {"299+30", "rapid", "299", "30"},
        {"300+30", "classical", "300", "30"},
        {"600+5", "rapid", "600", "5"},
        {"999999999+999999999", "classical", "999999999", "999999999"},
        /* Correspondence, unknown and malformed. */
        {"-", "correspondence", "none", "none"},
        {"?", "none", "none", "none"},
        {"", "none", "none", "none"},
        {"1/259200", "none", "none", "none"},
        {"40/7200:3600", "none", "none", "none"},
        {"2+0.5", "none", "none", "none"},
        {"+5", "none", "none", "none"},
        {"60+", "none", "none", "none"},
        {" 60+0", "none", "none", "none"},
        {"60+0 ", "none", "none", "none"},
        {"1234567890", "none", "none", "none"},
        {"60+1+1", "none", "none", "none"},
        {"--", "none", "none", "none"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char spec[64];
        snprintf(spec, sizeof spec, "Event=x;TimeControl=%s", cases[i].tc);
        expect_field(spec, DF_PGN_FIELD_SPEED, cases[i].speed);
        expect_field(spec, DF_PGN_FIELD_BASE_SECONDS, cases[i].base);
        expect_field(spec, DF_PGN_FIELD_INCREMENT, cases[i].increment);
    }
    /* No TimeControl tag; a Speed tag of the game's own is not the field. */
    expect_field("Event=x", DF_PGN_FIELD_SPEED, "none");
    expect_field("Event=x", DF_PGN_FIELD_BASE_SECONDS, "none");
    expect_field("Speed=blitz", DF_PGN_FIELD_SPEED, "none");
    expect_field("Speed=blitz;TimeControl=60+0", DF_PGN_FIELD_SPEED, "bullet");
}

static void test_elo_date_bot(void **state)
{
    (void)state;
    static const struct {
        const char *spec, *avg, *min, *max, *diff, *bin;
    } elos[] = {
        {"WhiteElo=1500;BlackElo=1600", "1550", "1500", "1600", "-100", "1400"},
        {"WhiteElo=2001;BlackElo=2000", "2000.5", "2000", "2001", "1", "2000"},
        {"WhiteElo=1999;BlackElo=2000", "1999.5", "1999", "2000", "-1", "1800"},
        {"WhiteElo=2200;BlackElo=2200", "2200", "2200", "2200", "0", "2200"},
        {"WhiteElo=0;BlackElo=0", "0", "0", "0", "0", "0"},
        {"BlackElo=2000;WhiteElo=1000", "1500", "1000", "2000", "-1000", "1400"},
        {"WhiteElo=?;BlackElo=2000", "none", "none", "none", "none", "none"},
        {"WhiteElo=2000", "none", "none", "none", "none", "none"},
        {"WhiteElo=;BlackElo=1500", "none", "none", "none", "none", "none"},
        {"WhiteElo=1500.5;BlackElo=1500", "none", "none", "none", "none", "none"},
        {"WhiteElo=-5;BlackElo=100", "none", "none", "none", "none", "none"},
        {"WhiteElo=+5;BlackElo=100", "none", "none", "none", "none", "none"},
        {"WhiteElo=1500 ;BlackElo=100", "none", "none", "none", "none", "none"},
    };
    for (size_t i = 0; i < sizeof elos / sizeof elos[0]; i++) {
        expect_field(elos[i].spec, DF_PGN_FIELD_AVG_ELO, elos[i].avg);
        expect_field(elos[i].spec, DF_PGN_FIELD_MIN_ELO, elos[i].min);
        expect_field(elos[i].spec, DF_PGN_FIELD_MAX_ELO, elos[i].max);
        expect_field(elos[i].spec, DF_PGN_FIELD_ELO_DIFF, elos[i].diff);
        expect_field(elos[i].spec, DF_PGN_FIELD_ELO_BIN, elos[i].bin);
    }
    static const struct {
        const char *spec, *year, *month;
    } dates[] = {
        {"UTCDate=2024.03.15;Date=2023.01.01", "2024", "3"},
        {"Date=2023.12.??", "2023", "12"},
        {"Date=2024.??.??", "2024", "none"},
        {"Date=????.??.??", "none", "none"},
        {"Date=????.05.??", "none", "5"},
        {"Date=2024.13.01", "none", "none"},
        {"Date=2024.00.10", "none", "none"},
        {"Date=2024.01.32", "none", "none"},
        {"Date=2024-03-15", "none", "none"},
        {"Date=2024.1.15", "none", "none"},
        {"Date=20?4.01.15", "none", "none"},
        {"Date=2024.01.15 ", "none", "none"},
        {"Date=", "none", "none"},
        {"Event=x", "none", "none"},
        /* UTCDate decides when the game has it, unknown or not. */
        {"UTCDate=????.??.??;Date=2024.01.01", "none", "none"},
        {"Date=2024.01.01;UTCDate=2025.02.02", "2025", "2"},
    };
    for (size_t i = 0; i < sizeof dates / sizeof dates[0]; i++) {
        expect_field(dates[i].spec, DF_PGN_FIELD_YEAR, dates[i].year);
        expect_field(dates[i].spec, DF_PGN_FIELD_MONTH, dates[i].month);
    }
    static const struct {
        const char *spec, *bot;
    } bots[] = {
        {"WhiteTitle=BOT", "1"}, {"BlackTitle=bot", "1"}, {"WhiteTitle=GM;BlackTitle=BOT", "1"},
        {"WhiteTitle=GM", "0"},  {"Event=x", "0"},        {"WhiteTitle=BOTS", "0"},
        {"White=BOT", "0"}};
    for (size_t i = 0; i < sizeof bots / sizeof bots[0]; i++)
        expect_field(bots[i].spec, DF_PGN_FIELD_BOT, bots[i].bot);
}

static void test_field_names(void **state)
{
    (void)state;
    for (int f = DF_PGN_FIELD_TAG + 1; f < DF_PGN_FIELD_COUNT; f++) {
        const char *name = df_pgn_field_name((df_pgn_field)f);
        assert_non_null(name);
        assert_int_equal(f, df_pgn_field_of(name));
    }
    assert_null(df_pgn_field_name(DF_PGN_FIELD_TAG));
    assert_null(df_pgn_field_name(DF_PGN_FIELD_COUNT));
    assert_int_equal(DF_PGN_FIELD_TAG, df_pgn_field_of("WhiteElo"));
    assert_int_equal(DF_PGN_FIELD_TAG, df_pgn_field_of("speed"));
    assert_int_equal(DF_PGN_FIELD_TAG, df_pgn_field_of(NULL));
    assert_string_equal("correspondence", df_pgn_speed_name(DF_PGN_SPEED_CORRESPONDENCE));
    assert_null(df_pgn_speed_name((df_pgn_speed)6));
    made_game m;
    make_game(&m, "TimeControl=60+0");
    double x = 7;
    assert_false(df_pgn_field_value(&m.g, DF_PGN_FIELD_TAG, &x));
    assert_false(df_pgn_field_value(&m.g, DF_PGN_FIELD_COUNT, &x));
    assert_true(x == 7);
}

/* ---- filters on derived fields, against a reference ---- */

/* The games the filters below are tried on: every field known, unknown or odd somewhere. */
static const char *const games[] = {
    "TimeControl=60+0;WhiteElo=1500;BlackElo=1600;UTCDate=2024.03.15;WhiteTitle=BOT",
    "TimeControl=180+2;WhiteElo=2200;BlackElo=2100;Date=2023.12.01",
    "TimeControl=29;WhiteElo=?;BlackElo=1800;Date=2024.??.??",
    "TimeControl=-;WhiteElo=2400;BlackElo=2400;BlackTitle=GM",
    "TimeControl=1500;WhiteElo=1999;BlackElo=2000",
    "Speed=blitz;Year=1999;EloDiff=5",
    "TimeControl=480+0;WhiteElo=1200;BlackElo=1000;Date=2024.01.02;Bot=false",
    "TimeControl=1/259200;WhiteElo=2000;BlackElo=x;Date=bad",
};
#define NGAMES (sizeof games / sizeof games[0])

/* What `name op value` (value a number, or a speed, true or false as the filter reads them)
 * must say of game m: the obvious reading of pgn.h. */
static bool reference(const made_game *m, df_pgn_field f, const char *op, double value)
{
    double x;
    if (!df_pgn_field_value(&m->g, f, &x)) return !strcmp(op, "!=");
    return !strcmp(op, "=")    ? x == value
           : !strcmp(op, "!=") ? x != value
           : !strcmp(op, "<")  ? x < value
           : !strcmp(op, "<=") ? x <= value
           : !strcmp(op, ">")  ? x > value
                               : x >= value;
}

static void test_filters_on_fields(void **state)
{
    (void)state;
    static const char *const ops[] = {"=", "!=", "<", "<=", ">", ">="};
    static const struct {
        df_pgn_field f;
        const char *values[4];
    } tries[] = {
        {DF_PGN_FIELD_SPEED, {"bullet", "BLITZ", "correspondence", "ultrabullet"}},
        {DF_PGN_FIELD_BASE_SECONDS, {"60", "29", "180", "0"}},
        {DF_PGN_FIELD_INCREMENT, {"0", "2", "1", "-1"}},
        {DF_PGN_FIELD_AVG_ELO, {"1550", "1999.5", "2000", "2150"}},
        {DF_PGN_FIELD_MIN_ELO, {"1500", "1800", "2400", "1000"}},
        {DF_PGN_FIELD_MAX_ELO, {"1600", "2200", "2000", "0"}},
        {DF_PGN_FIELD_ELO_DIFF, {"-100", "0", "100", "200"}},
        {DF_PGN_FIELD_ELO_BIN, {"1400", "1800", "2000", "2400"}},
        {DF_PGN_FIELD_YEAR, {"2024", "2023", "1999", "2025"}},
        {DF_PGN_FIELD_MONTH, {"3", "12", "1", "6"}},
        {DF_PGN_FIELD_BOT, {"true", "false", "TRUE", "False"}},
    };
    made_game m[NGAMES];
    for (size_t i = 0; i < NGAMES; i++) make_game(&m[i], games[i]);
    int matched = 0, checked = 0;
    for (size_t t = 0; t < sizeof tries / sizeof tries[0]; t++)
        for (size_t o = 0; o < 6; o++)
            for (size_t v = 0; v < 4; v++) {
                const df_pgn_field f = tries[t].f;
                if (f == DF_PGN_FIELD_BOT && o > 1) continue;
                char expr[64];
                snprintf(expr, sizeof expr, "%s%s%s", df_pgn_field_name(f), ops[o],
                         tries[t].values[v]);
                const char *e = expr;
                df_pgn_filter *filter = NULL;
                char why[DF_PGN_FILTER_ERROR_MAX];
                if (df_pgn_filter_new(&filter, &e, 1, why) != DF_OK) fail_msg("%s", why);
                /* The value as the reference compares it. */
                const char *text = tries[t].values[v];
                double value = strtod(text, NULL);
                if (f == DF_PGN_FIELD_BOT) value = (text[0] | 32) == 't';
                for (int s = 0; f == DF_PGN_FIELD_SPEED && s <= DF_PGN_SPEED_CORRESPONDENCE; s++)
                    if (!strcasecmp(text, df_pgn_speed_name((df_pgn_speed)s))) value = s;
                for (size_t i = 0; i < NGAMES; i++) {
                    const bool want = reference(&m[i], f, ops[o], value);
                    if (df_pgn_filter_matches(filter, &m[i].g) != want)
                        fail_msg("%s on [%s]: want %d", expr, games[i], want);
                    matched += want;
                    checked++;
                }
                df_pgn_filter_free(filter);
            }
    assert_true(matched > checked / 4 && matched < checked * 3 / 4);
    /* A game's own tag named like a field is not the field; every tag stays a tag. */
    static const struct {
        const char *expr, *kept;
    } named[] = {{"Speed=blitz", "1"},     {"Speed!=blitz", "0234567"}, {"Year=1999", ""},
                 {"Year!=2024", "13457"},  {"Bot=false", "1234567"},    {"TimeControl^=1", "147"},
                 {"Speed>=blitz", "1346"}, {"WhiteElo<2000", "046"}};
    for (size_t k = 0; k < sizeof named / sizeof named[0]; k++) {
        df_pgn_filter *filter = NULL;
        assert_int_equal(DF_OK, df_pgn_filter_new(&filter, &named[k].expr, 1, NULL));
        char kept[NGAMES + 1] = "";
        for (size_t i = 0, n = 0; i < NGAMES; i++)
            if (df_pgn_filter_matches(filter, &m[i].g)) kept[n++] = (char)('0' + i), kept[n] = 0;
        if (strcmp(kept, named[k].kept))
            fail_msg("%s kept %s, want %s", named[k].expr, kept, named[k].kept);
        df_pgn_filter_free(filter);
    }
}

/* ---- the per-position filter ---- */

/* The side to move's clock at position k, read off the plies the obvious way. */
static bool clock_to_move(const df_pgn_ply *plies, uint32_t k, bool base_known, double base,
                          double *out)
{
    if (k < 2) return *out = base, base_known;
    return *out = plies[k - 2].clock, plies[k - 2].has_clock;
}

static bool position_reference(const df_pgn_position_filter *f, const df_pgn_ply *plies, uint32_t k,
                               bool base_known, double base)
{
    double clock;
    const bool known = clock_to_move(plies, k, base_known, base, &clock);
    if (f->conditions & DF_PGN_MIN_PLY && k < f->min_ply) return false;
    if (f->conditions & DF_PGN_MAX_PLY && k > f->max_ply) return false;
    if (f->conditions & DF_PGN_MIN_CLOCK && (!known || clock < f->min_clock)) return false;
    return !(f->conditions & DF_PGN_REQUIRE_EVAL && plies[k].eval_kind == DF_PGN_EVAL_NONE);
}

static void test_position_filter_hand_made(void **state)
{
    (void)state;
    /* Plies 0..5 of a 60+0 game: clocks 60 59 - 57 56 55 after the moves; evals on 1 and 4. */
    df_pgn_ply plies[6];
    memset(plies, 0, sizeof plies);
    const double clocks[6] = {60, 59, -1, 57, 30, 55};
    for (uint32_t k = 0; k < 6; k++) {
        plies[k].ply = k;
        plies[k].has_clock = clocks[k] >= 0;
        plies[k].clock = clocks[k] >= 0 ? clocks[k] : 0;
        plies[k].eval_kind = k == 1 || k == 4 ? DF_PGN_EVAL_PAWNS : DF_PGN_EVAL_NONE;
    }
    static const struct {
        const char *tags;
        df_pgn_position_filter f;
        const char *pass; /* the plies that pass */
    } cases[] = {
        {"TimeControl=60+0", {0, 0, 0, 0}, "012345"},
        {"TimeControl=60+0", {DF_PGN_MIN_PLY, 2, 0, 0}, "2345"},
        {"TimeControl=60+0", {DF_PGN_MAX_PLY, 0, 3, 0}, "0123"},
        {"TimeControl=60+0", {DF_PGN_MIN_PLY | DF_PGN_MAX_PLY, 1, 1, 0}, "1"},
        {"TimeControl=60+0", {DF_PGN_MAX_PLY, 0, 0, 0}, "0"},
        /* Position k's clock: base at 0 and 1, then move k - 2's: 60 60 60 59 none 57. */
        {"TimeControl=60+0", {DF_PGN_MIN_CLOCK, 0, 0, 59}, "0123"},
        {"TimeControl=60+0", {DF_PGN_MIN_CLOCK, 0, 0, 59.5}, "012"},
        {"TimeControl=60+0", {DF_PGN_MIN_CLOCK, 0, 0, 0}, "01235"},
        {"TimeControl=-", {DF_PGN_MIN_CLOCK, 0, 0, 0}, "235"},
        {"Event=no clock", {DF_PGN_MIN_CLOCK, 0, 0, 0}, "235"},
        {"TimeControl=60+0", {DF_PGN_REQUIRE_EVAL, 0, 0, 0}, "14"},
        {"TimeControl=60+0", {DF_PGN_REQUIRE_EVAL | DF_PGN_MIN_CLOCK, 0, 0, 58}, "1"},
        {"TimeControl=60+0", {DF_PGN_MIN_PLY | DF_PGN_MAX_PLY, 4, 3, 0}, ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        made_game m;
        make_game(&m, cases[i].tags);
        df_pgn_clocks c;
        memset(&c, 0x5a, sizeof c); /* anything before ply 0 */
        char pass[8] = "";
        for (uint32_t k = 0, n = 0; k < 6; k++)
            if (df_pgn_position_passes(&cases[i].f, &c, &m.g, &plies[k]))
                pass[n++] = (char)('0' + k), pass[n] = 0;
        if (strcmp(pass, cases[i].pass))
            fail_msg("case %zu: %s pass, want %s", i, pass, cases[i].pass);
    }
    /* NULL passes everything (and still keeps the clocks). */
    made_game m;
    make_game(&m, "TimeControl=60+0");
    df_pgn_clocks c;
    for (uint32_t k = 0; k < 6; k++) assert_true(df_pgn_position_passes(NULL, &c, &m.g, &plies[k]));
    assert_true(c.known[0] && c.seconds[0] == 30 && c.known[1] && c.seconds[1] == 55);
}

/* Generated games read by the reader: each ply's verdict equals the reference on the plies as
 * the generator wrote them, for random conditions. */
typedef struct {
    df_pgn_position_filter f;
    df_pgn_clocks clocks;
    df_pgn_ply plies[200];
    bool verdict[200];
    uint32_t n;
    uint64_t passed, total;
} position_run;

static void pr_ply(void *ctx, const df_pgn_game *g, const df_pgn_ply *p)
{
    position_run *r = ctx;
    assert_int_equal(r->n, p->ply);
    r->verdict[r->n] = df_pgn_position_passes(&r->f, &r->clocks, g, p);
    r->plies[r->n++] = *p;
}

static df_pgn_action pr_end(void *ctx, const df_pgn_game *g)
{
    position_run *r = ctx;
    double base = 0;
    const bool known = df_pgn_field_value(g, DF_PGN_FIELD_BASE_SECONDS, &base);
    for (uint32_t k = 0; k < r->n; k++) {
        if (r->verdict[k] != position_reference(&r->f, r->plies, k, known, base))
            fail_msg("game %llu ply %u: %d", (unsigned long long)g->index, k, r->verdict[k]);
        r->passed += r->verdict[k];
        r->total++;
    }
    r->n = 0;
    return DF_PGN_READ;
}

static void test_position_filter_on_games(void **state)
{
    (void)state;
    df_board start;
    df_fen_parse(&start, DF_FEN_START, sizeof DF_FEN_START - 1, DF_FEN_STANDARD, NULL);
    pgngen_text text = {0}, game = {0};
    uint64_t rng = 0xc10c;
    static const char *const controls[] = {"[TimeControl \"180+2\"]\n", "[TimeControl \"-\"]\n",
                                           ""};
    for (int i = 0; i < 60; i++) {
        game.len = 0;
        assert_true(pgngen_game(&game, &rng, &start, false, 1 + (uint32_t)(rng % 150),
                                PGNGEN_EVALS | PGNGEN_CLOCKS, (uint64_t)i, NULL));
        cmd_text_puts(&text, controls[i % 3]);
        cmd_text_put(&text, game.text, game.len);
    }
    df_pgn_reader *reader = df_pgn_reader_new();
    uint64_t passed = 0, total = 0;
    for (int round = 0; round < 40; round++) {
        position_run *r = calloc(1, sizeof *r);
        const uint64_t x = dft_rand();
        r->f.conditions = (unsigned)(x & 15);
        r->f.min_ply = (uint32_t)(x >> 8) % 40;
        r->f.max_ply = (uint32_t)(x >> 16) % 120;
        r->f.min_clock = (double)((x >> 24) % 10800);
        const df_pgn_visitor v = {NULL, pr_ply, pr_end, r};
        df_pgn_reader_reset(reader, DF_PGN_STANDARD, 0, 1, 0);
        assert_int_equal(DF_OK, df_pgn_feed(reader, text.text, text.len, &v));
        assert_int_equal(DF_OK, df_pgn_finish(reader, &v));
        assert_int_equal(60, df_pgn_reader_stats(reader).kept);
        passed += r->passed;
        total += r->total;
        free(r);
    }
    assert_true(passed > total / 10 && passed < total);
    df_pgn_reader_free(reader);
    pgngen_text_free(&text);
    pgngen_text_free(&game);
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_speed_and_clock),
        cmocka_unit_test(test_elo_date_bot),
        cmocka_unit_test(test_field_names),
        cmocka_unit_test(test_filters_on_fields),
        cmocka_unit_test(test_position_filter_hand_made),
        cmocka_unit_test(test_position_filter_on_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
