/* SPDX-License-Identifier: MIT */
/* PGN positions in batches of a fixed number of rows (pgn_batches), and all of them at once on the
 * same machinery (pgn_positions). The library's threaded reader runs on a thread of its own (its
 * calling thread decompresses and cuts, its workers replay the games into sinks); its deliver
 * callback copies each run's rows, in input order, into batches of batch_size rows, each one
 * mapping, and queues the full ones (with one thread, the reader writes the rows into the batch in
 * place, and queues it at the end of the game that fills it); the Python iterator takes them from
 * the queue (the GIL released while it waits), turns them into numpy arrays without copying and,
 * when asked, computes their planes while the reader goes on. The queue holds at most two batches:
 * the reader waits when the caller does not keep up, so memory is bounded by the batch size and the
 * reader's own bounds, not by the input; a batch's mapping, given back by its arrays, serves a
 * later batch. pgn_positions runs the same reader on the calling thread into one mapping per
 * column, reserved as address space for 2^31 rows (pages touched only as rows are written, never
 * moved or copied): with one thread the reader writes each row there in place, with more the
 * workers' runs are copied there once. Game headers, errors, skipped games and warnings travel
 * with the batch that holds the game's first row (a game without rows: with the batch being filled
 * when it ended). */
#include "_queue.h"
#include "_rows.h"
#include "_source.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* pgn_positions reserves address space for this many rows (fewer if it cannot: the columns
 * then grow by mremap, which moves pages, not bytes). The peak memory is then the rows' pages,
 * never a regrowth's old and new copies at once (realloc doubling peaks at up to 2x the
 * output; a first pass to count the rows would read the input twice): little more than its
 * arrays, the headers' dicts most of the rest. */
#define RESERVE ((size_t)1 << 31)
enum { QUEUE = 2 };

/* A batch is a sink: with one thread the reader's visitor writes its rows in place (a game's
 * rows may run past batch_size into the slack until the game ends); with more, deliver appends
 * the workers' runs to its rows and records. */
typedef struct batch {
    dfpy_item item; /* in the queue, and in batch_split's list */
    dfpy_sink sink;
    int32_t *file; /* with_file: each row's source's file number */
    size_t file_cap;
} batch;

/* A batch's room past batch_size: a game that ends beyond it moves (a copy) to a larger
 * mapping. More plies than nearly every game has; the pages are touched only when used. */
enum { SLACK = 1024 };

/* One source to read: a path, data or file object; a byte range of a plain file or None; the
 * number of its first game (None: the one after the previous source's last); the number its
 * rows have in the file column (its index in the specs unless given: dirfill.torch gives the
 * index of the file in the dataset's sources, which a worker's column then holds as it is). */
typedef struct {
    PyObject *obj, *range;
    bool has_first;
    uint64_t first_game;
    int32_t file;
} spec;

/* pgn_positions: a helper thread faults in the columns' pages ahead of the rows being written,
 * so that the kernel zeroes fresh pages beside the reading rather than in its way (writing
 * 137 bytes a row into fresh memory cost more than parsing them). It is asked for more once
 * fewer than AHEAD / 2 rows of faulted pages are left: a wake-up (an interrupt to the other CPU)
 * every 32,768 rows, not every 1,024. */
enum { AHEAD = 1 << 16 }; /* rows (9 MB) */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    /* The columns as the writer last handed them over (it writes its own copy without the lock,
     * a row at a time). A growth moves them: until the next hand-over the helper may advise on
     * their old addresses, which at worst faults in pages that nothing reads. */
    dfpy_rows cols;
    size_t want, done;
    bool quit, started;
    pthread_t thread;
} prefault;

static void *prefault_main(void *arg)
{
    prefault *p = arg;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->quit && p->want <= p->done) pthread_cond_wait(&p->cond, &p->lock);
        if (p->quit) break;
        const size_t from = p->done, to = p->want;
        const dfpy_rows cols = p->cols;
        pthread_mutex_unlock(&p->lock);
        dfpy_rows_populate(&cols, from, to);
        pthread_mutex_lock(&p->lock);
        p->done = to;
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* The writer's columns hold rows->n rows: the helper asked for the pages of AHEAD more when
 * fewer than AHEAD / 2 are left (want is written by the writer only). */
static void prefault_ask(prefault *p, const dfpy_rows *rows)
{
    if (!p || rows->n + AHEAD / 2 < p->want) return;
    pthread_mutex_lock(&p->lock);
    p->cols = *rows;
    p->want = rows->n + AHEAD;
    pthread_cond_signal(&p->cond);
    pthread_mutex_unlock(&p->lock);
}

