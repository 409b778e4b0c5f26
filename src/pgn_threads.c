/* SPDX-License-Identifier: MIT */
/* Reading PGN on threads (df_pgn_read_threaded). The calling thread reads the input in blocks
 * and runs a lexing reader (DF_PGN_LEX_ONLY: no moves replayed) that marks where games end;
 * runs of whole games ("segments") go to workers, each with its own reader and sink; the
 * calling thread delivers the sinks in input order. A lexer's game end is where a fresh reader
 * can start, so the workers' results equal one reader's. A game that grows past what a
 * segment may hold is read by the calling thread itself (after the earlier segments are
 * delivered) with the rest of the input, which bounds memory whatever the input. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dirfill.h"
#include "pgn_internal.h"

enum {
    DF__BLOCK = 1 << 20,   /* bytes read from the source at a time */
    DF__SEGMENT = 1 << 19, /* a segment is cut once this much input waits */
    DF__HUGE = 16 << 20    /* waiting input without a game end: the rest is read on this thread */
};

/* One segment: its text, where it starts, and what its worker made of it. */
typedef struct {
    char *data;
    size_t len;
    uint64_t first_game, first_line, offset;
    bool last; /* the input ends with it: the worker finishes its reader */
    void *sink;
    df_pgn_stats stats;
    df_status status;
    int state; /* 0 queued, 1 taken, 2 done */
} df__segment;

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    df__segment *ring;
    size_t capacity, head, taken, tail; /* segments [head, tail) in flight, [taken, tail) queued */
    bool quit;
    unsigned flags;
    const df_pgn_sinks *sinks;
} df__pool;

static void *df__worker(void *arg)
{
    df__pool *pool = arg;
    df_pgn_reader *r = df_pgn_reader_new();
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->quit && pool->taken == pool->tail)
            pthread_cond_wait(&pool->changed, &pool->lock);
        if (pool->quit && pool->taken == pool->tail) break;
        df__segment *s = &pool->ring[pool->taken++ % pool->capacity];
        s->state = 1;
        pthread_mutex_unlock(&pool->lock);
        df_pgn_visitor v = pool->sinks->visitor;
        v.ctx = s->sink;
        if (!r || !s->sink) {
            s->status = DF_ERR_IO;
        } else {
            df_pgn_reader_reset(r, pool->flags, s->first_game, s->first_line, s->offset);
            s->status = df_pgn_feed(r, s->data, s->len, &v);
            /* The segment ends where its last game ends; a token ending there (its result) is
             * only seen whole at the next byte: a space stands in for it. */
            if (s->status == DF_OK)
                s->status = s->last ? df_pgn_finish(r, &v) : df_pgn_feed(r, " ", 1, &v);
            s->stats = df_pgn_reader_stats(r);
            s->stats.bytes = s->len;
        }
        pthread_mutex_lock(&pool->lock);
        s->state = 2;
        pthread_cond_broadcast(&pool->changed);
    }
    pthread_mutex_unlock(&pool->lock);
    df_pgn_reader_free(r);
    return NULL;
}

/* The input waiting to be cut into segments: buf[0, len) starts at stream offset `offset` and
 * line `line`, game `game`; ends[] holds the lexer's game ends inside it. */
typedef struct {
    char *buf;
    size_t len, cap;
    uint64_t offset, line, game;
    /* The last game end the lexer saw in buf: where a segment may be cut. */
    bool have_cut;
    uint64_t cut_offset, cut_line, cut_game;
    bool cut_has_result;
} df__pending;

typedef struct {
    df__pending *pending;
} df__lex_ctx;

static df_pgn_action df__lexed_end(void *ctx, const df_pgn_game *g)
{
    df__pending *p = ctx;
    p->have_cut = true;
    p->cut_offset = g->end_offset;
    p->cut_line = g->end_line;
    p->cut_game = g->index + 1;
    p->cut_has_result = g->has_result;
    return DF_PGN_READ;
}

typedef struct {
    df__pool pool;
    pthread_t *tid;
    unsigned started;
    df_pgn_stats totals;
    df_status status;
} df__run;

static void df__add(df_pgn_stats *to, const df_pgn_stats *s)
{
    to->games += s->games;
    to->errors += s->errors;
    to->skipped += s->skipped;
    to->plies += s->plies;
    to->bytes += s->bytes;
}

