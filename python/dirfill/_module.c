/* SPDX-License-Identifier: MIT */
/* The CPython extension of the dirfill package: the functions over one position, backends,
 * and the module itself with its init. The helpers the files share are _common.c's. */
#define DFPY_IMPORTS_NUMPY
#include "_common.h"

#include <string.h>

/* ---- functions over one position ---- */

/* The arguments (fen, *, chess960=False) of the calls that take one position. */
static int board_from_args(df_board *b, PyObject *args, PyObject *kw)
{
    static char *names[] = {"fen", "chess960", NULL};
    PyObject *fen;
    int chess960 = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$p", names, &fen, &chess960)) return -1;
    return dfpy_parse_fen(b, fen, chess960);
}

static PyObject *py_analyze(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    df_board b;
    if (board_from_args(&b, args, kw) < 0) return NULL;
    return dfpy_analysis(&b);
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
    if (dfpy_parse_fen(&b, fen, chess960) < 0) return NULL;
    if (depth < 0 || depth > DF_PERFT_MAX_DEPTH)
        return PyErr_Format(PyExc_ValueError, "depth must be 0 to %d, not %d", DF_PERFT_MAX_DEPTH,
                            depth);
    if (dfpy_need_playable(&b) < 0) return NULL;
    uint64_t nodes = 0;
    df_status s;
    dfpy_poll poll;
    Py_BEGIN_ALLOW_THREADS
        const df_interrupt in = dfpy_poll_start(&poll, &_save);
        s = df_perft_interruptible(&nodes, &b, depth, &in);
    Py_END_ALLOW_THREADS
    if (s == DF_ERR_INTERRUPTED) return NULL; /* the signal handler's exception */
    return PyLong_FromUnsignedLongLong(nodes);
}

static PyObject *py_legal_moves(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    df_board b;
    if (board_from_args(&b, args, kw) < 0 || dfpy_need_playable(&b) < 0) return NULL;
    df_move_list list;
    df_generate_legal(&list, &b);
    PyObject *out = PyList_New((Py_ssize_t)list.count);
    for (uint32_t i = 0; out && i < list.count; i++) {
        PyObject *s = dfpy_uci(&b, list.moves[i]);
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
    PyObject *fen, *move;
    int chess960 = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$p", names, &fen, &move, &chess960)) return NULL;
    df_board b;
    df_move m;
    if (dfpy_parse_fen(&b, fen, chess960) < 0 || dfpy_move_arg(&m, &b, move) < 0) return NULL;
    if (df_make_move_checked(&b, &b, m) != DF_OK)
        return PyErr_Format(PyExc_ValueError, "%R is not a legal move here", move);
    char text[DF_FEN_MAX];
    df_fen_format(text, sizeof text, &b, DF_FEN_STANDARD);
    return PyUnicode_FromString(text);
}

/* svg(fen_or_board, overlay="", *, size=400, flipped=False, chess960=False) */
static PyObject *py_svg(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *names[] = {"position", "overlay", "size", "flipped", "chess960", NULL};
    PyObject *position, *overlay = NULL;
    int size = 400, flipped = 0, chess960 = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O$ipp", names, &position, &overlay, &size,
                                     &flipped, &chess960))
        return NULL;
    df_board b;
    if (!dfpy_board_of(position, &b) && dfpy_parse_fen(&b, position, chess960) < 0) return NULL;
    if (size < 64 || size > 8192)
        return PyErr_Format(PyExc_ValueError, "size must be 64 to 8192 pixels, not %d", size);
    df_svg_options o = {0};
    o.size = (unsigned)size;
    o.flipped = flipped;
    if (overlay && overlay != Py_None) {
        Py_ssize_t len;
        const char *text = dfpy_text(overlay, &len, "overlay");
        size_t bad = 0;
        if (!text) return NULL;
        if (df_svg_parse_overlays(&o, text, (size_t)len, &bad) != DF_OK)
            return PyErr_Format(PyExc_ValueError,
                                "overlay: unknown name at %.40s (counts, twice, rays, xrays with "
                                ".white/.black and a direction; pins, checkers, check_block, "
                                "discoverers)",
                                text + bad);
    }
    const size_t len = df_svg_write(NULL, 0, &b, &o);
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)len);
    if (!out) return NULL;
    df_svg_write(PyBytes_AS_STRING(out), len + 1, &b, &o);
    PyObject *text = PyUnicode_DecodeUTF8(PyBytes_AS_STRING(out), (Py_ssize_t)len, "strict");
    Py_DECREF(out);
    return text;
}

/* ---- backends ---- */

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
        if (dfpy_put(d, info.name, PyBool_FromLong(info.supported)) < 0) Py_CLEAR(d);
    return d;
}

