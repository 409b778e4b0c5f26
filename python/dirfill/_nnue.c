/* SPDX-License-Identifier: MIT */
/* NNUE training data for Python: _nnue_batches, the entries of .binpack, .plain, .bin and PGN
 * sources read on a thread of the extension's own through the library's stream (one share of
 * each source for a DDP rank, nnue-pytorch's skip predicate, its shuffle, cyclic reading), each
 * full batch's feature rows computed on the library's threads, handed to the iterator as numpy
 * arrays in nnue-pytorch's SparseBatch layout over memory that goes back to a pool; and
 * _nnue_features, the rows of FENs. */
#include "_queue.h"
#include "_rows.h"
#include "_source.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

enum { QUEUE = 2 };

/* An error of an entry, a chunk or a record, and its source's index. */
typedef struct {
    int32_t source;
    df_nnue_error e;
} entry_error;

/* A batch: its arrays and the boards their rows are computed from, in one region. */
typedef struct {
    dfpy_item item;
    void *region;
    size_t bytes, n, cap, width;
    float *is_white, *outcome, *score;
    int32_t *piece_count, *white, *black;
    df_board *boards;
    entry_error *errors;
    size_t nerrors, errors_cap;
} nbatch;

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

static void nbatch_free(nbatch *b)
{
    if (!b) return;
    if (b->region) dfpy_region_give(b->region, b->bytes);
    free(b->errors);
    free(b);
}

static void drop_item(dfpy_item *item) { nbatch_free((nbatch *)item); }

static nbatch *nbatch_new(size_t cap, size_t width)
{
    nbatch *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    const size_t floats = align64(cap * sizeof(float)), ints = align64(cap * sizeof(int32_t)),
                 rows = align64(cap * width * sizeof(int32_t));
    b->bytes = 3 * floats + ints + 2 * rows + align64(cap * sizeof(df_board));
    if (!(b->region = dfpy_region_take(b->bytes))) {
        free(b);
        return NULL;
    }
    char *at = b->region;
    b->is_white = (float *)at;
    b->outcome = (float *)(at += floats);
    b->score = (float *)(at += floats);
    b->piece_count = (int32_t *)(at += floats);
    b->white = (int32_t *)(at += ints);
    b->black = (int32_t *)(at += rows);
    b->boards = (df_board *)(at + rows);
    b->cap = cap;
    b->width = width;
    return b;
}

/* Row i of nnue-pytorch's SparseBatch but the feature rows: is_white 1.0 or 0.0, outcome
 * (result + 1) / 2 and score from the side to move's view, piece_count kings included. */
static void nbatch_put(nbatch *b, const df_nnue_entry *e)
{
    const size_t i = b->n++;
    b->boards[i] = e->pos;
    b->is_white[i] = e->pos.stm == DF_WHITE ? 1.0f : 0.0f;
    b->outcome[i] = (float)(e->result + 1) * 0.5f;
    b->score[i] = (float)e->score;
    b->piece_count[i] = __builtin_popcountll(df_board_occupied(&e->pos));
}

static bool nbatch_error(nbatch *b, int32_t source, const df_nnue_error *e)
{
    if (b->nerrors == b->errors_cap) {
        const size_t cap = b->errors_cap ? 2 * b->errors_cap : 8;
        entry_error *grown = realloc(b->errors, cap * sizeof *grown);
        if (!grown) return false;
        b->errors = grown;
        b->errors_cap = cap;
    }
    b->errors[b->nerrors++] = (entry_error){source, *e};
    return true;
}

