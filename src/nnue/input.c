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