static PyObject *py_select_backend(PyObject *self, PyObject *arg)
{
    (void)self;
    Py_ssize_t len;
    const char *name = PyUnicode_Check(arg) ? PyUnicode_AsUTF8AndSize(arg, &len) : NULL;
    if (!name) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError, "a backend name is a str, not %.100s",
                         Py_TYPE(arg)->tp_name);
        return NULL;
    }
    if (strlen(name) != (size_t)len)
        return PyErr_Format(PyExc_ValueError, "a backend name has no NUL character: %R", arg);
    const df_status s = df_backend_select(name);
    if (s != DF_OK) return PyErr_Format(PyExc_ValueError, "%R: %s", arg, df_status_string(s));
    Py_RETURN_NONE;
}

/* (status, value): what became of DIRFILL_BACKEND, for the warning at import. */
static PyObject *py_backend_env(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    const df_status s = df_backend_env_status();
    const char *value = getenv("DIRFILL_BACKEND");
    return Py_BuildValue("(sz)", s == DF_OK ? "ok" : df_status_string(s), value);
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
    {"perft", (PyCFunction)(void (*)(void))py_perft, METH_VARARGS | METH_KEYWORDS,
     "perft(fen, depth, *, chess960=False) -> int\n\nLeaf nodes of the legal move tree to depth "
     "(0 to DF_PERFT_MAX_DEPTH, 64). ValueError for a bad FEN, a depth out of range or a position "
     "whose side not to move is in check. The GIL is released; Ctrl-C interrupts it "
     "(KeyboardInterrupt) within about 20 ms."},
    {"legal_moves", (PyCFunction)(void (*)(void))py_legal_moves, METH_VARARGS | METH_KEYWORDS,
     "legal_moves(fen, *, chess960=False) -> list of str\n\nThe legal moves in UCI notation "
     "(castling as e1g1, or e1h1 in Chess960)."},
    {"push", (PyCFunction)(void (*)(void))py_push, METH_VARARGS | METH_KEYWORDS,
     "push(fen, move, *, chess960=False) -> str\n\nThe FEN after the move (UCI str, or a 16-bit "
     "int as Board.legal_moves(ints=True) gives them). ValueError when it is not legal."},
    {"svg", (PyCFunction)(void (*)(void))py_svg, METH_VARARGS | METH_KEYWORDS,
     "svg(position, overlay=None, *, size=400, flipped=False, chess960=False) -> str\n\nAn SVG "
     "picture of position (a FEN or a Board) with overlays named in a comma-separated str: "
     "counts, twice, rays, xrays (alone for both colours, or .white / .black, and for rays and "
     "xrays a direction, e.g. rays.white.N), pins, checkers, check_block, discoverers. The same "
     "writer as `dirfill analyze --svg`."},
    {"backend", py_backend, METH_NOARGS,
     "backend() -> str: the backend in use (\"avx512\", \"avx2\", \"scalar\" or "
     "\"scalar-baseline\"). It is the best one this CPU runs unless DIRFILL_BACKEND or "
     "select_backend() chose another; a DIRFILL_BACKEND this CPU cannot run or that names no "
     "backend is ignored (names are exact: \"AVX2\" and \"avx2 \" name none), and importing "
     "dirfill then warns (RuntimeWarning)."},
    {"backends", py_backends, METH_NOARGS,
     "backends() -> dict: each compiled backend and whether this CPU can run it."},
    {"select_backend", py_select_backend, METH_O,
     "select_backend(name): use that backend (\"auto\": the best); ValueError when it is "
     "unknown or this CPU cannot run it."},
    {"_backend_env", py_backend_env, METH_NOARGS, NULL},
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

static int add_methods(PyObject *m, PyMethodDef *defs)
{
    PyObject *name = PyModule_GetNameObject(m);
    int status = name ? 0 : -1;
    for (PyMethodDef *d = defs; !status && d->ml_name; d++) {
        PyObject *f = PyCFunction_NewEx(d, NULL, name);
        if (!f || PyModule_AddObject(m, d->ml_name, f) < 0) {
            Py_XDECREF(f);
            status = -1;
        }
    }
    Py_XDECREF(name);
    return status;
}

PyMODINIT_FUNC PyInit__dirfill(void)
{
    import_array();
    PyObject *m = PyModule_Create(&module);
    if (m && (PyModule_AddStringConstant(m, "__version__", df_version()) < 0 ||
              PyModule_AddIntConstant(m, "PERFT_MAX_DEPTH", DF_PERFT_MAX_DEPTH) < 0 ||
              add_methods(m, dfpy_planes_methods) < 0 || add_methods(m, dfpy_pgn_methods) < 0 ||
              add_methods(m, dfpy_pgn_batches_methods) < 0 || dfpy_add_pgn_batches(m) < 0 ||
              add_methods(m, dfpy_nnue_methods) < 0 || dfpy_add_nnue(m) < 0 ||
              add_methods(m, dfpy_shm_batches_methods) < 0 || dfpy_add_shm_batches(m) < 0 ||
              dfpy_add_board(m) < 0 || dfpy_add_pgn(m) < 0))
        Py_CLEAR(m);
    return m;
}
