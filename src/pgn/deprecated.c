/* SPDX-License-Identifier: MIT */
/* The byte source's former names (pgn.h), from when only the PGN reader took one: each calls the
 * df_source function of the same suffix, so programs built against them still link. */
#include "dirfill.h"

df_status df_pgn_source_open(df_source **out, const char *path)
{
    return df_source_open(out, path);
}

df_source *df_pgn_source_from_function(long (*read)(void *ctx, char *buf, size_t size), void *ctx)
{
    return df_source_from_function(read, ctx);
}

long df_pgn_source_read(df_source *s, char *buf, size_t size)
{
    return df_source_read(s, buf, size);
}

const char *df_pgn_source_error(const df_source *s) { return df_source_error(s); }

void df_pgn_source_set_interrupt(df_source *s, const df_interrupt *in)
{
    df_source_set_interrupt(s, in);
}

uint64_t df_pgn_source_consumed(const df_source *s) { return df_source_consumed(s); }

void df_pgn_source_close(df_source *s) { df_source_close(s); }
