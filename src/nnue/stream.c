/* SPDX-License-Identifier: MIT */
/* A stream of entries over many inputs (nnue_stream.h): each input's reader opened in turn or,
 * shuffling, pieces of inputs picked at random by the bytes left of them into a buffer that
 * is shuffled and handed out; the skip predicate asked in reading order; cyclic inputs opened
 * again at their end. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "nnue/internal.h"
#include "nnue/mt19937_64.h"
#include "nnue/shuffle.h"

/* Reads between two questions to the interrupt: a few milliseconds of decoding. */
enum { ASK_EVERY = 4096 };

typedef struct {
    df_nnue_stream_input spec;
    bool known;            /* spec.size is the input's size (a regular file's may be 0) */
    df_nnue_reader *r;     /* open, or NULL */
    bool done;             /* read for the last time (or it cannot be opened) */
    uint64_t pass_entries; /* entries read in this pass */
    bool read_failed;      /* this pass met a read error */
} input;

struct df_nnue_stream {
    input *in;
    size_t n;
    df_nnue_stream_options o;
    df_interrupt interrupt;
    df_nnue_skip *skip;
    df__mt19937_64 rng; /* the picks and the shuffles */
    bool stopped;       /* the interrupt said stop */
    uint64_t reads;
    /* the input being read: in the inputs' order, or the piece being read */
    size_t cur; /* n: none */
    size_t next_in_order;
    uint64_t piece_reads, piece_start;
    df__shuffle buf; /* the shuffle's (its memory taken at the first entry) */
    bool over;       /* the inputs are read: what the buffer holds is the last */
    df_nnue_stream_counts counts;
};

/* SplitMix64's first output for seed: the picks' and shuffles' generator's seed, a stream apart
 * from the skip predicate's, which is seeded with the seed itself. */
