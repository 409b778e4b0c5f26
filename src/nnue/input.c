/* SPDX-License-Identifier: MIT */
/* A reader's input (nnue/internal.h): its source read through a buffer, so that each format
 * sees its next record's bytes contiguous, and a .binpack chunk's payload goes straight from
 * the source to the chunk. */
#include <string.h>

#include "nnue/internal.h"

size_t df__nnue_peek(df__nnue_input *in, size_t n)
{
    if (in->len - in->pos >= n) return n;
    memmove(in->buf, in->buf + in->pos, in->len - in->pos);
    in->len -= in->pos;
    in->pos = 0;
    while (in->len < n && !in->ended) {
        const long got =
            df_source_read(in->src, (char *)in->buf + in->len, DF__NNUE_INPUT - in->len);
        if (got <= 0) {
            in->ended = true;
            in->failed = got < 0;
        } else {
            in->len += (size_t)got;
        }
    }
    return in->len < n ? in->len : n;
}

size_t df__nnue_take(df__nnue_input *in, unsigned char *dst, size_t n)
{
    size_t done = in->len - in->pos < n ? in->len - in->pos : n;
    memcpy(dst, in->buf + in->pos, done);
    df__nnue_consume(in, done);
    /* The rest straight from the source: a chunk's megabyte is not copied twice. */
    while (done < n && !in->ended) {
        const long got = df_source_read(in->src, (char *)dst + done, n - done);
        if (got <= 0) {
            in->ended = true;
            in->failed = got < 0;
        } else {
            done += (size_t)got;
            in->offset += (uint64_t)got;
        }
    }
    return done;
}

const char *df__nnue_input_error(const df__nnue_input *in)
{
    const char *why = df_source_error(in->src);
    return why ? why : "a read error";
}

int df__nnue_next_record(df_nnue_reader *r, unsigned char *rec, size_t n, uint64_t *index,
                         uint64_t *offset, df_nnue_error *err)
{
    df__nnue_input *in = &r->in;
    const size_t got = df__nnue_peek(in, n);
    /* A record cut by a read error is no fault of the file: read_any says the error. */
    if (!got || (got < n && in->failed)) return 0;
    *index = r->records++;
    *offset = in->offset;
    if (got < n) {
        df__nnue_consume(in, got);
        df__nnue_fail(err, DF_NNUE_ERR_TRUNCATED, *offset, *index,
                      "record %llu at byte %llu: the file ends inside it (%zu of %zu bytes)",
                      (unsigned long long)*index, (unsigned long long)*offset, got, n);
        return -1;
    }
    memcpy(rec, in->buf + in->pos, n);
    df__nnue_consume(in, n);
    return 1;
}
