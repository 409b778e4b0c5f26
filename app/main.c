/* SPDX-License-Identifier: MIT */
/* dirfill: analyze positions, list moves, run perft, benchmark the backends (docs/cli.md). */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "bench_main.h"

/* The commands: name, synopsis lines (as `dirfill <command> --help` starts), what it does. */
typedef struct {
    const char *name, *synopsis, *summary;
    int (*run)(int argc, char **argv, const char *backend);
} command;

static const command commands[] = {
    {"analyze", "analyze [--json] [--fen FEN] [--svg FILE [--show LIST]]",
     "attack maps, pins and checks (FENs on stdin without --fen)", cmd_analyze},
    {"moves", "moves [--json] [--chess960] [--fen FEN]",
     "legal moves with SAN, SEE, check and the Polyglot key", cmd_moves},
    {"perft",
     "perft [--json] [--divide] [--chess960] --depth N [--fen FEN]\n"
     "  perft [--json] [--chess960] --epd FILE [--depth N]",
     "count leaf nodes of the legal move tree, or a perft suite", cmd_perft},
    {"pgn",
     "pgn [--json] [--positions | --headers] [--where EXPR]... [--chess960] [--threads N]\n"
     "        [FILE...]\n"
     "  pgn --count-by FIELD[,FIELD...] [--csv | --json] [--validate] [--where EXPR]...\n"
     "        [FILE...]",
     "read PGN games (.zst and .gz too), check and play every move; JSON Lines of games or\n"
     "      positions (--min-ply, --max-ply, --min-clock, --require-eval), or counts per field",
     cmd_pgn},
    {"nnue",
     "nnue [--features SET] [--threads N] [--json] [--no-eval-ok] FILE...\n"
     "  nnue --fens [--features SET] --json\n"
     "  nnue --write OUT.binpack FILE...",
     "NNUE training data (.binpack .plain .bin PGN) and its feature indices", cmd_nnue},
    {"bench", "bench [--json] [--svg FILE] [--quick] [--op LIST] [--cpu N] [--positions N]",
     "time the backends against classic per-piece methods", bench_main},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void print_usage(FILE *out)
{
    fputs("usage: dirfill [--backend NAME] <command> [options]\n\n"
          "SIMD direction-wise fills for chess bitboards.\n\ncommands:\n",
          out);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %s\n      %s\n", commands[i].synopsis, commands[i].summary);
    fprintf(out,
            "\nglobal options (before or after the command):\n"
            "  --backend NAME   %s, or auto (the default: the best this CPU\n"
            "                   runs); also the environment variable DIRFILL_BACKEND (the\n"
            "                   option wins)\n"
            "  --help           this text; `dirfill <command> --help` (or `dirfill help\n"
            "                   <command>`) for a command\n"
            "  --version        the version\n\n"
            "exit status: 0 success, 1 bad input or an output error, 2 usage error or unusable "
            "backend\nThe output contract: docs/cli.md.\n",
            cmd_backend_list());
}

/* Splits argv into the command and its arguments, taking out the global options. Returns
 * -1 to go on, or the exit status (help, version, usage errors). */
static int parse_globals(int argc, char **argv, const char **cmd, char **rest, int *nrest,
                         const char **backend, const char **source)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *value;
        const int got = cmd_value(NULL, argc, argv, &i, "--backend", &value);
        if (got < 0) return -got;
        if (got) {
            *backend = value;
            *source = "--backend";
        } else if (*cmd) {
            rest[(*nrest)++] = argv[i];
        } else if (cmd_is(a, "--help") || cmd_is(a, "-h")) {
            print_usage(stdout);
            return 0;
        } else if (cmd_is(a, "--version")) {
            printf("dirfill %s\n", df_version());
            return 0;
        } else if (a[0] == '-') {
            return cmd_usage_error(NULL, "unknown option '%s' (see dirfill --help)", a);
        } else {
            *cmd = a;
        }
    }
    if (!*cmd) {
        print_usage(stderr);
        return EXIT_USAGE;
    }
    return -1;
}

static int run_command(const char *cmd, int argc, char **argv, const char *backend)
{
    /* `dirfill help [command]`: what people type when --help does not come to mind. */
    if (cmd_is(cmd, "help")) {
        if (argc == 0 || cmd_is(argv[0], "help")) {
            print_usage(stdout);
            return 0;
        }
        static char help_flag[] = "--help";
        char *help_argv[] = {help_flag, NULL};
        return run_command(argv[0], 1, help_argv, backend);
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (cmd_is(cmd, commands[i].name)) return commands[i].run(argc, argv, backend);
    char names[128] = "";
    for (size_t i = 0; i < NCOMMANDS; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                 commands[i].name);
    return cmd_usage_error(NULL, "unknown command '%s' (%s)", cmd, names);
}

int main(int argc, char **argv)
{
    /* An empty DIRFILL_BACKEND counts as unset; an empty --backend is an error. */
    const char *backend = getenv("DIRFILL_BACKEND"), *source = "DIRFILL_BACKEND";
    if (backend && !*backend) backend = NULL;
    const char *cmd = NULL;
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    int nrest = 0;
    if (!rest) return cmd_input_error(NULL, "out of memory");
    int status = parse_globals(argc, argv, &cmd, rest, &nrest, &backend, &source);
    if (status < 0 && backend && cmd_select_backend(backend, source) != 0) status = EXIT_USAGE;
    if (status < 0) {
        const bool forced = backend && strcmp(backend, "auto") != 0;
        status = run_command(cmd, nrest, rest, forced ? backend : NULL);
    }
    free(rest);
    return cmd_finish_output(status);
}
