/* SPDX-License-Identifier: MIT */
/* The CPython extension of the dirfill package: thin wrappers over the C library. The GIL is
 * released while the library computes a batch. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <stdlib.h>
#include <string.h>

#include <dirfill.h>

/* The bytes of a str (ASCII/UTF-8) or bytes object; NULL with TypeError otherwise. */
static const char *text_of(PyObject *o, Py_ssize_t *len)
{
    if (PyUnicode_Check(o)) return PyUnicode_AsUTF8AndSize(o, len);
    if (PyBytes_Check(o)) {
        *len = PyBytes_GET_SIZE(o);
        return PyBytes_AS_STRING(o);
    }
    PyErr_Format(PyExc_TypeError, "a FEN must be str or bytes, not %.100s", Py_TYPE(o)->tp_name);
    return NULL;
}

static int parse_board(df_board *b, PyObject *fen, int chess960)
{
    Py_ssize_t len;
    const char *text = text_of(fen, &len);
    if (!text) return -1;
    df_fen_error err;
    if (df_fen_parse(b, text, (size_t)len, chess960 ? DF_FEN_CHESS960 : DF_FEN_STANDARD, &err) !=
        DF_OK) {
        PyErr_Format(PyExc_ValueError, "bad FEN: %s", err.message);
        return -1;
    }
    return 0;
}

static int put_int(PyObject *dict, const char *key, df_bb value)
{
    PyObject *v = PyLong_FromUnsignedLongLong(value);
    const int r = v ? PyDict_SetItemString(dict, key, v) : -1;
    Py_XDECREF(v);
    return r;
}

static int put_object(PyObject *dict, const char *key, PyObject *value)
{
    const int r = value ? PyDict_SetItemString(dict, key, value) : -1;
    Py_XDECREF(value);
    return r;
}

/* A side's sets in df_attack_map_set's order, "rays.N" and the like in nested dicts. */
static PyObject *side_dict(const df_attack_map *m)
{
    PyObject *d = PyDict_New();
    for (int i = 0; d && i < DF_ATTACK_MAP_SETS; i++) {
        const char *name = df_attack_map_set_name(i), *dot = strchr(name, '.');
        PyObject *into = d;
        if (dot) {
            PyObject *key = PyUnicode_FromStringAndSize(name, dot - name);
            into = key ? PyDict_GetItemWithError(d, key) : NULL;
            if (key && !into && !PyErr_Occurred()) {
                into = PyDict_New();
                if (into && PyDict_SetItem(d, key, into) < 0) Py_CLEAR(into);
                Py_XDECREF(into); /* d holds it */
            }
            Py_XDECREF(key);
            name = dot + 1;
        }
        if (!into || put_int(into, name, df_attack_map_set(m, i)) < 0) Py_CLEAR(d);
    }
    return d;
}

/* The arguments (fen, *, chess960=False) of the calls that take one position. */
static int board_from_args(df_board *b, PyObject *args, PyObject *kw)
{
    static char *names[] = {"fen", "chess960", NULL};
    PyObject *fen;
    int chess960 = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$p", names, &fen, &chess960)) return -1;
    return parse_board(b, fen, chess960);
}

static PyObject *py_analyze(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    df_board b;
    if (board_from_args(&b, args, kw) < 0) return NULL;
    df_attack_map m[2];
    df_king_safety_sets ks;
    char text[DF_FEN_MAX];
    Py_BEGIN_ALLOW_THREADS
        df_attack_maps(m, &b);
        df_king_safety(&ks, &b);
    Py_END_ALLOW_THREADS
    df_fen_format(text, sizeof text, &b, DF_FEN_STANDARD);
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    const int bad = put_object(d, "fen", PyUnicode_FromString(text)) < 0 ||
                    put_object(d, "backend", PyUnicode_FromString(df_backend_name())) < 0 ||
                    put_object(d, "stm", PyUnicode_FromString(b.stm ? "b" : "w")) < 0 ||
                    put_object(d, "white", side_dict(&m[DF_WHITE])) < 0 ||
                    put_object(d, "black", side_dict(&m[DF_BLACK])) < 0 ||
                    put_int(d, "checkers", ks.checkers) < 0 ||
                    put_int(d, "pinned", ks.pinned) < 0 || put_int(d, "pinners", ks.pinners) < 0 ||
                    put_int(d, "check_block", ks.check_block) < 0 ||
                    put_int(d, "discoverers", ks.discoverers) < 0;
    if (bad) Py_CLEAR(d);
    return d;
}

/* The uint8 output of shape (n, DF_PLANES, 8, 8), new or the caller's (out: a writeable
 * C-contiguous uint8 array of that shape, reused to save allocating and first touching pages),
 * and a new bool array of shape (n,). New references. */
