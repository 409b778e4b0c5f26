/* SPDX-License-Identifier: MIT */
/* A comment's [%eval ...] and [%clk ...] commands (pgn/command.c), with the shapes lichess
 * writes in every comment of its games — an evaluation [-]D.DD, a clock H:MM:SS — read inline
 * where the reader finds them: two of them a ply in such files, where a call each cost more
 * than the reading. */
#ifndef DF_SRC_PGN_COMMAND_H
#define DF_SRC_PGN_COMMAND_H

#include <string.h>

#include "internal.h"

/* Whether c is a decimal digit. */
static inline bool df__digit(char c) { return (unsigned)(c - '0') < 10; }

/* The command's text cmd[0, len) ("eval 0.17", "clk 0:03:00") read into p when it has one of
 * lichess's shapes, with the value df__pgn_command gives it; false, p untouched, otherwise. */
static inline bool df__pgn_command_quick(const char *cmd, size_t len, df_pgn_ply *p)
{
    const char *c = cmd, *end = cmd + len;
    if (len >= 9 && !memcmp(c, "eval ", 5)) {
        /* [-]D.DD: the mantissa over a power of ten, as df__pgn_command's decimal reading. */
        const char *d = c + 5 + (c[5] == '-');
        if (end - d >= 4 && df__digit(d[0]) && d[1] == '.' && df__digit(d[2]) && df__digit(d[3]) &&
            (end - d == 4 || d[4] == ',' || d[4] == ' ')) {
            const double v = (double)((d[0] - '0') * 100 + (d[2] - '0') * 10 + (d[3] - '0')) / 1e2;
            p->eval_kind = DF_PGN_EVAL_PAWNS;
            p->pawns = d > c + 5 ? -v : v;
            return true;
        }
    } else if (len == 11 && !memcmp(c, "clk ", 4)) {
        /* H:MM:SS: whole seconds, exact in a double. */
        c += 4;
        if (df__digit(c[0]) && c[1] == ':' && df__digit(c[2]) && df__digit(c[3]) && c[4] == ':' &&
            df__digit(c[5]) && df__digit(c[6])) {
            p->has_clock = true;
            p->clock = (double)(((c[0] - '0') * 60 + (c[2] - '0') * 10 + (c[3] - '0')) * 60 +
                                (c[5] - '0') * 10 + (c[6] - '0'));
            return true;
        }
    }
    return false;
}

/* A command's text read into p: its evaluation or clock (p left as it is when the command is
 * neither or malformed). */
static inline void df__pgn_read_command(const char *cmd, size_t len, df_pgn_ply *p)
{
    if (!df__pgn_command_quick(cmd, len, p)) df__pgn_command(cmd, len, p);
}

#endif