typedef struct {
    /* set up before the run */
    size_t batch_size;
    unsigned threads, flags;
    bool with_uci, with_file;
    bool whole;      /* pgn_positions: every row and record into `all`, no batches */
    dfpy_sink all;   /* one thread: the reader's visitor writes into it in place */
    prefault *ahead; /* whole: pages faulted in ahead of the rows */
    df_pgn_filter *filter;
    df_pgn_position_filter position_filter; /* write.positions points here when set */
    dfpy_write_options write;
    dfpy_sink_pool pool;
    spec *specs;
    size_t nspecs;
    PyThreadState **save; /* the run is on the calling thread, which released the GIL */
    df_interrupt interrupt;
    /* the run */
    batch *filling;
    uint64_t base;             /* the game number of the current source's first game */
    uint64_t line_base;        /* the lines of the current source's file before its first byte */
    int32_t source;            /* the file number of the current source */
    uint64_t source_positions; /* the current source's kept games' positions so far */
    df_pgn_stats stats;        /* of the sources read to the end (or to their failure) */
    uint64_t positions;        /* likewise: the positions of their kept games */
    PyObject *failures; /* the sources that could not be read to the end (dfpy_read_failed) */
    PyObject *exc_type, *exc_value, *exc_tb; /* what stopped the run */
    bool failed, interrupted;
    /* The current source's last game ended (dfpy_sink's fields of the same names, numbered as
     * the batches number it) */
    bool ended;
    uint64_t last_game, unended_at;
    /* pgn_batches' queue (its lock guards the counts too; its stop flag stops pgn_positions'
     * run as well) */
    dfpy_queue q;
} stream;

static void batch_free(batch *b)
{
    if (!b) return;
    dfpy_rows_free(&b->sink.rows);
    free(b->file);
    free(b->sink.rec.text);
    free(b);
}

static void drop_batch(dfpy_item *item) { batch_free((batch *)item); }

/* The file column's room as the rows' (false: out of memory). */
static bool batch_file_room(batch *b)
{
    int32_t *file = realloc(b->file, b->sink.rows.cap * sizeof *b->file);
    if (!file) return false;
    b->file = file;
    b->file_cap = b->sink.rows.cap;
    return true;
}

/* A batch with room for rows rows: batch_size + SLACK for the one being filled. */
static batch *batch_new(stream *st, size_t rows)
{
    batch *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->sink.stop = &st->q.stop;
    b->sink.write = &st->write;
    if (!dfpy_rows_map(&b->sink.rows, rows, st->with_uci) ||
        (st->with_file && !batch_file_room(b))) {
        batch_free(b);
        return NULL;
    }
    return b;
}

/* Queues the filling batch, waiting while the queue is full; false when the run must stop. */
static bool emit(stream *st)
{
    batch *b = st->filling;
    st->filling = NULL;
    return dfpy_queue_put(&st->q, &b->item);
}

static uint64_t record_game(const dfpy_records *r, size_t at)
{
    uint64_t game;
    memcpy(&game, r->text + at + 1, 8);
    return game;
}

/* Copies the record of from at offset at into to, its game numbered from base and an error's
 * line from line_base (the lines of the source's file before it); the offset of the next
 * record. */
static size_t record_copy(dfpy_records *to, const dfpy_records *from, size_t at, uint64_t base,
                          uint64_t line_base)
{
    char kind, line[24];
    uint64_t game;
    const char *a, *t;
    uint32_t la, lt;
    at = dfpy_record_at(from, at, &kind, &game, &a, &la, &t, &lt);
    if (kind == 'E' && line_base) {
        lt = (uint32_t)snprintf(line, sizeof line, "%llu",
                                (unsigned long long)(dfpy_record_number(t, lt) + line_base));
        t = line;
    }
    dfpy_record(to, kind, base + game, a, la, t, lt);
    return at;
}

/* Whether the run must stop: pgn_batches' iterator asked it to (its stop flag), or in
 * pgn_positions a signal handler raised (the interrupt, polled every 20 ms on the calling
 * thread). The sources ask it before each read, and while a pipe has nothing to read. */
static bool stop_requested(void *ctx)
{
    stream *st = ctx;
    if (dfpy_queue_stopped(&st->q)) return true;
    if (!st->interrupt.requested || !st->interrupt.requested(st->interrupt.ctx)) return false;
    __atomic_store_n(&st->q.stop, true, __ATOMIC_RELAXED); /* the workers' sinks stop too */
    return st->interrupted = true;
}

/* pgn_positions' rows written up to all.rows.n: the helper asked for pages ahead, the interrupt
 * polled. 1 when the run must stop (its workers too). */
static int whole_written(stream *st)
{
    prefault_ask(st->ahead, &st->all.rows);
    return stop_requested(st);
}

/* df_pgn_sinks.deliver: a run's rows and records into batches (pgn_positions: its columns), in
 * input order. */