typedef struct {
    PyObject_HEAD dfpy_queue q;
    bool ready;
    /* set up before the run */
    PyObject **sources; /* and each one's format, size (0: not known) and start */
    df_nnue_format *formats;
    uint64_t *sizes;
    long long *starts; /* a file object read again: where it is sought first; -1: not sought */
    size_t nsources;
    size_t shuffle; /* df_nnue_stream_options' */
    bool cyclic;
    size_t batch_size;
    df_nnue_set set;
    uint32_t width, rank, world;
    unsigned threads;
    bool use_skip;
    df_nnue_skip_options skip;
    uint64_t seed;
    df_nnue_pgn_options pgn; /* how PGN sources make entries */
    /* the run */
    dfpy_source *open; /* each source being read (the stream's open hook opens it) */
    bool *read_failed; /* its source's read failed in this pass */
    df_nnue_stream *stream;
    nbatch *filling;
    /* The counts: the reader's own, published under q.lock with each batch and at each
     * source's end (a lock an entry cost several per cent of the whole). */
    struct counts {
        uint64_t entries, kept, skipped, errors;
        df_nnue_pgn_counts pgn; /* the PGN sources' games and positions dropped, by reason */
    } counted, published;
    PyObject *failures;                      /* the sources not read to their end */
    PyObject *empty;                         /* PGN sources that gave no entry: (index, why) */
    PyObject *exc_type, *exc_value, *exc_tb; /* what stopped the run */
    bool failed;                             /* out of memory */
    bool halted;                             /* an exception kept (exc_*) ends the run */
    bool refused; /* a batch had a row cut short (its ValueError kept in exc_*) */
} NnueBatches;

/* ---- nnue-pytorch's skip options from a dict ---- */

/* One option by nnue-pytorch's name (its DataloaderSkipConfig's fields), as the program's
 * --skip KEY=VALUE sets it (df_nnue_skip_option_set): a bool, an int or a float, written as C
 * reads it. 0, or -1 with TypeError for a value of another type, ValueError for an unknown
 * name or a value that is not of the option's kind. */
static int skip_option(df_nnue_skip_options *o, const char *key, PyObject *value)
{
    PyObject *text = PyBool_Check(value) ? PyUnicode_FromString(value == Py_True ? "true" : "false")
                     : PyLong_Check(value) || PyFloat_Check(value) ? PyObject_Repr(value)
                                                                   : NULL;
    if (!text) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError,
                         "skip option %s takes a bool, an int or a float, not "
                         "%.100s",
                         key, Py_TYPE(value)->tp_name);
        return -1;
    }
    const char *v = PyUnicode_AsUTF8(text);
    const int r = !v ? -1 : df_nnue_skip_option_set(o, key, v) == DF_OK ? 0 : -2;
    if (r == -2)
        PyErr_Format(PyExc_ValueError,
                     "skip option %s=%s: not one of nnue-pytorch's options (filtered, "
                     "wld_filtered, random_fen_skipping, early_fen_skipping, "
                     "soft_early_fen_skipping, simple_eval_skipping, pc_y0..pc_y4, "
                     "ply_x1..ply_x4, ply_y1..ply_y4) with a value of its kind (a bool for the "
                     "first two, a whole number from -1000000 to 1000000, a finite number)",
                     key, v);
    Py_DECREF(text);
    return r < 0 ? -1 : 0;
}

/* skip: None (nothing skipped: *use false) or a dict of options over nnue-pytorch's defaults
 * (df_nnue_skip_defaults); checked by making a predicate. 0, or -1 with an exception. */
static int skip_options(df_nnue_skip_options *o, bool *use, PyObject *skip)
{
    *use = skip && skip != Py_None;
    if (!*use) return 0;
    if (!PyDict_Check(skip)) {
        PyErr_Format(PyExc_TypeError, "skip must be None or a dict, not %.100s",
                     Py_TYPE(skip)->tp_name);
        return -1;
    }
    *o = df_nnue_skip_defaults();
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(skip, &pos, &key, &value)) {
        const char *name = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        if (!name) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "skip's keys are str");
            return -1;
        }
        if (skip_option(o, name, value) < 0) return -1;
    }
    df_nnue_skip *trial = df_nnue_skip_new(o, 0);
    if (!trial) {
        PyErr_SetString(PyExc_ValueError,
                        "skip: an option out of range (soft_early_fen_skipping over 65536, a "
                        "weight that is not a finite number)");
        return -1;
    }
    df_nnue_skip_free(trial);
    return 0;
}

/* ---- rows never cut ---- */

/* The first of boards[0, n) whose features (either perspective's) are more than width, and
 * why, into why (size bytes): "<FEN> has 40 active features of HalfKAv2_hm for White, more than
 * the 32 a row holds (...)". n when there is none. */
