/* SPDX-License-Identifier: MIT */
/* Bytes in (source.h): a file or standard input, decompressed as it is read when its name ends in
 * .zst (libzstd's streaming API) or .gz (zlib's inflate, gzip header, concatenated members). A
 * stream that ends before its last frame or member, or does not decode, is an error, never a
 * hang or a short success. A pipe, FIFO, socket or terminal is read with read(2) for what it
 * has, after poll(2) says there is something: a read that waits for a writer can then be
 * interrupted (df_source_set_interrupt). */
#define _POSIX_C_SOURCE 200809L /* fdopen, fileno, poll */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dirfill/source.h"

#ifdef DF_HAVE_ZSTD
#include <zstd.h>
#endif
#ifdef DF_HAVE_ZLIB
#include <zlib.h>
#endif

typedef enum { DF__PLAIN, DF__ZSTD, DF__GZIP, DF__FUNCTION } df__codec;

/* Compressed bytes read from the file at a time. */
enum { DF__INPUT = 1 << 17 };
/* An interruptible read of a stream with no data asks the interrupt this often (ms): the
 * longest a stop request waits for a read. */
enum { DF__POLL_MS = 20 };

struct df_source {
    long (*function)(void *ctx, char *buf, size_t size); /* DF__FUNCTION */
    void *function_ctx;
    FILE *file;
    bool owned;  /* not standard input */
    bool stream; /* a pipe, FIFO, socket or character device: read(2) after poll(2) */
    df_interrupt interrupt;
    df__codec codec;
    uint64_t consumed;
    char error[160];
    bool failed, ended;
    unsigned char *in; /* compressed input: in[pos, len) not yet decoded */
    size_t pos, len;
#ifdef DF_HAVE_ZSTD
    ZSTD_DStream *zstd;
    size_t frame_left; /* what ZSTD_decompressStream last said: 0 at a frame's end */
#endif
#ifdef DF_HAVE_ZLIB
    z_stream gz;
    bool gz_ready, member_ended;
#endif
};

static bool ends_with(const char *s, const char *suffix)
{
    const size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

df_status df_source_open(df_source **out, const char *path)
{
    if (!out || !path) return DF_ERR_ARGUMENT;
    *out = NULL;
    df__codec codec = DF__PLAIN;
    if (ends_with(path, ".zst")) codec = DF__ZSTD;
    if (ends_with(path, ".gz")) codec = DF__GZIP;
#ifndef DF_HAVE_ZSTD
    if (codec == DF__ZSTD) return DF_ERR_UNSUPPORTED;
#endif
#ifndef DF_HAVE_ZLIB
    if (codec == DF__GZIP) return DF_ERR_UNSUPPORTED;
#endif
    df_source *s = calloc(1, sizeof *s);
    if (!s) return DF_ERR_IO;
    s->codec = codec;
    const bool stdin_ = !strcmp(path, "-");
    /* Opened without waiting for a FIFO's writer (its first read's poll waits, which an
     * interrupt reaches), then read blocking, as fopen opens. A directory is refused here, by
     * name, rather than at its first read. */
    const int fd = stdin_ ? STDIN_FILENO : open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    int e = 0;
    if (fd < 0 || fstat(fd, &st) != 0)
        e = errno;
    else if (S_ISDIR(st.st_mode))
        e = EISDIR;
    else if (!stdin_ && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0)
        e = errno;
    s->stream = !e && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISSOCK(st.st_mode));
    s->file = e ? NULL : stdin_ ? stdin : fdopen(fd, "rb");
    s->owned = !stdin_;
    if (!s->file) {
        if (!e) e = errno;
        if (fd >= 0 && !stdin_) close(fd);
        free(s);
        errno = e;
        return DF_ERR_IO;
    }
    if (codec != DF__PLAIN && !(s->in = malloc(DF__INPUT))) {
        df_source_close(s);
        return DF_ERR_IO;
    }
#ifdef DF_HAVE_ZSTD
    if (codec == DF__ZSTD) {
        s->zstd = ZSTD_createDStream();
        if (!s->zstd || ZSTD_isError(ZSTD_initDStream(s->zstd))) {
            df_source_close(s);
            return DF_ERR_IO;
        }
        s->frame_left = 0;
    }
#endif
#ifdef DF_HAVE_ZLIB
    if (codec == DF__GZIP) {
        /* 15 + 16: a gzip header and trailer. */
        if (inflateInit2(&s->gz, 15 + 16) != Z_OK) {
            df_source_close(s);
            return DF_ERR_IO;
        }
        s->gz_ready = true;
        s->member_ended = true; /* no member begun yet: an empty file is fine */
    }
#endif
    *out = s;
    return DF_OK;
}

static long fail(df_source *s, const char *what)
{
    snprintf(s->error, sizeof s->error, "%s", what);
    s->failed = true;
    return -1;
}

static bool interrupted(const df_source *s)
{
    return s->interrupt.requested && s->interrupt.requested(s->interrupt.ctx);
}

/* Up to size bytes of a stream: what it has once poll says it has something (or has ended).
 * With an interrupt, poll waits DF__POLL_MS at a time and a signal that stops poll or read is
 * no error (the interrupt says whether to stop); without one, poll waits as long as it takes.
 * -1: a read error (errno), or interrupted (s->failed). */
