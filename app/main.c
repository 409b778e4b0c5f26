/* dirfill: analyze positions, list moves, run perft, benchmark the backends (docs/cli.md). */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "bench_main.h"

static const char usage[] =
    "usage: dirfill [--backend NAME] <command> [options]\n"
    "\n"
    "SIMD direction-wise fills for chess bitboards.\n"
    "\n"
    "commands:\n"
    "  analyze [--json] [--fen FEN]   attack maps, pins and checks (FENs on stdin without --fen)\n"
    "  moves [--json] [--chess960] [--fen FEN]\n"
    "                                 legal moves with SAN, SEE, check and the Polyglot key\n"
    "  perft [--json] [--divide] [--chess960] --depth N [--fen FEN]\n"
    "  perft [--json] [--chess960] --epd FILE [--depth N]\n"
    "                                 count leaf nodes of the legal move tree, or a perft suite\n"
    "  bench [--json] [--svg FILE] [--quick] [--cpu N] [--positions N]\n"
    "                                 time the backends against classic per-piece methods\n"
    "\n"
    "global options (before or after the command):\n"
    "  --backend NAME   %s or auto (default; also the environment variable\n"
    "                   DIRFILL_BACKEND; the option wins)\n"
    "  --help           this text; `dirfill <command> --help` for a command\n"
    "  --version        the version\n"
    "\n"
    "exit status: 0 success, 1 bad input or an output error, 2 usage error or unusable backend\n"
    "The output contract: docs/cli.md.\n";

static void print_usage(FILE *out) { fprintf(out, usage, cmd_backend_list()); }

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
    if (cmd_is(cmd, "analyze")) return cmd_analyze(argc, argv);
    if (cmd_is(cmd, "moves")) return cmd_moves(argc, argv);
    if (cmd_is(cmd, "perft")) return cmd_perft(argc, argv);
    if (cmd_is(cmd, "bench")) return bench_main(argc, argv, backend);
    return cmd_usage_error(NULL, "unknown command '%s' (analyze, moves, perft, bench)", cmd);
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
