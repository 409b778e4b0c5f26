/* SPDX-License-Identifier: MIT */
/* Exact cuts of a PGN input for readers of its parts (df_pgn_find_cuts): the threaded reader's
 * rule (threads.c: a line after a blank line that starts with '[' and a letter, where the
 * reader of everything before stands outside any tag section, df__pgn_cut_ok), found by a
 * lexing reader fed up to each candidate, with one more condition: the game before has ended
 * (df_pgn_reader_between_games), so that a reader of the part before, finishing at the cut,
 * ends that game exactly as the reader of the whole input does (a game cut short there would
 * be an error for the one and not for the other). The lexing reader numbers the games as a
 * replaying one does; each cut says which game starts there. It reads only tags and skims the
 * movetext (DF_PGN_HEADERS_ONLY), which finds the same games, lines and ends as a full read
 * (test_pgn_real's skim tests) at a few times its speed. */
#include <stdlib.h>
#include <string.h>

#include "dirfill.h"
#include "internal.h"

enum { DF__RANGE_BLOCK = 1 << 20, DF__RANGE_KEEP = 4 };

static bool df__range_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* Whether buf[i] (3 <= i, i + 1 < len) begins a line that follows a blank line with '[' and a
 * letter: threads.c's df__find_cut. */
static bool df__range_candidate(const char *buf, size_t i)
{
    return buf[i] == '[' && df__range_letter(buf[i + 1]) && buf[i - 1] == '\n' &&
           (buf[i - 2] == '\n' || (buf[i - 2] == '\r' && buf[i - 3] == '\n'));
}

typedef struct {
    df_pgn_reader *r;
    uint64_t fed; /* bytes fed to r */
} df__range_lexer;

static const df_pgn_visitor df__range_none = {NULL, NULL, NULL, NULL};

static void df__range_feed(df__range_lexer *x, const char *p, size_t n)
{
    if (n == 0) return;
    df_pgn_feed(x->r, p, n, &df__range_none);
    x->fed += n;
}

df_status df_pgn_find_cuts(df_source *src, const uint64_t *targets, size_t n, df_pgn_cut *cuts)
{
    if (!src || (n && (!targets || !cuts))) return DF_ERR_ARGUMENT;
    for (size_t k = 1; k < n; k++)
        if (targets[k] < targets[k - 1]) return DF_ERR_ARGUMENT;
    size_t k = 0;
    for (; k < n && targets[k] == 0; k++) cuts[k] = (df_pgn_cut){0, 1, 0};
    if (k == n) return DF_OK;
    char *buf = malloc(DF__RANGE_BLOCK + DF__RANGE_KEEP);
    df__range_lexer x = {df_pgn_reader_new(), 0};
    if (!buf || !x.r) {
        free(buf);
        df_pgn_reader_free(x.r);
        return DF_ERR_IO;
    }
    df_pgn_reader_reset(x.r, DF_PGN_HEADERS_ONLY, 0, 1, 0);
    /* buf[0, keep) holds the last bytes of the previous block: three for the blank line before
     * a '[', and the last one, not fed yet, which may be that '['. base: buf[0]'s offset. */
    size_t keep = 0, scan = 3;
    uint64_t base = 0;
    df_status status = DF_OK;
    for (;;) {
        const long got = df_source_read(src, buf + keep, DF__RANGE_BLOCK);
        if (got < 0) {
            status = DF_ERR_IO;
            break;
        }
        const size_t len = keep + (size_t)got;
        for (size_t i = scan; k < n && i + 1 < len; i++) {
            if (base + i < targets[k]) { /* no cut is looked for before the next target */
                if (targets[k] - base + 1 >= len) break;
                i = (size_t)(targets[k] - base);
            }
            if (!df__range_candidate(buf, i)) continue;
            df__range_feed(&x, buf + (x.fed - base), base + i - x.fed);
            if (!df_pgn_reader_between_games(x.r) || !df__pgn_cut_ok(x.r)) continue;
            for (; k < n && targets[k] <= base + i; k++)
                cuts[k] = (df_pgn_cut){base + i, df__pgn_line(x.r), df__pgn_next_game(x.r)};
        }
        if (k == n) break;
        if (got == 0) {
            /* No cut after the last targets: the end of the input. */
            df__range_feed(&x, buf + (x.fed - base), base + len - x.fed);
            df_pgn_finish(x.r, &df__range_none);
            for (; k < n; k++)
                cuts[k] = (df_pgn_cut){base + len, df__pgn_line(x.r), df__pgn_next_game(x.r)};
            break;
        }
        /* All but the last byte fed; the last bytes kept for the next block. */
        if (len > 1) df__range_feed(&x, buf + (x.fed - base), base + len - 1 - x.fed);
        const size_t drop = len > DF__RANGE_KEEP ? len - DF__RANGE_KEEP : 0;
        memmove(buf, buf + drop, len - drop);
        base += drop;
        keep = len - drop;
        scan = keep > 3 ? keep - 1 : 3;
    }
    free(buf);
    df_pgn_reader_free(x.r);
    return status;
}
