/* SPDX-License-Identifier: MIT */
/* Reading PGN on threads (df_pgn_read_threaded). The calling thread reads blocks and cuts runs
 * of games ("segments") where a line after a blank line starts with '[' and a letter, which a
 * memchr finds; it counts their newlines so each knows its first line. Workers read segments
 * with readers of their own into sinks. A cut is exact when the reader of the segment before
 * it stood outside any tag section there (df__pgn_cut_ok): in movetext, a comment or a
 * variation such a line starts a new game (pgn.h's recovery rule). The worker then feeds the
 * next segment's first two bytes, '[' and the letter, so that its last game ends exactly as a
 * single reader ends it. A segment whose cut was not exact (a blank line inside a tag section,
 * say) is read again on the calling thread together with the next one. Sinks are delivered in
 * input order, each told its first game's index. A game that outgrows a segment makes the
 * calling thread read the rest of the input alone, which bounds memory whatever the input. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "dirfill.h"
#include "internal.h"
#include "services/threads.h"

enum {
    DF__BLOCK = 1 << 20,        /* bytes read from the source at a time */
    DF__SEGMENT = 1 << 19,      /* a segment is cut once this much input waits */
    DF__HUGE = 16 << 20,        /* waiting input without a cut: the rest is read on this thread */
    DF__SERIAL_PIECE = 1 << 16, /* the calling thread's own read: a sink per piece or so */
    /* ... and the bytes it reads at a time, after the tail of the last read: the kernel's copy
     * is still in the core's L2 cache when the scan reads it (1 MB reads were not: --headers
     * and --where spent more CPU) */
    DF__SERIAL_READ = 1 << 17
};

/* One segment: its text, where it starts, and what its worker made of it. */
typedef struct {
    char *data;
    size_t len, cap; /* cap: data's room */
    char next[2];    /* the next segment's first two bytes ('[' and a letter); none for the last */
    bool last;       /* the input ends with it: the worker finishes its reader */
    uint64_t first_line, offset;
    void *sink;
    df_pgn_stats stats;
    df_status status;
    bool cut_ok; /* the reader stood where the cut after it is exact */
    enum { SEGMENT_QUEUED, SEGMENT_TAKEN, SEGMENT_DONE } state;
} df__segment;

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    df__segment *ring;
    size_t capacity, head, taken, tail; /* [head, tail) in flight, [taken, tail) queued */
    bool quit;
    unsigned flags;
    const df_pgn_filter *filter;
    const df_pgn_sinks *sinks;
} df__pool;

/* Reads one segment into its sink with r (on a worker, or again on the calling thread). */
static void df__read_segment(df__segment *s, df_pgn_reader *r, unsigned flags,
                             const df_pgn_sinks *sinks)
{
    df_pgn_visitor v = sinks->visitor;
    v.ctx = s->sink;
    df_pgn_reader_reset(r, flags, 0, s->first_line, s->offset);
    s->status = df_pgn_feed(r, s->data, s->len, &v);
    s->cut_ok = s->last || df__pgn_cut_ok(r);
    if (s->status == DF_OK)
        s->status = s->last ? df_pgn_finish(r, &v) : df_pgn_feed(r, s->next, 2, &v);
    s->stats = df_pgn_reader_stats(r);
    s->stats.bytes = s->len;
}

static void *df__worker(void *arg)
{
    df__pool *pool = arg;
    df_pgn_reader *r = df_pgn_reader_new();
    if (r) df_pgn_reader_set_filter(r, pool->filter);
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->quit && pool->taken == pool->tail)
            pthread_cond_wait(&pool->changed, &pool->lock);
        if (pool->taken == pool->tail) break;
        df__segment *s = &pool->ring[pool->taken++ % pool->capacity];
        s->state = SEGMENT_TAKEN;
        pthread_mutex_unlock(&pool->lock);
        if (r && s->sink)
            df__read_segment(s, r, pool->flags, pool->sinks);
        else
            s->status = DF_ERR_IO;
        pthread_mutex_lock(&pool->lock);
        s->state = SEGMENT_DONE;
        pthread_cond_broadcast(&pool->changed);
    }
    pthread_mutex_unlock(&pool->lock);
    df_pgn_reader_free(r);
    return NULL;
}

/* A segment's text buffer, delivered and kept for the reads after a later cut. */
typedef struct {
    char *data;
    size_t cap;
} df__text;