static size_t first_cut(char *why, size_t size, const df_board *boards, size_t n, size_t width,
                        const df_nnue_set *set)
{
    for (size_t i = 0; i < n; i++)
        for (int c = DF_WHITE; c <= DF_BLACK; c++) {
            const size_t count = df_nnue_features(NULL, 0, &boards[i], (df_color)c, set);
            if (count <= width) continue;
            char fen[DF_FEN_MAX], name[64];
            df_fen_format(fen, sizeof fen, &boards[i], DF_FEN_STANDARD);
            df_nnue_set_name(name, sizeof name, set);
            const int pieces = __builtin_popcountll(df_board_occupied(&boards[i]));
            char more[64] = ")";
            if (pieces > 32)
                snprintf(more, sizeof more, "; its formats hold at most 32 pieces, this has %d)",
                         pieces);
            snprintf(why, size,
                     "%s has %zu active features of %s for %s, more than the %zu a row holds "
                     "(nnue-pytorch's width%s",
                     fen, count, name, c == DF_WHITE ? "White" : "Black", width, more);
            return i;
        }
    return n;
}

/* ---- the reader's thread ---- */

static bool stop_requested(void *ctx) { return dfpy_queue_stopped(&((NnueBatches *)ctx)->q); }

/* The reader's reads: a failed one is the reader's read error (what it cut short is no error
 * of the data, which the library does not report), raised as the file object's exception. */
static long read_source(void *ctx, char *buf, size_t size)
{
    return df_source_read(ctx, buf, size);
}

/* With the GIL: keeps the exception set, the first one only. */
static void keep_exception(NnueBatches *self)
{
    if (!PyErr_Occurred()) return;
    if (self->exc_type)
        PyErr_Clear();
    else
        PyErr_Fetch(&self->exc_type, &self->exc_value, &self->exc_tb);
}

static void publish(NnueBatches *self)
{
    df_nnue_stream_counts c;
    df_nnue_stream_counts_of(&c, self->stream);
    if (self->stream) {
        self->counted.entries = c.entries;
        self->counted.kept = c.kept;
        self->counted.skipped = c.skipped;
    }
    pthread_mutex_lock(&self->q.lock);
    self->published = self->counted;
    pthread_mutex_unlock(&self->q.lock);
}

/* The filling batch's feature rows, then queued; false when the run must stop. A batch with a
 * row cut short (an entry of more features than a row holds, which no position of a game has)
 * is not handed out: the run stops with a ValueError after the batches before it. */
static bool emit(NnueBatches *self)
{
    publish(self);
    nbatch *b = self->filling;
    self->filling = NULL;
    const size_t cut =
        self->threads == 1
            ? df_nnue_batch(b->white, b->black, b->width, b->boards, b->n, &self->set)
            : df_nnue_batch_mt(b->white, b->black, b->width, b->boards, b->n, &self->set,
                               self->threads);
    if (cut) {
        char why[DF_FEN_MAX + 512];
        const size_t i = first_cut(why, sizeof why, b->boards, b->n, b->width, &self->set);
        PyGILState_STATE g = PyGILState_Ensure();
        PyErr_Format(PyExc_ValueError,
                     "nnue_batches: the entry %s: its batch is not given (a row cut short is "
                     "never handed out)",
                     i < b->n ? why : "of more features than a row holds");
        keep_exception(self);
        PyGILState_Release(g);
        nbatch_free(b);
        self->refused = true;
        return false;
    }
    return dfpy_queue_put(&self->q, &b->item);
}

/* The batch being filled, made when there is none; NULL when out of memory. */
static nbatch *filling(NnueBatches *self)
{
    if (!self->filling && !(self->filling = nbatch_new(self->batch_size, self->width)))
        self->failed = true;
    return self->filling;
}

static void add_pgn_counts(df_nnue_pgn_counts *to, const df_nnue_pgn_counts *c)
{
    to->games += c->games;
    to->entries += c->entries;
    to->no_eval += c->no_eval;
    to->no_result += c->no_result;
    to->null_moves += c->null_moves;
    to->in_errors += c->in_errors;
    to->skipped_games += c->skipped_games;
}

