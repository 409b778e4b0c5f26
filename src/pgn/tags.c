/* SPDX-License-Identifier: MIT */
/* A game's tags by name (pgn.h), for the filter, the fields and the reader's callers alike. */
#include "internal.h"

const char *df_pgn_tag_value(const df_pgn_game *g, const char *name, uint32_t *len)
{
    const int i = df__pgn_tag_index(g, name, strlen(name));
    if (i < 0) return NULL;
    if (len) *len = g->tags[i].value_len;
    return g->tags[i].value;
}
