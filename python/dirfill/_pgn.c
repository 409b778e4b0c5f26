/* SPDX-License-Identifier: MIT */
/* PGN for Python: games one by one (_PgnGames, which read_pgn wraps in dirfill.Game) and byte
 * ranges at game boundaries (pgn_split, for Dask; pgn_cuts, the threaded reader's exact cuts,
 * for splitting a file between workers). Positions as columns are _pgn_batches.c's. */
#include "_source.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK = 1 << 20 };

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
    PyObject *sources;      /* a sequence, read in order */
    Py_ssize_t next_source; /* the one being read (while open) or next */
    bool open;              /* src is open */
    dfpy_source src;
    unsigned flags;
    uint64_t base; /* the number of the current source's first game */
    char *block;
    PyObject *queue; /* games read, not yet returned */
    Py_ssize_t next;
    bool finished;
    uint64_t unended_at; /* where the last game ended when no result token ended it, or ~0 */
    PyObject *uci, *san, *eval, *clock; /* lists of the game in progress */
    df_pgn_filter *filter;
    bool failed;
    PyObject *failures;                      /* the sources not read to their end */
    PyObject *exc_type, *exc_value, *exc_tb; /* raised once the games before it are given */
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
    /* (index, headers, start, result, uci, san, eval, clock, end, error, error_line, skipped,
     * warning): the move lists of a game with an error or skipped are None. */
    const bool good = !g->error && !g->skipped;
    PyObject *none = Py_None;
    PyObject *game = Py_BuildValue(
        "(KNssOOOOsNKNN)", (unsigned long long)g->index, headers_list(g), start,
        df_result_string(g->result), good ? self->uci : none, good ? self->san : none,
        good ? self->eval : none, good ? self->clock : none, end,
        g->error ? PyUnicode_FromString(g->error) : (Py_INCREF(Py_None), Py_None),
        (unsigned long long)g->error_line,
        g->skipped ? PyUnicode_FromString(g->skipped) : (Py_INCREF(Py_None), Py_None),
        g->warning ? PyUnicode_FromString(g->warning) : (Py_INCREF(Py_None), Py_None));
    Py_CLEAR(self->uci);
    Py_CLEAR(self->san);
    Py_CLEAR(self->eval);
    Py_CLEAR(self->clock);
    if (!game || PyList_Append(self->queue, game) < 0) self->failed = true;
    Py_XDECREF(game);
    self->unended_at = g->has_result ? UINT64_MAX : g->end_offset;
    return self->failed ? DF_PGN_STOP : DF_PGN_READ;
}

/* Holds the exception set, raised once the games read before it are given; reading is over. */
static void games_hold_exception(GamesObject *self)
{
    self->finished = true;
    if (!self->exc_type) PyErr_Fetch(&self->exc_type, &self->exc_value, &self->exc_tb);
    PyErr_Clear();
}

/* The current source read to its end or to a failure: its last game finished, its games
 * counted for the next source's numbers. */
static void games_close_source(GamesObject *self, const df_pgn_visitor *v)
{
    df_pgn_finish(self->reader, v);
    self->base += df_pgn_reader_stats(self->reader).games;
    dfpy_source_close(&self->src);
    self->open = false;
    self->next_source++;
}

/* Opens the next source (false: none is left, or the run must stop). */
static bool games_open_next(GamesObject *self)
{
    while (self->next_source < PySequence_Fast_GET_SIZE(self->sources)) {
        PyObject *obj = PySequence_Fast_GET_ITEM(self->sources, self->next_source);
        if (dfpy_source_open(&self->src, obj, NULL) == 0) {
            df_pgn_reader_reset(self->reader, self->flags, self->base, 1, 0);
            return self->open = true;
        }
        if (dfpy_open_failed(self->failures, (long)self->next_source, obj) < 0) {
            games_hold_exception(self);
            return false;
        }
        self->next_source++;
    }
    return false;
}

