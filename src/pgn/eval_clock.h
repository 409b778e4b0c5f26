/* SPDX-License-Identifier: MIT */
/* A comment's [%eval ...] and [%clk ...] commands (pgn/eval_clock.c), with the shapes lichess
 * writes in every comment of its games — an evaluation [-]D.DD, a clock H:MM:SS — read inline
 * where the reader finds them: two of them a ply in such files, where a call each cost more
 * than the reading. */
#ifndef DF_SRC_PGN_EVAL_CLOCK_H
#define DF_SRC_PGN_EVAL_CLOCK_H

#include <string.h>

#include "internal.h"

/* The four bytes at s as a digit, sep and two digits ("4.25", "1:02"): true with *digits
 * holding their values byte for byte (d0, 0, d2, d3 from the low byte up), found with a few
 * word operations and one branch; a value's digits vary from ply to ply, and a branch per byte
 * guessed wrong on them. */
static inline bool df__digit_sep_digits(const char *s, char sep, uint32_t *digits)
{
    const uint32_t x = (uint32_t)(unsigned char)s[0] | (uint32_t)(unsigned char)s[1] << 8 |
                       (uint32_t)(unsigned char)s[2] << 16 | (uint32_t)(unsigned char)s[3] << 24;
    /* Digits become 0-9 and sep 0; a byte above 9 sets bit 7 of itself or of itself + 0x76. */
    const uint32_t y = x ^ (0x30303030u ^ (uint32_t)(unsigned char)(sep ^ '0') << 8);
    *digits = y;
    return !((((y + 0x76767676u) | y) & 0x80808080u) | (y & 0xff00u));
}

/* The command's text cmd[0, len) ("eval 0.17", "clk 0:03:00") read into p when it has one of
 * lichess's shapes, with the value df__pgn_command gives it; false, p untouched, otherwise. */
static inline bool df__pgn_command_quick(const char *cmd, size_t len, df_pgn_ply *p)
{
    const char *c = cmd, *end = cmd + len;
    uint32_t y, z;
    if (len >= 9 && !memcmp(c, "eval ", 5)) {
        /* [-]D.DD: the mantissa over a power of ten, as df__pgn_command's decimal reading. */
        const bool negative = c[5] == '-';
        const char *d = c + 5 + negative;
        if (end - d >= 4 && df__digit_sep_digits(d, '.', &y) &&
            (end - d == 4 || d[4] == ',' || d[4] == ' ')) {
            const double v = (double)((y & 0xff) * 100 + (y >> 16 & 0xff) * 10 + (y >> 24)) / 1e2;
            /* The sign bit set without a branch (-0.00 stays -0, as strtod reads it): the sign
             * changes from ply to ply in an even game, and a branch guessed wrong on it cost a
             * noticeable share of the scan. */
            uint64_t bits;
            memcpy(&bits, &v, sizeof bits);
            bits |= (uint64_t)negative << 63;
            p->eval_kind = DF_PGN_EVAL_PAWNS;
            memcpy(&p->pawns, &bits, sizeof bits);
            return true;
        }
    } else if (len == 11 && !memcmp(c, "clk ", 4)) {
        /* H:MM:SS, as H:MM and M:SS sharing a byte: whole seconds, exact in a double. */
        if (df__digit_sep_digits(c + 4, ':', &y) && df__digit_sep_digits(c + 7, ':', &z)) {
            p->has_clock = true;
            p->clock = (double)((y & 0xff) * 3600 + (y >> 16 & 0xff) * 600 + (y >> 24) * 60 +
                                (z >> 16 & 0xff) * 10 + (z >> 24));
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