static int deliver(void *ctx, void *p, uint64_t first_game)
{
    stream *st = ctx;
    dfpy_sink *s = p;
    if (s->failed || s->rows.failed || s->rec.failed) return st->failed = true, 1;
    st->source_positions += s->positions;
    const uint64_t base = st->base + first_game;
    if (s->ended) {
        st->ended = true;
        st->last_game = base + s->last_game;
        st->unended_at = s->unended_at;
    }
    const dfpy_rows *rows = &s->rows;
    if (st->whole) {
        dfpy_rows *all = &st->all.rows;
        if (!dfpy_rows_grow_mapped(all, all->n + rows->n)) return st->failed = true, 1;
        dfpy_rows_append(all, rows, 0, rows->n, (int64_t)base);
        for (size_t at = 0; at < s->rec.len;)
            at = record_copy(&st->all.rec, &s->rec, at, base, st->line_base);
        if (st->all.rec.failed) return st->failed = true, 1;
        return whole_written(st);
    }
    /* Rows go in runs as long as a batch has room (a copy per column and run, not per game);
     * a game's records go with its first row, so into the batch that holds the first row of a
     * game at or after it: those up to the run's last game, or all that remain when the rows
     * ran out with room left. */
    size_t i = 0, at = 0;
    while (i < rows->n || at < s->rec.len) {
        if (!st->filling && !(st->filling = batch_new(st, st->batch_size + SLACK)))
            return st->failed = true, 1;
        dfpy_rows *to = &st->filling->sink.rows;
        dfpy_records *rec = &st->filling->sink.rec;
        const size_t room = st->batch_size - to->n, j = rows->n - i < room ? rows->n : i + room;
        if (st->filling->file)
            for (size_t k = to->n; k < to->n + (j - i); k++) st->filling->file[k] = st->source;
        dfpy_rows_append(to, rows, i, j, (int64_t)base);
        const bool full = to->n == st->batch_size;
        const uint64_t last = full ? (uint64_t)rows->game[j - 1] : UINT64_MAX;
        while (at < s->rec.len && record_game(&s->rec, at) <= last)
            at = record_copy(rec, &s->rec, at, base, st->line_base);
        if (rec->failed) return st->failed = true, 1;
        i = j;
        if (full && !emit(st)) return 1;
    }
    return dfpy_queue_stopped(&st->q);
}

static void *sink_open(void *ctx) { return dfpy_sink_open(&((stream *)ctx)->pool); }

static void sink_drop(void *ctx, void *sink) { dfpy_sink_drop(&((stream *)ctx)->pool, sink); }

/* The GIL, for a moment, on the thread of the run. */
static PyGILState_STATE gil_take(stream *st)
{
    if (st->save) {
        PyEval_RestoreThread(*st->save);
        return PyGILState_LOCKED;
    }
    return PyGILState_Ensure();
}

static void gil_give(stream *st, PyGILState_STATE state)
{
    if (st->save)
        *st->save = PyEval_SaveThread();
    else
        PyGILState_Release(state);
}

/* With the GIL: keeps the exception set, the first one only. */
static void keep_exception(stream *st)
{
    if (!PyErr_Occurred()) return;
    if (st->exc_type)
        PyErr_Clear();
    else
        PyErr_Fetch(&st->exc_type, &st->exc_value, &st->exc_tb);
}

/* threads == 1: the reader on this thread, its visitor writing each row in place (a row written
 * once, as the C reader's own sinks do; a copy into a batch was a sizeable share of what the
 * Python path cost over the C reader), games and lines numbered by the reader as the stream
 * numbers them. pgn_batches: into the batch being filled, queued when a game ends with batch_size
 * rows or more in it. pgn_positions: into the columns that become its arrays (a sink copied into
 * them every so many rows had kept it far below the C reader's rate). */
enum { SERIAL_BLOCK = 1 << 20 };

static df_pgn_action batch_begin(void *ctx, const df_pgn_game *g)
{
    stream *st = ctx;
    if (!st->filling && !(st->filling = batch_new(st, st->batch_size + SLACK)))
        return st->failed = true, DF_PGN_STOP;
    return dfpy_sink_begin(&st->filling->sink, g);
}

static void batch_ply(void *ctx, const df_pgn_game *g, const df_pgn_ply *p)
{
    stream *st = ctx;
    batch *b = st->filling;
    const size_t n = b->sink.rows.n;
    dfpy_sink_ply(&b->sink, g, p);
    /* No row when the position filter left it out (or memory ran out). */
    if (!b->file || b->sink.rows.n == n) return;
    if (b->sink.rows.cap > b->file_cap && !batch_file_room(b))
        b->sink.failed = true; /* the game stops at its next callback */
    else
        b->file[b->sink.rows.n - 1] = st->source;
}

/* At a game's end, the filling batch queued once it holds batch_size rows, with every record
 * (each game in it began before its batch_size-th row, or has none); the rows past them, the last
 * game's, go to the next batches, the full ones queued too. False when the run must stop. */
