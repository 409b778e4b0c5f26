/* SPDX-License-Identifier: MIT */
/* dirfill analyze: the contract's JSON Lines, or diagrams for people. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"

static const char help[] =
    "usage: dirfill analyze [--json] [--fen FEN]\n"
    "       dirfill analyze --svg FILE [--show LIST] --fen FEN\n"
    "\n"
    "With --fen, one position; otherwise FENs from standard input, one a line (blank lines\n"
    "and lines starting with # are skipped), one result per line in input order.\n"
    "  --json       one JSON object per line (keys: docs/cli.md)\n"
    "  --svg FILE   also draw the position into FILE (SVG), with the overlays of --show\n"
    "  --show LIST  comma-separated: counts, twice, rays, xrays (each alone, or .white /\n"
    "               .black, and for rays and xrays a direction: rays.white.N), pins,\n"
    "               checkers, check_block, discoverers\n"
    "Bad FENs: a message on stderr (and with --json an {\"error\", \"input\"} object); the\n"
    "other lines are still analysed; exit status 1. Positions that no game reaches (the side\n"
    "not to move in check, nine pawns) are analysed like any other.\n";

typedef struct {
    df_board b;
    df_attack_map map[2];
    df_king_safety_sets ks;
    char fen[DF_FEN_MAX];
} analysis;

static void analyse(analysis *a)
{
    df_attack_maps(a->map, &a->b);
    df_king_safety(&a->ks, &a->b);
    df_fen_format(a->fen, sizeof a->fen, &a->b, DF_FEN_STANDARD);
}

static void json_key_bb(FILE *out, const char *key, df_bb bb, bool comma)
{
    fprintf(out, "%s\"%s\": ", comma ? ", " : "", key);
    json_bb(out, bb);
}

/* A side's sets in df_attack_map_set's order; "rays.N" and the like go into nested objects. */
static void json_side(FILE *out, const df_attack_map *m)
{
    fputc('{', out);
    const char *group = NULL;
    size_t group_len = 0;
    for (int i = 0; i < DF_ATTACK_MAP_SETS; i++) {
        const char *name = df_attack_map_set_name(i), *dot = strchr(name, '.');
        const size_t len = dot ? (size_t)(dot - name) : 0;
        const bool same_group = group && dot && len == group_len && !strncmp(name, group, len);
        if (group && !same_group) fputc('}', out);
        if (dot && !same_group) fprintf(out, "%s\"%.*s\": {", i ? ", " : "", (int)len, name);
        json_key_bb(out, dot ? dot + 1 : name, df_attack_map_set(m, i),
                    i > 0 && !(dot && !same_group));
        group = dot ? name : NULL;
        group_len = len;
    }
    if (group) fputc('}', out);
    fputc('}', out);
}

static void print_json(FILE *out, const analysis *a)
{
    fputs("{\"fen\": ", out);
    json_string(out, a->fen, strlen(a->fen));
    fprintf(out, ", \"backend\": \"%s\", \"stm\": \"%c\", \"white\": ", df_backend_name(),
            a->b.stm ? 'b' : 'w');
    json_side(out, &a->map[DF_WHITE]);
    fputs(", \"black\": ", out);
    json_side(out, &a->map[DF_BLACK]);
    json_key_bb(out, "checkers", a->ks.checkers, true);
    json_key_bb(out, "pinned", a->ks.pinned, true);
    json_key_bb(out, "pinners", a->ks.pinners, true);
    json_key_bb(out, "check_block", a->ks.check_block, true);
    json_key_bb(out, "discoverers", a->ks.discoverers, true);
    fputs("}\n", out);
}

/* One row of labelled 8x8 diagrams side by side, like the seeds' diagrams. With a board,
 * the first diagram shows its pieces instead of a set. */
typedef struct {
    const char *title;
    df_bb set;
} diagram;

static void print_row(FILE *out, const df_board *b, const diagram *d, int n)
{
    for (int i = 0; i < n; i++) fprintf(out, "  %-20s", d[i].title);
    fputc('\n', out);
    for (int rank = 7; rank >= 0; rank--) {
        for (int i = 0; i < n; i++) {
            fprintf(out, "%d ", rank + 1);
            for (int file = 0; file < 8; file++) {
                const df_square sq = df_make_square(file, rank);
                char c = df_has(d[i].set, sq) ? 'x' : '.';
                if (b && i == 0) {
                    const df_piece_type t = df_board_type_at(b, sq);
                    c = t < DF_PIECE_TYPES ? "PNBRQKpnbrqk"[t + 6 * df_has(b->color[DF_BLACK], sq)]
                                           : '.';
                }
                fprintf(out, "%c ", c);
            }
            fputs("    ", out);
        }
        fputc('\n', out);
    }
    for (int i = 0; i < n; i++) fputs("  a b c d e f g h     ", out);
    fputs("\n\n", out);
}