typedef struct {
    df__pool pool;
    /* Up to the ring's capacity of them: glibc gives a freed buffer of a segment's size back to
     * the system, and a new one is faulted in page by page as the reads fill it, which cost the
     * calling thread more than the copy itself. */
    df__text *spare;
    size_t nspare;
    pthread_t *tid;
    unsigned started;
    df_pgn_stats totals;
    df_status status;
    df_pgn_reader *again; /* re-reads merged segments on the calling thread */
} df__run;

static void df__add(df_pgn_stats *to, const df_pgn_stats *s)
{
    to->games += s->games;
    to->errors += s->errors;
    to->skipped += s->skipped;
    to->filtered += s->filtered;
    to->plies += s->plies;
    to->bytes += s->bytes;
    to->kept += s->kept;
}

static df__segment *df__at(df__pool *pool, size_t i) { return &pool->ring[i % pool->capacity]; }

/* Waits until segment i is read. */
static void df__wait(df__pool *pool, size_t i)
{
    pthread_mutex_lock(&pool->lock);
    while (df__at(pool, i)->state != SEGMENT_DONE) pthread_cond_wait(&pool->changed, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
}

static void df__release(df__run *run, df__segment *s)
{
    if (s->sink) run->pool.sinks->drop(run->pool.sinks->ctx, s->sink);
    if (s->data && run->nspare < run->pool.capacity)
        run->spare[run->nspare++] = (df__text){s->data, s->cap};
    else
        free(s->data);
    s->sink = NULL;
    s->data = NULL;
}

/* Delivers the oldest segment once read (waiting for it when wait); false when there was none
 * to deliver. A segment whose cut was not exact is merged with the next ones and read again
 * here; one with no next segment queued yet waits for it (false). */
static bool df__deliver_oldest(df__run *run, bool wait)
{
    df__pool *pool = &run->pool;
    pthread_mutex_lock(&pool->lock);
    const bool any = pool->head != pool->tail,
               done = any && df__at(pool, pool->head)->state == SEGMENT_DONE;
    pthread_mutex_unlock(&pool->lock);
    if (!any || (!done && !wait)) return false;
    df__wait(pool, pool->head);
    df__segment *s = df__at(pool, pool->head);
    /* A cut in the wrong place: this segment and the next are read again as one (and the
     * next one's cut checked in its turn). */
    while (!s->cut_ok && s->status == DF_OK && pool->head + 1 != pool->tail) {
        df__wait(pool, pool->head + 1);
        df__segment *n = df__at(pool, pool->head + 1);
        char *joined = malloc(s->len + n->len + 1);
        if (!joined || !run->again) {
            free(joined);
            s->status = DF_ERR_IO;
            break;
        }
        if (s->len) memcpy(joined, s->data, s->len);
        if (n->len) memcpy(joined + s->len, n->data, n->len);
        df__segment merged = *n;
        merged.data = joined;
        merged.len = s->len + n->len;
        merged.cap = merged.len + 1;
        merged.first_line = s->first_line;
        merged.offset = s->offset;
        merged.sink = pool->sinks->open(pool->sinks->ctx);
        df__release(run, s);
        df__release(run, n);
        pthread_mutex_lock(&pool->lock);
        pool->head++;
        pthread_mutex_unlock(&pool->lock);
        s = df__at(pool, pool->head);
        *s = merged;
        if (s->sink)
            df__read_segment(s, run->again, pool->flags, pool->sinks);
        else
            s->status = DF_ERR_IO;
    }
    if (!s->cut_ok && s->status == DF_OK) return false; /* its last game goes on in the next */
    if (run->status == DF_OK && s->status != DF_OK) run->status = s->status;
    if (run->status == DF_OK && s->sink &&
        pool->sinks->deliver(pool->sinks->ctx, s->sink, run->totals.games))
        run->status = DF_ERR_INTERRUPTED;
    df__add(&run->totals, &s->stats);
    df__release(run, s);
    pthread_mutex_lock(&pool->lock);
    pool->head++;
    pthread_mutex_unlock(&pool->lock);
    return true;
}

/* Queues a segment (waiting while the ring is full, delivering what is done). */
static void df__dispatch(df__run *run, df__segment s)
{
    df__pool *pool = &run->pool;
    for (;;) {
        pthread_mutex_lock(&pool->lock);
        const bool full = pool->tail - pool->head == pool->capacity;
        pthread_mutex_unlock(&pool->lock);
        if (!full) break;
        df__deliver_oldest(run, true);
    }
    s.sink = pool->sinks->open(pool->sinks->ctx);
    s.state = SEGMENT_QUEUED;
    pthread_mutex_lock(&pool->lock);
    *df__at(pool, pool->tail++) = s;
    pthread_cond_broadcast(&pool->changed);
    pthread_mutex_unlock(&pool->lock);
    while (df__deliver_oldest(run, false)) {
    }
}

/* The input waiting to be cut: buf[0, len) starts at stream offset `offset`, line `line`. The
 * source reads into it, and a cut hands the buffer itself to the segment: each byte is copied
 * once, by the read (a block read and then copied here and again into the segment showed in
 * the profile of the calling thread, which the workers wait for). */
typedef struct {
    char *buf;
    size_t len, cap;
    uint64_t offset, line;
} df__pending;

/* Faults in the pages of a fresh buffer's [p, p + n) that the next copy and read will write, by
 * one call (advice: may fail) rather than a fault per page as read() first writes them: in a
 * VM a fault is dear, and a read's faults were a large part of its CPU time, on the calling
 * thread that the workers wait for. */
static void df__fault_in(char *p, size_t n)
{
#ifdef MADV_POPULATE_WRITE
    const uintptr_t from = ((uintptr_t)p + 4095) & ~(uintptr_t)4095,
                    to = ((uintptr_t)p + n) & ~(uintptr_t)4095;
    if (to > from) madvise((void *)from, to - from, MADV_POPULATE_WRITE);
#else
    (void)p, (void)n;
#endif
}

/* Room for a read of DF__BLOCK bytes after what waits. */
static bool df__pending_room(df__pending *p)
{
    if (p->cap - p->len >= DF__BLOCK) return true;
    size_t cap = p->cap ? 2 * p->cap : 2 * DF__BLOCK;
    while (cap - p->len < DF__BLOCK) cap *= 2;
    char *grown = realloc(p->buf, cap);
    if (!grown) return false;
    df__fault_in(grown + p->len, DF__BLOCK);
    p->buf = grown;
    p->cap = cap;
    return true;
}

static uint64_t df__newlines(const char *p, size_t n)
{
    uint64_t count = 0;
    if (n == 0) return 0; /* p may be null */
    for (const char *end = p + n; (p = memchr(p, '\n', (size_t)(end - p))); p++) count++;
    return count;
}

static bool df__is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* The last place in buf[from, len) where a segment may end: before a '[' and a letter that
 * start a line following a blank line; 0 when there is none. */
static size_t df__find_cut(const char *buf, size_t len, size_t from)
{
    for (size_t i = len; i-- > from + 2;) {
        if (buf[i] != '[' || i + 1 >= len || !df__is_letter(buf[i + 1])) continue;
        /* The line before is blank: "\n\n" or "\n\r\n" before the '['. */
        if (buf[i - 1] == '\n' &&
            (buf[i - 2] == '\n' || (buf[i - 2] == '\r' && i >= 3 && buf[i - 3] == '\n')))
            return i;
    }
    return 0;
}

/* Makes pending[0, at) a segment, which takes pending's buffer; the rest moves to a spare
 * buffer (a new one when none is left), where the next reads go. */
static bool df__cut(df__run *run, df__pending *p, size_t at, bool last)
{
    const size_t rest = p->len - at;
    df__text next = {NULL, 0};
    if (!last) {
        if (run->nspare) next = run->spare[--run->nspare];
        if (next.cap < rest + DF__BLOCK) {
            free(next.data); /* its old text is not needed: no realloc to copy it */
            next.cap = rest + 2 * DF__BLOCK;
            if (!(next.data = malloc(next.cap))) return false;
            df__fault_in(next.data, rest + DF__BLOCK);
        }
        memcpy(next.data, p->buf + at, rest); /* at least the next game's first two bytes */
    }
    df__segment s;
    memset(&s, 0, sizeof s);
    s.data = p->buf;
    s.cap = p->cap;
    s.len = at;
    s.last = last;
    s.first_line = p->line;
    s.offset = p->offset;
    if (!last) memcpy(s.next, next.data, 2);
    p->line += df__newlines(p->buf, at);
    p->offset += at;
    p->buf = next.data;
    p->cap = next.cap;
    p->len = rest;
    df__dispatch(run, s);
    return true;
}

/* Puts the oldest segment's text back before what is pending (the only segment left, read and
 * not delivered); false when out of memory. */
static bool df__unread_oldest(df__run *run, df__pending *p)
{
    df__pool *pool = &run->pool;
    df__segment *s = df__at(pool, pool->head);
    char *joined = malloc(s->len + p->len + 1);
    if (!joined) {
        run->status = DF_ERR_IO;
        return false;
    }
    if (s->len) memcpy(joined, s->data, s->len);
    if (p->len) memcpy(joined + s->len, p->buf, p->len);
    free(p->buf);
    p->buf = joined;
    p->len += s->len;
    p->cap = p->len + 1;
    p->line = s->first_line;
    p->offset = s->offset;
    df__release(run, s);
    pthread_mutex_lock(&pool->lock);
    pool->head++;
    pthread_mutex_unlock(&pool->lock);
    return true;
}

/* The calling thread's own read (df__serial): its reader, the sink being filled, and what the
 * sinks delivered so far hold. */
typedef struct {
    const df_pgn_sinks *sinks;
    df_pgn_reader *r;
    df_pgn_visitor v; /* the sinks' visitor, its ctx the open sink (NULL: none) */
    uint64_t base;    /* games of the input before this read */
    uint64_t before;  /* the reader's games in the sinks delivered */
} df__serial_run;

/* Delivers the open sink and opens the next one. */
static df_status df__serial_deliver(df__serial_run *s, bool reopen)
{
    df_status status = DF_OK;
    if (s->sinks->deliver(s->sinks->ctx, s->v.ctx, s->base + s->before))
        status = DF_ERR_INTERRUPTED;
    s->sinks->drop(s->sinks->ctx, s->v.ctx);
    s->v.ctx = NULL;
    s->before = df_pgn_reader_stats(s->r).games;
    df__pgn_set_next_game(s->r, 0);
    if (status == DF_OK && reopen && !(s->v.ctx = s->sinks->open(s->sinks->ctx)))
        status = DF_ERR_IO;
    return status;
}

/* Feeds data[0, n) in pieces of about DF__SERIAL_PIECE bytes, each ending before a '[' that
 * starts a line (where a game mostly begins), and delivers the sink whenever the reader then
 * stands between games: a sink holds the games of a piece or so, not of the whole input.
 * Unless `all`, the tail after the last piece is left for the caller to feed with what it reads
 * next; *fed (when not null): the bytes fed. */
static df_status df__serial_feed(df__serial_run *s, const char *data, size_t n, bool all,
                                 size_t *fed)
{
    if (n == 0) { /* data may be null, and null + 0 is undefined */
        if (fed) *fed = 0;
        return DF_OK;
    }
    const char *p = data, *end = data + n;
    df_status status = DF_OK;
    while (status == DF_OK && p < end) {
        const char *stop = end;
        if ((size_t)(end - p) > DF__SERIAL_PIECE) {
            const char *q = p + DF__SERIAL_PIECE;
            while ((q = memchr(q, '\n', (size_t)(end - q))) && q + 1 < end && q[1] != '[') q++;
            if (q && q + 1 < end) stop = q + 1;
        }
        if (stop == end && !all) break;
        status = df_pgn_feed(s->r, p, (size_t)(stop - p), &s->v);
        p = stop;
        if (status == DF_OK && df_pgn_reader_between_games(s->r))
            status = df__serial_deliver(s, true);
    }
    if (fed) *fed = (size_t)(p - data);
    return status;
}

/* Reads first[0, nfirst) and then the rest of the source on this thread with r (threads = 1,
 * or after a game too big for a segment: rare enough that the rest of such an input is read
 * here), sinks delivered as it goes. */
static df_status df__serial(df_source *src, const df_pgn_sinks *sinks, df_pgn_reader *r,
                            const char *first, size_t nfirst, char *block, df_pgn_stats *totals)
{
    /* Each sink's games count from 0, as in a segment. */
    df__serial_run s = {sinks, r, sinks->visitor, totals->games, 0};
    if (!(s.v.ctx = sinks->open(sinks->ctx))) return DF_ERR_IO;
    df_status status = df__serial_feed(&s, first, nfirst, true, NULL);
    size_t kept = 0; /* block[0, kept): read, not fed yet (the tail after the last piece) */
    while (status == DF_OK) {
        const long n = df_source_read(src, block + kept, DF__SERIAL_READ);
        if (n <= 0) {
            /* What was read before an error is read too, as the threads do: its games, and the
             * one the error cuts short as an error of its own. */
            status = df__serial_feed(&s, block, kept, true, NULL);
            const df_status f = df_pgn_finish(r, &s.v);
            if (status == DF_OK) status = f;
            if (n < 0) status = DF_ERR_IO;
            break;
        }
        kept += (size_t)n;
        /* The tail waits for the next read, so that pieces end where games may begin (and a
         * sink is delivered at each), unless the block could not take another read. */
        size_t fed;
        status = df__serial_feed(&s, block, kept, kept + DF__SERIAL_READ > DF__BLOCK, &fed);
        memmove(block, block + fed, kept - fed);
        kept -= fed;
    }
    if (s.v.ctx) {
        const df_status d = df__serial_deliver(&s, false);
        if (status == DF_OK) status = d;
    }
    const df_pgn_stats stats = df_pgn_reader_stats(r);
    df__add(totals, &stats);
    return status;
}

df_status df_pgn_read_threaded(df_source *src, unsigned flags, const df_pgn_filter *filter,
                               unsigned threads, const df_pgn_sinks *sinks, df_pgn_stats *stats)
{
    if (!src || !sinks || !sinks->open || !sinks->deliver || !sinks->drop) return DF_ERR_ARGUMENT;
    threads = df__threads_resolve(threads);
    char *block = malloc(DF__BLOCK);
    if (!block) return DF_ERR_IO;
    df__run run;
    memset(&run, 0, sizeof run);
    df_status status = DF_OK;
    if (threads == 1) {
        df_pgn_reader *r = df_pgn_reader_new();
        if (r) {
            df_pgn_reader_set_filter(r, filter);
            df_pgn_reader_reset(r, flags, 0, 1, 0);
        }
        status = r ? df__serial(src, sinks, r, NULL, 0, block, &run.totals) : DF_ERR_IO;
        df_pgn_reader_free(r);
        free(block);
        if (stats) *stats = run.totals;
        return status;
    }

    df__pool *pool = &run.pool;
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->changed, NULL);
    pool->capacity = 4 * (size_t)threads;
    pool->ring = calloc(pool->capacity, sizeof *pool->ring);
    run.spare = calloc(pool->capacity, sizeof *run.spare);
    pool->flags = flags;
    pool->filter = filter;
    pool->sinks = sinks;
    run.tid = calloc(threads, sizeof *run.tid);
    run.again = df_pgn_reader_new();
    if (run.again) df_pgn_reader_set_filter(run.again, filter);
    df__pending pending = {NULL, 0, 0, 0, 1};
    if (!pool->ring || !run.spare || !run.tid || !run.again) run.status = DF_ERR_IO;
    for (unsigned t = 0; run.status == DF_OK && t < threads; t++)
        if (pthread_create(&run.tid[t], NULL, df__worker, pool) == 0) run.started++;
    if (run.status == DF_OK && run.started == 0) run.status = DF_ERR_IO;
    size_t searched = 0; /* pending[0, searched) holds no cut */
    while (run.status == DF_OK) {
        if (!df__pending_room(&pending)) {
            run.status = DF_ERR_IO;
            break;
        }
        const long n = df_source_read(src, pending.buf + pending.len, DF__BLOCK);
        if (n <= 0) {
            if (n < 0) status = DF_ERR_IO;
            df__cut(&run, &pending, pending.len, true);
            break;
        }
        pending.len += (size_t)n;
        if (pending.len < DF__SEGMENT) continue;
        const size_t at = df__find_cut(pending.buf, pending.len, searched);
        if (at) {
            if (!df__cut(&run, &pending, at, false)) run.status = DF_ERR_IO;
            searched = 0;
        } else if (pending.len >= DF__HUGE) {
            /* One game outgrew a segment: the earlier segments are delivered, then this thread
             * reads the rest, starting with that game. */
            while (df__deliver_oldest(&run, true)) {
            }
            if (run.status != DF_OK) break;
            /* A segment left over ends inside a game that goes on in pending: read it again
             * with the rest. */
            if (pool->head != pool->tail && !df__unread_oldest(&run, &pending)) break;
            df_pgn_reader_reset(run.again, flags, 0, pending.line, pending.offset);
            status =
                df__serial(src, sinks, run.again, pending.buf, pending.len, block, &run.totals);
            break;
        } else {
            searched = pending.len > 2 ? pending.len - 2 : 0;
        }
    }
    while (df__deliver_oldest(&run, true)) {
    }
    pthread_mutex_lock(&pool->lock);
    pool->quit = true;
    pthread_cond_broadcast(&pool->changed);
    pthread_mutex_unlock(&pool->lock);
    for (unsigned t = 0; t < run.started; t++) pthread_join(run.tid[t], NULL);
    /* Stopped early (an error or the caller's interrupt): what was not delivered is dropped. */
    for (; pool->ring && pool->head != pool->tail; pool->head++)
        df__release(&run, df__at(pool, pool->head));
    pthread_mutex_destroy(&pool->lock);
    pthread_cond_destroy(&pool->changed);
    free(pool->ring);
    while (run.nspare) free(run.spare[--run.nspare].data);
    free(run.spare);
    free(run.tid);
    free(pending.buf);
    free(block);
    df_pgn_reader_free(run.again);
    if (stats) *stats = run.totals;
    return run.status != DF_OK ? run.status : status;
}