/* With the GIL: notes that PGN source k gave no entry, and why (the iterator warns of it). */
static int note_empty(NnueBatches *self, size_t k, const df_nnue_pgn_counts *c)
{
    PyObject *why =
        !c->games    ? PyUnicode_FromString("no game in it")
        : c->no_eval ? PyUnicode_FromFormat("no [%%eval] or engine comment in %llu games "
                                            "(keep_no_eval=True keeps such positions, "
                                            "unscored)",
                                            (unsigned long long)c->games)
        : c->no_result
            ? PyUnicode_FromFormat("no game of %llu has a result", (unsigned long long)c->games)
            : PyUnicode_FromFormat("%llu games and none gives a position",
                                   (unsigned long long)c->games);
    PyObject *note = why ? Py_BuildValue("(nN)", (Py_ssize_t)k, why) : NULL;
    const int r = note ? PyList_Append(self->empty, note) : -1;
    Py_XDECREF(note);
    return r;
}

/* Whether the run must stop: a stop asked for, an exception kept, out of memory, a cut row. */
static bool must_stop(NnueBatches *self)
{
    return self->failed || self->refused || self->halted || dfpy_queue_stopped(&self->q);
}

static bool stream_must_stop(void *ctx) { return must_stop(ctx); }

/* With the GIL: the exception set ends the run (the first one is raised). */
static void halt(NnueBatches *self)
{
    keep_exception(self);
    self->halted = true;
}

/* The stream's open hook: source k opened (a file object read again sought back to where the
 * run began it) and a reader on it. A path that cannot be opened is noted for SourceError
 * (NULL: the stream goes on without it); any other exception ends the run. */
static df_nnue_reader *open_source(void *ctx, size_t k)
{
    NnueBatches *self = ctx;
    dfpy_source *src = &self->open[k];
    PyObject *obj = self->sources[k];
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *sought =
        self->starts[k] < 0 ? Py_None : PyObject_CallMethod(obj, "seek", "L", self->starts[k]);
    int opened = sought ? dfpy_source_open(src, obj, NULL) : -1;
    if (sought != Py_None) Py_XDECREF(sought);
    if (opened < 0 && (!sought || dfpy_open_failed(self->failures, (long)k, obj) < 0)) halt(self);
    PyGILState_Release(g);
    if (opened < 0) return NULL;
    src->own_thread = true;
    df_source_set_interrupt(src->source, &(df_interrupt){stop_requested, self});
    self->read_failed[k] = false;
    df_nnue_reader *r = df_nnue_reader_from_function(self->formats[k], read_source, src->source);
    if (r) return r;
    self->failed = true;
    g = PyGILState_Ensure();
    dfpy_source_close(src);
    PyGILState_Release(g);
    return NULL;
}

/* The stream's close hook: source k's counts kept, its reader freed, and then (with the GIL) a
 * PGN source read whole without an entry noted, a failed read noted for SourceError (a file
 * object's exception ends the run), the source closed. */
static void close_source(void *ctx, size_t k, df_nnue_reader *r, bool whole)
{
    NnueBatches *self = ctx;
    dfpy_source *src = &self->open[k];
    df_nnue_pgn_counts c;
    df_nnue_reader_pgn_counts(r, &c);
    df_nnue_reader_free(r);
    add_pgn_counts(&self->counted.pgn, &c);
    publish(self);
    PyGILState_STATE g = PyGILState_Ensure();
    const bool stop = must_stop(self);
    if (self->formats[k] == DF_NNUE_PGN && whole && !stop && !self->read_failed[k] && !c.entries &&
        note_empty(self, k, &c) < 0)
        halt(self);
    if (!stop && self->read_failed[k] && dfpy_read_failed(src, (long)k, self->failures) < 0)
        halt(self);
    dfpy_source_close(src);
    PyGILState_Release(g);
}

/* The stream over the sources, as the run's options say; NULL when out of memory. */
static df_nnue_stream *make_stream(NnueBatches *self)
{
    df_nnue_stream_input *in = calloc(self->nsources + 1, sizeof *in);
    if (!in) return NULL;
    for (size_t k = 0; k < self->nsources; k++)
        in[k] = (df_nnue_stream_input){NULL, self->formats[k], self->sizes[k]};
    df_nnue_stream_options o = {0};
    o.shuffle = self->shuffle;
    o.cyclic = self->cyclic;
    o.rank = self->rank;
    o.world = self->world;
    o.skip = self->use_skip ? &self->skip : NULL;
    o.seed = self->seed;
    o.pgn = self->pgn;
    o.open = open_source;
    o.close = close_source;
    o.ctx = self;
    const df_interrupt stop = {stream_must_stop, self};
    o.interrupt = &stop;
    df_nnue_stream *s;
    const df_status made = df_nnue_stream_new(&s, in, self->nsources, &o);
    free(in);
    return made == DF_OK ? s : NULL;
}

