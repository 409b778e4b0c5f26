/* SPDX-License-Identifier: MIT */
/* dirfill pgn's filters, counts and words: every malformed --where refused with its message,
 * derived fields in --where and --count-by against this file's own reading of the tags (from
 * --headers --json), the count's formats, order and threads, per-position filters against the
 * rows they leave out, every contradictory combination of options, the summary's counts, a
 * binary file, the top-level help, and standard output that is an input. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cmdline.h"
#include "dft.h"
#include "filter_cases.h"
#include "json_check.h"
#include "pgngen.h"
#include "program.h"
#include "splitmix64.h"

static dft_result run(const char *const *args) { return dft_run(DFT_PROGRAM, args, "", 0, NULL); }

/* A temporary file holding text; its name in path (a mkstemp template). */
static void temp_pgn(char *path, const char *text, size_t len)
{
    close(mkstemp(path));
    dft_write_file(path, text, len);
}

/* The lines of a text, split in place. */
typedef struct {
    char **line;
    size_t n;
} lines;

static lines split(char *text)
{
    lines l = {NULL, 0};
    size_t cap = 0;
    for (char *save, *s = strtok_r(text, "\n", &save); s; s = strtok_r(NULL, "\n", &save)) {
        if (l.n == cap) l.line = realloc(l.line, (cap = cap ? 2 * cap : 256) * sizeof *l.line);
        l.line[l.n++] = s;
    }
    return l;
}

/* ---- --where ---- */

static const char small[] =
    "[Event \"a\"]\n[WhiteElo \"2100\"]\n[TimeControl \"60+0\"]\n\n1. e4 *\n";

static void test_where_refusals(void **state)
{
    (void)state;
    char path[] = "/tmp/dirfill-cli-where-XXXXXX";
    temp_pgn(path, small, sizeof small - 1);
    for (size_t i = 0; i < dft_nbad_filters; i++) {
        const dft_bad_filter *bad = &dft_bad_filters[i];
        dft_result r = run(DFT_ARGS("pgn", "--where", "Event=a", "--where", bad->expr, path));
        char quoted[96], shown[96];
        snprintf(quoted, sizeof quoted, "'%s'", bad->expr);
        snprintf(shown, sizeof shown, "did you mean '%s'?", bad->suggestion ? bad->suggestion : "");
        if (r.status != 2 || r.out_len || !strstr(r.err, quoted) || !strstr(r.err, bad->why) ||
            (bad->suggestion ? !strstr(r.err, shown) : strstr(r.err, "did you mean") != NULL))
            fail_msg("--where '%s': exit %d, stdout '%s', stderr '%s'", bad->expr, r.status, r.out,
                     r.err);
        dft_done(&r);
    }
    /* The valid ones, all in one run: any refused would exit 2. */
    const char **argv = calloc(2 * dft_ngood_filters + 3, sizeof *argv);
    size_t k = 0;
    argv[k++] = "pgn";
    for (size_t i = 0; i < dft_ngood_filters; i++) {
        argv[k++] = "--where";
        argv[k++] = dft_good_filters[i];
    }
    argv[k++] = path;
    dft_result r = run(argv);
    if (r.status != 0) fail_msg("valid --where: exit %d: %s", r.status, r.err);
    dft_done(&r);
    free(argv);
    unlink(path);
}

/* ---- this file's reading of derived fields, from the tags --headers --json writes ---- */

/* "1 to 9 digits" as the documentation says, written the obvious way. */
static bool whole(const char *s, unsigned long *out)
{
    size_t n = strlen(s);
    if (n == 0 || n > 9) return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9') return false;
    *out = strtoul(s, NULL, 10);
    return true;
}

/* A game's tag (NULL: absent) from its --headers --json line. */
static const char *tag(const char *line, const char *name, char *buf, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "headers.%s", name);
    return json_string_at(line, strlen(line), path, buf, size) ? buf : NULL;
}