static bool batch_split(stream *st)
{
    batch *full = st->filling;
    dfpy_item *rest = NULL, **tail = &rest;
    const size_t n = full->sink.rows.n, size = st->batch_size;
    if (n < size) return true;
    /* Copied out before the full batch is queued: its arrays may give its mapping back to the
     * pool, for a new batch to overwrite, as soon as the caller drops them. */
    bool ok = true;
    for (size_t from = size; ok && from < n; from += size) {
        const size_t to = n - from < size ? n : from + size;
        /* Only the last, if short, goes on filling: the full ones need no slack (with a small
         * batch_size a game makes many, and a mapping of slack each cost far more time). */
        batch *b = batch_new(st, to - from < size ? size + SLACK : size);
        if (!(ok = b != NULL)) break;
        dfpy_rows_append(&b->sink.rows, &full->sink.rows, from, to, 0);
        if (b->file) memcpy(b->file, full->file + from, (to - from) * sizeof *b->file);
        *tail = &b->item;
        tail = &b->item.next;
    }
    full->sink.rows.n = size;
    if (!ok) st->failed = true;
    ok = ok && emit(st);
    while (rest) { /* the last, short of batch_size rows, is the one being filled */
        st->filling = (batch *)rest;
        rest = rest->next;
        st->filling->item.next = NULL;
        if (ok && st->filling->sink.rows.n == size) ok = emit(st);
        if (!ok) batch_free(st->filling), st->filling = NULL;
    }
    return ok;
}

static df_pgn_action batch_end(void *ctx, const df_pgn_game *g)
{
    stream *st = ctx;
    if (!st->filling) return DF_PGN_STOP; /* begin could not make one */
    const df_pgn_action a = dfpy_sink_end(&st->filling->sink, g);
    st->source_positions += st->filling->sink.positions;
    st->filling->sink.positions = 0;
    st->ended = true;
    st->last_game = g->index;
    st->unended_at = st->filling->sink.unended_at;
    if (dfpy_sink_failed(&st->filling->sink)) st->failed = true;
    if (a != DF_PGN_READ) return a;
    return batch_split(st) ? DF_PGN_READ : DF_PGN_STOP;
}

static df_pgn_action whole_begin(void *ctx, const df_pgn_game *g)
{
    return dfpy_sink_begin(&((stream *)ctx)->all, g);
}

static void whole_ply(void *ctx, const df_pgn_game *g, const df_pgn_ply *p)
{
    dfpy_sink_ply(&((stream *)ctx)->all, g, p);
}

static df_pgn_action whole_end(void *ctx, const df_pgn_game *g)
{
    stream *st = ctx;
    const df_pgn_action a = dfpy_sink_end(&st->all, g);
    st->source_positions += st->all.positions;
    st->all.positions = 0;
    if (dfpy_sink_failed(&st->all)) st->failed = true;
    if (a != DF_PGN_READ) return a;
    return whole_written(st) ? DF_PGN_STOP : DF_PGN_READ;
}

/* As df_pgn_read_threaded with one thread, the games and lines numbered by the reader as the
 * stream numbers them (nothing delivers them to renumber them). */
static df_status read_serial(stream *st, df_source *src, df_pgn_stats *stats)
{
    df_pgn_reader *r = df_pgn_reader_new();
    char *block = malloc(SERIAL_BLOCK);
    df_status status = r && block ? DF_OK : DF_ERR_IO;
    if (status == DF_OK) {
        df_pgn_reader_set_filter(r, st->filter);
        df_pgn_reader_reset(r, st->flags, st->base, st->line_base + 1, 0);
        const df_pgn_visitor v = st->whole
                                     ? (df_pgn_visitor){whole_begin, whole_ply, whole_end, st}
                                     : (df_pgn_visitor){batch_begin, batch_ply, batch_end, st};
        for (;;) {
            const long n = df_source_read(src, block, SERIAL_BLOCK);
            if (n < 0) status = DF_ERR_IO; /* the games before are delivered, as there */
            if (n <= 0) {
                const df_status f = df_pgn_finish(r, &v);
                if (status == DF_OK) status = f;
                break;
            }
            if ((status = df_pgn_feed(r, block, (size_t)n, &v)) != DF_OK) break;
        }
        *stats = df_pgn_reader_stats(r);
    }
    df_pgn_reader_free(r);
    free(block);
    return status;
}

/* After a file object's read raised: the reader took the end of what it gave for the end of
 * the input, and so ended the game the failure cut short (an error, "the input ends ...", or a
 * game of no moves when its tags were whole). Its exception tells what happened: that game is
 * not given (its records dropped, uncounted; it has no rows). It is the last game ended, with
 * no result token, where the file object's bytes end. */
static void drop_cut_game(stream *st, const dfpy_source *src, df_pgn_stats *stats)
{
    if (!st->ended || st->unended_at != src->given || !st->filling) return;
    const int said = dfpy_records_drop_last(&st->filling->sink.rec, st->last_game);
    stats->games--;
    if (said == 'E')
        stats->errors--;
    else if (said == 'S')
        stats->skipped--;
    else
        stats->kept--;
}

/* Reads every source in turn, without the GIL (taken for a moment to open and close them). A
 * source that cannot be read to its end is noted in failures and the next one is read, as
 * `dirfill pgn` does; a Python exception (a file object's read raised, a source of no usable
 * type) stops the run. */