static void *producer(void *arg)
{
    NnueBatches *self = arg;
    if (!(self->stream = make_stream(self))) self->failed = true;
    df_nnue_entry e;
    df_nnue_error err;
    size_t k = 0;
    /* Stopped, the rest of a chunk (of up to 100 MiB) is not decoded. */
    for (df_nnue_next got;
         !must_stop(self) && (got = df_nnue_stream_next(self->stream, &e, &err, &k));) {
        if (got == DF_NNUE_ERROR) {
            /* The source's own failure is the source's (SourceError, or the file object's
             * exception), as pgn_batches has it; the others are the batch's errors. */
            if (k < self->nsources && err.kind == DF_NNUE_ERR_IO &&
                (self->open[k].failed || df_source_error(self->open[k].source))) {
                self->read_failed[k] = true;
                continue;
            }
            self->counted.errors++;
            if (!filling(self) || !nbatch_error(self->filling, (int32_t)k, &err))
                self->failed = true;
            continue;
        }
        if (!filling(self)) break;
        nbatch_put(self->filling, &e);
        if (self->filling->n == self->batch_size && !emit(self)) break;
    }
    /* The last, short batch (the errors at the end too), before an exception that ended the
     * run is raised. */
    if (self->filling && !self->failed && !self->refused && !dfpy_queue_stopped(&self->q) &&
        (self->filling->n || self->filling->nerrors))
        emit(self);
    nbatch_free(self->filling);
    self->filling = NULL;
    df_nnue_stream_free(self->stream); /* the sources still open closed */
    self->stream = NULL;
    publish(self);
    dfpy_queue_finish(&self->q);
    return NULL;
}

/* ---- the iterator ---- */

/* Puts a numpy array over data (owned by owner, a reference taken) into out: 0, or -1. */
static int put(PyObject *out, const char *name, PyObject *owner, void *data, int nd, npy_intp *dims,
               int type)
{
    PyObject *a = PyArray_SimpleNewFromData(nd, dims, type, data);
    if (!a) return -1;
    Py_INCREF(owner);
    if (PyArray_SetBaseObject((PyArrayObject *)a, owner) < 0) {
        Py_DECREF(a);
        return -1;
    }
    const int r = PyDict_SetItemString(out, name, a);
    Py_DECREF(a);
    return r;
}

/* The arrays of b's n rows (b's region goes to them: b is left without it). */
static int arrays_to_dict(nbatch *b, PyObject *out)
{
    PyObject *owner = dfpy_region_owner(b->region, b->bytes);
    if (!owner) return -1;
    b->region = NULL;
    npy_intp n[1] = {(npy_intp)b->n}, rows[2] = {(npy_intp)b->n, (npy_intp)b->width};
    const int r = put(out, "is_white", owner, b->is_white, 1, n, NPY_FLOAT32) < 0 ||
                          put(out, "outcome", owner, b->outcome, 1, n, NPY_FLOAT32) < 0 ||
                          put(out, "score", owner, b->score, 1, n, NPY_FLOAT32) < 0 ||
                          put(out, "white", owner, b->white, 2, rows, NPY_INT32) < 0 ||
                          put(out, "black", owner, b->black, 2, rows, NPY_INT32) < 0 ||
                          put(out, "piece_count", owner, b->piece_count, 1, n, NPY_INT32) < 0
                      ? -1
                      : 0;
    Py_DECREF(owner);
    return r;
}

