/* SPDX-License-Identifier: MIT */
/* The NNUE data writer (binpack.h): opening one on a file, standard output or a function, the
 * checks every format makes of an entry, and the call that hands it to its format. A file is
 * written under a temporary name beside it and renamed over it at the close, so that its name
 * holds the old file or the whole new one, never a part. */
#define _XOPEN_SOURCE 700 /* fdopen, fileno, fchmod, fsync, lstat, mkstemp, realpath, strdup */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nnue/internal.h"

static long file_write(void *ctx, const char *buf, size_t size)
{
    return fwrite(buf, 1, size, ctx) == size ? (long)size : -1;
}

static df_nnue_writer *writer_new(df_nnue_format format,
                                  long (*write)(void *ctx, const char *buf, size_t size), void *ctx)
{
    if ((unsigned)format >= DF_NNUE_FORMATS || !write) return NULL;
    df_nnue_writer *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->format = format;
    w->out.write = write;
    w->out.ctx = ctx;
    return w;
}

/* The process's umask. Linux says it in /proc without changing it; umask(2) reads it only by
 * setting it, and a file another thread created meanwhile would get the wrong mode. */
static mode_t current_umask(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    unsigned mask;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "Umask: %o", &mask) == 1) {
            fclose(f);
            return (mode_t)mask & 0777;
        }
    if (f) fclose(f);
    const mode_t mask_now = umask(022);
    umask(mask_now);
    return mask_now;
}

/* The file a temporary file replaces at the close: path, or the file a symbolic link names
 * (fopen writes through it), in new memory. NULL with errno 0 when path is written directly:
 * what is not a regular file (a FIFO, a device: a reader may be waiting on it, and a rename
 * would take it away) and a link that names no file (fopen creates it; a link into /proc of a
 * descriptor whose file is gone says so too); NULL with errno ENOMEM. */
static char *replaced_file(const char *path)
{
    struct stat st;
    errno = 0;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) return NULL;
    if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode)) return strdup(path);
    char *target = realpath(path, NULL);
    if (!target && errno != ENOMEM) errno = 0;
    return target;
}

/* A temporary file beside final, <folder>/.<name>.XXXXXX, with the mode fopen would give final
 * (the old file's, or 0666 less the umask); o->temp and o->path (final, taken) are set. NULL
 * with errno when it cannot be made (final then freed). */
static FILE *open_temp(df__nnue_output *o, char *final)
{
    char *temp = malloc(strlen(final) + sizeof "..XXXXXX");
    if (!temp) {
        free(final);
        errno = ENOMEM;
        return NULL;
    }
    const char *slash = strrchr(final, '/');
    const size_t folder = slash ? (size_t)(slash + 1 - final) : 0;
    memcpy(temp, final, folder);
    sprintf(temp + folder, ".%s.XXXXXX", final + folder);
    struct stat st;
    const mode_t mode = stat(final, &st) == 0 ? st.st_mode & 0777 : 0666 & ~current_umask();
    const int fd = mkstemp(temp);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (f) {
        /* mkstemp makes it 0600. A file system without modes (FAT) refuses, as it refuses
         * fopen's: the file is written all the same. */
        (void)fchmod(fd, mode);
        o->temp = temp;
        o->path = final;
        return f;
    }
    const int why = errno;
    if (fd >= 0) {
        close(fd);
        unlink(temp);
    }
    free(temp);
    free(final);
    errno = why;
    return NULL;
}

df_status df_nnue_writer_open(df_nnue_writer **out, const char *path, df_nnue_format format)
{
    if (!out || !path || (unsigned)format >= DF_NNUE_FORMATS) return DF_ERR_ARGUMENT;
    *out = NULL;
    df_nnue_writer *w = writer_new(format, file_write, NULL);
    if (!w) {
        errno = ENOMEM;
        return DF_ERR_IO;
    }
    FILE *f = stdout;
    if (strcmp(path, "-")) {
        char *final = replaced_file(path);
        f = final ? open_temp(&w->out, final) : errno ? NULL : fopen(path, "wb");
    }
    if (!f) {
        free(w);
        return DF_ERR_IO;
    }
    w->out.ctx = f;
    w->out.file = f == stdout ? NULL : f;
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
        df__binpack_write, df__plain_write, df__bin_write};
    if (!w || !e) return DF_ERR_ARGUMENT;
    const uint64_t index = w->entries++;
    if (w->out.failed) return DF_ERR_IO;
    df_nnue_error_kind kind;
    const char *why = df__nnue_unwritable(e, &kind);
    if (why) {
        char fen[DF_FEN_MAX] = "-";
        if (df_board_is_valid(&e->pos)) df_nnue_fen(fen, sizeof fen, &e->pos);
        df__nnue_fail(err, kind, 0, index, "entry %llu (%s): %s", (unsigned long long)index, fen,
                      why);
        return DF_ERR_BOARD;
    }
    const df_status s = add[w->format](w, e, err);
    if (s == DF_ERR_BOARD) {
        /* The format's own limit: its message says what, this says which entry. */
        char what[sizeof err->message];
        char fen[DF_FEN_MAX];
        df_nnue_fen(fen, sizeof fen, &e->pos);
        if (err) {
            snprintf(what, sizeof what, "%s", err->message);
            df__nnue_fail(err, err->kind, 0, index, "entry %llu (%s): %s",
                          (unsigned long long)index, fen, what);
        }
    }
    return s;
}

/* Frees w and what it holds; its file, if any, is closed. */
static void writer_free(df_nnue_writer *w)
{
    df__binpack_writer_free(&w->bp);
    free(w->out.temp);
    free(w->out.path);
    free(w);
}

df_status df_nnue_writer_close(df_nnue_writer *w)
{
    if (!w) return DF_OK;
    if (w->format == DF_NNUE_BINPACK) df__binpack_finish(w);
    bool failed = w->out.failed;
    int why = w->out.error ? w->out.error : EIO;
    FILE *f = w->out.file ? w->out.file : w->out.write == file_write ? w->out.ctx : NULL;
    if (f && fflush(f) != 0 && !failed) {
        failed = true;
        why = errno;
    }
    /* The data on the disk before the new name points at it: a system that stops (power, a
     * crash) soon after the rename otherwise may leave the name on an empty or partial file,
     * the very thing the temporary file is for. It costs waiting once for the writing the
     * kernel does anyway. A file system that cannot sync (some FUSE ones) has the data as
     * well as it can. */
    if (w->out.temp && !failed && fsync(fileno(f)) != 0 && errno != EINVAL && errno != ENOSYS) {
        failed = true;
        why = errno;
    }
    if (w->out.file && fclose(w->out.file) != 0 && !failed) {
        failed = true;
        why = errno;
    }
    if (w->out.temp) {
        if (!failed && rename(w->out.temp, w->out.path) != 0) {
            failed = true;
            why = errno;
        }
        if (failed) unlink(w->out.temp);
    }
    writer_free(w);
    if (!failed) return DF_OK;
    errno = why;
    return DF_ERR_IO;
}

void df_nnue_writer_discard(df_nnue_writer *w)
{
    if (!w) return;
    const int why = errno;
    if (w->out.file) fclose(w->out.file);
    if (w->out.temp) unlink(w->out.temp);
    writer_free(w);
    errno = why;
}

const char *df_nnue_writer_temp_path(const df_nnue_writer *w) { return w ? w->out.temp : NULL; }