static PyObject *Games_next(GamesObject *self)
{
    const df_pgn_visitor v = {games_begin, games_ply, games_end, self};
    while (self->next == PyList_GET_SIZE(self->queue) && !self->finished) {
        PyList_SetSlice(self->queue, 0, self->next, NULL);
        self->next = 0;
        if (!self->open && !games_open_next(self)) {
            self->finished = true;
            break;
        }
        const long n = df_source_read(self->src.source, self->block, BLOCK);
        df_status s = DF_OK;
        if (n < 0) {
            /* The games before the failure are given, then the next source is read. */
            if (dfpy_read_failed(&self->src, (long)self->next_source, self->failures) < 0)
                games_hold_exception(self);
            const Py_ssize_t had = PyList_GET_SIZE(self->queue);
            const bool raised = self->src.failed;
            const uint64_t given = self->src.given;
            games_close_source(self, &v);
            /* A file object's read raised: the reader, its input over, ended the game the
             * failure cut short (an error "the input ends ...", or a game of no moves). The
             * exception tells what happened: that game is not given. */
            if (raised && PyList_GET_SIZE(self->queue) > had && self->unended_at == given)
                PyList_SetSlice(self->queue, PyList_GET_SIZE(self->queue) - 1,
                                PyList_GET_SIZE(self->queue), NULL);
        } else if (n == 0) {
            games_close_source(self, &v);
        } else {
            s = df_pgn_feed(self->reader, self->block, (size_t)n, &v);
        }
        if (self->failed || s != DF_OK) {
            self->finished = true;
            if (!PyErr_Occurred()) PyErr_NoMemory();
            return NULL;
        }
        if (dfpy_check_signals() < 0) return NULL;
    }
    if (self->next < PyList_GET_SIZE(self->queue)) {
        PyObject *game = PyList_GET_ITEM(self->queue, self->next++);
        Py_INCREF(game);
        return game;
    }
    if (self->exc_type) {
        PyErr_Restore(self->exc_type, self->exc_value, self->exc_tb);
        self->exc_type = self->exc_value = self->exc_tb = NULL;
    }
    return NULL; /* StopIteration, or the exception held */
}