/* The reference value of a derived field as the program writes it, or NULL when unknown. */
static const char *derived(const char *line, const char *field, char *out)
{
    char tc[64], w[64], b[64], date[64], wt[16], bt[16];
    const char *t = tag(line, "TimeControl", tc, sizeof tc);
    unsigned long base = 0, inc = 0, we, be;
    bool clock = false;
    if (t) {
        char copy[64];
        snprintf(copy, sizeof copy, "%s", t);
        char *plus = strchr(copy, '+');
        if (plus) *plus = '\0';
        clock = whole(copy, &base) && (!plus || whole(plus + 1, &inc));
    }
    if (!strcmp(field, "Speed")) {
        if (t && !strcmp(t, "-")) return strcpy(out, "correspondence");
        if (!clock) return NULL;
        const unsigned long e = base + 40 * inc;
        return strcpy(out, e < 30     ? "ultrabullet"
                           : e < 180  ? "bullet"
                           : e < 480  ? "blitz"
                           : e < 1500 ? "rapid"
                                      : "classical");
    }
    if (!strcmp(field, "BaseSeconds") || !strcmp(field, "Increment")) {
        if (!clock) return NULL;
        sprintf(out, "%lu", field[0] == 'B' ? base : inc);
        return out;
    }
    const bool elos = tag(line, "WhiteElo", w, sizeof w) && tag(line, "BlackElo", b, sizeof b) &&
                      whole(w, &we) && whole(b, &be);
    if (strstr(field, "Elo")) {
        if (!elos) return NULL;
        const double x = !strcmp(field, "AvgElo")   ? (we + be) / 2.0
                         : !strcmp(field, "MinElo") ? (double)(we < be ? we : be)
                         : !strcmp(field, "MaxElo") ? (double)(we > be ? we : be)
                         : !strcmp(field, "EloDiff")
                             ? (double)we - (double)be
                             : 200.0 * (unsigned long)((we + be) / 2.0 / 200);
        sprintf(out, "%.15g", x);
        return out;
    }
    if (!strcmp(field, "Year") || !strcmp(field, "Month")) {
        const char *d = tag(line, "UTCDate", date, sizeof date);
        if (!d) d = tag(line, "Date", date, sizeof date);
        int y = 0, m = 0, day = 0;
        if (!d || strlen(d) != 10) return NULL;
        const bool year_known = d[0] != '?', month_known = d[5] != '?', day_known = d[8] != '?';
        /* unknown parts must be all '?', known ones all digits */
        for (int i = 0; i < 10; i++) {
            const bool dot = i == 4 || i == 7;
            const bool known = i < 4 ? year_known : i < 7 ? month_known : day_known;
            if (dot ? d[i] != '.' : known ? (d[i] < '0' || d[i] > '9') : d[i] != '?') return NULL;
        }
        if (month_known) m = atoi(d + 5);
        if (day_known) day = atoi(d + 8);
        if (year_known) y = atoi(d);
        if ((month_known && (m < 1 || m > 12)) || (day_known && (day < 1 || day > 31))) return NULL;
        if (field[0] == 'Y' ? !year_known : !month_known) return NULL;
        sprintf(out, "%d", field[0] == 'Y' ? y : m);
        return out;
    }
    /* Bot */
    const char *x = tag(line, "WhiteTitle", wt, sizeof wt),
               *y = tag(line, "BlackTitle", bt, sizeof bt);
    const bool bot = (x && !strcasecmp(x, "BOT")) || (y && !strcasecmp(y, "BOT"));
    return strcpy(out, bot ? "true" : "false");
}

static const char *const derived_names[] = {"Speed",  "BaseSeconds", "Increment", "AvgElo",
                                            "MinElo", "MaxElo",      "EloDiff",   "EloBin",
                                            "Year",   "Month",       "Bot"};

static bool is_derived(const char *field)
{
    for (size_t i = 0; i < sizeof derived_names / sizeof derived_names[0]; i++)
        if (!strcmp(field, derived_names[i])) return true;
    return false;
}

/* A field of a game as the table shows it ("(none)" without a value). */
static void field_text(const char *line, const char *field, char *out, size_t size)
{
    char buf[128];
    const char *v =
        is_derived(field) ? derived(line, field, buf) : tag(line, field, buf, sizeof buf);
    snprintf(out, size, "%s", v ? v : "(none)");
}

/* ---- generated files with odd tags ---- */

static const char *const controls[] = {
    "60+0", "180+2",    "29",           "30",    "179",   "180",   "479",        "480",
    "1499", "1500",     "0+1",          "15+0",  "119+9", "120+9", "-",          "?",
    "",     "1/259200", "40/7200:3600", "2+0.5", "60+",   "+5",    "1234567890", NULL};
static const char *const elos[] = {"1500", "2001", "1999",   "2000", "?",    "",  "0",
                                   "2700", "-5",   "1500.5", "820",  "2199", NULL};
static const char *const dates[] = {"2024.03.15", "2023.12.??", "????.??.??", "2024.13.01",
                                    "2024-03-15", "2025.01.31", "2024.??.??", NULL};
static const char *const titles[] = {"BOT", "GM", "bot", NULL};

/* Picks one of a NULL-terminated list, the NULL (no tag) included. */
static const char *pick(const char *const *list, uint64_t r)
{
    size_t n = 0;
    while (list[n]) n++;
    return list[r % (n + 1)];
}

/* games random games of a few plies with random odd tags; every `bad`-th has an illegal move. */
static void odd_games(cmd_text *text, int games, int bad, uint64_t seed)
{
    df_board start;
    df_fen_parse(&start, DF_FEN_START, sizeof DF_FEN_START - 1, DF_FEN_STANDARD, NULL);
    pgngen_text game = {0};
    for (int i = 0; i < games; i++) {
        const uint64_t r = splitmix64_next(&seed);
        const char *v[] = {pick(controls, r),    pick(elos, r >> 8),   pick(elos, r >> 16),
                           pick(dates, r >> 24), pick(dates, r >> 32), pick(titles, r >> 40),
                           pick(titles, r >> 44)};
        static const char *const names[] = {"TimeControl", "WhiteElo",   "BlackElo",  "UTCDate",
                                            "Date",        "WhiteTitle", "BlackTitle"};
        for (size_t k = 0; k < 7; k++)
            if (v[k] && (k != 3 || (r >> 50) % 3 == 0)) /* UTCDate a third of the time */
                cmd_text_putf(text, "[%s \"%s\"]\n", names[k], v[k]);
        if (bad && i % bad == bad - 1) {
            cmd_text_puts(text, "[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n\n");
            continue;
        }
        game.len = 0;
        assert_true(pgngen_game(&game, &seed, &start, false, (uint32_t)(r % 12),
                                PGNGEN_EVALS | PGNGEN_CLOCKS, (uint64_t)i, NULL));
        cmd_text_put(text, game.text, game.len);
    }
    pgngen_text_free(&game);
}

/* ---- --count-by against the reference ---- */

typedef struct {
    char key[256];
    unsigned long games, plies;
} ref_group;

typedef struct {
    ref_group *g;
    size_t n, cap;
} ref_table;

