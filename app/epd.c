/* SPDX-License-Identifier: MIT */
/* dirfill perft --epd: a perft suite, one `FEN ;D1 20 ;D2 400 ...` a line. */
#include <errno.h>
#include <string.h>

#include "app.h"

/* One listed count. A line holds at most CMD_LINE_MAX bytes, and a pair takes at least four
 * (";D1 1"), so EPD_MAX_PAIRS always suffice. */
enum { EPD_MAX_PAIRS = CMD_LINE_MAX / 4 };
typedef struct {
    uint64_t depth; /* as listed: may exceed DF_PERFT_MAX_DEPTH, which is then reported */
    uint64_t expected;
} epd_count;
typedef struct {
    epd_count counts[EPD_MAX_PAIRS];
    int n;
    size_t fen_len;
} epd_entry;

/* A whole number of at most 20 digits that fits in 64 bits, at *p (advanced); false if none. */
static bool parse_u64(const char **p, const char *stop, uint64_t *out)
{
    const char *s = *p;
    uint64_t v = 0;
    while (s < stop && *s >= '0' && *s <= '9') {
        const uint64_t digit = (uint64_t)(*s++ - '0');
        if (v > (UINT64_MAX - digit) / 10) return false;
        v = v * 10 + digit;
    }
    if (s == *p) return false;
    *p = s;
    *out = v;
    return true;
}