static long read_stream(df_source *s, char *buf, size_t size)
{
    struct pollfd p = {fileno(s->file), POLLIN, 0};
    const bool interruptible = s->interrupt.requested != NULL;
    for (;;) {
        if (interrupted(s)) return fail(s, "interrupted");
        const int ready = poll(&p, 1, interruptible ? DF__POLL_MS : -1);
        const ssize_t n = ready > 0 ? read(p.fd, buf, size) : 0;
        if (ready > 0 && n >= 0) return (long)n;
        if ((ready < 0 || n < 0) && (errno != EINTR || !interruptible)) return -1;
    }
}

/* Up to size bytes of the file as it is: 0 at its end, -1 with s->error set. */
static long read_raw(df_source *s, char *buf, size_t size)
{
    long n;
    if (s->stream) {
        n = read_stream(s, buf, size);
    } else {
        n = (long)fread(buf, 1, size, s->file);
        if (n == 0 && ferror(s->file)) n = -1;
    }
    if (n < 0) {
        if (!s->failed) { /* not interrupted: a read error */
            snprintf(s->error, sizeof s->error, "read error: %s", strerror(errno));
            s->failed = true;
        }
        return -1;
    }
    s->consumed += (uint64_t)n;
    return n;
}

#if defined(DF_HAVE_ZSTD) || defined(DF_HAVE_ZLIB)
/* More compressed input; false at the end of the file (or on an error, s->failed). */
static bool refill(df_source *s)
{
    if (s->pos < s->len) return true;
    s->pos = 0;
    const long n = read_raw(s, (char *)s->in, DF__INPUT);
    s->len = n > 0 ? (size_t)n : 0;
    return n > 0;
}
#endif

df_source *df_source_from_function(long (*read)(void *ctx, char *buf, size_t size), void *ctx)
{
    if (!read) return NULL;
    df_source *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->codec = DF__FUNCTION;
    s->function = read;
    s->function_ctx = ctx;
    return s;
}

void df_source_set_interrupt(df_source *s, const df_interrupt *in)
{
    s->interrupt = in ? *in : (df_interrupt){NULL, NULL};
}

long df_source_read(df_source *s, char *buf, size_t size)
{
    if (s->failed) return -1;
    if (s->ended || size == 0) return 0;
    if (interrupted(s)) return fail(s, "interrupted");
    if (s->codec == DF__FUNCTION) {
        const long n = s->function(s->function_ctx, buf, size);
        if (n < 0) return fail(s, "the input function failed");
        if (n == 0) s->ended = true;
        s->consumed += (uint64_t)n;
        return n;
    }
    if (s->codec == DF__PLAIN) {
        const long n = read_raw(s, buf, size);
        if (n == 0) s->ended = true;
        return n;
    }
#ifdef DF_HAVE_ZSTD
    if (s->codec == DF__ZSTD) {
        ZSTD_outBuffer out = {buf, size, 0};
        while (out.pos == 0) {
            /* At the end of the file the decoder may still hold output of the last frame. */
            const bool more = refill(s);
            if (s->failed) return -1;
            if (!more && s->frame_left == 0) {
                s->ended = true;
                return 0;
            }
            ZSTD_inBuffer in = {s->in, more ? s->len : 0, more ? s->pos : 0};
            const size_t r = ZSTD_decompressStream(s->zstd, &out, &in);
            if (more) s->pos = in.pos;
            if (ZSTD_isError(r)) {
                char why[120];
                snprintf(why, sizeof why, "corrupt zstd stream: %s", ZSTD_getErrorName(r));
                return fail(s, why);
            }
            s->frame_left = r;
            if (!more && out.pos == 0)
                return fail(s, "truncated zstd stream (it ends inside a frame)");
        }
        return (long)out.pos;
    }
#endif
#ifdef DF_HAVE_ZLIB
    if (s->codec == DF__GZIP) {
        s->gz.next_out = (Bytef *)buf;
        s->gz.avail_out = (uInt)(size > (1u << 30) ? (1u << 30) : size);
        while (s->gz.next_out == (Bytef *)buf) {
            const bool more = refill(s);
            if (s->failed) return -1;
            if (!more && s->member_ended) {
                s->ended = true;
                return 0;
            }
            if (more && s->member_ended) {
                inflateReset(&s->gz); /* the next member of a concatenated file */
                s->member_ended = false;
            }
            s->gz.next_in = more ? s->in + s->pos : NULL;
            s->gz.avail_in = more ? (uInt)(s->len - s->pos) : 0;
            const int r = inflate(&s->gz, Z_NO_FLUSH);
            if (more) s->pos = s->len - s->gz.avail_in;
            if (r == Z_STREAM_END)
                s->member_ended = true;
            else if (r != Z_OK && r != Z_BUF_ERROR) {
                char why[120];
                snprintf(why, sizeof why, "corrupt gzip stream: %s",
                         s->gz.msg ? s->gz.msg : "error");
                return fail(s, why);
            }
            if (!more && s->gz.next_out == (Bytef *)buf && !s->member_ended)
                return fail(s, "truncated gzip stream (it ends inside a member)");
        }
        return (long)((char *)s->gz.next_out - buf);
    }
#endif
    return fail(s, "unknown codec");
}

const char *df_source_error(const df_source *s) { return s && s->failed ? s->error : NULL; }

uint64_t df_source_consumed(const df_source *s) { return s->consumed; }

void df_source_close(df_source *s)
{
    if (!s) return;
    if (s->owned && s->file) fclose(s->file);
#ifdef DF_HAVE_ZSTD
    if (s->zstd) ZSTD_freeDStream(s->zstd);
#endif
#ifdef DF_HAVE_ZLIB
    if (s->gz_ready) inflateEnd(&s->gz);
#endif
    free(s->in);
    free(s);
}