static PyObject *batch_dict(nbatch *b)
{
    PyObject *out = PyDict_New(), *errors = out ? PyList_New((Py_ssize_t)b->nerrors) : NULL;
    int status = errors ? 0 : -1;
    for (size_t i = 0; !status && i < b->nerrors; i++) {
        const entry_error *x = &b->errors[i];
        PyObject *t = Py_BuildValue("(iKKs)", x->source, (unsigned long long)x->e.offset,
                                    (unsigned long long)x->e.where, x->e.message);
        if (!t)
            status = -1;
        else
            PyList_SET_ITEM(errors, (Py_ssize_t)i, t);
    }
    if (!status) status = arrays_to_dict(b, out);
    if (!status) status = PyDict_SetItemString(out, "errors", errors);
    Py_XDECREF(errors);
    nbatch_free(b);
    if (status) Py_CLEAR(out);
    return out;
}

static PyObject *NnueBatches_next(NnueBatches *self)
{
    dfpy_item *item = dfpy_queue_take(&self->q);
    if (item) return batch_dict((nbatch *)item);
    if (PyErr_Occurred()) return NULL;
    if (self->exc_type) {
        PyErr_Restore(self->exc_type, self->exc_value, self->exc_tb);
        self->exc_type = self->exc_value = self->exc_tb = NULL;
        return NULL;
    }
    if (self->failed) {
        self->failed = false; /* said once */
        return PyErr_NoMemory();
    }
    return NULL; /* StopIteration */
}

