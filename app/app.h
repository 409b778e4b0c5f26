/* SPDX-License-Identifier: MIT */
/* The dirfill program's subcommands and the loop over input positions they share. */
#ifndef DIRFILL_APP_H
#define DIRFILL_APP_H

#include <limits.h>

#include "cmdline.h"

/* The subcommands: argv after the command's name, and the backend --backend or
 * DIRFILL_BACKEND forced (NULL: auto); each returns the exit status. */
int cmd_analyze(int argc, char **argv, const char *backend);
int cmd_moves(int argc, char **argv, const char *backend);
int cmd_perft(int argc, char **argv, const char *backend);
int cmd_pgn(int argc, char **argv, const char *backend);
int cmd_nnue(int argc, char **argv, const char *backend);
/* perft --epd FILE: a perft suite (epd.c), counting the listed depths up to max_depth. */
#define PERFT_ALL_DEPTHS ULONG_MAX
int perft_suite(const char *path, unsigned long max_depth, df_fen_flags flags, bool json);

/* dirfill pgn --count-by (pgn_count.c): the kept games of files counted by the values of
 * fields, printed as a table. */
typedef enum { COUNT_TEXT, COUNT_CSV, COUNT_JSON } count_format;
typedef struct {
    const char *fields; /* --count-by's list */
    count_format format;
    bool validate;               /* count games that validate, and their plies */
    unsigned flags, threads;     /* the reader's flags (--chess960), --threads */
    const df_pgn_filter *filter; /* --where, or NULL */
} count_options;
/* Checks a --count-by list: 0, or EXIT_USAGE after a message naming what is wrong. */
int pgn_count_check(const char *fields);
/* Reads the files and prints the table; returns the exit status. */
int pgn_count(const count_options *o, const char *const *files, int nfiles);

/* The positions of analyze and moves: one from --fen, or one a line from standard input
 * (blank and # lines skipped), each parsed and handed to handle in input order. A bad
 * line (a bad FEN, one too long, or, with need_playable, a position whose side not to move
 * is in check) is reported as the contract says and the others go on. Returns the exit
 * status. */
typedef struct position_loop {
    const char *cmd;    /* subcommand, for messages */
    bool json;          /* error objects on stdout */
    df_fen_flags flags; /* FEN dialect */
    bool need_playable; /* refuse positions without a legal move tree */
    void (*handle)(const df_board *b, void *ctx);
    void *ctx;
} position_loop;
int run_positions(const position_loop *loop, const char *fen);

/* The message for a position whose side not to move is in check. */
const char *unplayable_message(const df_board *b);

#endif