static int new_outputs(npy_intp n, PyObject *out, PyArrayObject **planes, PyArrayObject **ok)
{
    npy_intp shape[4] = {n, DF_PLANES, 8, 8};
    *planes = NULL;
    if (out && out != Py_None) {
        PyArrayObject *a = (PyArrayObject *)out;
        if (!PyArray_Check(out) || PyArray_TYPE(a) != NPY_UINT8 || !PyArray_IS_C_CONTIGUOUS(a) ||
            !PyArray_ISWRITEABLE(a) || PyArray_NDIM(a) != 4 ||
            !PyArray_CompareLists(PyArray_DIMS(a), shape, 4)) {
            PyErr_Format(
                PyExc_ValueError,
                "out must be a writeable C-contiguous uint8 array of shape (%zd, %d, 8, 8)",
                (Py_ssize_t)n, DF_PLANES);
            return -1;
        }
        Py_INCREF(out);
        *planes = a;
    } else {
        *planes = (PyArrayObject *)PyArray_SimpleNew(4, shape, NPY_UINT8);
    }
    *ok = (PyArrayObject *)PyArray_SimpleNew(1, shape, NPY_BOOL);
    if (*planes && *ok) return 0;
    Py_XDECREF(*planes);
    Py_XDECREF(*ok);
    return -1;
}

/* FEN texts of a sequence of str/bytes or a numpy array of str ('U') or bytes ('S'). The
 * pointers stay valid while keep (a new reference, or NULL) and fens live; *owned holds text
 * this function made and the caller frees. */
typedef struct {
    const char **text;
    size_t *len;
    char *owned;
    PyObject *keep;
} fen_texts;

static void free_texts(fen_texts *t)
{
    free(t->text);
    free(t->len);
    free(t->owned);
    Py_XDECREF(t->keep);
}

static int gather_texts(PyObject *fens, fen_texts *t, npy_intp *n)
{
    memset(t, 0, sizeof *t);
    if (PyArray_Check(fens)) {
        PyArrayObject *a = (PyArrayObject *)PyArray_FROM_OF(fens, NPY_ARRAY_C_CONTIGUOUS);
        if (!a) return -1;
        t->keep = (PyObject *)a;
        const char kind = PyArray_DESCR(a)->kind;
        if (PyArray_NDIM(a) != 1 || (kind != 'S' && kind != 'U')) {
            PyErr_SetString(PyExc_TypeError, "fens: a 1-d array of str or bytes is needed");
            return -1;
        }
        *n = PyArray_DIM(a, 0);
        const npy_intp item = PyArray_ITEMSIZE(a), chars = kind == 'U' ? item / 4 : item;
        t->text = malloc((size_t)(*n ? *n : 1) * sizeof *t->text);
        t->len = malloc((size_t)(*n ? *n : 1) * sizeof *t->len);
        t->owned = kind == 'U' ? malloc((size_t)(*n * chars + 1)) : NULL;
        if (!t->text || !t->len || (kind == 'U' && !t->owned)) {
            PyErr_NoMemory();
            return -1;
        }
        const char *data = PyArray_BYTES(a);
        for (npy_intp i = 0; i < *n; i++) {
            const char *p = data + i * item;
            size_t len = 0;
            if (kind == 'S') {
                while (len < (size_t)item && p[len]) len++;
                t->text[i] = p;
            } else {
                /* UCS-4 to bytes: a FEN is ASCII; anything else becomes a byte the parser
                 * refuses. */
                char *out = t->owned + i * chars;
                const uint32_t *u = (const uint32_t *)(const void *)p;
                while (len < (size_t)chars && u[len]) {
                    out[len] = u[len] < 128 ? (char)u[len] : (char)0xff;
                    len++;
                }
                t->text[i] = out;
            }
            t->len[i] = len;
        }
        return 0;
    }
    PyObject *seq = PySequence_Fast(fens, "fens: a sequence of str or bytes is needed");
    if (!seq) return -1;
    t->keep = seq;
    *n = PySequence_Fast_GET_SIZE(seq);
    t->text = malloc((size_t)(*n ? *n : 1) * sizeof *t->text);
    t->len = malloc((size_t)(*n ? *n : 1) * sizeof *t->len);
    if (!t->text || !t->len) {
        PyErr_NoMemory();
        return -1;
    }
    for (npy_intp i = 0; i < *n; i++) {
        Py_ssize_t len;
        t->text[i] = text_of(PySequence_Fast_GET_ITEM(seq, i), &len);
        if (!t->text[i]) {
            PyErr_Format(PyExc_TypeError, "fens[%zd] is not str or bytes", (Py_ssize_t)i);
            return -1;
        }
        t->len[i] = (size_t)len;
    }
    return 0;
}