static const char *skip_blanks(const char *p, const char *stop)
{
    while (p < stop && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
    return p;
}

/* Splits "FEN ;D1 20 ;D2 400" into the FEN's length and its counts; false with *why set. */
static bool parse_entry(const char *line, size_t len, epd_entry *e, const char **why)
{
    e->n = 0;
    const char *semi = memchr(line, ';', len), *end = line + len;
    e->fen_len = semi ? (size_t)(semi - line) : len;
    while (semi) {
        const char *p = semi + 1;
        semi = memchr(p, ';', (size_t)(end - p));
        const char *stop = semi ? semi : end;
        epd_count c;
        p = skip_blanks(p, stop);
        if (p == stop || *p++ != 'D' || !parse_u64(&p, stop, &c.depth))
            return *why = "expected ;D<depth> <nodes>", false;
        if (c.depth < 1) return *why = "depth 0 listed (depths start at 1)", false;
        p = skip_blanks(p, stop);
        if (!parse_u64(&p, stop, &c.expected) || skip_blanks(p, stop) != stop)
            return *why = "expected ;D<depth> <nodes> with nodes a whole number below 2^64", false;
        for (int i = 0; i < e->n; i++)
            if (e->counts[i].depth == c.depth) return *why = "a depth listed twice", false;
        e->counts[e->n++] = c;
    }
    if (!e->n) return *why = "no ;D<depth> <nodes> counts", false;
    return true;
}

typedef struct {
    long positions, passed, failed, unchecked;
    uint64_t nodes;
} epd_totals;

/* Counts one valid entry's depths up to max_depth and reports it: ok, FAIL (a
 * count differs, or a listed depth is beyond DF_PERFT_MAX_DEPTH, which is said while the other
 * depths are still counted), or skip (no listed depth up to max_depth). */
static void run_entry(const df_board *b, const epd_entry *e, unsigned long max_depth, bool json,
                      epd_totals *t)
{
    char fen[DF_FEN_MAX];
    df_fen_format(fen, sizeof fen, b, DF_FEN_STANDARD);
    bool ok = true;
    int shown = 0;
    const epd_count *bad = NULL, *beyond = NULL;
    uint64_t bad_nodes = 0;
    if (json) {
        fputs("{\"fen\": ", stdout);
        json_string(stdout, fen, strlen(fen));
        fputs(", \"results\": [", stdout);
    }
    for (int i = 0; i < e->n; i++) {
        const epd_count *c = &e->counts[i];
        if (c->depth > max_depth) continue;
        if (c->depth > DF_PERFT_MAX_DEPTH) {
            if (!beyond) beyond = c;
            ok = false;
            if (json)
                printf("%s{\"depth\": %llu, \"expected\": %llu, \"error\": \"beyond the maximum "
                       "depth %d\"}",
                       shown++ ? ", " : "", (unsigned long long)c->depth,
                       (unsigned long long)c->expected, DF_PERFT_MAX_DEPTH);
            continue;
        }
        uint64_t nodes;
        df_perft(&nodes, b, (int)c->depth);
        t->nodes += nodes;
        if (json)
            printf("%s{\"depth\": %llu, \"expected\": %llu, \"nodes\": %llu}", shown ? ", " : "",
                   (unsigned long long)c->depth, (unsigned long long)c->expected,
                   (unsigned long long)nodes);
        shown++;
        if (nodes != c->expected && !bad) {
            ok = false;
            bad = c;
            bad_nodes = nodes;
        }
    }
    const bool checked = shown > 0;
    if (json)
        printf("], \"ok\": %s}\n", !checked ? "null, \"checked\": false" : ok ? "true" : "false");
    else if (!checked)
        printf("skip %s: no listed depth up to %lu\n", fen, max_depth);
    else if (bad)
        printf("FAIL %s depth %llu expected %llu counted %llu\n", fen,
               (unsigned long long)bad->depth, (unsigned long long)bad->expected,
               (unsigned long long)bad_nodes);
    else if (beyond)
        printf("FAIL %s depth %llu is beyond the maximum depth %d (the other depths match)\n", fen,
               (unsigned long long)beyond->depth, DF_PERFT_MAX_DEPTH);
    else
        printf("ok   %s\n", fen);
    if (!checked)
        t->unchecked++;
    else if (ok)
        t->passed++;
    else
        t->failed++;
}

static void bad_line(long number, const char *why, bool json, epd_totals *t)
{
    t->failed++;
    fprintf(stderr, "dirfill perft: line %ld: %s\n", number, why);
    if (json) {
        json_error_line(stdout, why, number);
    } else {
        printf("FAIL line %ld: %s\n", number, why);
    }
}

int perft_suite(const char *path, unsigned long max_depth, df_fen_flags flags, bool json)
{
    FILE *in = fopen(path, "r");
    if (!in) return cmd_input_error("perft", "cannot open %s: %s", path, strerror(errno));
    cmd_lines lines;
    cmd_lines_init(&lines, in);
    epd_totals t = {0, 0, 0, 0, 0};
    const double start = cmd_seconds();
    int got;
    while ((got = cmd_lines_next(&lines)) > 0) {
        size_t i = 0;
        while (i < lines.len && (lines.buf[i] == ' ' || lines.buf[i] == '\t')) i++;
        if (i == lines.len || lines.buf[i] == '#' || lines.buf[i] == '\r') continue;
        t.positions++;
        static epd_entry e;
        const char *why = NULL;
        df_board b;
        df_fen_error err;
        if (lines.too_long) {
            bad_line(lines.number, "line too long", json, &t);
        } else if (!parse_entry(lines.buf, lines.len, &e, &why)) {
            bad_line(lines.number, why, json, &t);
        } else if (df_fen_parse(&b, lines.buf, e.fen_len, flags, &err) != DF_OK) {
            bad_line(lines.number, err.message, json, &t);
        } else if (!df_board_playable(&b)) {
            bad_line(lines.number, unplayable_message(&b), json, &t);
        } else {
            run_entry(&b, &e, max_depth, json, &t);
        }
        if (!json) fflush(stdout);
    }
    const bool read_error = got < 0;
    fclose(in);
    if (read_error) return cmd_input_error("perft", "cannot read %s", path);
    const double seconds = cmd_seconds() - start;
    if (json)
        printf("{\"positions\": %ld, \"passed\": %ld, \"failed\": %ld, \"not_checked\": %ld, "
               "\"nodes\": %llu, \"seconds\": %.3f}\n",
               t.positions, t.passed, t.failed, t.unchecked, (unsigned long long)t.nodes, seconds);
    else
        printf("%ld positions: %ld ok, %ld failed, %ld not checked; %llu nodes in %.3f s\n",
               t.positions, t.passed, t.failed, t.unchecked, (unsigned long long)t.nodes, seconds);
    return t.failed ? EXIT_BAD_INPUT : 0;
}
