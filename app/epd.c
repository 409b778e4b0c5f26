/* dirfill perft --epd: a perft suite, one `FEN ;D1 20 ;D2 400 ...` a line. */
#include <errno.h>
#include <string.h>

#include "app.h"

/* Depths of one entry: counts[d] (0 where not listed). */
#define EPD_MAX_DEPTH 20
typedef struct {
    uint64_t expected[EPD_MAX_DEPTH + 1];
    bool listed[EPD_MAX_DEPTH + 1];
    size_t fen_len;
} epd_entry;

/* Splits "FEN ;D1 20 ;D2 400" into the FEN's length and its counts; false with *why set. */
static bool parse_entry(const char *line, size_t len, epd_entry *e, const char **why)
{
    memset(e, 0, sizeof *e);
    const char *semi = memchr(line, ';', len);
    e->fen_len = semi ? (size_t)(semi - line) : len;
    int any = 0;
    while (semi) {
        const char *p = semi + 1, *end = line + len;
        semi = memchr(p, ';', (size_t)(end - p));
        const char *stop = semi ? semi : end;
        while (p < stop && (*p == ' ' || *p == '\t')) p++;
        unsigned long depth = 0;
        uint64_t nodes = 0;
        int digits = 0;
        if (p == stop || *p++ != 'D') return *why = "expected ;D<depth> <nodes>", false;
        while (p < stop && *p >= '0' && *p <= '9' && depth <= EPD_MAX_DEPTH)
            depth = depth * 10 + (unsigned long)(*p++ - '0');
        if (depth < 1 || depth > EPD_MAX_DEPTH) return *why = "depth not from 1 to 20", false;
        while (p < stop && (*p == ' ' || *p == '\t')) p++;
        while (p < stop && *p >= '0' && *p <= '9' && digits < 19) {
            nodes = nodes * 10 + (uint64_t)(*p++ - '0');
            digits++;
        }
        while (p < stop && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
        if (!digits || p != stop) return *why = "expected ;D<depth> <nodes>", false;
        if (e->listed[depth]) return *why = "a depth listed twice", false;
        e->listed[depth] = true;
        e->expected[depth] = nodes;
        any++;
    }
    if (!any) return *why = "no ;D<depth> <nodes> counts", false;
    return true;
}

typedef struct {
    long positions, passed, failed;
    uint64_t nodes;
} epd_totals;

/* Counts one valid entry's depths and reports it; returns whether all matched. */
static bool run_entry(const df_board *b, const epd_entry *e, unsigned long max_depth, bool json,
                      epd_totals *t)
{
    char fen[DF_FEN_MAX];
    df_fen_format(fen, sizeof fen, b, DF_FEN_STANDARD);
    bool ok = true;
    int bad_depth = 0;
    uint64_t bad_nodes = 0;
    if (json) {
        fputs("{\"fen\": ", stdout);
        json_string(stdout, fen, strlen(fen));
        fputs(", \"results\": [", stdout);
    }
    int shown = 0;
    for (int d = 1; d <= EPD_MAX_DEPTH; d++) {
        if (!e->listed[d] || (max_depth && (unsigned long)d > max_depth)) continue;
        uint64_t nodes;
        df_perft(&nodes, b, d);
        t->nodes += nodes;
        if (json)
            printf("%s{\"depth\": %d, \"expected\": %llu, \"nodes\": %llu}", shown++ ? ", " : "", d,
                   (unsigned long long)e->expected[d], (unsigned long long)nodes);
        if (nodes != e->expected[d] && ok) {
            ok = false;
            bad_depth = d;
            bad_nodes = nodes;
        }
    }
    if (json)
        printf("], \"ok\": %s}\n", ok ? "true" : "false");
    else if (ok)
        printf("ok   %s\n", fen);
    else
        printf("FAIL %s depth %d expected %llu counted %llu\n", fen, bad_depth,
               (unsigned long long)e->expected[bad_depth], (unsigned long long)bad_nodes);
    return ok;
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
    epd_totals t = {0, 0, 0, 0};
    const double start = cmd_seconds();
    int got;
    while ((got = cmd_lines_next(&lines)) > 0) {
        size_t i = 0;
        while (i < lines.len && (lines.buf[i] == ' ' || lines.buf[i] == '\t')) i++;
        if (i == lines.len || lines.buf[i] == '#' || lines.buf[i] == '\r') continue;
        t.positions++;
        epd_entry e;
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
        } else if (run_entry(&b, &e, max_depth, json, &t)) {
            t.passed++;
        } else {
            t.failed++;
        }
        if (!json) fflush(stdout);
    }
    const bool read_error = got < 0;
    fclose(in);
    if (read_error) return cmd_input_error("perft", "cannot read %s", path);
    const double seconds = cmd_seconds() - start;
    if (json)
        printf("{\"positions\": %ld, \"passed\": %ld, \"failed\": %ld, \"nodes\": %llu, "
               "\"seconds\": %.3f}\n",
               t.positions, t.passed, t.failed, (unsigned long long)t.nodes, seconds);
    else
        printf("%ld positions: %ld ok, %ld failed; %llu nodes in %.3f s\n", t.positions, t.passed,
               t.failed, (unsigned long long)t.nodes, seconds);
    return t.failed ? EXIT_BAD_INPUT : 0;
}
