/* SPDX-License-Identifier: MIT */
/* The NNUE data writer (binpack.h): opening one on a file, standard output or a function, the
 * checks every format makes of an entry, and the call that hands it to its format. A file is
 * written whole or not at all (services/file_out.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nnue/internal.h"

static long file_write(void *ctx, const char *buf, size_t size)
{
    return fwrite(buf, 1, size, ctx) == size ? (long)size : -1;
}

/* The formats a writer writes: all but PGN, which is read only. */
static bool writable(df_nnue_format format)
{
    return (unsigned)format < DF_NNUE_FORMATS && format != DF_NNUE_PGN;
}

static df_nnue_writer *writer_new(df_nnue_format format,
                                  long (*write)(void *ctx, const char *buf, size_t size), void *ctx)
{
    if (!writable(format) || !write) return NULL;
    df_nnue_writer *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->format = format;
    w->out.write = write;
    w->out.ctx = ctx;
    return w;
}

df_status df_nnue_writer_open(df_nnue_writer **out, const char *path, df_nnue_format format)
{
    if (!out || !path || !writable(format)) return DF_ERR_ARGUMENT;
    *out = NULL;
    df_file_out *file;
    if (df_file_out_open(&file, path) != DF_OK) return DF_ERR_IO;
    df_nnue_writer *w = writer_new(format, file_write, df_file_out_stream(file));
    if (!w) {
        df_file_out_discard(file);
        errno = ENOMEM;
        return DF_ERR_IO;
    }
    w->out.file = file;
    *out = w;
    return DF_OK;
}

df_nnue_writer *df_nnue_writer_to_function(df_nnue_format format,
                                           long (*write)(void *ctx, const char *buf, size_t size),
                                           void *ctx)
{
    return writer_new(format, write, ctx);
}

df_status df_nnue_write(df_nnue_writer *w, const df_nnue_entry *e, df_nnue_error *err)
{
    static df_status (*const add[DF_NNUE_FORMATS])(df_nnue_writer *, const df_nnue_entry *,
                                                   df_nnue_error *) = {
        df__binpack_write,      df__plain_write,  df__bin_write,  NULL,
        df__bulletformat_write, df__marlin_write, df__viri_write, df__bullet_text_write};
    if (!w || !e) return DF_ERR_ARGUMENT;
    const uint64_t index = w->entries++;
    if (w->out.failed) return DF_ERR_IO;
    df_nnue_error_kind kind;
    const char *why = df__nnue_unwritable(e, w->format, &kind);
    if (why) {
        char fen[DF_FEN_MAX] = "-";
        if (df_board_is_valid(&e->pos)) df_nnue_entry_fen(fen, sizeof fen, e);
        df__nnue_fail(err, kind, 0, index, "entry %llu (%s): %s", (unsigned long long)index, fen,
                      why);
        return DF_ERR_BOARD;
    }
    const df_status s = add[w->format](w, e, err);
    if (s == DF_ERR_BOARD) {
        /* The format's own limit: its message says what, this says which entry. */
        char what[sizeof err->message];
        char fen[DF_FEN_MAX];
        df_nnue_entry_fen(fen, sizeof fen, e);
        if (err) {
            snprintf(what, sizeof what, "%s", err->message);
            df__nnue_fail(err, err->kind, 0, index, "entry %llu (%s): %s",
                          (unsigned long long)index, fen, what);
        }
    }
    return s;
}

void df_nnue_writer_losses(const df_nnue_writer *w, df_nnue_losses *out)
{
    if (!out) return;
    if (w)
        *out = w->losses;
    else
        memset(out, 0, sizeof *out);
}

df_status df_nnue_writer_close(df_nnue_writer *w)
{
    if (!w) return DF_OK;
    if (w->format == DF_NNUE_BINPACK) df__binpack_finish(w);
    if (w->format == DF_NNUE_VIRIFORMAT) df__viri_finish(w);
    df__binpack_writer_free(&w->bp);
    df_file_out *file = w->out.file;
    const bool failed = w->out.failed;
    const int why = w->out.error ? w->out.error : EIO;
    free(w);
    if (failed) {
        df_file_out_discard(file);
        errno = why;
        return DF_ERR_IO;
    }
    return df_file_out_close(file);
}

void df_nnue_writer_discard(df_nnue_writer *w)
{
    if (!w) return;
    df_file_out_discard(w->out.file);
    df__binpack_writer_free(&w->bp);
    free(w);
}

const char *df_nnue_writer_temp_path(const df_nnue_writer *w)
{
    return w ? df_file_out_temp_path(w->out.file) : NULL;
}
