/* SPDX-License-Identifier: MIT */
/* The commands of a PGN comment that the reader keeps: [%eval ...] (pawns, or #N for a mate)
 * and [%clk H:MM:SS], written by lichess, chess.com and most engines' match tools. */
#include <stdint.h>
#include <string.h>

#include "internal.h"

/* A decimal number [-]digits[.digits] at *p (advanced), exactly as strtod would round it for
 * up to 15 digits; false when there is none. */
static bool df__decimal(const char **p, const char *end, double *out)
{
    const char *s = *p;
    const bool negative = s < end && *s == '-';
    s += negative || (s < end && *s == '+');
    uint64_t mantissa = 0;
    int digits = 0, scale = 0;
    bool dot = false;
    for (; s < end; s++) {
        if (*s == '.' && !dot) {
            dot = true;
            continue;
        }
        if (*s < '0' || *s > '9' || digits == 15) break;
        mantissa = mantissa * 10 + (uint64_t)(*s - '0');
        digits++;
        scale += dot;
    }
    if (!digits) return false;
    static const double tens[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                    1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    const double v = (double)mantissa / tens[scale];
    *out = negative ? -v : v;
    *p = s;
    return true;
}

/* A [%eval ...] or [%clk ...] command of a comment, for the ply it follows. */
void df__pgn_command(const char *cmd, size_t len, df_pgn_ply *p)
{
    const char *c = cmd, *end = cmd + len;
    /* What may follow a value: the end, a space, or ",depth". */
    if (len > 5 && !memcmp(c, "eval ", 5)) {
        c += 5;
        while (c < end && *c == ' ') c++;
        double value;
        if (c < end && *c == '#') {
            c++;
            const char *digits = c;
            /* In range before the conversion: a double outside int32_t does not convert. */
            if (df__decimal(&c, end, &value) && value >= INT32_MIN && value <= INT32_MAX &&
                value == (int32_t)value && !memchr(digits, '.', (size_t)(c - digits)) &&
                (c == end || *c == ',' || *c == ' ')) {
                p->eval_kind = DF_PGN_EVAL_MATE;
                p->mate = (int32_t)value;
            }
        } else if (df__decimal(&c, end, &value) && (c == end || *c == ',' || *c == ' ')) {
            p->eval_kind = DF_PGN_EVAL_PAWNS;
            p->pawns = value;
        }
    } else if (len > 4 && !memcmp(c, "clk ", 4)) {
        c += 4;
        while (c < end && *c == ' ') c++;
        /* H:MM:SS or MM:SS; the seconds may have a fraction. */
        double seconds = 0, part;
        int parts = 0;
        while (parts < 3 && c < end && *c != '-' && df__decimal(&c, end, &part)) {
            seconds = seconds * 60 + part;
            parts++;
            if (c < end && *c == ':')
                c++;
            else
                break;
        }
        while (c < end && *c == ' ') c++;
        if (parts && c == end) {
            p->has_clock = true;
            p->clock = seconds;
        }
    }
}