static PyObject *py_planes_from_fens(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *names[] = {"fens", "threads", "chess960", "out", NULL};
    PyObject *fens, *out = NULL;
    unsigned threads = 0;
    int chess960 = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|I$pO", names, &fens, &threads, &chess960, &out))
        return NULL;
    fen_texts t;
    npy_intp n = 0;
    if (gather_texts(fens, &t, &n) < 0) {
        free_texts(&t);
        return NULL;
    }
    PyArrayObject *planes, *ok;
    if (new_outputs(n, out, &planes, &ok) < 0) {
        free_texts(&t);
        return NULL;
    }
    const df_fen_flags flags = chess960 ? DF_FEN_CHESS960 : DF_FEN_STANDARD;
    Py_BEGIN_ALLOW_THREADS
        df_attack_planes_from_fens_mt((uint8_t *)PyArray_DATA(planes), (bool *)PyArray_DATA(ok),
                                      t.text, t.len, (size_t)n, flags, threads);
    Py_END_ALLOW_THREADS
    /* The message of the first bad text, for errors="raise". */
    PyObject *first = Py_None;
    Py_INCREF(first);
    const bool *good = (const bool *)PyArray_DATA(ok);
    for (npy_intp i = 0; i < n; i++)
        if (!good[i]) {
            df_board b;
            df_fen_error err;
            df_fen_parse(&b, t.text[i], t.len[i], flags, &err);
            Py_DECREF(first);
            first = Py_BuildValue("(ns)", (Py_ssize_t)i, err.message);
            break;
        }
    free_texts(&t);
    return Py_BuildValue("(NNN)", planes, ok, first);
}

static PyObject *py_planes_from_pieces(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *names[] = {"pieces", "stm", "threads", "out", NULL};
    PyObject *pieces_in, *stm_in, *out = NULL;
    unsigned threads = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|I$O", names, &pieces_in, &stm_in, &threads,
                                     &out))
        return NULL;
    PyArrayObject *pieces = (PyArrayObject *)PyArray_FROMANY(
        pieces_in, NPY_UINT64, 2, 2, NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST);
    PyArrayObject *stm =
        (PyArrayObject *)PyArray_FROMANY(stm_in, NPY_UINT8, 1, 1, NPY_ARRAY_IN_ARRAY);
    if (!pieces || !stm) goto fail;
    const npy_intp n = PyArray_DIM(pieces, 0);
    if (PyArray_DIM(pieces, 1) != 12 || PyArray_DIM(stm, 0) != n) {
        PyErr_SetString(PyExc_ValueError, "pieces must have shape (n, 12) and stm shape (n,)");
        goto fail;
    }
    PyArrayObject *planes, *ok;
    if (new_outputs(n, out, &planes, &ok) < 0) goto fail;
    Py_BEGIN_ALLOW_THREADS
        df_attack_planes_from_pieces_mt((uint8_t *)PyArray_DATA(planes), (bool *)PyArray_DATA(ok),
                                        (const uint64_t *)PyArray_DATA(pieces),
                                        (const uint8_t *)PyArray_DATA(stm), (size_t)n, threads);
    Py_END_ALLOW_THREADS
    Py_DECREF(pieces);
    Py_DECREF(stm);
    return Py_BuildValue("(NN)", planes, ok);
fail:
    Py_XDECREF(pieces);
    Py_XDECREF(stm);
    return NULL;
}

static PyObject *py_perft(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *names[] = {"fen", "depth", "chess960", NULL};
    PyObject *fen;
    int depth, chess960 = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Oi|$p", names, &fen, &depth, &chess960))
        return NULL;
    df_board b;
    if (parse_board(&b, fen, chess960) < 0) return NULL;
    if (depth < 0) return PyErr_Format(PyExc_ValueError, "depth must be 0 or more, not %d", depth);
    uint64_t nodes = 0;
    df_status s;
    Py_BEGIN_ALLOW_THREADS
        s = df_perft(&nodes, &b, depth);
    Py_END_ALLOW_THREADS
    if (s != DF_OK)
        return PyErr_Format(PyExc_ValueError,
                            "no legal move tree: the side not to move is in check");
    return PyLong_FromUnsignedLongLong(nodes);
}

static PyObject *py_legal_moves(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    df_board b;
    if (board_from_args(&b, args, kw) < 0) return NULL;
    if (!df_board_playable(&b))
        return PyErr_Format(PyExc_ValueError, "the side not to move is in check");
    df_move_list list;
    df_generate_legal(&list, &b);
    PyObject *out = PyList_New((Py_ssize_t)list.count);
    for (uint32_t i = 0; out && i < list.count; i++) {
        char uci[DF_UCI_MAX];
        df_move_to_uci(uci, &b, list.moves[i]);
        PyObject *s = PyUnicode_FromString(uci);
        if (!s)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, (Py_ssize_t)i, s);
    }
    return out;
}

