/* The dirfill program: shared helpers of its subcommands. A client of the public API. */
#ifndef DIRFILL_APP_CLI_H
#define DIRFILL_APP_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "dirfill.h"

/* Exit statuses: 1 bad input (a FEN), 2 usage (options, backend). */
enum { EXIT_BAD_INPUT = 1, EXIT_USAGE = 2 };

/* The backend named by --backend or DIRFILL_BACKEND, or NULL for auto. */
extern const char *cli_backend;

/* Subcommands take the arguments after their name; global options are already removed. */
int cmd_analyze(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_bench(int argc, char **argv);

/* Prints "dirfill <cmd>: <message>" on stderr and returns EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...);
/* True when arg is --name or -n. */
bool is_opt(const char *arg, const char *name);

/* "0x" and 16 lowercase hex digits. */
void json_bb(FILE *out, df_bb bb);
/* A JSON string; bytes outside printable ASCII as \u00XX. */
void json_string(FILE *out, const char *s, size_t len);

/* Direction names in the contract's order (clockwise from N) and their df_dir. */
extern const char *const dir_names[8];
extern const int dir_order[8];

#endif
