/* SPDX-License-Identifier: MIT */
/* dirfill perft: leaf counts of the legal move tree, timed; or a perft suite (epd.c). */
#include <stdlib.h>
#include <string.h>

#include "app.h"

/* The help text names the library's maximum depth. */
#define STR_(x) #x
#define STR(x)  STR_(x)
/* The help text is laid out as printed. */
/* clang-format off */
static const char help[] =
    "usage: dirfill perft [--json] [--divide] [--chess960] --depth N [--fen FEN]\n"
    "       dirfill perft [--json] [--chess960] --epd FILE [--depth N]\n"
    "\n"
    "Counts the leaf nodes of the legal move tree to depth N (0 to " STR(DF_PERFT_MAX_DEPTH) ", the\n"
    "library's maximum) from FEN (default: the start position), with the library's legal move\n"
    "generator. The last line of plain output is the node count.\n"
    "  --divide     first one line per root move: e2e4: 20\n"
    "  --json       {\"fen\", \"depth\", \"nodes\", \"seconds\", \"nps\"}\n"
    "  --chess960   Chess960 castling (Shredder-FEN or X-FEN castling fields)\n"
    "  --epd FILE   a perft suite, one `FEN ;D1 20 ;D2 400 ...` a line: every listed depth up to\n"
    "               --depth (default: all) is counted and compared; a listed depth beyond the\n"
    "               maximum is reported (the entry fails) while the others are still counted;\n"
    "               an entry with no depth up to --depth is reported as not checked;\n"
    "               exit 1 on any mismatch or bad line\n"
    "Positions whose side not to move is in check have no legal move tree: exit 1.\n";
/* clang-format on */

typedef struct {
    char uci[DF_UCI_MAX];
    uint64_t nodes;
} root_move;

static int by_uci(const void *a, const void *b)
{
    return strcmp(((const root_move *)a)->uci, ((const root_move *)b)->uci);
}

/* The root moves and their subtrees, sorted by UCI; returns their number. */
static uint32_t divide(const df_board *b, int depth, root_move roots[DF_MAX_MOVES], uint64_t *nodes)
{
    df_move_list list;
    df_generate_legal(&list, b);
    *nodes = 0;
    for (uint32_t i = 0; i < list.count; i++) {
        df_board child;
        df_make_move(&child, b, list.moves[i]);
        df_move_to_uci(roots[i].uci, b, list.moves[i]);
        df_perft(&roots[i].nodes, &child, depth - 1);
        *nodes += roots[i].nodes;
    }
    qsort(roots, list.count, sizeof roots[0], by_uci);
    return list.count;
}

static void print_result(const df_board *b, int depth, bool json, const root_move *roots,
                         uint32_t nroots, bool divided, uint64_t nodes, double seconds)
{
    const double nps = seconds > 0 ? (double)nodes / seconds : 0;
    char fen[DF_FEN_MAX];
    df_fen_format(fen, sizeof fen, b, DF_FEN_STANDARD);
    if (json) {
        fputs("{\"fen\": ", stdout);
        json_string(stdout, fen, strlen(fen));
        printf(", \"depth\": %d, \"nodes\": %llu, \"seconds\": %.6f, \"nps\": %.0f", depth,
               (unsigned long long)nodes, seconds, nps);
        if (divided) {
            fputs(", \"divide\": {", stdout);
            for (uint32_t i = 0; i < nroots; i++)
                printf("%s\"%s\": %llu", i ? ", " : "", roots[i].uci,
                       (unsigned long long)roots[i].nodes);
            fputc('}', stdout);
        }
        fputs("}\n", stdout);
        return;
    }
    for (uint32_t i = 0; i < nroots; i++)
        printf("%s: %llu\n", roots[i].uci, (unsigned long long)roots[i].nodes);
    if (divided) putchar('\n');
    fprintf(stderr, "%.3f s, %.1f million nodes/s, backend %s\n", seconds, nps / 1e6,
            df_backend_name());
    printf("%llu\n", (unsigned long long)nodes);
}

static int perft_error(bool json, const char *fen, const char *message)
{
    fprintf(stderr, "dirfill perft: %s\n", message);
    if (json) json_error_input(stdout, message, fen, strlen(fen), NULL);
    return EXIT_BAD_INPUT;
}

int cmd_perft(int argc, char **argv, const char *backend)
{
    (void)backend;
    bool json = false, divided = false;
    df_fen_flags flags = DF_FEN_STANDARD;
    const char *fen = NULL, *depth_text = NULL, *epd = NULL;
    for (int i = 0; i < argc; i++) {
        int got = cmd_value("perft", argc, argv, &i, "--fen", &fen);
        if (!got) got = cmd_value("perft", argc, argv, &i, "--depth", &depth_text);
        if (!got) got = cmd_value("perft", argc, argv, &i, "--epd", &epd);
        if (got < 0) return -got;
        if (got) continue;
        if (cmd_is(argv[i], "--json"))
            json = true;
        else if (cmd_is(argv[i], "--divide"))
            divided = true;
        else if (cmd_is(argv[i], "--chess960"))
            flags = DF_FEN_CHESS960;
        else
            return cmd_help_or_unknown("perft", argv[i], help);
    }
    unsigned long depth = 0;
    if (depth_text && !cmd_parse_count(depth_text, 0, DF_PERFT_MAX_DEPTH, &depth))
        return cmd_usage_error("perft", "--depth takes a whole number from 0 to %d, not '%s'",
                               DF_PERFT_MAX_DEPTH, depth_text);
    if (epd) {
        if (fen || divided)
            return cmd_usage_error("perft", "--epd runs a suite: no --fen or --divide with it");
        const int same = cmd_check_output("perft", NULL, NULL, &epd, 1);
        if (same) return same;
        return perft_suite(epd, depth_text ? depth : PERFT_ALL_DEPTHS, flags, json);
    }
    if (!depth_text) return cmd_usage_error("perft", "--depth N is required");
    if (!fen) fen = DF_FEN_START;

    df_board b;
    df_fen_error err;
    if (df_fen_parse(&b, fen, strlen(fen), flags, &err) != DF_OK) {
        char message[160];
        snprintf(message, sizeof message, "bad FEN: %s", err.message);
        return perft_error(json, fen, message);
    }
    if (!df_board_playable(&b)) return perft_error(json, fen, unplayable_message(&b));

    static root_move roots[DF_MAX_MOVES];
    uint32_t nroots = 0;
    uint64_t nodes;
    const double start = cmd_seconds();
    if (divided && depth > 0)
        nroots = divide(&b, (int)depth, roots, &nodes);
    else
        df_perft(&nodes, &b, (int)depth);
    print_result(&b, (int)depth, json, roots, nroots, divided, nodes, cmd_seconds() - start);
    return 0;
}
