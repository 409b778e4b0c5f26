/* SPDX-License-Identifier: MIT */
/* The NNUE data reader (binpack.h): opening one on a source, its share, and the call that hands
 * each format's next entry. */
#include <stdlib.h>
#include <string.h>

#include "nnue/internal.h"

static df_nnue_reader *reader_new(df_nnue_format format, df_source *src)
{
    df_nnue_reader *r = calloc(1, sizeof *r);
    unsigned char *buf = malloc(DF__NNUE_INPUT);
    if (!r || !buf || !src || (unsigned)format >= DF_NNUE_FORMATS) {
        free(r);
        free(buf);
        df_source_close(src);
        return NULL;
    }
    r->format = format;
    r->world = 1;
    r->in.src = src;
    r->in.buf = buf;
    return r;
}

df_status df_nnue_reader_open(df_nnue_reader **out, const char *path, df_nnue_format format)
{
    if (!out || !path || (unsigned)format >= DF_NNUE_FORMATS) return DF_ERR_ARGUMENT;
    *out = NULL;
    df_source *src;
    const df_status s = df_source_open(&src, path);
    if (s != DF_OK) return s;
    *out = reader_new(format, src);
    return *out ? DF_OK : DF_ERR_IO;
}

df_nnue_reader *df_nnue_reader_from_function(df_nnue_format format,
                                             long (*read)(void *ctx, char *buf, size_t size),
                                             void *ctx)
{
    if (!read) return NULL;
    return reader_new(format, df_source_from_function(read, ctx));
}

void df_nnue_reader_free(df_nnue_reader *r)
{
    if (!r) return;
    df_source_close(r->in.src);
    free(r->in.buf);
    free(r->bp.chunk);
    df__pgn_free(r->pgn);
    free(r);
}

df_status df_nnue_reader_set_share(df_nnue_reader *r, uint32_t rank, uint32_t world)
{
    if (!r || !world || rank >= world) return DF_ERR_ARGUMENT;
    r->rank = rank;
    r->world = world;
    return DF_OK;
}

/* The next item of the format, of any rank. */
static df_nnue_next read_any(df_nnue_reader *r, df_nnue_entry *out, df_nnue_error *err)
{
    static df_nnue_next (*const next[DF_NNUE_FORMATS])(df_nnue_reader *, df_nnue_entry *,
                                                       df_nnue_error *) = {
        df__binpack_next,      df__plain_next,  df__bin_next,  df__pgn_next,
        df__bulletformat_next, df__marlin_next, df__viri_next, df__bullet_text_next};
    const df_nnue_next got = next[r->format](r, out, err);
    if (got != DF_NNUE_END || !r->in.failed || r->io_said) return got;
    r->io_said = true;
    df__nnue_fail(err, DF_NNUE_ERR_IO, r->in.offset,
                  r->format == DF_NNUE_BINPACK      ? r->bp.index
                  : r->format == DF_NNUE_VIRIFORMAT ? r->vf.game
                                                    : r->records,
                  "byte %llu: the input cannot be read: %s", (unsigned long long)r->in.offset,
                  df__nnue_input_error(&r->in));
    return DF_NNUE_ERROR;
}

df_nnue_next df_nnue_read_next(df_nnue_reader *r, df_nnue_entry *out, df_nnue_error *err)
{
    if (!r || !out) return DF_NNUE_END;
    /* A .binpack reader passes over the other ranks' chunks itself, a PGN reader their games;
     * the read error is said after the last item, to every rank. */
    for (;;) {
        const bool io_said = r->io_said;
        const df_nnue_next got = read_any(r, out, err);
        if (got == DF_NNUE_END || r->world == 1 || r->format == DF_NNUE_BINPACK ||
            r->format == DF_NNUE_PGN || r->io_said != io_said)
            return got;
        if (r->items++ % r->world == r->rank) return got;
    }
}