/* Delivers the oldest segment once done (waiting for it when wait); false when none was. */
static bool df__deliver_oldest(df__run *run, bool wait)
{
    df__pool *pool = &run->pool;
    pthread_mutex_lock(&pool->lock);
    if (pool->head == pool->tail) {
        pthread_mutex_unlock(&pool->lock);
        return false;
    }
    df__segment *s = &pool->ring[pool->head % pool->capacity];
    while (wait && s->state != 2) pthread_cond_wait(&pool->changed, &pool->lock);
    const bool done = s->state == 2;
    pthread_mutex_unlock(&pool->lock);
    if (!done) return false;
    df__add(&run->totals, &s->stats);
    if (run->status == DF_OK && s->status != DF_OK) run->status = s->status;
    if (run->status == DF_OK && s->sink && pool->sinks->deliver(pool->sinks->ctx, s->sink))
        run->status = DF_ERR_INTERRUPTED;
    if (s->sink) pool->sinks->drop(pool->sinks->ctx, s->sink);
    free(s->data);
    pthread_mutex_lock(&pool->lock);
    pool->head++;
    pthread_mutex_unlock(&pool->lock);
    return true;
}

/* Queues pending[0, len) as a segment (waiting while the ring is full). */
static void df__dispatch(df__run *run, char *data, size_t len, uint64_t game, uint64_t line,
                         uint64_t offset, bool last)
{
    df__pool *pool = &run->pool;
    for (;;) {
        pthread_mutex_lock(&pool->lock);
        const bool full = pool->tail - pool->head == pool->capacity;
        pthread_mutex_unlock(&pool->lock);
        if (!full) break;
        df__deliver_oldest(run, true);
    }
    df__segment s = {data, len, game, line, offset, last, NULL, {0, 0, 0, 0, 0}, DF_OK, 0};
    s.sink = pool->sinks->open(pool->sinks->ctx);
    pthread_mutex_lock(&pool->lock);
    pool->ring[pool->tail++ % pool->capacity] = s;
    pthread_cond_broadcast(&pool->changed);
    pthread_mutex_unlock(&pool->lock);
    while (df__deliver_oldest(run, false)) {
    }
}

/* Reads first[0, nfirst) and then the rest of the source on this thread with r, the sink
 * delivered whenever the reader stands between games (threads = 1, or after a game too big for
 * a segment: rare enough that the rest of such an input is read here). */
static df_status df__serial(df_pgn_source *src, const df_pgn_sinks *sinks, df_pgn_reader *r,
                            const char *first, size_t nfirst, char *block, df_pgn_stats *totals)
{
    void *sink = sinks->open(sinks->ctx);
    if (!sink) return DF_ERR_IO;
    df_pgn_visitor v = sinks->visitor;
    v.ctx = sink;
    df_status status = nfirst ? df_pgn_feed(r, first, nfirst, &v) : DF_OK;
    while (status == DF_OK) {
        const long n = df_pgn_source_read(src, block, DF__BLOCK);
        if (n < 0) status = DF_ERR_IO;
        if (n <= 0) {
            const df_status s = df_pgn_finish(r, &v);
            if (status == DF_OK) status = s;
            break;
        }
        if ((status = df_pgn_feed(r, block, (size_t)n, &v)) != DF_OK) break;
        if (df_pgn_reader_between_games(r)) {
            if (sinks->deliver(sinks->ctx, sink)) status = DF_ERR_INTERRUPTED;
            sinks->drop(sinks->ctx, sink);
            if (status != DF_OK || !(sink = sinks->open(sinks->ctx)))
                return status ? status : DF_ERR_IO;
            v.ctx = sink;
        }
    }
    if (sinks->deliver(sinks->ctx, sink) && status == DF_OK) status = DF_ERR_INTERRUPTED;
    sinks->drop(sinks->ctx, sink);
    const df_pgn_stats s = df_pgn_reader_stats(r);
    df__add(totals, &s);
    return status;
}

static bool df__reserve(df__pending *p, size_t more)
{
    if (p->len + more <= p->cap) return true;
    size_t cap = p->cap ? p->cap : DF__BLOCK;
    while (cap < p->len + more) cap *= 2;
    char *grown = realloc(p->buf, cap);
    if (!grown) return false;
    p->buf = grown;
    p->cap = cap;
    return true;
}