static void run(stream *st)
{
    const df_pgn_sinks sinks = {
        sink_open, {dfpy_sink_begin, dfpy_sink_ply, dfpy_sink_end, NULL}, deliver, sink_drop, st};
    for (size_t k = 0; k < st->nspecs && !dfpy_queue_stopped(&st->q); k++) {
        const spec *sp = &st->specs[k];
        dfpy_source src;
        PyGILState_STATE g = gil_take(st);
        const int opened = dfpy_source_open(&src, sp->obj, sp->range);
        bool stop = opened < 0 && dfpy_open_failed(st->failures, sp->file, sp->obj) < 0;
        if (stop) keep_exception(st);
        gil_give(st, g);
        if (stop) break;
        if (opened < 0) continue;
        src.save = st->save;
        src.own_thread = !st->save;
        st->line_base = src.first_line - 1;
        df_source_set_interrupt(src.source, &(df_interrupt){stop_requested, st});
        if (sp->has_first) st->base = sp->first_game;
        st->source = sp->file;
        st->source_positions = 0;
        st->ended = false;
        df_pgn_stats stats;
        memset(&stats, 0, sizeof stats);
        df_status status = st->threads == 1
                               ? read_serial(st, src.source, &stats)
                               : df_pgn_read_threaded(src.source, st->flags, st->filter,
                                                      st->threads, &sinks, &stats);
        if (src.failed) drop_cut_game(st, &src, &stats);
        pthread_mutex_lock(&st->q.lock);
        st->stats.games += stats.games;
        st->stats.kept += stats.kept;
        st->stats.errors += stats.errors;
        st->stats.skipped += stats.skipped;
        st->stats.filtered += stats.filtered;
        st->stats.bytes += stats.bytes;
        st->positions += st->source_positions;
        pthread_mutex_unlock(&st->q.lock);
        st->base += stats.games;
        g = gil_take(st);
        if (status == DF_ERR_IO && dfpy_queue_stopped(&st->q))
            status = DF_ERR_INTERRUPTED; /* the read was stopped, it did not fail */
        if (status == DF_ERR_IO) {
            stop = dfpy_read_failed(&src, sp->file, st->failures) < 0;
        } else {
            stop = status != DF_OK; /* a file object's read or a signal handler raised, or the
                                       sinks ran out of memory */
        }
        if (stop) keep_exception(st);
        dfpy_source_close(&src);
        gil_give(st, g);
        if (stop) break;
    }
    /* The last, short batch (the games read before an error too). */
    if (st->filling && !dfpy_queue_stopped(&st->q) &&
        (st->filling->sink.rows.n || st->filling->sink.rec.len))
        emit(st);
    batch_free(st->filling);
    st->filling = NULL;
    dfpy_queue_finish(&st->q);
}

/* ---- set-up shared by both calls ---- */

/* specs: a list of (source, byte_range or None, first_game or None[, file number]). */
static int make_specs(stream *st, PyObject *list)
{
    PyObject *seq = PySequence_Fast(list, "sources must be a list");
    if (!seq) return -1;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    st->specs = calloc((size_t)n + 1, sizeof *st->specs);
    int status = st->specs ? 0 : -1;
    for (Py_ssize_t i = 0; !status && i < n; i++) {
        PyObject *obj, *range, *first;
        int file = (int)i;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "OOO|i", &obj, &range, &first,
                              &file)) {
            status = -1;
            break;
        }
        spec *s = &st->specs[st->nspecs++];
        s->file = file;
        Py_INCREF(obj);
        Py_INCREF(range);
        s->obj = obj;
        s->range = range;
        if (first != Py_None) {
            s->has_first = true;
            s->first_game = PyLong_AsUnsignedLongLong(first);
            if (PyErr_Occurred()) status = -1;
        }
    }
    if (!st->specs) PyErr_NoMemory();
    Py_DECREF(seq);
    return status;
}

/* The keyword arguments of what the rows hold: view= and the position filter's. */
typedef struct {
    PyObject *view, *min_ply, *max_ply, *min_clock;
    int require_eval;
} row_args;

static int stream_init(stream *st, PyObject *specs, Py_ssize_t batch_size, PyObject *threads,
                       int chess960, int uci, int headers, PyObject *where, const row_args *rows)
{
    memset(st, 0, sizeof *st);
    dfpy_queue_init(&st->q, "pgn_batches", 0, drop_batch);
    st->write.headers = headers;
    dfpy_sink_pool_init(&st->pool, uci, &st->write, &st->q.stop);
    if (!(st->failures = PyList_New(0)) ||
        dfpy_write_options_parse(&st->write, &st->position_filter, rows->view, rows->min_ply,
                                 rows->max_ply, rows->min_clock, rows->require_eval) < 0)
        return -1;
    st->with_uci = uci;
    st->flags = chess960 ? DF_PGN_CHESS960 : DF_PGN_STANDARD;
    if (batch_size < 1) {
        PyErr_SetString(PyExc_ValueError, "batch_size must be 1 or more");
        return -1;
    }
    st->batch_size = (size_t)batch_size;
    if (dfpy_threads(threads, &st->threads) < 0 || dfpy_filter(where, &st->filter) < 0 ||
        make_specs(st, specs) < 0)
        return -1;
    if (st->threads == 0) st->threads = df_hardware_threads(); /* one: read_serial */
    return 0;
}

