/* dirfill perft: leaf counts of the legal move tree, timed. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "movegen.h"

static const char help[] =
    "usage: dirfill perft [--json] [--divide] --depth N [--fen FEN]\n"
    "\n"
    "Counts the leaf nodes of the legal move tree to depth N (0..20) from FEN (default: the\n"
    "start position). The last line of plain output is the node count.\n"
    "  --divide   first one line per root move: e2e4: 20\n"
    "  --json     {\"fen\", \"depth\", \"nodes\", \"seconds\", \"nps\"}\n";

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct {
    char uci[6];
    uint64_t nodes;
} root_move;

static int by_uci(const void *a, const void *b)
{
    return strcmp(((const root_move *)a)->uci, ((const root_move *)b)->uci);
}

int cmd_perft(int argc, char **argv)
{
    bool json = false, divide = false;
    const char *fen = DF_FEN_START, *depth_text = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (is_opt(a, "--json"))
            json = true;
        else if (is_opt(a, "--divide"))
            divide = true;
        else if (is_opt(a, "--fen") || is_opt(a, "--depth")) {
            if (i + 1 >= argc) return usage_error("perft", "%s needs a value", a);
            *(is_opt(a, "--fen") ? &fen : &depth_text) = argv[++i];
        } else if (strncmp(a, "--fen=", 6) == 0)
            fen = a + 6;
        else if (strncmp(a, "--depth=", 8) == 0)
            depth_text = a + 8;
        else if (is_opt(a, "--help") || is_opt(a, "-h")) {
            fputs(help, stdout);
            return 0;
        } else
            return usage_error("perft", "unknown argument '%s' (see dirfill perft --help)", a);
    }
    if (!depth_text) return usage_error("perft", "--depth N is required");
    char *end;
    errno = 0;
    long depth = strtol(depth_text, &end, 10);
    if (errno || end == depth_text || *end || depth < 0 || depth > 20)
        return usage_error("perft", "--depth takes a whole number from 0 to 20, not '%s'",
                           depth_text);

    df_board b;
    df_fen_error err;
    if (df_fen_parse(&b, fen, strlen(fen), &err) != DF_OK) {
        fprintf(stderr, "dirfill perft: bad FEN: %s\n", err.message);
        return EXIT_BAD_INPUT;
    }

    double start = now();
    uint64_t nodes = 0;
    mg_list list;
    root_move roots[MG_MAX_MOVES];
    int nroots = 0;
    if (divide && depth > 0) {
        mg_generate(&b, &list);
        for (int i = 0; i < list.count; i++) {
            df_board child = b;
            mg_make(&child, list.moves[i]);
            mg_uci(list.moves[i], roots[nroots].uci);
            roots[nroots].nodes = mg_perft(&child, (int)depth - 1);
            nodes += roots[nroots++].nodes;
        }
        qsort(roots, (size_t)nroots, sizeof roots[0], by_uci);
    } else {
        nodes = mg_perft(&b, (int)depth);
    }
    double seconds = now() - start;
    double nps = seconds > 0 ? (double)nodes / seconds : 0;

    char normalized[DF_FEN_MAX];
    df_fen_format(&b, normalized, sizeof normalized);
    if (json) {
        fputs("{\"fen\": ", stdout);
        json_string(stdout, normalized, strlen(normalized));
        printf(", \"depth\": %ld, \"nodes\": %llu, \"seconds\": %.6f, \"nps\": %.0f", depth,
               (unsigned long long)nodes, seconds, nps);
        if (divide) {
            fputs(", \"divide\": {", stdout);
            for (int i = 0; i < nroots; i++)
                printf("%s\"%s\": %llu", i ? ", " : "", roots[i].uci,
                       (unsigned long long)roots[i].nodes);
            fputc('}', stdout);
        }
        fputs("}\n", stdout);
    } else {
        for (int i = 0; i < nroots; i++)
            printf("%s: %llu\n", roots[i].uci, (unsigned long long)roots[i].nodes);
        if (divide) putchar('\n');
        fprintf(stderr, "%.3f s, %.1f million nodes/s, backend %s\n", seconds, nps / 1e6,
                df_backend_name());
        printf("%llu\n", (unsigned long long)nodes);
    }
    return 0;
}