static PyObject *py_push(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *names[] = {"fen", "move", "chess960", NULL};
    PyObject *fen;
    const char *uci;
    Py_ssize_t len;
    int chess960 = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Os#|$p", names, &fen, &uci, &len, &chess960))
        return NULL;
    df_board b;
    if (parse_board(&b, fen, chess960) < 0) return NULL;
    df_move m;
    if (!df_board_playable(&b) || df_move_from_uci(&m, &b, uci, (size_t)len) != DF_OK)
        return PyErr_Format(PyExc_ValueError, "%s is not a legal move here", uci);
    df_make_move(&b, &b, m);
    char text[DF_FEN_MAX];
    df_fen_format(text, sizeof text, &b, DF_FEN_STANDARD);
    return PyUnicode_FromString(text);
}

static PyObject *py_backend(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyUnicode_FromString(df_backend_name());
}

static PyObject *py_backends(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    PyObject *d = PyDict_New();
    df_backend_info info;
    for (size_t i = 0; d && df_backend_info_at(i, &info); i++)
        if (put_object(d, info.name, PyBool_FromLong(info.supported)) < 0) Py_CLEAR(d);
    return d;
}

static PyObject *py_select_backend(PyObject *self, PyObject *arg)
{
    (void)self;
    const char *name = PyUnicode_AsUTF8(arg);
    if (!name) return NULL;
    const df_status s = df_backend_select(name);
    if (s != DF_OK) return PyErr_Format(PyExc_ValueError, "%s: %s", name, df_status_string(s));
    Py_RETURN_NONE;
}

static PyObject *py_plane_names(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    PyObject *t = PyTuple_New(DF_PLANES);
    for (int i = 0; t && i < DF_PLANES; i++) {
        PyObject *s = PyUnicode_FromString(df_plane_name(i));
        if (!s)
            Py_CLEAR(t);
        else
            PyTuple_SET_ITEM(t, i, s);
    }
    return t;
}

static PyMethodDef methods[] = {
    {"analyze", (PyCFunction)(void (*)(void))py_analyze, METH_VARARGS | METH_KEYWORDS,
     "analyze(fen, *, chess960=False) -> dict\n\nThe attack maps, pins and checks of one position: "
     "the same keys and structure as one line of `dirfill analyze --json`, sets as ints (bit i = "
     "square i, a1 = 0). ValueError for a bad FEN."},
    {"_planes_from_fens", (PyCFunction)(void (*)(void))py_planes_from_fens,
     METH_VARARGS | METH_KEYWORDS, NULL},
    {"_planes_from_pieces", (PyCFunction)(void (*)(void))py_planes_from_pieces,
     METH_VARARGS | METH_KEYWORDS, NULL},
    {"perft", (PyCFunction)(void (*)(void))py_perft, METH_VARARGS | METH_KEYWORDS,
     "perft(fen, depth, *, chess960=False) -> int\n\nLeaf nodes of the legal move tree to "
     "depth. ValueError for a bad FEN or a position whose side not to move is in check."},
    {"legal_moves", (PyCFunction)(void (*)(void))py_legal_moves, METH_VARARGS | METH_KEYWORDS,
     "legal_moves(fen, *, chess960=False) -> list of str\n\nThe legal moves in UCI notation "
     "(castling as e1g1, or e1h1 in Chess960)."},
    {"push", (PyCFunction)(void (*)(void))py_push, METH_VARARGS | METH_KEYWORDS,
     "push(fen, move, *, chess960=False) -> str\n\nThe FEN after the legal move (UCI). "
     "ValueError when it is not legal."},
    {"backend", py_backend, METH_NOARGS,
     "backend() -> str: the backend in use (\"scalar\", \"avx2\" or \"avx512\")."},
    {"backends", py_backends, METH_NOARGS,
     "backends() -> dict: each compiled backend and whether this CPU can run it."},
    {"select_backend", py_select_backend, METH_O,
     "select_backend(name): use that backend (\"auto\": the best); ValueError when it is "
     "unknown or this CPU cannot run it."},
    {"_plane_names", py_plane_names, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT,
                                    "_dirfill",
                                    "The C extension of dirfill (see the dirfill package).",
                                    -1,
                                    methods,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL};

PyMODINIT_FUNC PyInit__dirfill(void)
{
    import_array();
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddStringConstant(m, "__version__", df_version()) < 0) Py_CLEAR(m);
    return m;
}