static void Games_dealloc(GamesObject *self)
{
    df_pgn_reader_free(self->reader);
    df_pgn_filter_free(self->filter);
    dfpy_source_close(&self->src);
    free(self->block);
    Py_XDECREF(self->sources);
    Py_XDECREF(self->failures);
    Py_XDECREF(self->exc_type);
    Py_XDECREF(self->exc_value);
    Py_XDECREF(self->exc_tb);
    Py_XDECREF(self->queue);
    Py_XDECREF(self->uci);
    Py_XDECREF(self->san);
    Py_XDECREF(self->eval);
    Py_XDECREF(self->clock);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Games_failures(GamesObject *self, void *unused)
{
    (void)unused;
    return PyList_GetSlice(self->failures, 0, PY_SSIZE_T_MAX);
}

static PyGetSetDef Games_getset[] = {
    {"failures", (getter)Games_failures, NULL,
     "The sources not read to their end so far: a list of (index, name, errno, reason).", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

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
    .tp_getset = Games_getset,
};

/* _pgn_games(sources, chess960=False, where=None) -> iterator of tuples (read_pgn makes Games of
 * them): the sources read in order, game numbers going on from one to the next; a source that
 * cannot be read to its end is noted in the iterator's failures and the next one is read. */
static PyObject *py_pgn_games(PyObject *unused, PyObject *args, PyObject *kw)
{
    (void)unused;
    static char *names[] = {"sources", "chess960", "where", NULL};
    PyObject *sources, *where = NULL;
    int chess960 = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$pO", names, &sources, &chess960, &where))
        return NULL;
    GamesObject *self = (GamesObject *)Games_Type.tp_alloc(&Games_Type, 0);
    if (!self) return NULL;
    self->flags = chess960 ? DF_PGN_CHESS960 : DF_PGN_STANDARD;
    if (dfpy_filter(where, &self->filter) < 0 ||
        !(self->sources = PySequence_Fast(sources, "sources must be a list"))) {
        Py_DECREF(self);
        return NULL;
    }
    self->reader = df_pgn_reader_new();
    self->block = malloc(BLOCK);
    self->queue = PyList_New(0);
    self->failures = PyList_New(0);
    if (!self->reader || !self->block || !self->queue || !self->failures) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    df_pgn_reader_set_filter(self->reader, self->filter);
    return (PyObject *)self;
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
 * ranges, each starting where a game's result ended the one before (found by skimming the
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
        /* Game ends are all it needs: the movetext skimmed, not lexed. */
        df_pgn_reader_reset(r, DF_PGN_HEADERS_ONLY, 0, 1, 0);
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

/* pgn_cuts(source, targets) -> [(offset, line, game), ...]: df_pgn_find_cuts. */
static PyObject *py_pgn_cuts(PyObject *unused, PyObject *args)
{
    (void)unused;
    PyObject *source, *targets_obj;
    if (!PyArg_ParseTuple(args, "OO", &source, &targets_obj)) return NULL;
    PyObject *seq = PySequence_Fast(targets_obj, "targets must be a sequence of byte offsets");
    if (!seq) return NULL;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    uint64_t *targets = calloc((size_t)n + 1, sizeof *targets);
    df_pgn_cut *cuts = calloc((size_t)n + 1, sizeof *cuts);
    PyObject *out = NULL;
    dfpy_source src;
    memset(&src, 0, sizeof src);
    if (!targets || !cuts) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        targets[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (PyErr_Occurred()) goto done;
        if (i && targets[i] < targets[i - 1]) {
            PyErr_SetString(PyExc_ValueError, "targets must be in ascending order");
            goto done;
        }
    }
    if (dfpy_source_open(&src, source, NULL) < 0) goto done;
    df_status s;
    if (src.file) { /* a file object is read with the GIL */
        s = df_pgn_find_cuts(src.source, targets, (size_t)n, cuts);
    } else {
        Py_BEGIN_ALLOW_THREADS
            s = df_pgn_find_cuts(src.source, targets, (size_t)n, cuts);
        Py_END_ALLOW_THREADS
    }
    if (s != DF_OK) {
        dfpy_source_error(&src);
        goto done;
    }
    out = PyList_New(n);
    for (Py_ssize_t i = 0; out && i < n; i++) {
        PyObject *item =
            Py_BuildValue("(KKK)", (unsigned long long)cuts[i].offset,
                          (unsigned long long)cuts[i].line, (unsigned long long)cuts[i].game);
        if (!item)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, item);
    }
done:
    dfpy_source_close(&src);
    free(targets);
    free(cuts);
    Py_DECREF(seq);
    return out;
}

PyMethodDef dfpy_pgn_methods[] = {
    {"pgn_cuts", py_pgn_cuts, METH_VARARGS,
     "pgn_cuts(source, targets) -> list of (offset, line, game)\n\nFor each byte offset of "
     "targets (ascending), the first place at or after it where a PGN input may be cut for a "
     "reader of the part after: the threaded reader's rule (a line after a blank line that "
     "starts with '[' and a letter, outside any tag section) with the game before ended. "
     "`game` is the index of the game that starts there, `line` its line; a target with no cut "
     "after it gets the input's size and its number of games. The input is skimmed (tags "
     "read, movetext passed over for the games' ends) up to the last cut. pgn_positions(path, "
     "byte_range=(a, b), first_game=game) "
     "then reads a part exactly as the whole input's reader reads it (PGNDataset's split)."},
    {"_pgn_games", (PyCFunction)(void (*)(void))py_pgn_games, METH_VARARGS | METH_KEYWORDS, NULL},
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