/* With the GIL, the run over (in a forked child, the parent's run may be anywhere: only the
 * Python objects are let go, the reader's state is leaked, its locks left untouched). */
static void stream_free(stream *st)
{
    if (dfpy_queue_forked(&st->q)) {
        for (size_t k = 0; k < st->nspecs; k++) {
            Py_DECREF(st->specs[k].obj);
            Py_DECREF(st->specs[k].range);
        }
        st->nspecs = 0;
        Py_CLEAR(st->failures);
        Py_CLEAR(st->exc_type);
        Py_CLEAR(st->exc_value);
        Py_CLEAR(st->exc_tb);
        return;
    }
    batch_free(st->filling);
    st->filling = NULL;
    for (size_t k = 0; k < st->nspecs; k++) {
        Py_DECREF(st->specs[k].obj);
        Py_DECREF(st->specs[k].range);
    }
    free(st->specs);
    st->specs = NULL;
    st->nspecs = 0;
    df_pgn_filter_free(st->filter);
    st->filter = NULL;
    dfpy_rows_free(&st->all.rows);
    free(st->all.rec.text);
    st->all.rec.text = NULL;
    Py_CLEAR(st->failures);
    Py_CLEAR(st->exc_type);
    Py_CLEAR(st->exc_value);
    Py_CLEAR(st->exc_tb);
    dfpy_sink_pool_free(&st->pool);
    dfpy_queue_destroy(&st->q); /* the batches queued and not taken */
}

/* The counts in the program's words and order (its summary line): every game found is one of
 * kept, filtered, errors and skipped; positions: those of the kept games. */
static PyObject *stats_dict(const df_pgn_stats *s, uint64_t positions)
{
    return Py_BuildValue("{sKsKsKsKsKsKsK}", "games", (unsigned long long)s->games, "kept",
                         (unsigned long long)s->kept, "filtered", (unsigned long long)s->filtered,
                         "errors", (unsigned long long)s->errors, "skipped",
                         (unsigned long long)s->skipped, "positions", (unsigned long long)positions,
                         "bytes", (unsigned long long)s->bytes);
}

/* ---- pgn_batches: the iterator ---- */

typedef struct {
    PyObject_HEAD stream st;
    bool ready, planes, lazy_headers;
    unsigned plane_threads;
} BatchesObject;

static void *producer(void *arg)
{
    run(&((BatchesObject *)arg)->st);
    return NULL;
}

/* Stops the reader and waits for its thread, from any thread and any number of times: the
 * batches read and not taken are dropped, the iterator is over. */
static void batches_stop(BatchesObject *self) { dfpy_queue_stop(&self->st.q); }

