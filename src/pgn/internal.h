/* SPDX-License-Identifier: MIT */
/* Internal to the PGN reader (src/pgn/): what its files share besides the public calls. */
#ifndef DF_SRC_PGN_INTERNAL_H
#define DF_SRC_PGN_INTERNAL_H

#include <string.h>

#include "dirfill.h"

/* The index of the first tag of g named name[0, n), or -1 (the reader's lookups, inlined, and
 * df_pgn_tag_value's). */
static inline int df__pgn_tag_index(const df_pgn_game *g, const char *name, size_t n)
{
    /* The first byte before a call to memcmp: names of one length mostly differ there (White,
     * Black, Event, Round). */
    for (uint32_t i = 0; i < g->ntags; i++)
        if (g->tags[i].name_len == n && n && g->tags[i].name[0] == name[0] &&
            !memcmp(g->tags[i].name, name, n))
            return (int)i;
    return -1;
}

/* The index the reader's next game will get. */
uint64_t df__pgn_next_game(const df_pgn_reader *r);
/* The 1-based line of the next byte the reader is fed. */
uint64_t df__pgn_line(const df_pgn_reader *r);
/* Numbers the reader's next game `next` (its scanning goes on untouched). */
void df__pgn_set_next_game(df_pgn_reader *r, uint64_t next);
/* Whether a '[' and a letter, next at the start of a line, would start a new game here: the
 * reader stands at a line start outside any tag section (in movetext, a comment or a
 * variation, where the recovery rule makes them a new game), so a piece of input may be cut
 * there for another reader. */
bool df__pgn_cut_ok(const df_pgn_reader *r);
/* The text of a comment's [%...] command, without "[%" and "]" ("eval 0.31", "clk 0:03:00"):
 * its evaluation or clock into p (left as it is when the command is neither or malformed). */
void df__pgn_command(const char *cmd, size_t len, df_pgn_ply *p);
/* How many bytes of a comment's start df__pgn_engine_comment needs at most: a score, a depth, a
 * time and what follows them, with room. */
enum { DF__ENGINE_COMMENT_MAX = 48 };
/* A comment's text t[0, len) that starts with a match referee's evaluation of the move before it
 * (cutechess-cli and fastchess: {+0.71/23 6.157s}, {-M4/30 0.5s}, {0.00/0 0s, Draw by 3-fold
 * repetition}, cutechess's {+0.34 0.1s} at depth 0): p's evaluation set from it (p->before the
 * mover's position), true. whole: t is the whole comment (else its first bytes, and the
 * evaluation must end with a ','). False, p untouched, for any other text ({book}, {/0 0.5s}, a
 * person's words). */
bool df__pgn_engine_comment(const char *t, size_t len, bool whole, df_pgn_ply *p);

#endif