static void NnueBatches_dealloc(NnueBatches *self)
{
    if (self->ready) {
        dfpy_queue_stop(&self->q);
        dfpy_queue_destroy(&self->q);
    }
    for (size_t k = 0; k < self->nsources; k++) Py_DECREF(self->sources[k]);
    free(self->sources);
    free(self->formats);
    free(self->sizes);
    free(self->starts);
    free(self->open);
    free(self->read_failed);
    Py_XDECREF(self->failures);
    Py_XDECREF(self->empty);
    Py_XDECREF(self->exc_type);
    Py_XDECREF(self->exc_value);
    Py_XDECREF(self->exc_tb);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *NnueBatches_iter(PyObject *self)
{
    Py_INCREF(self);
    return self;
}

static PyObject *NnueBatches_close(NnueBatches *self, PyObject *unused)
{
    (void)unused;
    dfpy_queue_stop(&self->q);
    Py_RETURN_NONE;
}

static PyObject *NnueBatches_stats(NnueBatches *self, void *unused)
{
    (void)unused;
    if (dfpy_queue_check(&self->q) < 0) return NULL;
    pthread_mutex_lock(&self->q.lock);
    const struct counts c = self->published;
    pthread_mutex_unlock(&self->q.lock);
    const unsigned long long read = c.entries, kept = c.kept, skipped = c.skipped,
                             errors = c.errors;
    const df_nnue_pgn_counts *p = &c.pgn;
    return Py_BuildValue("{sKsKsKsKsKsKsKsKsKsK}", "entries", read, "kept", kept, "skipped",
                         skipped, "errors", errors, "pgn_games", (unsigned long long)p->games,
                         "pgn_no_eval", (unsigned long long)p->no_eval, "pgn_no_result",
                         (unsigned long long)p->no_result, "pgn_null_moves",
                         (unsigned long long)p->null_moves, "pgn_in_errors",
                         (unsigned long long)p->in_errors, "pgn_games_skipped",
                         (unsigned long long)p->skipped_games);
}

static PyObject *NnueBatches_empty(NnueBatches *self, void *unused)
{
    (void)unused;
    if (dfpy_queue_check(&self->q) < 0) return NULL;
    /* The reader appends to it holding the GIL, as this holds it. */
    return PyList_GetSlice(self->empty, 0, PY_SSIZE_T_MAX);
}

static PyObject *NnueBatches_failures(NnueBatches *self, void *unused)
{
    (void)unused;
    if (dfpy_queue_check(&self->q) < 0) return NULL;
    if (!self->q.joined) return PyList_New(0); /* the run's list: read once it is over */
    return PyList_GetSlice(self->failures, 0, PY_SSIZE_T_MAX);
}

static PyMethodDef NnueBatches_methods[] = {
    {"close", (PyCFunction)NnueBatches_close, METH_NOARGS, "Stops the reading thread."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef NnueBatches_getset[] = {
    {"stats", (getter)NnueBatches_stats, NULL,
     "entries (read, of this share), kept, skipped (by the skip options), errors", NULL},
    {"empty", (getter)NnueBatches_empty, NULL,
     "The PGN sources read so far that gave no entry: a list of (index, why).", NULL},
    {"failures", (getter)NnueBatches_failures, NULL,
     "The sources that could not be read to their end, once the iterator is over: a list of "
     "(index, name, errno, reason).",
     NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject NnueBatches_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "dirfill._NnueBatches",
    .tp_basicsize = sizeof(NnueBatches),
    .tp_dealloc = (destructor)NnueBatches_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_iter = NnueBatches_iter,
    .tp_iternext = (iternextfunc)NnueBatches_next,
    .tp_methods = NnueBatches_methods,
    .tp_getset = NnueBatches_getset,
};

/* A feature set's name: 0 and *set, or -1 with ValueError. */
static int set_arg(df_nnue_set *set, PyObject *features)
{
    Py_ssize_t len;
    const char *name = dfpy_text(features, &len, "features");
    if (!name) return -1;
    if (df_nnue_set_parse(set, name, (size_t)len) == DF_OK) return 0;
    PyErr_Format(PyExc_ValueError,
                 "features: '%s' is not HalfKAv2_hm (or nnue-pytorch's HalfKAv2_hm^), "
                 "Full_Threats, PP_3Wide or a '+'-joined list of them, each once",
                 name);
    return -1;
}

/* specs: a list of (source, format number[, size in bytes (0: not known)[, where a file object
 * read again is sought first (-1: never)]]). 0, or -1 with an exception. */
static int make_specs(NnueBatches *self, PyObject *specs)
{
    const size_t n = (size_t)PyList_GET_SIZE(specs);
    self->sources = calloc(n + 1, sizeof *self->sources);
    self->formats = calloc(n + 1, sizeof *self->formats);
    self->sizes = calloc(n + 1, sizeof *self->sizes);
    self->starts = calloc(n + 1, sizeof *self->starts);
    self->open = calloc(n + 1, sizeof *self->open);
    self->read_failed = calloc(n + 1, sizeof *self->read_failed);
    if (!self->sources || !self->formats || !self->sizes || !self->starts || !self->open ||
        !self->read_failed) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        PyObject *obj;
        int format;
        unsigned long long size = 0;
        long long start = -1;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(specs, (Py_ssize_t)k), "Oi|KL", &obj, &format, &size,
                              &start))
            return -1;
        if (format < 0 || format >= DF_NNUE_FORMATS)
            return PyErr_Format(PyExc_ValueError, "format %d is not 0 to %d", format,
                                DF_NNUE_FORMATS - 1),
                   -1;
        Py_INCREF(obj);
        self->sources[self->nsources] = obj;
        self->sizes[self->nsources] = size;
        self->starts[self->nsources] = start;
        self->formats[self->nsources++] = (df_nnue_format)format;
    }
    return 0;
}

/* _nnue_batches(specs, batch_size, features, skip, threads, rank, world_size, seed,
 * score_units, keep_no_eval[, shuffle, cyclic]): specs as make_specs takes them; rank and
 * world_size checked by the caller; score_units 0 (Stockfish's) or 1 (centipawns); shuffle the
 * entries shuffled together (0: the sources' order), cyclic: read again and again. */
static PyObject *py_nnue_batches(PyObject *unused, PyObject *args)
{
    (void)unused;
    PyObject *specs, *features, *skip, *threads;
    Py_ssize_t batch_size;
    unsigned int rank, world;
    unsigned long long seed, shuffle = 0;
    int units, keep_no_eval, cyclic = 0;
    if (!PyArg_ParseTuple(args, "O!nOOOIIKip|Kp", &PyList_Type, &specs, &batch_size, &features,
                          &skip, &threads, &rank, &world, &seed, &units, &keep_no_eval, &shuffle,
                          &cyclic))
        return NULL;
    if (shuffle > DF_NNUE_STREAM_SHUFFLE_MAX)
        return PyErr_Format(PyExc_ValueError, "shuffle must be 0 to 2**32 - 1 entries");
    /* Below 2^31 rows, a batch's bytes (rows of 288 at most) fit in a size_t. */
    if (batch_size < 1 || batch_size > INT32_MAX)
        return PyErr_Format(PyExc_ValueError, "batch_size must be 1 to 2**31 - 1");
    NnueBatches *self = (NnueBatches *)NnueBatches_Type.tp_alloc(&NnueBatches_Type, 0);
    if (!self) return NULL;
    dfpy_queue_init(&self->q, "nnue_batches", QUEUE, drop_item);
    self->ready = true;
    self->batch_size = (size_t)batch_size;
    self->rank = rank;
    self->world = world;
    self->seed = seed;
    self->shuffle = (size_t)shuffle;
    self->cyclic = cyclic != 0;
    self->pgn = (df_nnue_pgn_options){keep_no_eval != 0, (df_nnue_score_units)units};
    if (set_arg(&self->set, features) < 0 || dfpy_threads(threads, &self->threads) < 0 ||
        skip_options(&self->skip, &self->use_skip, skip) < 0 || make_specs(self, specs) < 0 ||
        !(self->failures = PyList_New(0)) || !(self->empty = PyList_New(0))) {
        Py_DECREF(self);
        return NULL;
    }
    self->width = df_nnue_set_max_active(&self->set);
    if (dfpy_queue_start(&self->q, producer, self) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

/* _nnue_features(fens, features, threads) -> dict of is_white, white, black, piece_count */
static PyObject *py_nnue_features(PyObject *unused, PyObject *args)
{
    (void)unused;
    PyObject *fens, *features, *threads_arg;
    if (!PyArg_ParseTuple(args, "OOO", &fens, &features, &threads_arg)) return NULL;
    df_nnue_set set;
    unsigned threads;
    if (set_arg(&set, features) < 0 || dfpy_threads(threads_arg, &threads) < 0) return NULL;
    PyObject *seq = PySequence_Fast(fens, "fens must be a list of FEN strings");
    if (!seq) return NULL;
    const size_t n = (size_t)PySequence_Fast_GET_SIZE(seq), width = df_nnue_set_max_active(&set);
    nbatch *b = nbatch_new(n ? n : 1, width);
    PyObject *out = NULL;
    if (!b) {
        PyErr_NoMemory();
        goto done;
    }
    df_nnue_entry e = {.result = 0, .score = 0};
    for (size_t i = 0; i < n; i++) {
        if (dfpy_parse_fen(&e.pos, PySequence_Fast_GET_ITEM(seq, (Py_ssize_t)i), 0) < 0) goto done;
        nbatch_put(b, &e);
    }
    size_t cut;
    Py_BEGIN_ALLOW_THREADS
        cut = df_nnue_batch_mt(b->white, b->black, width, b->boards, n, &set, threads);
    Py_END_ALLOW_THREADS
    if (cut) {
        char why[DF_FEN_MAX + 512];
        const size_t i = first_cut(why, sizeof why, b->boards, n, width, &set);
        PyErr_Format(PyExc_ValueError, "fens[%zu]: %s", i,
                     i < n ? why : "more features than a row holds");
        goto done;
    }
    if ((out = PyDict_New()) && arrays_to_dict(b, out) < 0) Py_CLEAR(out);
done:
    nbatch_free(b);
    Py_DECREF(seq);
    return out;
}

/* _nnue_format(name) -> the format number its extension names, or None */
static PyObject *py_nnue_format(PyObject *unused, PyObject *name)
{
    (void)unused;
    PyObject *bytes;
    if (!PyUnicode_FSConverter(name, &bytes)) return NULL;
    df_nnue_format f;
    const bool known = df_nnue_format_of(&f, PyBytes_AS_STRING(bytes));
    Py_DECREF(bytes);
    if (!known) Py_RETURN_NONE;
    return PyLong_FromLong((long)f);
}

PyMethodDef dfpy_nnue_methods[] = {{"_nnue_batches", py_nnue_batches, METH_VARARGS, NULL},
                                   {"_nnue_features", py_nnue_features, METH_VARARGS, NULL},
                                   {"_nnue_format", py_nnue_format, METH_O, NULL},
                                   {NULL, NULL, 0, NULL}};

int dfpy_add_nnue(PyObject *module)
{
    (void)module; /* the iterator type is internal: _nnue_batches returns it */
    return PyType_Ready(&NnueBatches_Type);
}