static void Batches_dealloc(BatchesObject *self)
{
    batches_stop(self);
    if (self->ready) stream_free(&self->st);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The planes of a batch's rows, computed on the caller's threads without the GIL. */
static PyObject *batch_planes(BatchesObject *self, const dfpy_rows *c)
{
    npy_intp shape[4] = {(npy_intp)c->n, DF_PLANES, 8, 8}, n1 = (npy_intp)c->n;
    PyObject *planes = PyArray_SimpleNew(4, shape, NPY_UINT8),
             *ok = planes ? PyArray_SimpleNew(1, &n1, NPY_BOOL) : NULL;
    /* The library's side to move (a df_color: 1 for Black) of each row's turn. */
    uint8_t *stm = ok ? malloc(c->n ? c->n : 1) : NULL;
    if (!stm) {
        if (ok) PyErr_NoMemory();
        Py_XDECREF(planes);
        Py_XDECREF(ok);
        return NULL;
    }
    for (size_t i = 0; i < c->n; i++) stm[i] = !c->turn[i];
    const df_position_rows rows = {c->pieces, stm, c->castling, c->ep,
                                   (self->st.flags & DF_PGN_CHESS960) != 0};
    uint8_t *out = PyArray_DATA((PyArrayObject *)planes);
    bool *okp = PyArray_DATA((PyArrayObject *)ok);
    const size_t n = c->n;
    const unsigned threads = self->plane_threads;
    Py_BEGIN_ALLOW_THREADS
        df_attack_planes_from_rows_mt(out, okp, &rows, n, threads);
    Py_END_ALLOW_THREADS
    free(stm);
    Py_DECREF(ok);
    return planes;
}

static PyObject *batch_dict(BatchesObject *self, batch *b)
{
    PyObject *out = PyDict_New(), *planes = NULL;
    int status = out ? 0 : -1;
    if (!status && self->planes) {
        planes = batch_planes(self, &b->sink.rows);
        status = planes ? PyDict_SetItemString(out, "planes", planes) : -1;
        Py_XDECREF(planes);
    }
    if (!status && b->file) {
        npy_intp n = (npy_intp)b->sink.rows.n;
        PyObject *f = PyArray_SimpleNew(1, &n, NPY_INT32);
        if (f) memcpy(PyArray_DATA((PyArrayObject *)f), b->file, b->sink.rows.n * sizeof *b->file);
        status = f ? PyDict_SetItemString(out, "file", f) : -1;
        Py_XDECREF(f);
    }
    if (!status) status = dfpy_rows_to_dict(&b->sink.rows, out);
    if (!status) status = dfpy_records_to_dict(&b->sink.rec, out, self->lazy_headers);
    batch_free(b);
    if (status) Py_CLEAR(out);
    return out;
}

static PyObject *Batches_next(BatchesObject *self)
{
    stream *st = &self->st;
    const bool over = st->q.stopping; /* closed, or its end said before */
    dfpy_item *b = dfpy_queue_take(&st->q);
    if (b) return batch_dict(self, (batch *)b);
    if (PyErr_Occurred()) return NULL; /* Ctrl-C: the reader stopped, the batches dropped */
    if (st->exc_type) {
        PyErr_Restore(st->exc_type, st->exc_value, st->exc_tb);
        st->exc_type = st->exc_value = st->exc_tb = NULL;
        return NULL;
    }
    if (st->failed && !over) return PyErr_NoMemory();
    return NULL; /* StopIteration */
}

static PyObject *Batches_iter(PyObject *self)
{
    Py_INCREF(self);
    return self;
}

static PyObject *Batches_close(BatchesObject *self, PyObject *unused)
{
    (void)unused;
    batches_stop(self);
    Py_RETURN_NONE;
}

static PyObject *Batches_stats(BatchesObject *self, void *unused)
{
    (void)unused;
    if (dfpy_queue_check(&self->st.q) < 0) return NULL;
    pthread_mutex_lock(&self->st.q.lock);
    const df_pgn_stats s = self->st.stats;
    const uint64_t positions = self->st.positions;
    pthread_mutex_unlock(&self->st.q.lock);
    return stats_dict(&s, positions);
}

static PyObject *Batches_failures(BatchesObject *self, void *unused)
{
    (void)unused;
    if (dfpy_queue_check(&self->st.q) < 0) return NULL;
    /* The list is the run's: a copy, taken once the run is over. */
    if (!self->st.q.joined) return PyList_New(0);
    return PyList_GetSlice(self->st.failures, 0, PY_SSIZE_T_MAX);
}

static PyMethodDef Batches_methods[] = {
    {"close", (PyCFunction)Batches_close, METH_NOARGS, "Stops the reading thread."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Batches_getset[] = {
    {"stats", (getter)Batches_stats, NULL,
     "Counts of the sources read to the end so far, in dirfill pgn's words: games (every game "
     "found), kept, filtered, errors, skipped, positions (of the kept games), bytes.",
     NULL},
    {"failures", (getter)Batches_failures, NULL,
     "The sources that could not be read to their end, once the iterator is over: a list of "
     "(index, name, errno, reason).",
     NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject Batches_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "dirfill._PgnBatches",
    .tp_basicsize = sizeof(BatchesObject),
    .tp_dealloc = (destructor)Batches_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_iter = Batches_iter,
    .tp_iternext = (iternextfunc)Batches_next,
    .tp_methods = Batches_methods,
    .tp_getset = Batches_getset,
};

/* _pgn_batches(specs, batch_size, *, threads=0, planes=False, chess960=False, uci=False,
 * where=None, file_column=False, headers=True, lazy_headers=False, view=None, min_ply=None,
 * max_ply=None, min_clock=None, require_eval=False) -> iterator of dicts (with lazy_headers, the
 * tags as "_tags": _decode_headers makes them the "headers" dict) */
static PyObject *py_pgn_batches(PyObject *unused, PyObject *args, PyObject *kw)
{
    (void)unused;
    static char *names[] = {"specs",    "batch_size",   "threads",      "planes",
                            "chess960", "uci",          "where",        "file_column",
                            "headers",  "lazy_headers", "view",         "min_ply",
                            "max_ply",  "min_clock",    "require_eval", NULL};
    PyObject *specs, *threads = NULL, *where = NULL;
    Py_ssize_t batch_size;
    int planes = 0, chess960 = 0, uci = 0, file_column = 0, headers = 1, lazy_headers = 0;
    row_args rows = {NULL, NULL, NULL, NULL, 0};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "On|$OpppOpppOOOOp", names, &specs, &batch_size,
                                     &threads, &planes, &chess960, &uci, &where, &file_column,
                                     &headers, &lazy_headers, &rows.view, &rows.min_ply,
                                     &rows.max_ply, &rows.min_clock, &rows.require_eval))
        return NULL;
    BatchesObject *self = (BatchesObject *)Batches_Type.tp_alloc(&Batches_Type, 0);
    if (!self) return NULL;
    self->ready = true;
    if (stream_init(&self->st, specs, batch_size, threads, chess960, uci, headers, where, &rows) <
        0) {
        Py_DECREF(self);
        return NULL;
    }
    self->st.q.max_ready = QUEUE;
    self->st.with_file = file_column;
    self->planes = planes;
    self->lazy_headers = lazy_headers;
    self->plane_threads = self->st.threads;
    if (dfpy_queue_start(&self->st.q, producer, self) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

/* ---- pgn_positions: every row at once ---- */

/* The rows and records of a finished run as a dict, and "_failed": the sources that could not
 * be read to their end (dfpy_read_failed's list). */
static PyObject *gather(stream *st)
{
    PyObject *out = PyDict_New(), *stats = stats_dict(&st->stats, st->positions);
    if (!out || !stats || dfpy_rows_to_dict(&st->all.rows, out) < 0 ||
        dfpy_records_to_dict(&st->all.rec, out, false) < 0 ||
        PyDict_SetItemString(out, "stats", stats) < 0 ||
        PyDict_SetItemString(out, "_failed", st->failures) < 0)
        Py_CLEAR(out);
    Py_XDECREF(stats);
    return out;
}

/* _pgn_positions(specs, *, threads=0, chess960=False, uci=False, where=None, reserve=2**31,
 * view=None, min_ply=None, max_ply=None, min_clock=None, require_eval=False) -> dict; reserve:
 * the rows the columns are first reserved for (4096 or more; the tests' small ones make them
 * grow) */
static PyObject *py_pgn_positions(PyObject *unused, PyObject *args, PyObject *kw)
{
    (void)unused;
    static char *names[] = {"specs", "threads", "chess960", "uci",       "where",        "reserve",
                            "view",  "min_ply", "max_ply",  "min_clock", "require_eval", NULL};
    PyObject *specs, *threads = NULL, *where = NULL;
    int chess960 = 0, uci = 0;
    Py_ssize_t reserve = (Py_ssize_t)RESERVE;
    row_args rows = {NULL, NULL, NULL, NULL, 0};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$OppOnOOOOp", names, &specs, &threads, &chess960,
                                     &uci, &where, &reserve, &rows.view, &rows.min_ply,
                                     &rows.max_ply, &rows.min_clock, &rows.require_eval))
        return NULL;
    if (reserve < 4096) return PyErr_Format(PyExc_ValueError, "reserve must be 4096 or more");
    stream st;
    PyObject *out = NULL;
    if (stream_init(&st, specs, 1, threads, chess960, uci, 1, where, &rows) < 0) {
    } else if (!dfpy_rows_reserve_mapped(&st.all.rows, (size_t)reserve, uci)) {
        PyErr_NoMemory();
    } else {
        st.whole = true;
        st.all.stop = &st.q.stop;
        st.all.write = &st.write;
        prefault ahead;
        memset(&ahead, 0, sizeof ahead);
        pthread_mutex_init(&ahead.lock, NULL);
        pthread_cond_init(&ahead.cond, NULL);
        ahead.cols = st.all.rows;
        ahead.want = AHEAD;
        ahead.started = pthread_create(&ahead.thread, NULL, prefault_main, &ahead) == 0;
        if (ahead.started) st.ahead = &ahead;
        dfpy_poll poll;
        Py_BEGIN_ALLOW_THREADS
            st.save = &_save;
            st.interrupt = dfpy_poll_start(&poll, &_save);
            run(&st);
            st.save = NULL;
        Py_END_ALLOW_THREADS
        if (ahead.started) {
            pthread_mutex_lock(&ahead.lock);
            ahead.quit = true;
            pthread_cond_signal(&ahead.cond);
            pthread_mutex_unlock(&ahead.lock);
            Py_BEGIN_ALLOW_THREADS
                pthread_join(ahead.thread, NULL);
            Py_END_ALLOW_THREADS
        }
        st.ahead = NULL;
        pthread_mutex_destroy(&ahead.lock);
        pthread_cond_destroy(&ahead.cond);
        /* Before the headers' Python objects are made, which would add to the peak: the pages
         * faulted in past the last row and the workers' spare sinks (4.5 MB each) given back. */
        dfpy_rows_release_unused(&st.all.rows);
        dfpy_sink_pool_drain(&st.pool);
        if (st.exc_type) {
            PyErr_Restore(st.exc_type, st.exc_value, st.exc_tb);
            st.exc_type = st.exc_value = st.exc_tb = NULL;
        } else if (st.interrupted) {
            if (!PyErr_Occurred()) PyErr_SetNone(PyExc_KeyboardInterrupt);
        } else if (st.failed) {
            PyErr_NoMemory();
        } else {
            out = gather(&st);
        }
    }
    stream_free(&st);
    return out;
}

PyMethodDef dfpy_pgn_batches_methods[] = {
    {"_pgn_batches", (PyCFunction)(void (*)(void))py_pgn_batches, METH_VARARGS | METH_KEYWORDS,
     NULL},
    {"_decode_headers", dfpy_decode_headers, METH_O, NULL},
    {"_pgn_positions", (PyCFunction)(void (*)(void))py_pgn_positions, METH_VARARGS | METH_KEYWORDS,
     NULL},
    {NULL, NULL, 0, NULL}};

int dfpy_add_pgn_batches(PyObject *module)
{
    (void)module; /* the iterator type is internal: pgn_batches returns it */
    return PyType_Ready(&Batches_Type);
}