/* Cuts pending at its last game end into a segment (the rest stays pending). */
static bool df__cut(df__run *run, df__pending *p, bool last)
{
    const size_t at = last ? p->len : (size_t)(p->cut_offset - p->offset);
    char *data = malloc(at ? at : 1);
    if (!data) return false;
    memcpy(data, p->buf, at);
    df__dispatch(run, data, at, p->game, p->line, p->offset, last);
    memmove(p->buf, p->buf + at, p->len - at);
    p->len -= at;
    p->offset += at;
    p->line = p->cut_line;
    p->game = p->cut_game;
    p->have_cut = false;
    return true;
}

df_status df_pgn_read_threaded(df_pgn_source *src, unsigned flags, unsigned threads,
                               const df_pgn_sinks *sinks, df_pgn_stats *stats)
{
    if (!src || !sinks || !sinks->open || !sinks->deliver || !sinks->drop) return DF_ERR_ARGUMENT;
    if (threads == 0) threads = df_hardware_threads();
    if (threads > 256) threads = 256;
    char *block = malloc(DF__BLOCK);
    df_pgn_stats totals = {0, 0, 0, 0, 0};
    df_status status = DF_OK;
    if (!block) return DF_ERR_IO;
    if (threads == 1) {
        df_pgn_reader *r = df_pgn_reader_new();
        status = r ? df__serial(src, sinks, r, NULL, 0, block, &totals) : DF_ERR_IO;
        df_pgn_reader_free(r);
        free(block);
        if (stats) *stats = totals;
        return status;
    }

    df__run run;
    memset(&run, 0, sizeof run);
    df__pool *pool = &run.pool;
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->changed, NULL);
    pool->capacity = 4 * (size_t)threads;
    pool->ring = calloc(pool->capacity, sizeof *pool->ring);
    pool->flags = flags;
    pool->sinks = sinks;
    run.tid = calloc(threads, sizeof *run.tid);
    df_pgn_reader *lexer = df_pgn_reader_new();
    df__pending pending = {NULL, 0, 0, 0, 1, 0, false, 0, 0, 0, false};
    if (!pool->ring || !run.tid || !lexer) run.status = DF_ERR_IO;
    for (unsigned t = 0; run.status == DF_OK && t < threads; t++)
        if (pthread_create(&run.tid[t], NULL, df__worker, pool) == 0) run.started++;
    if (run.status == DF_OK && run.started == 0) run.status = DF_ERR_IO;
    df_pgn_reader_reset(lexer, flags | DF_PGN_LEX_ONLY, 0, 1, 0);
    const df_pgn_visitor lex = {NULL, NULL, df__lexed_end, &pending};
    bool eof = false;
    while (run.status == DF_OK && !eof) {
        const long n = df_pgn_source_read(src, block, DF__BLOCK);
        if (n <= 0) {
            eof = true;
            if (n < 0) status = DF_ERR_IO;
            df_pgn_finish(lexer, &lex);
            df__cut(&run, &pending, true);
            break;
        }
        if (!df__reserve(&pending, (size_t)n)) {
            run.status = DF_ERR_IO;
            break;
        }
        memcpy(pending.buf + pending.len, block, (size_t)n);
        pending.len += (size_t)n;
        df_pgn_feed(lexer, block, (size_t)n, &lex);
        if (pending.have_cut && pending.len >= DF__SEGMENT) {
            if (!df__cut(&run, &pending, false)) run.status = DF_ERR_IO;
        } else if (!pending.have_cut && pending.len >= DF__HUGE) {
            /* One game outgrew a segment: the earlier segments are delivered, then this thread
             * reads the rest, starting with that game. */
            while (df__deliver_oldest(&run, true)) {
            }
            df_pgn_reader *r = df_pgn_reader_new();
            if (run.status == DF_OK) {
                df_pgn_reader_reset(r, flags, pending.game, pending.line, pending.offset);
                status = r ? df__serial(src, sinks, r, pending.buf, pending.len, block, &run.totals)
                           : DF_ERR_IO;
            }
            df_pgn_reader_free(r);
            break;
        }
    }
    while (df__deliver_oldest(&run, true)) {
    }
    pthread_mutex_lock(&pool->lock);
    pool->quit = true;
    pthread_cond_broadcast(&pool->changed);
    pthread_mutex_unlock(&pool->lock);
    for (unsigned t = 0; t < run.started; t++) pthread_join(run.tid[t], NULL);
    pthread_mutex_destroy(&pool->lock);
    pthread_cond_destroy(&pool->changed);
    free(pool->ring);
    free(run.tid);
    free(pending.buf);
    free(block);
    df_pgn_reader_free(lexer);
    if (stats) *stats = run.totals;
    return run.status != DF_OK ? run.status : status;
}
