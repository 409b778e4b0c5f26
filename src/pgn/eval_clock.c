/* SPDX-License-Identifier: MIT */
/* The commands of a PGN comment that the reader keeps: [%eval ...] (pawns, or #N for a mate)
 * and [%clk H:MM:SS], written by lichess, chess.com and most engines' match tools. */
#include <stdint.h>
#include <string.h>

#include "eval_clock.h"

/* Decimal digits at *s (advanced) into *m, at most `room` of them (a longer run is left for the
 * caller to refuse); how many. */
static inline int df__digits(const char **s, const char *end, uint64_t *m, int room)
{
    int n = 0;
    for (const char *p = *s; p < end && n < room && (unsigned)(*p - '0') < 10; p++, n++)
        *m = *m * 10 + (uint64_t)(*p - '0');
    *s += n;
    return n;
}

/* A decimal number [+-]digits[.digits] at *p (advanced), exactly as strtod would round it for
 * up to 15 digits (the mantissa and the power of ten are exact doubles, and one division
 * rounds once); false when there is none. */
static inline bool df__decimal(const char **p, const char *end, double *out)
{
    const char *s = *p;
    const bool negative = s < end && *s == '-';
    s += negative || (s < end && *s == '+');
    uint64_t mantissa = 0;
    const int whole = df__digits(&s, end, &mantissa, 15);
    int scale = 0;
    if (s < end && *s == '.') {
        s++;
        scale = df__digits(&s, end, &mantissa, 15 - whole);
    }
    if (!whole && !scale) return false;
    static const double tens[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                    1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    const double v = scale ? (double)mantissa / tens[scale] : (double)mantissa;
    *out = negative ? -v : v;
    *p = s;
    return true;
}

/* White space inside a command: a comment wrapped over lines (at 80 columns, say) may put a
 * newline between a command's name and its value. */
static inline bool df__blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* A [%eval ...] or [%clk ...] command of a comment, for the ply it follows, in any shape
 * (eval_clock.h reads the shapes lichess writes). */
void df__pgn_command(const char *cmd, size_t len, df_pgn_ply *p)
{
    const char *c = cmd, *end = cmd + len;
    /* What may follow a value: the end, white space, or ",depth". */
    if (len > 5 && !memcmp(c, "eval", 4) && df__blank(c[4])) {
        c += 5;
        while (c < end && df__blank(*c)) c++;
        double value;
        if (c < end && *c == '#') {
            c++;
            const char *digits = c;
            /* In range before the conversion: a double outside int32_t does not convert. */
            if (df__decimal(&c, end, &value) && value >= INT32_MIN && value <= INT32_MAX &&
                value == (int32_t)value && !memchr(digits, '.', (size_t)(c - digits)) &&
                (c == end || *c == ',' || df__blank(*c))) {
                p->eval_kind = DF_PGN_EVAL_MATE;
                p->mate = (int32_t)value;
            }
        } else if (df__decimal(&c, end, &value) && (c == end || *c == ',' || df__blank(*c))) {
            p->eval_kind = DF_PGN_EVAL_PAWNS;
            p->pawns = value;
        }
    } else if (len > 4 && !memcmp(c, "clk", 3) && df__blank(c[3])) {
        c += 4;
        while (c < end && df__blank(*c)) c++;
        /* Whole seconds as clocks mostly are (H:MM:SS, MM:SS): integers, exact in a double,
         * the same value as the general reading below. */
        uint64_t whole = 0;
        int fields = 0;
        for (const char *d = c;; d++) {
            uint64_t field = 0;
            const int n = df__digits(&d, end, &field, 9);
            if (!n || ++fields > 3) break;
            whole = whole * 60 + field;
            if (d == end) {
                p->has_clock = true;
                p->clock = (double)whole;
                return;
            }
            if (*d != ':') break;
        }
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
        while (c < end && df__blank(*c)) c++;
        if (parts && c == end) {
            p->has_clock = true;
            p->clock = seconds;
        }
    }
}
