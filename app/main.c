/* dirfill: analyze positions, run perft, benchmark the backends (CLI-CONTRACT.md). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: dirfill [--backend scalar|avx2|auto] <command> [options]\n"
    "\n"
    "SIMD direction-wise fills for chess bitboards.\n"
    "\n"
    "commands:\n"
    "  analyze [--json] [--fen FEN]   attack maps, pins and checks (FENs on stdin without --fen)\n"
    "  perft [--json] [--divide] --depth N [--fen FEN]\n"
    "                                 count leaf nodes of the legal move tree\n"
    "  bench [--json] [--svg FILE] [--quick] [--cpu N]\n"
    "                                 time the backends against classic per-piece methods\n"
    "\n"
    "global options (before or after the command):\n"
    "  --backend NAME   scalar, avx2 or auto (default; also DIRFILL_BACKEND)\n"
    "  --help           this text; `dirfill <command> --help` for a command\n"
    "  --version        the version\n"
    "\n"
    "exit status: 0 success, 1 bad input (a FEN), 2 usage error or unusable backend\n";

const char *cli_backend;

bool is_opt(const char *arg, const char *name) { return strcmp(arg, name) == 0; }

int usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "dirfill%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return EXIT_USAGE;
}

/* The option wins over the environment; a name this CPU cannot run is an error here,
 * where the library alone would fall back silently. */
static int apply_backend(const char *name, const char *source)
{
    if (!name || !*name) return 0;
    switch (df_backend_select(name)) {
    case DF_OK:
        return 0;
    case DF_ERR_UNSUPPORTED_BACKEND:
        return usage_error(NULL, "this CPU cannot run the %s backend (%s)", name, source);
    default: {
        char list[128] = "";
        df_backend_info info;
        for (size_t i = 0; df_backend_info_at(i, &info); i++) {
            strncat(list, info.name, sizeof list - strlen(list) - 1);
            strncat(list, ", ", sizeof list - strlen(list) - 1);
        }
        return usage_error(NULL, "unknown backend '%s' (%s); choose one of %sauto", name, source,
                           list);
    }
    }
}

/* Splits argv into the command and its arguments, taking out the global options. Returns
 * -1 to go on, or the exit status (help, version, usage errors). */
static int parse_globals(int argc, char **argv, const char **cmd, char **rest, int *nrest,
                         const char **backend, const char **source)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (is_opt(a, "--backend")) {
            if (i + 1 >= argc) return usage_error(NULL, "--backend needs a value");
            *backend = argv[++i];
            *source = "--backend";
        } else if (strncmp(a, "--backend=", 10) == 0) {
            *backend = a + 10;
            *source = "--backend";
        } else if (*cmd) {
            rest[(*nrest)++] = argv[i];
        } else if (is_opt(a, "--help") || is_opt(a, "-h")) {
            fputs(usage, stdout);
            return 0;
        } else if (is_opt(a, "--version")) {
            printf("dirfill %s\n", DIRFILL_VERSION_STRING);
            return 0;
        } else if (a[0] == '-') {
            return usage_error(NULL, "unknown option '%s' (see dirfill --help)", a);
        } else {
            *cmd = a;
        }
    }
    if (!*cmd) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    return -1;
}

int main(int argc, char **argv)
{
    const char *backend = getenv("DIRFILL_BACKEND"), *source = "DIRFILL_BACKEND";
    const char *cmd = NULL;
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    int nrest = 0;
    if (!rest) return usage_error(NULL, "out of memory");
    int status = parse_globals(argc, argv, &cmd, rest, &nrest, &backend, &source);
    if (status < 0) status = apply_backend(backend, source);
    if (status == 0 && cmd) {
        if (backend && *backend && strcmp(backend, "auto") != 0) cli_backend = backend;
        if (is_opt(cmd, "analyze"))
            status = cmd_analyze(nrest, rest);
        else if (is_opt(cmd, "perft"))
            status = cmd_perft(nrest, rest);
        else if (is_opt(cmd, "bench"))
            status = cmd_bench(nrest, rest);
        else
            status = usage_error(NULL, "unknown command '%s' (analyze, perft, bench)", cmd);
    }
    free(rest);
    return status;
}