static uint64_t splitmix64(uint64_t seed)
{
    uint64_t x = seed + UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

df_status df_nnue_stream_new(df_nnue_stream **out, const df_nnue_stream_input *inputs, size_t n,
                             const df_nnue_stream_options *options)
{
    if (!out) return DF_ERR_ARGUMENT;
    *out = NULL;
    const df_nnue_stream_options *o = options;
    const uint32_t world = o && o->world ? o->world : 1;
    if (!o || (n && !inputs) || n > UINT32_MAX || o->rank >= world ||
        o->shuffle > DF_NNUE_STREAM_SHUFFLE_MAX || (unsigned)o->pgn.units > DF_NNUE_UNITS_CP)
        return DF_ERR_ARGUMENT;
    for (size_t k = 0; k < n; k++)
        if ((!inputs[k].path && !o->open) || (unsigned)inputs[k].format >= DF_NNUE_FORMATS)
            return DF_ERR_ARGUMENT;
    df_nnue_stream *s = calloc(1, sizeof *s);
    if (!s) return DF_ERR_IO;
    s->o = *o;
    s->o.world = world;
    s->o.skip = NULL; /* the caller's options need not outlive the call */
    if (o->interrupt) s->interrupt = *o->interrupt;
    s->n = s->cur = n;
    if (n && !(s->in = calloc(n, sizeof *s->in))) {
        free(s);
        return DF_ERR_IO;
    }
    for (size_t k = 0; k < n; k++) {
        input *in = &s->in[k];
        in->spec = inputs[k];
        in->known = in->spec.size > 0;
        struct stat st;
        /* A regular file's size; a compressed one's too, as its source counts what it read. */
        if (!in->known && in->spec.path && strcmp(in->spec.path, "-") &&
            stat(in->spec.path, &st) == 0 && S_ISREG(st.st_mode)) {
            in->spec.size = (uint64_t)st.st_size;
            in->known = true;
        }
    }
    if (o->skip && !(s->skip = df_nnue_skip_new(o->skip, o->seed))) {
        free(s->in);
        free(s);
        return DF_ERR_ARGUMENT;
    }
    df__mt_seed(&s->rng, splitmix64(o->seed));
    *out = s;
    return DF_OK;
}

/* Hands input k's reader to the close hook (or frees it); whole: read to its end. At the end
 * of a pass, decides whether it is read again. */
static void close_input(df_nnue_stream *s, size_t k, bool whole)
{
    input *in = &s->in[k];
    if (!in->r) return;
    if (s->o.close)
        s->o.close(s->o.ctx, k, in->r, whole);
    else
        df_nnue_reader_free(in->r);
    in->r = NULL;
    if (!whole) return;
    /* A pass that gave nothing would give nothing again, and one cut by a read error would
     * stop there again: neither is read again, so such a cyclic stream ends. */
    in->done = !s->o.cyclic || !in->pass_entries || in->read_failed;
    in->pass_entries = 0;
    in->read_failed = false;
}

void df_nnue_stream_free(df_nnue_stream *s)
{
    if (!s) return;
    for (size_t k = 0; k < s->n; k++) close_input(s, k, false);
    df_nnue_skip_free(s->skip);
    free(s->in);
    df__shuffle_free(&s->buf);
    free(s);
}

/* Opens input k: false (and the input done) when it cannot be; an error of a path into err. */
static bool open_input(df_nnue_stream *s, size_t k, df_nnue_error *err, bool *said)
{
    input *in = &s->in[k];
    *said = false;
    if (s->o.open) {
        in->r = s->o.open(s->o.ctx, k);
    } else {
        const df_status st = df_nnue_reader_open(&in->r, in->spec.path, in->spec.format);
        if (st != DF_OK) {
            const char *why = st == DF_ERR_UNSUPPORTED ? "this build cannot decompress it"
                                                       : strerror(errno ? errno : EIO);
            df__nnue_fail(err, DF_NNUE_ERR_IO, 0, 0, "cannot open it: %s", why);
            *said = true;
        }
    }
    if (!in->r) {
        in->done = true;
        return false;
    }
    s->counts.opened++;
    df_nnue_reader_set_share(in->r, s->o.rank, s->o.world);
    if (in->r->format == DF_NNUE_PGN) df_nnue_reader_set_pgn(in->r, &s->o.pgn);
    return true;
}

/* The next input in the inputs' order (again from the first when cyclic); false when none is
 * left. */
static bool next_in_order(df_nnue_stream *s)
{
    for (size_t tried = 0; tried <= s->n; tried++) {
        if (s->next_in_order == s->n) {
            if (!s->o.cyclic) return false;
            s->next_in_order = 0;
        }
        const size_t k = s->next_in_order;
        if (!s->in[k].done) {
            s->cur = k;
            return true;
        }
        s->next_in_order++;
    }
    return false;
}

/* What is left of an input to read, in bytes of its source: at least 1 until it ends (a file
 * that grew is read to its end all the same). */
static uint64_t weight(const input *in)
{
    const uint64_t read = in->r ? df_source_consumed(in->r->in.src) : 0;
    return in->spec.size > read ? in->spec.size - read : 1;
}

/* An input at random among those left, weighted by the bytes left of each (each the same when
 * some size is not known); false when none is left. */
static bool pick(df_nnue_stream *s)
{
    uint64_t total = 0;
    bool known = true;
    for (size_t k = 0; k < s->n; k++)
        if (!s->in[k].done) {
            total++;
            known = known && s->in[k].known;
        }
    if (!total) return false;
    if (known) {
        total = 0;
        for (size_t k = 0; k < s->n; k++)
            if (!s->in[k].done) total += weight(&s->in[k]);
    }
    uint64_t at = df__mt_below(&s->rng, total);
    for (size_t k = 0; k < s->n; k++) {
        if (s->in[k].done) continue;
        const uint64_t w = known ? weight(&s->in[k]) : 1;
        if (at < w) {
            s->cur = k;
            s->counts.pieces++;
            return true;
        }
        at -= w;
    }
    return false; /* not reached: at is below the total */
}

/* Whether the piece being read from input in is over: a .binpack chunk's entries, or
 * DF_NNUE_STREAM_PIECE bytes of another format. */
static bool piece_over(const df_nnue_stream *s, const input *in)
{
    if (!s->piece_reads) return false;
    if (in->r->format == DF_NNUE_BINPACK) return df__binpack_chunk_over(in->r);
    return in->r->in.offset - s->piece_start >= DF_NNUE_STREAM_PIECE;
}

/* The next kept entry or error of the inputs, in reading order, and its input in *k. */
static df_nnue_next pull(df_nnue_stream *s, df_nnue_entry *out, df_nnue_error *err, size_t *k)
{
    for (;;) {
        if (s->stopped) return DF_NNUE_END;
        if (s->cur == s->n) {
            if (!(s->o.shuffle ? pick(s) : next_in_order(s))) return DF_NNUE_END;
            s->piece_reads = 0;
        }
        input *in = &s->in[s->cur];
        if (!in->r) {
            bool said;
            if (!open_input(s, s->cur, err, &said)) {
                *k = s->cur;
                s->cur = s->n;
                if (!s->o.shuffle) s->next_in_order++;
                if (!said) continue;
                s->counts.errors++;
                return DF_NNUE_ERROR;
            }
        }
        if (s->o.shuffle && piece_over(s, in)) {
            if (in->r->format == DF_NNUE_BINPACK) df__binpack_release(in->r);
            s->cur = s->n;
            continue;
        }
        if (!s->piece_reads++) s->piece_start = in->r->in.offset;
        if (++s->reads % ASK_EVERY == 0 && s->interrupt.requested &&
            s->interrupt.requested(s->interrupt.ctx)) {
            s->stopped = true;
            return DF_NNUE_END;
        }
        const df_nnue_next got = df_nnue_read_next(in->r, out, err);
        if (got == DF_NNUE_END) {
            close_input(s, s->cur, true);
            s->cur = s->n;
            if (!s->o.shuffle) s->next_in_order++;
            continue;
        }
        *k = s->cur;
        if (got == DF_NNUE_ERROR) {
            if (err->kind == DF_NNUE_ERR_IO) in->read_failed = true;
            s->counts.errors++;
            return DF_NNUE_ERROR;
        }
        s->counts.entries++;
        in->pass_entries++;
        if (s->skip &&
            df_nnue_skip_entry(s->skip, &out->pos, out->move, out->score, out->ply, out->result)) {
            s->counts.skipped++;
            continue;
        }
        s->counts.kept++;
        return DF_NNUE_ENTRY;
    }
}

/* The buffer shuffled: what it holds is handed out next. */
static void mix(df_nnue_stream *s)
{
    df__shuffle_mix(&s->buf, &s->rng);
    s->counts.held = s->buf.held;
}

df_nnue_next df_nnue_stream_next(df_nnue_stream *s, df_nnue_entry *out, df_nnue_error *err,
                                 size_t *input)
{
    if (!s || !out) return DF_NNUE_END;
    df_nnue_error e;
    size_t k = s->n;
    if (!s->o.shuffle) {
        const df_nnue_next got = pull(s, out, &e, &k);
        if (got == DF_NNUE_ERROR && err) *err = e;
        if (got != DF_NNUE_END && input) *input = k;
        return got;
    }
    df__shuffle *b = &s->buf;
    for (;;) {
        if (s->stopped) return DF_NNUE_END;
        if (b->draining) {
            if (df__shuffle_take(b, out, &k)) {
                if (input) *input = k;
                s->counts.held = b->held - b->handed;
                return DF_NNUE_ENTRY;
            }
            s->counts.held = 0;
        }
        if (s->over) return DF_NNUE_END;
        if (!b->cap && !df__shuffle_init(b, s->o.shuffle)) {
            s->over = true;
            df__nnue_fail(err, DF_NNUE_ERR_IO, 0, 0,
                          "out of memory for a shuffle buffer of %zu entries", s->o.shuffle);
            if (input) *input = s->n;
            s->counts.errors++;
            return DF_NNUE_ERROR;
        }
        s->counts.capacity = b->cap;
        const df_nnue_next got = pull(s, df__shuffle_slot(b), &e, &k);
        if (got == DF_NNUE_ERROR) {
            if (err) *err = e;
            if (input) *input = k;
            return DF_NNUE_ERROR;
        }
        if (got == DF_NNUE_END) {
            if (s->stopped) return DF_NNUE_END;
            s->over = true;
            if (b->held) mix(s);
            continue;
        }
        df__shuffle_keep(b, k);
        s->counts.held = b->held;
        if (b->held > s->counts.held_peak) s->counts.held_peak = b->held;
        if (b->held == b->cap) mix(s);
    }
}

void df_nnue_stream_counts_of(df_nnue_stream_counts *out, const df_nnue_stream *s)
{
    if (!out) return;
    memset(out, 0, sizeof *out);
    if (s) *out = s->counts;
}