static void ref_add(ref_table *t, const char *key, unsigned long plies)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->g[i].key, key)) {
            t->g[i].games++;
            t->g[i].plies += plies;
            return;
        }
    if (t->n == t->cap) t->g = realloc(t->g, (t->cap = t->cap ? 2 * t->cap : 64) * sizeof *t->g);
    snprintf(t->g[t->n].key, sizeof t->g[t->n].key, "%s", key);
    t->g[t->n].games = 1;
    t->g[t->n++].plies = plies;
}

/* The key of a game: its fields' texts joined by '|'. */
static void key_of(const char *line, const char *fields, char *key, size_t size)
{
    char list[128], text[128];
    snprintf(list, sizeof list, "%s", fields);
    key[0] = '\0';
    for (char *save, *f = strtok_r(list, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
        field_text(line, f, text, sizeof text);
        strncat(key, text, size - strlen(key) - 2);
        strcat(key, "|");
    }
}

/* What --count-by fields --json printed, as a table of the same keys. */
static ref_table program_table(char *out, const char *fields, bool validate)
{
    ref_table t = {NULL, 0, 0};
    lines l = split(out);
    for (size_t i = 0; i < l.n; i++) {
        const size_t len = strlen(l.line[i]);
        assert_true(json_valid(l.line[i], len));
        char list[128], key[256] = "";
        snprintf(list, sizeof list, "%s", fields);
        for (char *save, *f = strtok_r(list, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
            size_t n;
            const char *v = json_find(l.line[i], len, f, &n);
            assert_non_null(v);
            char text[128];
            if (n == 4 && !memcmp(v, "null", 4))
                snprintf(text, sizeof text, "(none)");
            else if (*v == '"')
                snprintf(text, sizeof text, "%.*s", (int)n - 2, v + 1);
            else
                snprintf(text, sizeof text, "%.*s", (int)n, v);
            strcat(key, text);
            strcat(key, "|");
        }
        size_t n;
        const char *games = json_find(l.line[i], len, "games", &n);
        const char *plies = json_find(l.line[i], len, "plies", &n);
        assert_non_null(games);
        assert_true(validate == (plies != NULL));
        for (size_t k = 0; k < t.n; k++) assert_string_not_equal(key, t.g[k].key);
        ref_add(&t, key, 0);
        t.g[t.n - 1].games = strtoul(games, NULL, 10);
        t.g[t.n - 1].plies = plies ? strtoul(plies, NULL, 10) : 0;
    }
    free(l.line);
    return t;
}

static void expect_tables(const char *what, ref_table *want, ref_table *got)
{
    if (want->n != got->n) fail_msg("%s: %zu groups, want %zu", what, got->n, want->n);
    for (size_t i = 0; i < want->n; i++) {
        size_t k = 0;
        while (k < got->n && strcmp(got->g[k].key, want->g[i].key)) k++;
        if (k == got->n) fail_msg("%s: no group %s", what, want->g[i].key);
        if (got->g[k].games != want->g[i].games || got->g[k].plies != want->g[i].plies)
            fail_msg("%s: %s has %lu games %lu plies, want %lu and %lu", what, want->g[i].key,
                     got->g[k].games, got->g[k].plies, want->g[i].games, want->g[i].plies);
    }
}

static unsigned long count_uci(const char *line)
{
    size_t n;
    const char *list = json_find(line, strlen(line), "uci", &n);
    unsigned long plies = 0;
    for (size_t i = 0; list && i < n; i++) plies += list[i] == '"';
    return plies / 2;
}

static void test_count_by_reference(void **state)
{
    (void)state;
    cmd_text text = {0};
    odd_games(&text, 2500, 23, 0xc0de);
    char path[] = "/tmp/dirfill-cli-count-XXXXXX";
    temp_pgn(path, text.text, text.len);
    dft_result headers = run(DFT_ARGS("pgn", "--headers", "--json", "--threads", "1", path));
    assert_int_equal(0, headers.status);
    dft_result full = run(DFT_ARGS("pgn", "--json", "--threads", "1", path));
    assert_int_equal(1, full.status); /* the bad games */
    lines h = split(headers.out), v = split(full.out);
    assert_int_equal(2500, h.n);
    static const char *const lists[] = {"Speed,EloBin",   "Year,Month,Bot",
                                        "TimeControl",    "BaseSeconds,Increment",
                                        "AvgElo,EloDiff", "MinElo,MaxElo,WhiteTitle"};
    for (size_t k = 0; k < sizeof lists / sizeof lists[0]; k++) {
        for (int validate = 0; validate < 2; validate++) {
            ref_table want = {NULL, 0, 0};
            const lines *src = validate ? &v : &h;
            char key[256];
            for (size_t i = 0; i < src->n; i++) {
                if (strstr(src->line[i], "\"error\"")) continue;
                key_of(src->line[i], lists[k], key, sizeof key);
                ref_add(&want, key, validate ? count_uci(src->line[i]) : 0);
            }
            /* Threads 1, 2 and 4 for the first list (Speed,EloBin), 1 and 4 for the others. */
            char *outs[3] = {NULL};
            static const char *const threads[] = {"1", "4", "2"};
            const int nthreads = k ? 2 : 3;
            for (int t = 0; t < nthreads; t++) {
                dft_result r = validate ? run(DFT_ARGS("pgn", "--count-by", lists[k], "--json",
                                                       "--validate", "--threads", threads[t], path))
                                        : run(DFT_ARGS("pgn", "--count-by", lists[k], "--json",
                                                       "--threads", threads[t], path));
                assert_int_equal(validate ? 1 : 0, r.status);
                if (validate)
                    assert_non_null(strstr(r.err, "games with an error were not counted"));
                outs[t] = r.out;
                free(r.err);
                if (t) assert_string_equal(outs[0], outs[t]); /* threads: the same table */
            }
            ref_table got = program_table(outs[0], lists[k], validate);
            char what[96];
            snprintf(what, sizeof what, "--count-by %s%s", lists[k], validate ? " --validate" : "");
            expect_tables(what, &want, &got);
            for (int t = 0; t < nthreads; t++) free(outs[t]);
            free(want.g);
            free(got.g);
        }
    }
    /* --where and --count-by together: the reference on the kept games only. */
    ref_table want = {NULL, 0, 0};
    char key[256], text_value[64];
    for (size_t i = 0; i < h.n; i++) {
        if (!derived(h.line[i], "AvgElo", text_value) || atof(text_value) < 2000) continue;
        key_of(h.line[i], "Speed", key, sizeof key);
        ref_add(&want, key, 0);
    }
    dft_result r =
        run(DFT_ARGS("pgn", "--count-by", "Speed", "--json", "--where", "AvgElo>=2000", path));
    ref_table got = program_table(r.out, "Speed", false);
    expect_tables("--count-by Speed --where AvgElo>=2000", &want, &got);
    dft_done(&r);
    free(want.g);
    free(got.g);
    free(h.line);
    free(v.line);
    dft_done(&headers);
    dft_done(&full);
    unlink(path);
    cmd_text_free(&text);
}

/* --where on derived fields through the program: the games kept are those the reference says. */
static void test_where_derived(void **state)
{
    (void)state;
    cmd_text text = {0};
    odd_games(&text, 600, 0, 0xfee1);
    char path[] = "/tmp/dirfill-cli-derived-XXXXXX";
    temp_pgn(path, text.text, text.len);
    dft_result all = run(DFT_ARGS("pgn", "--headers", "--json", path));
    lines h = split(all.out);
    static const struct {
        const char *expr, *field, *op, *value;
    } exprs[] = {
        {"Speed=bullet", "Speed", "=", "bullet"},
        {"Speed!=blitz", "Speed", "!=", "blitz"},
        {"BaseSeconds<180", "BaseSeconds", "<", "180"},
        {"Increment>=2", "Increment", ">=", "2"},
        {"AvgElo>=2000", "AvgElo", ">=", "2000"},
        {"EloDiff<0", "EloDiff", "<", "0"},
        {"MinElo>1500", "MinElo", ">", "1500"},
        {"MaxElo<=2000", "MaxElo", "<=", "2000"},
        {"EloBin=1800", "EloBin", "=", "1800"},
        {"Year=2024", "Year", "=", "2024"},
        {"Month!=12", "Month", "!=", "12"},
        {"Bot=true", "Bot", "=", "true"},
        {"Bot!=true", "Bot", "!=", "true"},
    };
    for (size_t k = 0; k < sizeof exprs / sizeof exprs[0]; k++) {
        cmd_text want = {0};
        for (size_t i = 0; i < h.n; i++) {
            char value[64];
            const char *x = derived(h.line[i], exprs[k].field, value);
            const char *op = exprs[k].op;
            bool keep;
            if (!x) {
                keep = !strcmp(op, "!=");
            } else if (!strcmp(exprs[k].field, "Speed") || !strcmp(exprs[k].field, "Bot")) {
                keep = !strcmp(x, exprs[k].value) == !strcmp(op, "=");
            } else {
                const double a = atof(x), b = atof(exprs[k].value);
                keep = !strcmp(op, "=")    ? a == b
                       : !strcmp(op, "!=") ? a != b
                       : !strcmp(op, "<")  ? a < b
                       : !strcmp(op, "<=") ? a <= b
                       : !strcmp(op, ">")  ? a > b
                                           : a >= b;
            }
            if (keep)
                cmd_text_putf(&want, "%.*s\n", (int)(strchr(h.line[i], ',') - h.line[i]),
                              h.line[i]);
        }
        dft_result r = run(DFT_ARGS("pgn", "--headers", "--json", "--where", exprs[k].expr, path));
        cmd_text got = {0};
        lines l = split(r.out);
        for (size_t i = 0; i < l.n; i++)
            cmd_text_putf(&got, "%.*s\n", (int)(strchr(l.line[i], ',') - l.line[i]), l.line[i]);
        cmd_text_puts(&want, "");
        cmd_text_puts(&got, "");
        if (strcmp(want.text, got.text))
            fail_msg("--where %s: the games kept differ", exprs[k].expr);
        assert_true(l.n > 0 && l.n < h.n);
        free(l.line);
        dft_done(&r);
        cmd_text_free(&want);
        cmd_text_free(&got);
    }
    free(h.line);
    dft_done(&all);
    unlink(path);
    cmd_text_free(&text);
}

/* The table's order, its (none), alignment, CSV quoting and JSON types, exactly. */
static void test_count_by_table(void **state)
{
    (void)state;
    static const char games[] =
        "[Event \"x, \\\"y\\\"\"]\n[TimeControl \"600+0\"]\n[WhiteElo \"2000\"]\n"
        "[BlackElo \"2100\"]\n\n1. e4 *\n\n"
        "[Event \"b\"]\n[TimeControl \"60+0\"]\n[WhiteElo \"900\"]\n[BlackElo \"1000\"]\n\n1. e4 "
        "*\n\n"
        "[Event \"b\"]\n[TimeControl \"-\"]\n\n*\n\n"
        "[Event \"10\"]\n[TimeControl \"60+0\"]\n[WhiteElo \"?\"]\n[BlackElo \"1000\"]\n\n1. d4 "
        "*\n\n"
        "[Event \"9\"]\n[TimeControl \"180+0\"]\n[WhiteElo \"900\"]\n[BlackElo \"1000\"]\n\n"
        "1. e4 e5 2. Ke3 *\n\n"
        "[TimeControl \"60+0\"]\n[WhiteElo \"1000\"]\n[BlackElo \"900\"]\n\n1. e4 e5 *\n";
    char path[] = "/tmp/dirfill-cli-table-XXXXXX";
    temp_pgn(path, games, sizeof games - 1);
    dft_result r = run(DFT_ARGS("pgn", "--count-by", "Speed,EloBin", path));
    assert_int_equal(0, r.status);
    assert_string_equal("Speed           EloBin  games\n"
                        "bullet             800      2\n"
                        "bullet          (none)      1\n"
                        "blitz              800      1\n"
                        "rapid             2000      1\n"
                        "correspondence  (none)      1\n",
                        r.out);
    dft_done(&r);
    r = run(DFT_ARGS("pgn", "--count-by", "Event", "--csv", path));
    assert_string_equal("Event,games\n9,1\n10,1\nb,2\n\"x, \"\"y\"\"\",1\n,1\n", r.out);
    dft_done(&r);
    r = run(DFT_ARGS("pgn", "--count-by", "Event,Bot,AvgElo", "--json", "--validate", path));
    assert_int_equal(1, r.status); /* the game of Event 9 */
    assert_string_equal("{\"Event\": \"10\", \"Bot\": false, \"AvgElo\": null, \"games\": 1, "
                        "\"plies\": 1}\n"
                        "{\"Event\": \"b\", \"Bot\": false, \"AvgElo\": 950, \"games\": 1, "
                        "\"plies\": 1}\n"
                        "{\"Event\": \"b\", \"Bot\": false, \"AvgElo\": null, \"games\": 1, "
                        "\"plies\": 0}\n"
                        "{\"Event\": \"x, \\\"y\\\"\", \"Bot\": false, \"AvgElo\": 2050, "
                        "\"games\": 1, \"plies\": 1}\n"
                        "{\"Event\": null, \"Bot\": false, \"AvgElo\": 950, \"games\": 1, "
                        "\"plies\": 2}\n",
                        r.out);
    assert_non_null(strstr(r.err, "1 games with an error were not counted"));
    dft_done(&r);
    /* Nothing kept: the header alone, or no line. */
    r = run(DFT_ARGS("pgn", "--count-by", "Speed", "--where", "Event=none", path));
    assert_string_equal("Speed  games\n", r.out);
    dft_done(&r);
    r = run(DFT_ARGS("pgn", "--count-by", "Speed", "--json", "--where", "Event=none", path));
    assert_int_equal(0, r.out_len);
    dft_done(&r);
    /* A key longer than the room kept for one on the stack: a tag value of 3000 bytes. */
    cmd_text longer = {0}, one = {0};
    cmd_text_puts(&one, "[Event \"");
    for (int i = 0; i < 3000; i++) cmd_text_puts(&one, i % 2 ? "y" : "x");
    cmd_text_puts(&one, "\"]\n[Site \"s\"]\n\n1. e4 *\n\n");
    for (int copy = 0; copy < 2; copy++)
        cmd_text_put(&longer, one.text, one.len); /* a group of 2 */
    cmd_text_free(&one);
    char long_path[] = "/tmp/dirfill-cli-long-XXXXXX";
    temp_pgn(long_path, longer.text, longer.len);
    r = run(DFT_ARGS("pgn", "--count-by", "Site,Event,Speed", "--csv", long_path));
    assert_int_equal(0, r.status);
    assert_true(r.out_len == strlen("Site,Event,Speed,games\ns,") + 3000 + strlen(",,2\n"));
    assert_non_null(strstr(r.out, "xyxy"));
    assert_non_null(strstr(r.out, "yxy,,2\n"));
    dft_done(&r);
    unlink(long_path);
    cmd_text_free(&longer);
    /* Several files: one table; a file that cannot be read is said, the rest counted. */
    r = run(DFT_ARGS("pgn", "--count-by", "Speed", "--csv", path, "/nonexistent.pgn", path));
    assert_int_equal(1, r.status);
    assert_string_equal("Speed,games\nbullet,6\nblitz,2\nrapid,2\ncorrespondence,2\n", r.out);
    assert_non_null(strstr(r.err, "cannot open /nonexistent.pgn"));
    dft_done(&r);
    unlink(path);
}

/* ---- per-position filters ---- */

typedef struct {
    unsigned long game, ply;
    bool has_clock, has_eval;
    double clock;
} row;

static row *rows_of(char *out, size_t *n)
{
    lines l = split(out);
    row *rows = calloc(l.n + 1, sizeof *rows);
    for (size_t i = 0; i < l.n; i++) {
        const size_t len = strlen(l.line[i]);
        size_t k;
        const char *v = json_find(l.line[i], len, "game", &k);
        rows[i].game = strtoul(v, NULL, 10);
        rows[i].ply = strtoul(json_find(l.line[i], len, "ply", &k), NULL, 10);
        v = json_find(l.line[i], len, "clock", &k);
        rows[i].has_clock = v != NULL;
        rows[i].clock = v ? atof(v) : 0;
        rows[i].has_eval = json_find(l.line[i], len, "eval", &k) != NULL;
    }
    *n = l.n;
    free(l.line);
    return rows;
}

static void test_position_filters(void **state)
{
    (void)state;
    cmd_text text = {0};
    df_board start;
    df_fen_parse(&start, DF_FEN_START, sizeof DF_FEN_START - 1, DF_FEN_STANDARD, NULL);
    uint64_t seed = 0x9051;
    static const char *const tcs[] = {"[TimeControl \"300+3\"]\n", "[TimeControl \"-\"]\n", "",
                                      "[TimeControl \"7200\"]\n"};
    unsigned long bases[200];
    for (int i = 0; i < 200; i++) {
        cmd_text_puts(&text, tcs[i % 4]);
        bases[i] = i % 4 == 0 ? 300 : i % 4 == 3 ? 7200 : 0;
        assert_true(pgngen_game(&text, &seed, &start, false, 1 + (uint32_t)(i * 7 % 60),
                                PGNGEN_EVALS | PGNGEN_CLOCKS, (uint64_t)i, NULL));
    }
    char path[] = "/tmp/dirfill-cli-positions-XXXXXX";
    temp_pgn(path, text.text, text.len);
    dft_result all = run(DFT_ARGS("pgn", "--json", "--positions", path));
    size_t n;
    row *rows = rows_of(all.out, &n);
    assert_true(n > 2000);
    static const struct {
        const char *args[8];
        unsigned long min_ply, max_ply;
        double min_clock; /* < 0: none */
        bool eval;
    } cases[] = {
        {{"--min-ply", "10"}, 10, ~0ul, -1, false},
        {{"--max-ply", "0"}, 0, 0, -1, false},
        {{"--min-ply", "5", "--max-ply", "20"}, 5, 20, -1, false},
        {{"--min-clock", "3600"}, 0, ~0ul, 3600, false},
        {{"--min-clock", "0"}, 0, ~0ul, 0, false},
        {{"--min-clock", "299.5"}, 0, ~0ul, 299.5, false},
        {{"--require-eval"}, 0, ~0ul, -1, true},
        {{"--require-eval", "--min-clock", "60", "--min-ply", "2", "--max-ply", "40"},
         2,
         40,
         60,
         true},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        /* The reference: row k passes when its ply is in range, its move has an eval when
         * asked, and the clock of move k - 2 of its game (or the base, before) is enough. */
        cmd_text want = {0};
        for (size_t i = 0; i < n; i++) {
            const row *r = &rows[i];
            bool known = r->ply < 2 ? bases[r->game] > 0 : rows[i - 2].has_clock;
            const double clock = r->ply < 2 ? (double)bases[r->game] : rows[i - 2].clock;
            const bool pass = r->ply >= cases[c].min_ply && r->ply <= cases[c].max_ply &&
                              (!cases[c].eval || r->has_eval) &&
                              (cases[c].min_clock < 0 || (known && clock >= cases[c].min_clock));
            if (pass) cmd_text_putf(&want, "%lu/%lu ", r->game, r->ply);
        }
        cmd_text_puts(&want, "");
        char *first = NULL;
        static const char *const threads[] = {"1", "2", "4"};
        for (int t = 0; t < 3; t++) {
            const char *argv[20] = {"pgn", "--json", "--positions", "--threads", threads[t]};
            int k = 5;
            for (int a = 0; cases[c].args[a]; a++) argv[k++] = cases[c].args[a];
            argv[k++] = path;
            argv[k] = NULL;
            dft_result r = run(argv);
            assert_int_equal(0, r.status);
            if (!t) {
                char *copy = strdup(r.out);
                size_t m;
                row *kept = rows_of(copy, &m);
                cmd_text got = {0};
                for (size_t i = 0; i < m; i++)
                    cmd_text_putf(&got, "%lu/%lu ", kept[i].game, kept[i].ply);
                cmd_text_puts(&got, "");
                if (strcmp(want.text, got.text))
                    fail_msg("%s %s: the positions kept differ", cases[c].args[0],
                             cases[c].args[1] ? cases[c].args[1] : "");
                assert_true(m > 0 && (m < n || c == 4));
                free(kept);
                free(copy);
                cmd_text_free(&got);
                first = r.out;
            } else {
                assert_string_equal(first, r.out);
                free(r.out);
            }
            free(r.err);
        }
        free(first);
        cmd_text_free(&want);
    }
    free(rows);
    dft_done(&all);
    unlink(path);
    cmd_text_free(&text);
}

/* ---- options that do not combine, the summary, a binary file, the help ---- */

static void test_combinations(void **state)
{
    (void)state;
    static const struct {
        const char *args[8];
        const char *says; /* the message names the combination */
    } cases[] = {
        {{"--json", "--headers", "--positions"}, "--headers and --positions do not combine"},
        {{"--headers", "--positions"}, "--headers and --positions do not combine"},
        {{"--positions"}, "--positions writes JSON: give --json too"},
        {{"--count-by", "Speed", "--positions", "--json"}, "--count-by and --positions"},
        {{"--count-by", "Speed", "--min-ply", "3"}, "--count-by and --min-ply"},
        {{"--count-by", "Speed", "--require-eval"}, "--count-by and --require-eval"},
        {{"--csv"}, "--csv is the format of --count-by's table"},
        {{"--csv", "--json", "--count-by", "Speed"}, "--csv and --json do not combine"},
        {{"--validate"}, "--validate goes with --count-by"},
        {{"--validate", "--json"}, "--validate goes with --count-by"},
        {{"--validate", "--count-by", "Speed", "--headers"}, "--validate and --headers"},
        {{"--min-ply", "3"}, "--min-ply chooses positions"},
        {{"--json", "--max-ply", "3"}, "--max-ply chooses positions"},
        {{"--min-clock", "30", "--headers"}, "--min-clock chooses positions"},
        {{"--require-eval", "--json"}, "--require-eval chooses positions"},
        {{"--json", "--positions", "--min-ply", "5", "--max-ply", "4"},
         "--min-ply 5 is above --max-ply 4"},
        /* Malformed values and fields. */
        {{"--json", "--positions", "--min-ply", "-1"}, "--min-ply takes a ply"},
        {{"--json", "--positions", "--max-ply", "x"}, "--max-ply takes a ply"},
        {{"--json", "--positions", "--min-clock", "1e3"}, "--min-clock takes seconds"},
        {{"--json", "--positions", "--min-clock", ""}, "--min-clock takes seconds"},
        {{"--count-by", ""}, "an empty field name"},
        {{"--count-by", "Speed,"}, "an empty field name"},
        {{"--count-by", "speed"}, "did you mean 'Speed'?"},
        {{"--count-by", "ELOBIN"}, "did you mean 'EloBin'?"},
        {{"--count-by", "Speed,Speed"}, "'Speed' is named twice"},
        {{"--count-by", "plies"}, "'plies' names a count"},
        {{"--count-by", "White Elo"}, "is no field name"},
        {{"--count-by", "a,b,c,d,e,f,g,h,i"}, "at most 8 fields"},
        {{"--count-by"}, "--count-by"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *argv[12] = {"pgn"};
        int k = 1;
        for (int a = 0; cases[i].args[a]; a++) argv[k++] = cases[i].args[a];
        argv[k++] = "/nonexistent/file.pgn";
        argv[k] = NULL;
        dft_result r = run(argv);
        if (r.status != 2 || r.out_len || !strstr(r.err, cases[i].says) ||
            strstr(r.err, "cannot open"))
            fail_msg("case %zu (%s ...): exit %d, stderr '%s', want '%s'", i, cases[i].args[0],
                     r.status, r.err, cases[i].says);
        dft_done(&r);
    }
    /* What combines: --headers with --count-by (already header speed), --csv with --validate. */
    char path[] = "/tmp/dirfill-cli-combine-XXXXXX";
    temp_pgn(path, small, sizeof small - 1);
    static const char *const fine[][6] = {
        {"--headers", "--count-by", "Speed"},
        {"--count-by", "Speed", "--csv", "--validate"},
        {"--json", "--positions", "--min-ply", "0", "--max-ply", "0"}};
    for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++) {
        const char *argv[10] = {"pgn"};
        int k = 1;
        for (int a = 0; a < 6 && fine[i][a]; a++) argv[k++] = fine[i][a];
        argv[k++] = path;
        argv[k] = NULL;
        dft_result r = run(argv);
        if (r.status) fail_msg("%s ...: exit %d, %s", fine[i][0], r.status, r.err);
        dft_done(&r);
    }
    unlink(path);
}

static void test_summary_and_binary(void **state)
{
    (void)state;
    /* games = kept + filtered + errors + skipped, the words the summary says. */
    static const char games[] =
        "[Event \"kept\"]\n[White \"M\xc3\xbcller\"]\n[Black \"J\xf6rg\"]\n\n1. e4 e5 *\n\n"
        "[Event \"error\"]\n\n1. e4 e5 2. Ke3 *\n\n"
        "[Event \"skipped\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 *\n\n"
        "[Event \"filtered\"]\n\n1. d4 *\n\n"
        "[Event \"kept too\"]\n\n1. c4 c5 2. Nc3 *\n";
    char path[] = "/tmp/dirfill-cli-words-XXXXXX";
    temp_pgn(path, games, sizeof games - 1);
    dft_result r = run(DFT_ARGS("pgn", "--where", "Event!=filtered", path));
    assert_int_equal(1, r.status);
    assert_non_null(
        strstr(r.out, ": 5 games, 2 kept, 1 filtered, 1 errors, 1 skipped, 5 positions,"));
    dft_done(&r);
    r = run(DFT_ARGS("pgn", "--headers", "--where", "Event!=filtered", path));
    assert_int_equal(0, r.status);
    assert_non_null(
        strstr(r.out, ": 5 games, 3 kept, 1 filtered, 0 errors, 1 skipped, 0 positions,"));
    dft_done(&r);
    /* UTF-8 and Latin-1 in tags read as before. */
    r = run(DFT_ARGS("pgn", "--json", "--where", "Event=kept", path));
    assert_int_equal(0, r.status);
    assert_non_null(strstr(r.out, "\"White\": \"M\xc3\xbcller\", \"Black\": \"J\\u00f6rg\""));
    dft_done(&r);
    unlink(path);
    /* A binary file (a gzip stream without its extension, bytes of all values): not PGN text,
     * one error, nothing else. */
    char bin[] = "/tmp/dirfill-cli-binary-XXXXXX";
    unsigned char junk[4096] = {0x1f, 0x8b, 0x08, 0x00};
    uint64_t seed = 7;
    for (size_t i = 4; i < sizeof junk; i++) junk[i] = (unsigned char)splitmix64_next(&seed);
    for (size_t i = 4; i < sizeof junk; i++)
        if (junk[i] == '\n') junk[i] = ' '; /* no line to start a game at */
    temp_pgn(bin, (const char *)junk, sizeof junk);
    r = run(DFT_ARGS("pgn", "--json", bin));
    assert_int_equal(1, r.status);
    assert_non_null(strstr(r.out, "{\"game\": 0, \"error\": \"not PGN text: control byte 0x1f\", "
                                  "\"line\": 1"));
    assert_true(r.out_len && strchr(r.out, '\n') == r.out + r.out_len - 1); /* one object */
    dft_done(&r);
    r = run(DFT_ARGS("pgn", "--headers", bin));
    assert_non_null(
        strstr(r.out, ": 1 games, 0 kept, 0 filtered, 1 errors, 0 skipped, 0 positions,"));
    dft_done(&r);
    unlink(bin);
}

/* The top-level help names each command's main options: those of the command's own first usage
 * line, and for pgn --where, --headers and --count-by. */
static void test_help_lists_options(void **state)
{
    (void)state;
    /* pgn --help prints help and reads nothing, standard input holding a game or not. */
    static const char game[] = "[Event \"a\"]\n\n1. e4 *\n";
    for (int k = 0; k < 2; k++) {
        dft_result r = dft_run(DFT_PROGRAM, k ? DFT_ARGS("help", "pgn") : DFT_ARGS("pgn", "--help"),
                               game, sizeof game - 1, NULL);
        assert_int_equal(0, r.status);
        assert_non_null(strstr(r.out, "usage: dirfill pgn"));
        assert_null(strstr(r.out, " games, "));
        dft_done(&r);
    }
    dft_result top = run(DFT_ARGS("--help"));
    static const char *const commands[] = {"analyze", "moves", "perft", "pgn", "bench"};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        dft_result own = run(DFT_ARGS(commands[i], "--help"));
        assert_int_equal(0, own.status);
        /* The options of its first usage line. */
        const char *end = strchr(own.out, '\n');
        for (const char *p = strstr(own.out, "--"); p && p < end; p = strstr(p + 2, "--")) {
            char option[32];
            size_t n = strspn(p, "-abcdefghijklmnopqrstuvwxyz0123456789");
            snprintf(option, sizeof option, "%.*s", (int)n, p);
            if (!strstr(top.out, option))
                fail_msg("dirfill --help does not name %s %s", commands[i], option);
        }
        dft_done(&own);
    }
    const char *pgn = strstr(top.out, "  pgn ");
    assert_non_null(pgn);
    static const char *const main_options[] = {"--where",     "--headers", "--count-by",
                                               "--positions", "--json",    "--threads"};
    for (size_t i = 0; i < sizeof main_options / sizeof main_options[0]; i++) {
        const char *at = strstr(pgn, main_options[i]);
        if (!at || at > strstr(pgn, "  bench ")) fail_msg("pgn's lines lack %s", main_options[i]);
    }
    dft_done(&top);
}

/* Standard output that is an input: `dirfill pgn --json F > F` finds F emptied by the shell, and
 * `>> F` would read back what it writes. Refused before anything is read or written (exit 2, a
 * message naming the file), for games, --count-by and standard input alike; here the file is
 * opened without truncation, so that a write would show. */
static void test_output_is_input(void **state)
{
    (void)state;
    static const char games[] = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n"
                                "[Event \"b\"]\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n";
    char path[] = "/tmp/dirfill-cli-same-XXXXXX", other[] = "/tmp/dirfill-cli-other-XXXXXX";
    temp_pgn(path, games, sizeof games - 1);
    temp_pgn(other, games, sizeof games - 1);
    const dft_run_setup to_path = {NULL, NULL, path, 0, -1, 0};
    const dft_run_setup in_and_out = {NULL, path, path, 0, -1, 0};
    const struct {
        const char *const *args;
        const dft_run_setup *setup;
        const char *named; /* the input the message names */
    } cases[] = {
        {DFT_ARGS("pgn", "--json", path), &to_path, path},
        {DFT_ARGS("pgn", path), &to_path, path},
        {DFT_ARGS("pgn", "--json", "--threads", "2", other, path), &to_path, path},
        {DFT_ARGS("pgn", "--count-by", "Event", path), &to_path, path},
        {DFT_ARGS("pgn", "--json"), &in_and_out, "standard input"},
        {DFT_ARGS("pgn", "--count-by", "Event", "-"), &in_and_out, "standard input"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        dft_result r = dft_run_with(DFT_PROGRAM, cases[i].args, "", 0, cases[i].setup);
        char want[256];
        snprintf(want, sizeof want,
                 "dirfill pgn: standard output is %s%s (the same file): refusing to write to "
                 "it\n",
                 strcmp(cases[i].named, "standard input") ? "the input " : "", cases[i].named);
        if (r.status != 2 || strcmp(r.err, want))
            fail_msg("case %zu: status %d, stderr '%s'", i, r.status, r.err);
        dft_done(&r);
        char now[sizeof games + 4096];
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        const size_t len = fread(now, 1, sizeof now, f);
        fclose(f);
        if (len != sizeof games - 1 || memcmp(now, games, len))
            fail_msg("case %zu: the input changed (%zu bytes)", i, len);
    }
    /* Standard output to another file is written as ever. */
    const dft_run_setup to_other = {NULL, NULL, other, 0, -1, 0};
    dft_result r = dft_run_with(DFT_PROGRAM, DFT_ARGS("pgn", "--json", path), "", 0, &to_other);
    assert_int_equal(0, r.status);
    dft_done(&r);
    unlink(path);
    unlink(other);
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_where_refusals),     cmocka_unit_test(test_where_derived),
        cmocka_unit_test(test_count_by_reference), cmocka_unit_test(test_count_by_table),
        cmocka_unit_test(test_position_filters),   cmocka_unit_test(test_combinations),
        cmocka_unit_test(test_summary_and_binary), cmocka_unit_test(test_help_lists_options),
        cmocka_unit_test(test_output_is_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
