/* SPDX-License-Identifier: MIT */
/* PGN for Python: games one by one (_PgnGames, which read_pgn wraps in dirfill.Game), every
 * position as numpy columns (pgn_positions: the library's threaded reader, the GIL released,
 * each worker filling C columns of its own), and byte ranges at game boundaries (pgn_split,
 * for Dask). Sources: a path (.pgn, .zst, .gz), bytes-like data, or a binary file object. */
#include "_common.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { BLOCK = 1 << 20 };

/* ---- sources ---- */

/* What a source reads from, and what must live while it does. */
typedef struct {
    df_pgn_source *source;
    Py_buffer view; /* bytes-like data */
    bool have_view;
    size_t at;            /* read position in view */
    PyObject *file;       /* a file object (its read method is called with the GIL) */
    PyThreadState **save; /* set while the GIL is released around a threaded read */
    FILE *range_file;     /* a byte range of a plain file */
    uint64_t range_left;
    bool failed;
} py_source;

static long read_view(void *ctx, char *buf, size_t size)
{
    py_source *s = ctx;
    const size_t left = (size_t)s->view.len - s->at, n = left < size ? left : size;
    memcpy(buf, (const char *)s->view.buf + s->at, n);
    s->at += n;
    return (long)n;
}

static long read_range(void *ctx, char *buf, size_t size)
{
    py_source *s = ctx;
    const size_t want = s->range_left < size ? (size_t)s->range_left : size;
    const size_t n = want ? fread(buf, 1, want, s->range_file) : 0;
    s->range_left -= n;
    return n == 0 && want && ferror(s->range_file) ? -1 : (long)n;
}

/* file.read(size), the GIL taken back for it when a threaded read released it. */
static long read_file_object(void *ctx, char *buf, size_t size)
{
    py_source *s = ctx;
    if (s->save) PyEval_RestoreThread(*s->save);
    long n = -1;
    PyObject *data = PyObject_CallMethod(s->file, "read", "n", (Py_ssize_t)size);
    if (data && PyBytes_Check(data) && (size_t)PyBytes_GET_SIZE(data) <= size) {
        n = (long)PyBytes_GET_SIZE(data);
        memcpy(buf, PyBytes_AS_STRING(data), (size_t)n);
    } else if (data) {
        PyErr_SetString(PyExc_TypeError,
                        "the file must be opened in binary mode (read returns bytes)");
    }
    Py_XDECREF(data);
    if (n < 0) s->failed = true; /* the exception stays set */
    if (s->save) *s->save = PyEval_SaveThread();
    return n;
}

static void close_source(py_source *s)
{
    df_pgn_source_close(s->source);
    if (s->have_view) PyBuffer_Release(&s->view);
    Py_XDECREF(s->file);
    if (s->range_file) fclose(s->range_file);
    memset(s, 0, sizeof *s);
}

/* Opens obj as a source; range: NULL, or (start, end) bytes of a plain file. -1 with an
 * exception. */