static void print_people(FILE *out, const analysis *a)
{
    const df_attack_map *w = &a->map[DF_WHITE], *k = &a->map[DF_BLACK];
    fprintf(out, "fen: %s\nbackend: %s, %s to move, %d checker(s)\n\n", a->fen, df_backend_name(),
            a->b.stm ? "black" : "white", df_popcount(a->ks.checkers));
    const diagram row1[] = {{"position", 0},
                            {"white attacks", w->all},
                            {"black attacks", k->all},
                            {"white attacks twice", w->twice},
                            {"black attacks twice", k->twice}};
    const diagram row2[] = {{"checkers", a->ks.checkers},
                            {"pinned", a->ks.pinned},
                            {"pinners", a->ks.pinners},
                            {"check block", a->ks.check_block},
                            {"discoverers", a->ks.discoverers}};
    print_row(out, &a->b, row1, 5);
    print_row(out, NULL, row2, 5);
}

static void analyze_one(const df_board *b, void *ctx)
{
    analysis a;
    a.b = *b;
    analyse(&a);
    if (*(const bool *)ctx)
        print_json(stdout, &a);
    else
        print_people(stdout, &a);
}

/* Draws the position into path with the overlays named in show (NULL: none). */
static int write_svg(const char *path, const char *fen, const char *show)
{
    df_board b;
    df_fen_error err;
    if (df_fen_parse(&b, fen, strlen(fen), DF_FEN_STANDARD, &err) != DF_OK) return 0; /* said */
    df_svg_options o = {0};
    size_t bad = 0;
    if (show && df_svg_parse_overlays(&o, show, strlen(show), &bad) != DF_OK)
        return cmd_usage_error("analyze", "--show: unknown overlay at '%s' (see --help)",
                               show + bad);
    const size_t len = df_svg_write(NULL, 0, &b, &o);
    char *svg = malloc(len + 1);
    if (!svg) return cmd_input_error("analyze", "out of memory");
    df_svg_write(svg, len + 1, &b, &o);
    /* Renamed into place when whole: a failure leaves the old picture, not a part. */
    cmd_output out;
    FILE *f = cmd_output_open(&out, path);
    if (f) fwrite(svg, 1, len, f);
    const bool ok = f && cmd_output_close(&out);
    free(svg);
    if (!ok) return cmd_input_error("analyze", "cannot write %s: %s", path, strerror(errno));
    return 0;
}

int cmd_analyze(int argc, char **argv, const char *backend)
{
    (void)backend;
    bool json = false;
    const char *fen = NULL, *svg = NULL, *show = NULL;
    for (int i = 0; i < argc; i++) {
        int got = cmd_value("analyze", argc, argv, &i, "--fen", &fen);
        if (!got) got = cmd_value("analyze", argc, argv, &i, "--svg", &svg);
        if (!got) got = cmd_value("analyze", argc, argv, &i, "--show", &show);
        if (got < 0) return -got;
        if (got) continue;
        if (cmd_is(argv[i], "--json"))
            json = true;
        else
            return cmd_help_or_unknown("analyze", argv[i], help);
    }
    if ((svg || show) && !fen)
        return cmd_usage_error("analyze", "--svg draws one position: give it with --fen");
    if (show && !svg) return cmd_usage_error("analyze", "--show needs --svg FILE");
    if (svg) {
        df_svg_options o = {0};
        size_t bad = 0;
        if (show && df_svg_parse_overlays(&o, show, strlen(show), &bad) != DF_OK)
            return cmd_usage_error("analyze", "--show: unknown overlay at '%s' (see --help)",
                                   show + bad);
    }
    const position_loop loop = {"analyze", json, DF_FEN_STANDARD, false, analyze_one, &json};
    const int status = run_positions(&loop, fen);
    if (status || !svg) return status;
    return write_svg(svg, fen, show);
}
