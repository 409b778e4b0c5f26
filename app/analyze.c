/* dirfill analyze: the contract's JSON Lines, or diagrams for people. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char help[] =
    "usage: dirfill analyze [--json] [--fen FEN]\n"
    "\n"
    "With --fen, one position; otherwise FENs from standard input, one a line (blank lines\n"
    "and lines starting with # are skipped), one result per line in input order.\n"
    "  --json   one JSON object per line (keys: see CLI-CONTRACT.md)\n"
    "Bad FENs: a message on stderr (and with --json an {\"error\", \"input\"} object); the\n"
    "other lines are still analysed; exit status 1.\n";

typedef struct {
    df_board b;
    df_attack_map map[2];
    df_pins_checks ks;
    char fen[DF_FEN_MAX];
} analysis;

static void analyse(analysis *a)
{
    df_attack_maps(a->map, &a->b);
    df_king_safety(&a->ks, &a->b);
    df_fen_format(&a->b, a->fen, sizeof a->fen);
}

static void json_key_bb(FILE *out, const char *key, df_bb bb, bool comma)
{
    fprintf(out, "%s\"%s\": ", comma ? ", " : "", key);
    json_bb(out, bb);
}

static void json_rays(FILE *out, const char *key, const df_rays *r)
{
    fprintf(out, ", \"%s\": {", key);
    for (int i = 0; i < 8; i++) json_key_bb(out, dir_names[i], r->r[dir_order[i]], i > 0);
    fputc('}', out);
}

static void json_side(FILE *out, const df_attack_map *m)
{
    static const char *const kinds[DF_ATK_KINDS] = {"pawn_east", "pawn_west", "knight", "bishop",
                                                    "rook",      "queen",     "king"};
    fputc('{', out);
    for (int k = 0; k < DF_ATK_KINDS; k++) json_key_bb(out, kinds[k], m->by_type[k], k > 0);
    json_rays(out, "rays", &m->rays);
    json_rays(out, "xrays", &m->xrays);
    json_key_bb(out, "all", m->all, true);
    json_key_bb(out, "twice", m->twice, true);
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
                int sq = df_make_square(file, rank);
                char c = (d[i].set >> sq) & 1 ? 'x' : '.';
                if (b && i == 0) {
                    int t = df_board_type_at(b, sq);
                    c = t < DF_PIECE_TYPES
                            ? "PNBRQKpnbrqk"[t + 6 * (int)((b->color[DF_BLACK] >> sq) & 1)]
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

/* Returns 0, or 1 for a bad FEN (reported as the contract says). */
static int analyze_text(const char *text, size_t len, bool json, bool from_option, long line)
{
    analysis a;
    df_fen_error err;
    if (df_fen_parse(&a.b, text, len, &err) != DF_OK) {
        if (from_option)
            fprintf(stderr, "dirfill analyze: bad FEN: %s\n", err.message);
        else
            fprintf(stderr, "dirfill analyze: line %ld: bad FEN: %s\n", line, err.message);
        if (json) {
            fputs("{\"error\": ", stdout);
            json_string(stdout, err.message, strlen(err.message));
            fputs(", \"input\": ", stdout);
            json_string(stdout, text, len);
            fputs("}\n", stdout);
        }
        return EXIT_BAD_INPUT;
    }
    analyse(&a);
    if (json)
        print_json(stdout, &a);
    else
        print_people(stdout, &a);
    return 0;
}

static bool skipped(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) i++;
    return i == len || s[i] == '#';
}

int cmd_analyze(int argc, char **argv)
{
    bool json = false;
    const char *fen = NULL;
    for (int i = 0; i < argc; i++) {
        if (is_opt(argv[i], "--json"))
            json = true;
        else if (is_opt(argv[i], "--fen")) {
            if (i + 1 >= argc) return usage_error("analyze", "--fen needs a value");
            fen = argv[++i];
        } else if (strncmp(argv[i], "--fen=", 6) == 0)
            fen = argv[i] + 6;
        else if (is_opt(argv[i], "--help") || is_opt(argv[i], "-h")) {
            fputs(help, stdout);
            return 0;
        } else
            return usage_error("analyze", "unknown argument '%s' (see dirfill analyze --help)",
                               argv[i]);
    }
    if (fen) return analyze_text(fen, strlen(fen), json, true, 0);

    int status = 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    long number = 0;
    while ((n = getline(&line, &cap, stdin)) >= 0) {
        number++;
        size_t len = (size_t)n;
        if (len && line[len - 1] == '\n') len--;
        if (skipped(line, len)) continue;
        status |= analyze_text(line, len, json, false, number);
        if (!json) fflush(stdout);
    }
    free(line);
    return status;
}
