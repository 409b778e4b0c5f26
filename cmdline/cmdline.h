/* SPDX-License-Identifier: MIT */
/* The command-line module shared by the program (app/) and the benchmark (bench/). */
#ifndef DIRFILL_CMDLINE_H
#define DIRFILL_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "dirfill.h"

/* Exit statuses: 1 bad input or output error, 2 usage (options, backend). */
enum { EXIT_BAD_INPUT = 1, EXIT_USAGE = 2 };

/* ---- A growing text (text.c) ---- */

/* Text that grows as it is written, always NUL-terminated; failed once memory ran out, after
 * which every write is dropped (and returns false). {0} is an empty one. */
typedef struct cmd_text {
    char *text;
    size_t len, cap;
    bool failed;
} cmd_text;
bool cmd_text_put(cmd_text *t, const char *s, size_t n);
bool cmd_text_puts(cmd_text *t, const char *s);
bool cmd_text_putf(cmd_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s[0, n) as a JSON string: valid UTF-8 as it is, control characters escaped, a byte that is
 * no UTF-8 as \u00XX (read as Latin-1, as old PGN files are written). */
bool cmd_text_json(cmd_text *t, const char *s, size_t n);
void cmd_text_free(cmd_text *t);

/* ---- Options (options.c) ---- */

/* Prints "dirfill[ cmd]: <message>" on stderr and returns EXIT_USAGE. */
int cmd_usage_error(const char *cmd, const char *fmt, ...);
/* Prints "dirfill[ cmd]: <message>" on stderr and returns EXIT_BAD_INPUT. */
int cmd_input_error(const char *cmd, const char *fmt, ...);
/* The error of an input that did not open (df_source_open's or df_nnue_reader_open's
 * status, errno as it left it): a build without its decompressor, or the system's reason.
 * path "-" is standard input. Returns EXIT_BAD_INPUT. */
int cmd_open_error(const char *cmd, const char *path, df_status opened);
/* True when arg is exactly name. */
bool cmd_is(const char *arg, const char *name);
/* An option with a value, as "--name VALUE" or "--name=VALUE" at argv[*i]. Returns 1 and sets
 * *value (advancing *i past a separate value), 0 when argv[*i] is another option, or
 * EXIT_USAGE negated (after a message) when the value is missing. */
int cmd_value(const char *cmd, int argc, char **argv, int *i, const char *name, const char **value);
/* The last case of every command's option loop: --help or -h prints help and returns 0;
 * anything else is an unknown argument (EXIT_USAGE, after a message). */
int cmd_help_or_unknown(const char *cmd, const char *arg, const char *help);
/* A whole number of only decimal digits (no sign, no space) from min to max. */
bool cmd_parse_count(const char *text, unsigned long min, unsigned long max, unsigned long *out);
/* Selects the named backend (from the option or the environment, named by source) with a
 * clear message: 0, or EXIT_USAGE for an unknown, empty or unsupported name. */
int cmd_select_backend(const char *name, const char *source);
/* The backend names this build has, separated by ", " (for messages and help). */
const char *cmd_backend_list(void);

/* Checks that everything written to stdout arrived; on a write error says so on stderr and
 * returns EXIT_BAD_INPUT, else status unchanged. Call once at the end. */
int cmd_finish_output(int status);

/* ---- Outputs (output.c) ---- */

/* Whether an output is one of the inputs, which writing it would destroy: the same file (device
 * and inode, links followed) and a regular file. The output is a file an option names (option
 * "--write", output its value) or, option NULL, standard output (output unused: the shell
 * has truncated it already, so nothing may be written); an input "-" is standard input. An
 * input that does not exist is none. Returns 0, or EXIT_USAGE after a message naming both.
 * Every command that reads files calls it before it opens an output. */
int cmd_check_output(const char *cmd, const char *option, const char *output,
                     const char *const *inputs, size_t n);

/* Signals that end the program (SIGINT, SIGTERM, SIGHUP, SIGXFSZ) while a temporary file is
 * written. cmd_interrupts_hold holds them back: call it before the file is made.
 * cmd_temp_guard(temp) then lets them in again, such a signal now removing temp (unlink, in the
 * handler) before the program dies of it as it would have; cmd_temp_guard(NULL) once the file
 * is renamed or removed, or when none was made. A signal ignored from the start stays ignored. */
void cmd_interrupts_hold(void);
void cmd_temp_guard(const char *temp);

/* A file written whole or not at all (df_file_out, file_out.h), whose temporary file an
 * interrupt removes (cmd_temp_guard). */
typedef struct cmd_output {
    df_file_out *file;
} cmd_output;
/* Opens o for path ("-": standard output): its stream, or NULL (errno says why). */
FILE *cmd_output_open(cmd_output *o, const char *path);
/* Closes o's file and renames it to its path when every write succeeded; else removes it and
 * returns false (errno says why). */
bool cmd_output_close(cmd_output *o);

/* ---- Clock (clock.c) ---- */

/* Seconds on the monotonic clock (an arbitrary origin: for differences only). */
double cmd_seconds(void);

/* ---- JSON (json.c) ---- */

/* "0x" and 16 lowercase hex digits, quoted. */
void json_bb(FILE *out, df_bb bb);
/* A JSON string; bytes outside printable ASCII as \u00XX of the byte value. */
void json_string(FILE *out, const char *s, size_t len);
/* The inside of a JSON string (no quotes), for text streamed in pieces. */
void json_string_part(FILE *out, const char *s, size_t len);
/* json_string appended to a text. */
void json_text_string(cmd_text *t, const char *s, size_t len);
struct cmd_lines;
/* The error object of a bad input, {"error": message, "input": the input}, one line; when
 * rest is not NULL the rest of a too-long input line is streamed from it. */
void json_error_input(FILE *out, const char *message, const char *input, size_t len,
                      struct cmd_lines *rest);
/* The error object of a bad line of a file: {"error": message, "line": line}. */
void json_error_line(FILE *out, const char *message, long line);

/* ---- Lines (lines.c) ---- */

/* Longest line kept whole: a FEN is under a hundred bytes, white space runs included a few
 * hundred; anything longer is a bad line, read on in bounded memory. */
#define CMD_LINE_MAX 4096

typedef struct cmd_lines {
    FILE *in;
    char buf[CMD_LINE_MAX];
    size_t len;     /* bytes of the line in buf (its first CMD_LINE_MAX when too long) */
    bool too_long;  /* the line goes on past buf */
    bool rest_read; /* its rest has been consumed */
    long number;    /* line number, from 1 */
} cmd_lines;

void cmd_lines_init(cmd_lines *r, FILE *in);
/* Reads the next line (without its newline) into r->buf. Returns 1, 0 at the end of input,
 * or -1 on a read error (errno set). The rest of a too-long line that the caller did not
 * stream with cmd_lines_rest is skipped first. */
int cmd_lines_next(cmd_lines *r);
/* Streams the rest of a too-long line to sink in bounded pieces; returns its length in
 * bytes, or -1 on a read error. */
long long cmd_lines_rest(cmd_lines *r, void (*sink)(void *ctx, const char *s, size_t n), void *ctx);

#endif