static int open_source(py_source *s, PyObject *obj, PyObject *range)
{
    memset(s, 0, sizeof *s);
    if (PyUnicode_Check(obj) || PyObject_HasAttrString(obj, "__fspath__")) {
        PyObject *path = NULL;
        if (!PyUnicode_FSConverter(obj, &path)) return -1;
        const char *p = PyBytes_AS_STRING(path);
        if (range && range != Py_None) {
            unsigned long long start, end;
            if (!PyArg_ParseTuple(range, "KK", &start, &end) || start > end) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "byte_range is (start, end), start <= end");
                Py_DECREF(path);
                return -1;
            }
            const size_t n = strlen(p);
            if ((n > 4 && !strcmp(p + n - 4, ".zst")) || (n > 3 && !strcmp(p + n - 3, ".gz"))) {
                PyErr_SetString(PyExc_ValueError, "byte_range reads a plain file: a compressed "
                                                  "file is read whole");
                Py_DECREF(path);
                return -1;
            }
            s->range_file = fopen(p, "rb");
            if (!s->range_file || fseeko(s->range_file, (off_t)start, SEEK_SET) != 0) {
                PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, obj);
                Py_DECREF(path);
                return -1;
            }
            s->range_left = end - start;
            s->source = df_pgn_source_from_function(read_range, s);
        } else {
            const df_status st = df_pgn_source_open(&s->source, p);
            if (st == DF_ERR_UNSUPPORTED)
                PyErr_Format(PyExc_ValueError, "%s: this build cannot decompress it", p);
            else if (st != DF_OK)
                PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, obj);
            if (st != DF_OK) {
                Py_DECREF(path);
                return -1;
            }
        }
        Py_DECREF(path);
    } else if (PyObject_CheckBuffer(obj)) {
        if (PyObject_GetBuffer(obj, &s->view, PyBUF_SIMPLE) < 0) return -1;
        s->have_view = true;
        s->source = df_pgn_source_from_function(read_view, s);
    } else if (PyObject_HasAttrString(obj, "read")) {
        Py_INCREF(obj);
        s->file = obj;
        s->source = df_pgn_source_from_function(read_file_object, s);
    } else {
        PyErr_Format(PyExc_TypeError,
                     "source must be a path, bytes or a binary file object, not "
                     "%.100s",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    if (!s->source) {
        close_source(s);
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* The exception of a failed read: the file object's own, or an OSError naming the problem. */
static void source_error(py_source *s)
{
    if (PyErr_Occurred()) return;
    const char *why = df_pgn_source_error(s->source);
    PyErr_Format(PyExc_OSError, "%s", why ? why : "cannot read the input");
}

/* An evaluation as Python: pawns (White's view), "#N" for a mate, None. */
static PyObject *eval_object(df_pgn_eval_kind kind, int32_t mate, double pawns)
{
    if (kind == DF_PGN_EVAL_MATE) return PyUnicode_FromFormat("#%d", (int)mate);
    if (kind == DF_PGN_EVAL_PAWNS) return PyFloat_FromDouble(pawns);
    Py_RETURN_NONE;
}

static PyObject *headers_list(const df_pgn_game *g)
{
    PyObject *list = PyList_New(g->ntags);
    for (uint32_t i = 0; list && i < g->ntags; i++) {
        PyObject *pair = Py_BuildValue("(s#s#)", g->tags[i].name, (Py_ssize_t)g->tags[i].name_len,
                                       g->tags[i].value, (Py_ssize_t)g->tags[i].value_len);
        if (!pair) {
            /* A value that is no UTF-8: its bytes as Latin-1, as old PGN files are written. */
            PyErr_Clear();
            pair = Py_BuildValue(
                "(NN)", PyUnicode_DecodeLatin1(g->tags[i].name, g->tags[i].name_len, NULL),
                PyUnicode_DecodeLatin1(g->tags[i].value, g->tags[i].value_len, NULL));
        }
        if (!pair)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, pair);
    }
    return list;
}

/* ---- games one by one ---- */

typedef struct {
    PyObject_HEAD df_pgn_reader *reader;
    py_source src;
    char *block;
    PyObject *queue; /* games read, not yet returned */
    Py_ssize_t next;
    bool finished;
    PyObject *uci, *san, *eval, *clock; /* lists of the game in progress */
    bool failed;
} GamesObject;

static PyTypeObject Games_Type;

static bool games_ok(GamesObject *self)
{
    return !self->failed && self->uci && self->san && self->eval && self->clock;
}

static df_pgn_action games_begin(void *ctx, const df_pgn_game *g)
{
    (void)g;
    GamesObject *self = ctx;
    Py_XSETREF(self->uci, PyList_New(0));
    Py_XSETREF(self->san, PyList_New(0));
    Py_XSETREF(self->eval, PyList_New(0));
    Py_XSETREF(self->clock, PyList_New(0));
    if (!games_ok(self)) self->failed = true;
    return self->failed ? DF_PGN_STOP : DF_PGN_READ;
}

static int append_new(PyObject *list, PyObject *item)
{
    const int r = item ? PyList_Append(list, item) : -1;
    Py_XDECREF(item);
    return r;
}

static void games_ply(void *ctx, const df_pgn_game *g, const df_pgn_ply *p)
{
    (void)g;
    GamesObject *self = ctx;
    if (!games_ok(self)) return;
    char uci[DF_UCI_MAX] = "0000", san[DF_SAN_MAX] = "--";
    if (p->move != DF_MOVE_NONE) {
        df_move_to_uci(uci, p->before, p->move);
        df_move_to_san(san, p->before, p->move);
    }
    if (append_new(self->uci, PyUnicode_FromString(uci)) < 0 ||
        append_new(self->san, PyUnicode_FromString(san)) < 0 ||
        append_new(self->eval, eval_object(p->eval_kind, p->mate, p->pawns)) < 0 ||
        append_new(self->clock,
                   p->has_clock ? PyFloat_FromDouble(p->clock) : (Py_INCREF(Py_None), Py_None)) < 0)
        self->failed = true;
}

static df_pgn_action games_end(void *ctx, const df_pgn_game *g)
{
    GamesObject *self = ctx;
    if (!g->error && !g->skipped && !self->uci) games_begin(self, g);
    if (self->failed) return DF_PGN_STOP;
    char start[DF_FEN_MAX], end[DF_FEN_MAX];
    df_fen_format(start, sizeof start, &g->start, DF_FEN_STANDARD);
    df_fen_format(end, sizeof end, &g->board, DF_FEN_STANDARD);
    /* (index, headers, start, result, uci, san, eval, clock, end, error, error_line, skipped):
     * the move lists of a game with an error or skipped are None. */
    const bool good = !g->error && !g->skipped;
    PyObject *none = Py_None;
    PyObject *game = Py_BuildValue(
        "(KNssOOOOsNKN)", (unsigned long long)g->index, headers_list(g), start,
        df_result_string(g->result), good ? self->uci : none, good ? self->san : none,
        good ? self->eval : none, good ? self->clock : none, end,
        g->error ? PyUnicode_FromString(g->error) : (Py_INCREF(Py_None), Py_None),
        (unsigned long long)g->error_line,
        g->skipped ? PyUnicode_FromString(g->skipped) : (Py_INCREF(Py_None), Py_None));
    Py_CLEAR(self->uci);
    Py_CLEAR(self->san);
    Py_CLEAR(self->eval);
    Py_CLEAR(self->clock);
    if (!game || PyList_Append(self->queue, game) < 0) self->failed = true;
    Py_XDECREF(game);
    return self->failed ? DF_PGN_STOP : DF_PGN_READ;
}

static PyObject *Games_next(GamesObject *self)
{
    const df_pgn_visitor v = {games_begin, games_ply, games_end, self};
    while (self->next == PyList_GET_SIZE(self->queue) && !self->finished) {
        PyList_SetSlice(self->queue, 0, self->next, NULL);
        self->next = 0;
        const long n = df_pgn_source_read(self->src.source, self->block, BLOCK);
        df_status s;
        if (n < 0) {
            self->finished = true;
            df_pgn_finish(self->reader, &v);
            source_error(&self->src);
            return NULL;
        }
        s = n ? df_pgn_feed(self->reader, self->block, (size_t)n, &v)
              : df_pgn_finish(self->reader, &v);
        if (n == 0) self->finished = true;
        if (self->failed || s != DF_OK) {
            self->finished = true;
            if (!PyErr_Occurred()) PyErr_NoMemory();
            return NULL;
        }
        if (dfpy_check_signals() < 0) return NULL;
    }
    if (self->next == PyList_GET_SIZE(self->queue)) return NULL; /* StopIteration */
    PyObject *game = PyList_GET_ITEM(self->queue, self->next++);
    Py_INCREF(game);
    return game;
}

static void Games_dealloc(GamesObject *self)
{
    df_pgn_reader_free(self->reader);
    close_source(&self->src);
    free(self->block);
    Py_XDECREF(self->queue);
    Py_XDECREF(self->uci);
    Py_XDECREF(self->san);
    Py_XDECREF(self->eval);
    Py_XDECREF(self->clock);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Games_iter(PyObject *self)
{
    Py_INCREF(self);
    return self;
}

static PyTypeObject Games_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "dirfill._PgnGames",
    .tp_basicsize = sizeof(GamesObject),
    .tp_dealloc = (destructor)Games_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_iter = Games_iter,
    .tp_iternext = (iternextfunc)Games_next,
};

/* _pgn_games(source, chess960=False) -> iterator of tuples (read_pgn makes Games of them) */
static PyObject *py_pgn_games(PyObject *unused, PyObject *args, PyObject *kw)
{
    (void)unused;
    static char *names[] = {"source", "chess960", NULL};
    PyObject *source;
    int chess960 = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$p", names, &source, &chess960)) return NULL;
    GamesObject *self = (GamesObject *)Games_Type.tp_alloc(&Games_Type, 0);
    if (!self) return NULL;
    if (open_source(&self->src, source, NULL) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    self->reader = df_pgn_reader_new();
    self->block = malloc(BLOCK);
    self->queue = PyList_New(0);
    if (!self->reader || !self->block || !self->queue) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    df_pgn_reader_reset(self->reader, chess960 ? DF_PGN_CHESS960 : DF_PGN_STANDARD, 0, 1, 0);
    return (PyObject *)self;
}

/* ---- every position as columns ---- */

/* Columns of rows: a growing array of each. */
typedef struct {
    uint64_t *pieces, *castling;
    uint8_t *stm;
    int8_t *ep, *result;
    uint32_t *halfmove, *fullmove, *ply;
    int64_t *game;
    uint16_t *move;
    float *eval, *clock;
    char (*uci)[DF_UCI_MAX];
    size_t n, cap;
    bool with_uci, failed;
} columns;

/* clang-format off */
#define COLUMN_FIELDS(X)                                                                           \
    X(pieces, 12) X(castling, 1) X(stm, 1) X(ep, 1) X(result, 1) X(halfmove, 1) X(fullmove, 1)     \
    X(ply, 1) X(game, 1) X(move, 1) X(eval, 1) X(clock, 1)
/* clang-format on */

#ifdef MADV_HUGEPAGE
static void advise_huge(void *p, size_t n)
{
    const uintptr_t page = 4096, start = ((uintptr_t)p + page - 1) & ~(page - 1),
                    end = ((uintptr_t)p + n) & ~(page - 1);
    if (end > start) madvise((void *)start, end - start, MADV_HUGEPAGE); /* advice: may fail */
}
#endif

static bool columns_reserve(columns *c, size_t need)
{
    if (need <= c->cap) return true;
    size_t cap = c->cap ? c->cap : 4096;
    while (cap < need) cap *= 2;
#define GROW(name, width)                                                                          \
    {                                                                                              \
        void *grown = realloc(c->name, cap * (width) * sizeof *c->name);                           \
        if (!grown) return c->failed = true, false;                                                \
        c->name = grown;                                                                           \
    }
    COLUMN_FIELDS(GROW)
#undef GROW
    if (c->with_uci) {
        void *grown = realloc(c->uci, cap * sizeof *c->uci);
        if (!grown) return c->failed = true, false;
        c->uci = grown;
    }
    c->cap = cap;
#ifdef MADV_HUGEPAGE
    /* Columns of millions of rows: 2 MB pages where the kernel allows them, so that first
     * touches fault once per 2 MB instead of once per 4 KB (a pipeline's rows run to GBs). */
    if (cap * 12 * sizeof *c->pieces >= (4u << 20)) {
#define HUGE(name, width) advise_huge(c->name, cap *(width) * sizeof *c->name);
        COLUMN_FIELDS(HUGE)
#undef HUGE
    }
#endif
    return true;
}

static void columns_free(columns *c)
{
#define FREE(name, width) free(c->name);
    COLUMN_FIELDS(FREE)
#undef FREE
    free(c->uci);
    memset(c, 0, sizeof *c);
}

/* One run's results: its rows, and per game its headers and what went wrong. */
typedef struct {
    columns rows;
    size_t game_start; /* the current game's first row */
    char *text;        /* headers and messages, as "game\0name\0value\0" records */
    size_t text_len, text_cap;
    bool failed;
} pos_sink;

static void text_put(pos_sink *s, const char *p, size_t n)
{
    if (s->text_len + n > s->text_cap) {
        size_t cap = s->text_cap ? s->text_cap : 1 << 14;
        while (cap < s->text_len + n) cap *= 2;
        char *grown = realloc(s->text, cap);
        if (!grown) {
            s->failed = true;
            return;
        }
        s->text = grown;
        s->text_cap = cap;
    }
    memcpy(s->text + s->text_len, p, n);
    s->text_len += n;
}

/* A record of the sink's text: kind (H header, E error, S skipped), game (in the sink), two
 * strings (name and value; message and line as text; reason). */
static void record(pos_sink *s, char kind, uint64_t game, const char *a, size_t na, const char *b,
                   size_t nb)
{
    uint32_t la = (uint32_t)na, lb = (uint32_t)nb;
    text_put(s, &kind, 1);
    text_put(s, (const char *)&game, 8);
    text_put(s, (const char *)&la, 4);
    text_put(s, a, na);
    text_put(s, (const char *)&lb, 4);
    text_put(s, b, nb);
}

/* Sinks dropped after delivery are kept for the next ones: their columns have grown and their
 * pages are mapped (a new sink a block would fault in fresh pages for every row). */
enum { SPARE_SINKS = 8 };
typedef struct {
    bool with_uci;
    pthread_mutex_t lock; /* open may be called on any thread */
    pos_sink *spare[SPARE_SINKS];
    int nspare;
} pos_options;

static void *pos_open(void *ctx)
{
    pos_options *o = ctx;
    pthread_mutex_lock(&o->lock);
    pos_sink *s = o->nspare ? o->spare[--o->nspare] : NULL;
    pthread_mutex_unlock(&o->lock);
    if (!s && (s = calloc(1, sizeof *s))) s->rows.with_uci = o->with_uci;
    return s;
}

static void sink_free(pos_sink *s)
{
    columns_free(&s->rows);
    free(s->text);
    free(s);
}

static void pos_drop(void *ctx, void *p)
{
    pos_options *o = ctx;
    pos_sink *s = p;
    if (s->failed || s->rows.failed) {
        sink_free(s);
        return;
    }
    s->rows.n = s->game_start = s->text_len = 0;
    pthread_mutex_lock(&o->lock);
    const bool kept = o->nspare < SPARE_SINKS;
    if (kept) o->spare[o->nspare++] = s;
    pthread_mutex_unlock(&o->lock);
    if (!kept) sink_free(s);
}

static df_pgn_action pos_begin(void *ctx, const df_pgn_game *g)
{
    pos_sink *s = ctx;
    s->game_start = s->rows.n;
    for (uint32_t i = 0; i < g->ntags; i++)
        record(s, 'H', g->index, g->tags[i].name, g->tags[i].name_len, g->tags[i].value,
               g->tags[i].value_len);
    return s->failed ? DF_PGN_STOP : DF_PGN_READ;
}

static void pos_ply(void *ctx, const df_pgn_game *g, const df_pgn_ply *p)
{
    pos_sink *s = ctx;
    columns *c = &s->rows;
    if (!columns_reserve(c, c->n + 1)) return;
    const size_t i = c->n++;
    df_board_parts parts;
    df_board_to_parts(&parts, p->before);
    memcpy(c->pieces + 12 * i, parts.pieces, sizeof parts.pieces);
    c->castling[i] = parts.castling_rooks;
    c->stm[i] = (uint8_t)parts.stm;
    c->ep[i] = (int8_t)parts.ep;
    c->halfmove[i] = parts.halfmove;
    c->fullmove[i] = parts.fullmove;
    c->ply[i] = p->ply;
    c->game[i] = (int64_t)g->index;
    c->move[i] = p->move;
    /* The side to move's view: White's figures negated for Black. */
    const float sign = parts.stm == DF_WHITE ? 1.0f : -1.0f;
    if (p->eval_kind == DF_PGN_EVAL_PAWNS)
        c->eval[i] = sign * (float)p->pawns;
    else if (p->eval_kind == DF_PGN_EVAL_MATE)
        c->eval[i] = sign * (p->mate > 0 ? 1000.0f - (float)p->mate : -1000.0f - (float)p->mate);
    else
        c->eval[i] = NAN;
    c->clock[i] = p->has_clock ? (float)p->clock : NAN;
    if (c->with_uci) {
        memset(c->uci[i], 0, DF_UCI_MAX); /* numpy reads all six bytes */
        if (p->move == DF_MOVE_NONE)
            memcpy(c->uci[i], "0000", 5);
        else
            df_move_to_uci(c->uci[i], p->before, p->move);
    }
}

static df_pgn_action pos_end(void *ctx, const df_pgn_game *g)
{
    pos_sink *s = ctx;
    columns *c = &s->rows;
    if (!g->error && !g->skipped && s->game_start > c->n) s->game_start = c->n;
    if (g->error || g->skipped) {
        c->n = s->game_start; /* only good games give positions */
        if (g->error) {
            char line[24];
            const int n = snprintf(line, sizeof line, "%llu", (unsigned long long)g->error_line);
            record(s, 'E', g->index, g->error, strlen(g->error), line, (size_t)n);
        } else {
            record(s, 'S', g->index, g->skipped, strlen(g->skipped), "", 0);
        }
    } else {
        /* The result from each position's side to move: +1 won, 0 drawn, -1 lost. */
        for (size_t i = s->game_start; i < c->n; i++) {
            const int8_t white = g->result == DF_RESULT_WHITE_WINS   ? 1
                                 : g->result == DF_RESULT_BLACK_WINS ? -1
                                 : g->result == DF_RESULT_DRAW       ? 0
                                                                     : -128;
            c->result[i] = white == -128 ? white : c->stm[i] ? (int8_t)-white : white;
        }
    }
    s->game_start = c->n;
    return c->failed || s->failed ? DF_PGN_STOP : DF_PGN_READ;
}

/* Everything delivered, in input order. */
typedef struct {
    pos_options options;
    pos_sink all;
    uint64_t first_game; /* added to every game index */
    dfpy_poll poll;
    df_interrupt interrupt;
    bool interrupted;
} pos_run;

static int pos_deliver(void *ctx, void *p, uint64_t first_game)
{
    pos_run *run = ctx;
    pos_sink *s = p;
    columns *all = &run->all.rows, *c = &s->rows;
    if (s->failed || c->failed) return 1;
    const uint64_t base = run->first_game + first_game;
    if (all->n == 0 && c->n > 0) {
        /* The first rows: taken over, not copied (read on one thread, a file's rows may all be
         * in one sink: copying them would write every row twice). */
        const columns empty = *all;
        *all = *c;
        *c = empty;
        c->n = 0;
        for (size_t i = 0; i < all->n; i++) all->game[i] += (int64_t)base;
        goto rows_done;
    }
    if (!columns_reserve(all, all->n + c->n)) return 1;
#define APPEND(name, width)                                                                        \
    memcpy(all->name + all->n * (width), c->name, c->n * (width) * sizeof *c->name);
    COLUMN_FIELDS(APPEND)
#undef APPEND
    if (all->with_uci) memcpy(all->uci + all->n, c->uci, c->n * sizeof *c->uci);
    for (size_t i = 0; i < c->n; i++) all->game[all->n + i] += (int64_t)base;
    all->n += c->n;
rows_done:
    /* The text records, their game numbers made absolute. */
    for (size_t at = 0; at < s->text_len;) {
        uint64_t game;
        uint32_t la, lb;
        memcpy(&game, s->text + at + 1, 8);
        memcpy(&la, s->text + at + 9, 4);
        memcpy(&lb, s->text + at + 13 + la, 4);
        record(&run->all, s->text[at], base + game, s->text + at + 13, la, s->text + at + 17 + la,
               lb);
        at += 17 + la + lb;
    }
    if (run->all.failed) return 1;
    if (run->interrupt.requested(run->interrupt.ctx)) {
        run->interrupted = true;
        return 1;
    }
    return 0;
}

/* A column as a numpy array that owns the C memory (a capsule frees it). */
static void free_capsule(PyObject *capsule) { free(PyCapsule_GetPointer(capsule, NULL)); }

static PyObject *array_of(void **data, int nd, npy_intp *dims, int type)
{
    void *p = *data ? *data : malloc(1);
    PyObject *a = PyArray_SimpleNewFromData(nd, dims, type, p);
    PyObject *capsule = a ? PyCapsule_New(p, NULL, free_capsule) : NULL;
    if (!capsule || PyArray_SetBaseObject((PyArrayObject *)a, capsule) < 0) {
        Py_XDECREF(a);
        Py_XDECREF(capsule);
        if (!a || !capsule) free(p);
        return NULL;
    }
    *data = NULL; /* the array owns it now */
    return a;
}

static PyObject *pos_result(pos_run *run)
{
    columns *c = &run->all.rows;
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    npy_intp n = (npy_intp)c->n, dims2[2] = {n, 12};
    struct {
        const char *name;
        void **data;
        int nd;
        npy_intp *dims;
        int type;
    } cols[] = {
        {"pieces", (void **)&c->pieces, 2, dims2, NPY_UINT64},
        {"stm", (void **)&c->stm, 1, &n, NPY_BOOL},
        {"castling", (void **)&c->castling, 1, &n, NPY_UINT64},
        {"ep", (void **)&c->ep, 1, &n, NPY_INT8},
        {"halfmove", (void **)&c->halfmove, 1, &n, NPY_UINT32},
        {"fullmove", (void **)&c->fullmove, 1, &n, NPY_UINT32},
        {"game", (void **)&c->game, 1, &n, NPY_INT64},
        {"ply", (void **)&c->ply, 1, &n, NPY_UINT32},
        {"move", (void **)&c->move, 1, &n, NPY_UINT16},
        {"result", (void **)&c->result, 1, &n, NPY_INT8},
        {"eval", (void **)&c->eval, 1, &n, NPY_FLOAT32},
        {"clock", (void **)&c->clock, 1, &n, NPY_FLOAT32},
    };
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
        PyObject *a = array_of(cols[i].data, cols[i].nd, cols[i].dims, cols[i].type);
        if (!a || PyDict_SetItemString(out, cols[i].name, a) < 0) {
            Py_XDECREF(a);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(a);
    }
    if (c->with_uci) {
        PyArray_Descr *d = PyArray_DescrNewFromType(NPY_STRING);
        d->elsize = DF_UCI_MAX;
        npy_intp dims[1] = {n};
        PyObject *a = PyArray_NewFromDescr(&PyArray_Type, d, 1, dims, NULL, NULL, 0, NULL);
        if (a) memcpy(PyArray_DATA((PyArrayObject *)a), c->uci, c->n * DF_UCI_MAX);
        if (!a || PyDict_SetItemString(out, "uci", a) < 0) {
            Py_XDECREF(a);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(a);
    }
    /* Headers, errors and skipped games from the text records. */
    PyObject *headers = PyDict_New(), *errors = PyList_New(0), *skipped = PyList_New(0);
    const char *t = run->all.text;
    for (size_t at = 0; headers && errors && skipped && at < run->all.text_len;) {
        uint64_t game;
        uint32_t la, lb;
        memcpy(&game, t + at + 1, 8);
        memcpy(&la, t + at + 9, 4);
        memcpy(&lb, t + at + 13 + la, 4);
        const char *a = t + at + 13, *b = t + at + 17 + la;
        PyObject *key = PyLong_FromUnsignedLongLong(game), *item = NULL;
        if (t[at] == 'H') {
            PyObject *tags = key ? PyDict_GetItemWithError(headers, key) : NULL;
            if (key && !tags && !PyErr_Occurred()) {
                tags = PyDict_New();
                if (tags && PyDict_SetItem(headers, key, tags) < 0) Py_CLEAR(tags);
                Py_XDECREF(tags);
            }
            PyObject *name = PyUnicode_DecodeUTF8(a, la, "replace"),
                     *value = PyUnicode_DecodeUTF8(b, lb, "replace");
            if (!tags || !name || !value || PyDict_SetItem(tags, name, value) < 0)
                Py_CLEAR(headers);
            Py_XDECREF(name);
            Py_XDECREF(value);
        } else if (t[at] == 'E') {
            item = Py_BuildValue("(Ks#L)", (unsigned long long)game, a, (Py_ssize_t)la,
                                 strtoll(b, NULL, 10));
            if (!item || PyList_Append(errors, item) < 0) Py_CLEAR(errors);
        } else {
            item = Py_BuildValue("(Ks#)", (unsigned long long)game, a, (Py_ssize_t)la);
            if (!item || PyList_Append(skipped, item) < 0) Py_CLEAR(skipped);
        }
        Py_XDECREF(item);
        Py_XDECREF(key);
        at += 17 + la + lb;
    }
    if (!headers || !errors || !skipped || PyDict_SetItemString(out, "headers", headers) < 0 ||
        PyDict_SetItemString(out, "errors", errors) < 0 ||
        PyDict_SetItemString(out, "skipped", skipped) < 0)
        Py_CLEAR(out);
    Py_XDECREF(headers);
    Py_XDECREF(errors);
    Py_XDECREF(skipped);
    return out;
}

/* _pgn_positions(source, *, threads=0, chess960=False, uci=False, byte_range=None,
 * first_game=0) -> dict */
static PyObject *py_pgn_positions(PyObject *unused, PyObject *args, PyObject *kw)
{
    (void)unused;
    static char *names[] = {"source",     "threads",    "chess960", "uci",
                            "byte_range", "first_game", NULL};
    PyObject *source, *threads_arg = NULL, *range = NULL;
    int chess960 = 0, uci = 0;
    unsigned long long first_game = 0;
    unsigned threads;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$OppOK", names, &source, &threads_arg, &chess960,
                                     &uci, &range, &first_game) ||
        dfpy_threads(threads_arg, &threads) < 0)
        return NULL;
    py_source src;
    if (open_source(&src, source, range) < 0) return NULL;
    /* A file object is read under the GIL: one thread reads, the library's workers replay. */
    pos_run run;
    memset(&run, 0, sizeof run);
    run.options.with_uci = uci;
    pthread_mutex_init(&run.options.lock, NULL);
    run.all.rows.with_uci = uci;
    run.first_game = first_game;
    const df_pgn_sinks sinks = {
        pos_open, {pos_begin, pos_ply, pos_end, NULL}, pos_deliver, pos_drop, &run};
    df_status s;
    df_pgn_stats stats;
    Py_BEGIN_ALLOW_THREADS
        src.save = &_save;
        run.interrupt = dfpy_poll_start(&run.poll, &_save);
        s = df_pgn_read_threaded(src.source, chess960 ? DF_PGN_CHESS960 : DF_PGN_STANDARD, NULL,
                                 threads, &sinks, &stats);
        src.save = NULL;
    Py_END_ALLOW_THREADS
    PyObject *out = NULL;
    if (s == DF_ERR_IO)
        source_error(&src);
    else if (s == DF_ERR_INTERRUPTED && !run.interrupted && !PyErr_Occurred())
        PyErr_NoMemory();
    else if (s == DF_OK)
        out = pos_result(&run);
    close_source(&src);
    columns_free(&run.all.rows);
    free(run.all.text);
    while (run.options.nspare) sink_free(run.options.spare[--run.options.nspare]);
    pthread_mutex_destroy(&run.options.lock);
    return out;
}

/* ---- byte ranges at game boundaries ---- */

typedef struct {
    uint64_t *ends, *lines, *games;
    size_t n, cap;
} boundaries;

/* A range may end where a game's result token ends (a reader of the range then sees the game
 * whole). */
static df_pgn_action split_end(void *ctx, const df_pgn_game *g)
{
    boundaries *b = ctx;
    if (!g->has_result) return DF_PGN_READ;
    if (b->n == b->cap) {
        const size_t cap = b->cap ? 2 * b->cap : 1024;
        uint64_t *e = realloc(b->ends, cap * 8), *l = realloc(b->lines, cap * 8),
                 *c = realloc(b->games, cap * 8);
        if (e) b->ends = e;
        if (l) b->lines = l;
        if (c) b->games = c;
        if (!e || !l || !c) return DF_PGN_STOP;
        b->cap = cap;
    }
    b->ends[b->n] = g->end_offset;
    b->lines[b->n] = g->end_line;
    b->games[b->n++] = g->index + 1;
    return DF_PGN_READ;
}

/* pgn_split(path, parts) -> [(start, end, first_game), ...]: a plain file in about `parts` byte
 * ranges, each starting where a game's result ended the one before (found by lexing the
 * file). */
static PyObject *py_pgn_split(PyObject *unused, PyObject *args)
{
    (void)unused;
    PyObject *path_obj, *path = NULL;
    Py_ssize_t parts;
    if (!PyArg_ParseTuple(args, "On", &path_obj, &parts)) return NULL;
    if (parts < 1) return PyErr_Format(PyExc_ValueError, "parts must be 1 or more");
    if (!PyUnicode_FSConverter(path_obj, &path)) return NULL;
    FILE *f = fopen(PyBytes_AS_STRING(path), "rb");
    Py_DECREF(path);
    if (!f) return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path_obj);
    boundaries b = {NULL, NULL, NULL, 0, 0};
    df_pgn_reader *r = df_pgn_reader_new();
    char *block = malloc(BLOCK);
    uint64_t size = 0;
    bool failed = !r || !block;
    if (!failed) {
        df_pgn_reader_reset(r, DF_PGN_LEX_ONLY, 0, 1, 0);
        const df_pgn_visitor v = {NULL, NULL, split_end, &b};
        Py_BEGIN_ALLOW_THREADS
            size_t n;
            while (!failed && (n = fread(block, 1, BLOCK, f)) > 0) {
                size += n;
                failed = df_pgn_feed(r, block, n, &v) != DF_OK;
            }
            failed = failed || ferror(f) || df_pgn_finish(r, &v) != DF_OK;
        Py_END_ALLOW_THREADS
    }
    fclose(f);
    free(block);
    df_pgn_reader_free(r);
    PyObject *out = failed ? NULL : PyList_New(0);
    if (failed) PyErr_SetString(PyExc_OSError, "cannot read the file");
    /* Each range ends at the game end nearest its share of the bytes. */
    uint64_t start = 0, game = 0;
    size_t k = 0;
    for (Py_ssize_t p = 1; out && p <= parts && start < size; p++) {
        const uint64_t target = p == parts ? size : size * (uint64_t)p / (uint64_t)parts;
        while (k < b.n && b.ends[k] < target) k++;
        uint64_t end = p == parts || k >= b.n ? size : b.ends[k];
        if (end <= start) continue;
        PyObject *item = Py_BuildValue("(KKK)", (unsigned long long)start, (unsigned long long)end,
                                       (unsigned long long)game);
        if (!item || PyList_Append(out, item) < 0) Py_CLEAR(out);
        Py_XDECREF(item);
        if (k < b.n && end == b.ends[k]) game = b.games[k++];
        start = end;
    }
    free(b.ends);
    free(b.lines);
    free(b.games);
    return out;
}

PyMethodDef dfpy_pgn_methods[] = {
    {"_pgn_games", (PyCFunction)(void (*)(void))py_pgn_games, METH_VARARGS | METH_KEYWORDS, NULL},
    {"_pgn_positions", (PyCFunction)(void (*)(void))py_pgn_positions, METH_VARARGS | METH_KEYWORDS,
     NULL},
    {"pgn_split", py_pgn_split, METH_VARARGS,
     "pgn_split(path, parts) -> list of (start, end, first_game)\n\nA plain PGN file in about "
     "`parts` byte ranges, each beginning where a game's result ended the game before (the file "
     "is lexed, not replayed: fast), for reading the ranges apart with pgn_positions(path, "
     "byte_range=(start, end), first_game=first_game), as examples/dask_pgn.py does."},
    {NULL, NULL, 0, NULL}};

int dfpy_add_pgn(PyObject *module)
{
    (void)module; /* the iterator type is internal: read_pgn wraps it */
    return PyType_Ready(&Games_Type);
}
