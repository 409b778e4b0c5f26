/* SPDX-License-Identifier: MIT */
/* What a PGN comment says of the move before it that the reader keeps: the commands [%eval ...]
 * (pawns, or #N for a mate) and [%clk H:MM:SS], written by lichess and chess.com, and the
 * engine's evaluation that match referees (cutechess-cli, fastchess) write at a comment's start,
 * {+0.71/23 6.157s}. */
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

/* Digits at *p (advanced), at least one and at most 9: *out their value; false when none. */
static bool df__count(const char **p, const char *end, uint32_t *out)
{
    uint64_t v = 0;
    if (!df__digits(p, end, &v, 9)) return false;
    *out = (uint32_t)v;
    return true;
}

bool df__pgn_engine_comment(const char *t, size_t len, bool whole, df_pgn_ply *p)
{
    const char *c = t, *end = t + len;
    /* The score: [+-]P.PP pawns, or +M / -M and plies to mate, from the mover's view. */
    const bool minus = c < end && *c == '-';
    const bool signed_ = minus || (c < end && *c == '+');
    c += signed_;
    bool mate = false;
    uint32_t plies = 0;
    double pawns = 0;
    if (signed_ && c < end && *c == 'M') {
        c++;
        if (!df__count(&c, end, &plies)) return false;
        mate = true;
    } else {
        const char *number = c;
        if (!df__decimal(&c, end, &pawns) || !memchr(number, '.', (size_t)(c - number)) ||
            (c < end && (unsigned)(*c - '0') < 10))
            return false;
        if (minus) pawns = -pawns;
    }
    /* Then /depth, or (cutechess, depth 0) the time; a score alone could be anyone's words. */
    uint32_t depth;
    const bool has_depth = c < end && *c == '/';
    if (has_depth && (c++, !df__count(&c, end, &depth))) return false;
    bool has_time = false;
    if (c < end && *c == ' ') {
        const char *s = c + 1;
        double seconds;
        if (df__decimal(&s, end, &seconds) && s < end && *s == 's') {
            has_time = true;
            c = s + 1;
        }
    }
    if (!has_depth && !has_time) return false;
    /* The end of the comment, or of the evaluation (", White mates", fastchess's ", n=..."). */
    if (!(c == end ? whole : *c == ',')) return false;
    /* A move's own score, the position after it: White's view, a mate in moves of the side
     * that mates. The mover M mates in plies / 2 moves after its move; M mated, the other side
     * mates in plies / 2 (their counts of plies from before the move: 2N - 1 and 2N). */
    const bool white_moved = df_board_stm(p->before) == DF_WHITE;
    if (!mate) {
        p->eval_kind = DF_PGN_EVAL_PAWNS;
        p->pawns = white_moved ? pawns : -pawns;
        return true;
    }
    if (plies == 0) return false; /* not a mate a move can be scored with */
    const bool white_mates = white_moved != minus;
    const int32_t moves = (int32_t)(plies / 2);
    p->eval_kind = DF_PGN_EVAL_MATE;
    p->mate = white_mates ? moves : -moves;
    return true;
}
