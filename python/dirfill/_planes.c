/* SPDX-License-Identifier: MIT */
/* Feature planes of many positions: from FEN texts (a sequence or a numpy str/bytes array) and
 * from position rows (numpy bitboards). Inputs are copied while the GIL is held, so another
 * thread that changes or frees them while the library works changes nothing; an output that
 * shares memory with an input is refused; big batches run in chunks between which Ctrl-C is
 * seen, and a chunk is written whole or not at all. */
#include "_common.h"

#include <stdlib.h>
#include <string.h>

/* Positions a chunk: about 6 ms of planes on one thread, and the first touch of its 39 MB of
 * output (in a VM page faults can cost more than the planes), so Ctrl-C is answered fast while
 * each chunk still amortises starting its threads. */
enum { CHUNK = 1 << 13 };

/* ---- memory ---- */

/* The bytes an array's elements span, [*lo, *hi). */
static void extent(PyArrayObject *a, const char **lo, const char **hi)
{
    const char *base = PyArray_BYTES(a);
    *lo = *hi = base;
    if (PyArray_SIZE(a) == 0) return;
    npy_intp low = 0, high = PyArray_ITEMSIZE(a);
    for (int d = 0; d < PyArray_NDIM(a); d++) {
        const npy_intp step = PyArray_STRIDE(a, d) * (PyArray_DIM(a, d) - 1);
        if (step < 0)
            low += step;
        else
            high += step;
    }
    *lo = base + low;
    *hi = base + high;
}

/* -1 with ValueError when out and in (may be NULL or not an array) share memory. */
static int refuse_overlap(PyArrayObject *out, PyObject *in, const char *name)
{
    if (!in || !PyArray_Check(in)) return 0;
    const char *a, *b, *c, *d;
    extent(out, &a, &b);
    extent((PyArrayObject *)in, &c, &d);
    if (a < d && c < b) {
        PyErr_Format(PyExc_ValueError, "out shares memory with %s: give a separate array", name);
        return -1;
    }
    return 0;
}

/* The uint8 output of shape (n, DF_PLANES, 8, 8), new or the caller's (out: a writeable
 * C-contiguous uint8 array of that shape), and a new bool array of shape (n,). */
static int new_outputs(npy_intp n, PyObject *out, PyArrayObject **planes, PyArrayObject **ok)
{
    npy_intp shape[4] = {n, DF_PLANES, 8, 8};
    *planes = *ok = NULL;
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
    Py_CLEAR(*planes);
    Py_CLEAR(*ok);
    return -1;
}

/* After Ctrl-C: the KeyboardInterrupt says how far the output got, [0, done) written in full
 * and the rest not written at all (zeroing gigabytes would take longer than the interrupt
 * may). */
static void say_how_far(npy_intp done, npy_intp n)
{
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    if (type && PyErr_GivenExceptionMatches(type, PyExc_KeyboardInterrupt)) {
        Py_XDECREF(value);
        Py_XDECREF(tb);
        PyErr_Format(type,
                     "interrupted after %zd of %zd positions: out[:%zd] holds their planes, "
                     "out[%zd:] was not written",
                     (Py_ssize_t)done, (Py_ssize_t)n, (Py_ssize_t)done, (Py_ssize_t)done);
        Py_DECREF(type);
        return;
    }
    PyErr_Restore(type, value, tb);
}

/* ---- FEN texts ---- */

/* The texts of fens, copied or held: text[i], len[i] stay valid until free_texts. */
typedef struct {
    const char **text;
    size_t *len;
    char *owned;    /* copies of a numpy array's texts */
    PyObject *keep; /* a tuple holding the str/bytes objects */
} fen_texts;

static void free_texts(fen_texts *t)
{
    free(t->text);
    free(t->len);
    free(t->owned);
    Py_XDECREF(t->keep);
}

static int alloc_texts(fen_texts *t, npy_intp n, size_t owned)
{
    t->text = malloc((size_t)(n ? n : 1) * sizeof *t->text);
    t->len = malloc((size_t)(n ? n : 1) * sizeof *t->len);
    t->owned = owned ? malloc(owned) : NULL;
    if (t->text && t->len && (!owned || t->owned)) return 0;
    PyErr_NoMemory();
    return -1;
}

/* A numpy array of str ('U', UCS-4 in either byte order, any alignment) or bytes ('S'): each
 * text copied (trailing NULs dropped, as numpy reads them; a non-ASCII character becomes a
 * byte the FEN parser refuses). */
static int texts_of_array(PyArrayObject *a, fen_texts *t, npy_intp *n)
{
    const char kind = PyArray_DESCR(a)->kind;
    if (PyArray_NDIM(a) != 1 || (kind != 'S' && kind != 'U')) {
        PyErr_SetString(PyExc_TypeError, "fens: a 1-d array of str or bytes is needed");
        return -1;
    }
    *n = PyArray_DIM(a, 0);
    const npy_intp item = PyArray_ITEMSIZE(a), stride = PyArray_STRIDE(a, 0);
    const npy_intp chars = kind == 'U' ? item / 4 : item;
    const bool swapped = !PyArray_ISNOTSWAPPED(a);
    if (alloc_texts(t, *n, (size_t)(*n * chars + 1)) < 0) return -1;
    const char *data = PyArray_BYTES(a);
    for (npy_intp i = 0; i < *n; i++) {
        const char *p = data + i * stride;
        char *out = t->owned + i * chars;
        size_t len = 0;
        for (npy_intp k = 0; k < chars; k++) {
            uint32_t c;
            if (kind == 'S') {
                c = (unsigned char)p[k];
            } else {
                memcpy(&c, p + 4 * k, 4);
                if (swapped) c = __builtin_bswap32(c);
            }
            out[k] = c < 128 ? (char)c : (char)0xff;
            if (c) len = (size_t)k + 1;
        }
        t->text[i] = out;
        t->len[i] = len;
    }
    return 0;
}

static int gather_texts(PyObject *fens, fen_texts *t, npy_intp *n)
{
    memset(t, 0, sizeof *t);
    if (PyUnicode_Check(fens) || PyBytes_Check(fens) || PyByteArray_Check(fens)) {
        PyErr_SetString(PyExc_TypeError,
                        "fens must be a sequence of FENs, not one FEN: pass [fen] for one");
        return -1;
    }
    if (PyArray_Check(fens)) return texts_of_array((PyArrayObject *)fens, t, n);
    /* A tuple of the items: a list changed by another thread while the library works changes
     * nothing here, and the tuple keeps every text alive. */
    PyObject *tuple = PySequence_Tuple(fens);
    if (!tuple) {
        PyErr_Format(PyExc_TypeError, "fens must be a sequence of str or bytes, not %.100s",
                     Py_TYPE(fens)->tp_name);
        return -1;
    }
    t->keep = tuple;
    *n = PyTuple_GET_SIZE(tuple);
    if (alloc_texts(t, *n, 0) < 0) return -1;
    for (npy_intp i = 0; i < *n; i++) {
        Py_ssize_t len;
        t->text[i] = dfpy_text(PyTuple_GET_ITEM(tuple, i), &len, "each FEN");
        if (!t->text[i]) return -1;
        t->len[i] = (size_t)len;
    }
    return 0;
}

/* _planes_from_fens(fens, threads=0, *, chess960=False, out=None) -> (planes, ok, first_bad)
 * first_bad: None, or (index, message) of the first text that is no FEN. */
static PyObject *py_planes_from_fens(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *names[] = {"fens", "threads", "chess960", "out", NULL};
    PyObject *fens, *threads_arg = NULL, *out = NULL;
    int chess960 = 0;
    unsigned threads;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O$pO", names, &fens, &threads_arg, &chess960,
                                     &out) ||
        dfpy_threads(threads_arg, &threads) < 0)
        return NULL;
    fen_texts t;
    npy_intp n = 0;
    PyArrayObject *planes = NULL, *ok = NULL;
    if (gather_texts(fens, &t, &n) < 0 || new_outputs(n, out, &planes, &ok) < 0 ||
        refuse_overlap(planes, fens, "fens") < 0)
        goto fail;
    const df_fen_flags flags = chess960 ? DF_FEN_CHESS960 : DF_FEN_STANDARD;
    for (npy_intp done = 0; done < n; done += CHUNK) {
        const npy_intp m = n - done < CHUNK ? n - done : CHUNK;
        Py_BEGIN_ALLOW_THREADS
            df_attack_planes_from_fens_mt((uint8_t *)PyArray_DATA(planes) + done * DF_PLANE_BYTES,
                                          (bool *)PyArray_DATA(ok) + done, t.text + done,
                                          t.len + done, (size_t)m, flags, threads);
        Py_END_ALLOW_THREADS
        if (dfpy_check_signals() < 0) {
            say_how_far(done + m, n);
            goto fail;
        }
    }
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
    return first ? Py_BuildValue("(NNN)", planes, ok, first) : NULL;
fail:
    free_texts(&t);
    Py_XDECREF(planes);
    Py_XDECREF(ok);
    return NULL;
}

/* ---- position rows ---- */

/* in as a new C-contiguous copy of uint64 of ndim dimensions (the last of size cols when
 * cols > 0): integer dtypes only (a float or bool column is a mistake, not a bitboard),
 * int64 taken as its bit pattern, smaller signed types only when no value is negative. */
static PyArrayObject *bitboard_column(PyObject *in, const char *name, int ndim, npy_intp cols)
{
    PyArrayObject *a = (PyArrayObject *)PyArray_FROM_O(in);
    if (!a) return NULL;
    PyArrayObject *copy = NULL;
    const int type = PyArray_TYPE(a);
    if (!PyArray_ISINTEGER(a)) {
        PyErr_Format(PyExc_TypeError,
                     "%s must hold integers (64-bit bitboards), not %s: a %s cannot be a set "
                     "of squares exactly",
                     name, PyArray_DESCR(a)->typeobj->tp_name,
                     PyArray_ISFLOAT(a) ? "float" : "value");
    } else if (PyArray_NDIM(a) != ndim || (cols && PyArray_DIM(a, ndim - 1) != cols)) {
        PyErr_Format(PyExc_ValueError, "%s must have shape %s", name, cols ? "(n, 12)" : "(n,)");
    } else if (PyArray_ISSIGNED(a) && PyArray_ITEMSIZE(a) < 8) {
        PyObject *min = PyArray_Min(a, NPY_MAXDIMS, NULL);
        const long long low = min ? PyLong_AsLongLong(min) : -1;
        Py_XDECREF(min);
        if (PyArray_SIZE(a) && low < 0 && !PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "%s holds a negative number: not a bitboard", name);
        else if (!PyErr_Occurred())
            copy = (PyArrayObject *)PyArray_FROMANY((PyObject *)a, NPY_UINT64, ndim, ndim,
                                                    NPY_ARRAY_IN_ARRAY | NPY_ARRAY_ENSURECOPY |
                                                        NPY_ARRAY_FORCECAST);
    } else if (type == NPY_INT64 || type == NPY_LONGLONG || type == NPY_LONG) {
        /* The bit pattern, as numpy's .view(np.uint64) reads it. */
        PyArrayObject *c = (PyArrayObject *)PyArray_NewCopy(a, NPY_CORDER);
        if (c) {
            PyArray_Descr *u64 = PyArray_DescrFromType(NPY_UINT64);
            copy = (PyArrayObject *)PyArray_View(c, u64, NULL);
            Py_DECREF(c);
        }
    } else {
        copy = (PyArrayObject *)PyArray_FROMANY((PyObject *)a, NPY_UINT64, ndim, ndim,
                                                NPY_ARRAY_IN_ARRAY | NPY_ARRAY_ENSURECOPY);
    }
    Py_DECREF(a);
    return copy;
}

/* turn (booleans, or integers 0 and 1 only; True: White to move, as Board.turn) as a new uint8
 * copy of the library's side to move (df_color: 0 White, 1 Black). */
static PyArrayObject *stm_of_turn(PyObject *in, npy_intp n)
{
    PyArrayObject *a = (PyArrayObject *)PyArray_FROM_O(in), *copy = NULL;
    if (!a) return NULL;
    if (!PyArray_ISBOOL(a) && !PyArray_ISINTEGER(a)) {
        PyErr_Format(PyExc_TypeError,
                     "turn must be bool (True: White to move, as Board.turn) or 0/1, not %s",
                     PyArray_DESCR(a)->typeobj->tp_name);
    } else if (PyArray_NDIM(a) != 1 || PyArray_DIM(a, 0) != n) {
        PyErr_Format(PyExc_ValueError, "turn must have shape (%zd,)", (Py_ssize_t)n);
    } else {
        copy = (PyArrayObject *)PyArray_FROMANY((PyObject *)a, NPY_INT64, 1, 1,
                                                NPY_ARRAY_IN_ARRAY | NPY_ARRAY_ENSURECOPY |
                                                    NPY_ARRAY_FORCECAST);
        int64_t *v = copy ? (int64_t *)PyArray_DATA(copy) : NULL;
        for (npy_intp i = 0; v && i < n; i++) {
            if (v[i] != 0 && v[i] != 1) {
                PyErr_Format(PyExc_ValueError,
                             "turn[%zd] is %lld: 1/True (White to move) or 0/False (Black) only",
                             (Py_ssize_t)i, (long long)v[i]);
                Py_CLEAR(copy);
                break;
            }
            v[i] = 1 - v[i];
        }
        if (copy) {
            PyArrayObject *u8 = (PyArrayObject *)PyArray_FROMANY(
                (PyObject *)copy, NPY_UINT8, 1, 1, NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST);
            Py_DECREF(copy);
            copy = u8;
        }
    }
    Py_DECREF(a);
    return copy;
}

/* ep as a new int8 copy: integers -1 (none) to 63. */
static PyArrayObject *ep_column(PyObject *in, npy_intp n)
{
    PyArrayObject *a = (PyArrayObject *)PyArray_FROM_O(in), *copy = NULL;
    if (!a) return NULL;
    if (!PyArray_ISINTEGER(a)) {
        PyErr_Format(PyExc_TypeError, "ep must hold integers (a square, or -1), not %s",
                     PyArray_DESCR(a)->typeobj->tp_name);
    } else if (PyArray_NDIM(a) != 1 || PyArray_DIM(a, 0) != n) {
        PyErr_Format(PyExc_ValueError, "ep must have shape (%zd,)", (Py_ssize_t)n);
    } else {
        PyArrayObject *wide = (PyArrayObject *)PyArray_FROMANY(
            (PyObject *)a, NPY_INT64, 1, 1, NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST);
        const int64_t *v = wide ? (const int64_t *)PyArray_DATA(wide) : NULL;
        bool good = wide != NULL;
        for (npy_intp i = 0; good && i < n; i++)
            if (v[i] < -1 || v[i] > 63) {
                PyErr_Format(PyExc_ValueError, "ep[%zd] is %lld: a square 0..63, or -1",
                             (Py_ssize_t)i, (long long)v[i]);
                good = false;
            }
        if (good)
            copy = (PyArrayObject *)PyArray_FROMANY((PyObject *)wide, NPY_INT8, 1, 1,
                                                    NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST);
        Py_XDECREF(wide);
    }
    Py_DECREF(a);
    return copy;
}

/* _planes_from_rows(pieces, turn, threads=0, *, castling=None, ep=None, chess960=False,
 * out=None) -> (planes, ok) */
static PyObject *py_planes_from_rows(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *names[] = {"pieces", "turn", "threads", "castling", "ep", "chess960", "out", NULL};
    PyObject *pieces_in, *turn_in, *threads_arg = NULL, *castling_in = NULL, *ep_in = NULL,
                                   *out = NULL;
    int chess960 = 0;
    unsigned threads;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O$OOpO", names, &pieces_in, &turn_in,
                                     &threads_arg, &castling_in, &ep_in, &chess960, &out) ||
        dfpy_threads(threads_arg, &threads) < 0)
        return NULL;
    PyArrayObject *pieces = NULL, *stm = NULL, *castling = NULL, *ep = NULL, *planes = NULL,
                  *ok = NULL;
    pieces = bitboard_column(pieces_in, "pieces", 2, 12);
    if (!pieces) goto fail;
    const npy_intp n = PyArray_DIM(pieces, 0);
    if (!(stm = stm_of_turn(turn_in, n))) goto fail;
    if (castling_in && castling_in != Py_None) {
        if (!(castling = bitboard_column(castling_in, "castling", 1, 0))) goto fail;
        if (PyArray_DIM(castling, 0) != n) {
            PyErr_Format(PyExc_ValueError, "castling must have shape (%zd,)", (Py_ssize_t)n);
            goto fail;
        }
    }
    if (ep_in && ep_in != Py_None && !(ep = ep_column(ep_in, n))) goto fail;
    if (new_outputs(n, out, &planes, &ok) < 0 || refuse_overlap(planes, pieces_in, "pieces") < 0 ||
        refuse_overlap(planes, turn_in, "turn") < 0 ||
        refuse_overlap(planes, castling_in, "castling") < 0 ||
        refuse_overlap(planes, ep_in, "ep") < 0)
        goto fail;
    for (npy_intp done = 0; done < n; done += CHUNK) {
        const npy_intp m = n - done < CHUNK ? n - done : CHUNK;
        const df_position_rows rows = {
            (const uint64_t *)PyArray_DATA(pieces) + 12 * done,
            (const uint8_t *)PyArray_DATA(stm) + done,
            castling ? (const uint64_t *)PyArray_DATA(castling) + done : NULL,
            ep ? (const int8_t *)PyArray_DATA(ep) + done : NULL, chess960 != 0};
        Py_BEGIN_ALLOW_THREADS
            df_attack_planes_from_rows_mt((uint8_t *)PyArray_DATA(planes) + done * DF_PLANE_BYTES,
                                          (bool *)PyArray_DATA(ok) + done, &rows, (size_t)m,
                                          threads);
        Py_END_ALLOW_THREADS
        if (dfpy_check_signals() < 0) {
            say_how_far(done + m, n);
            goto fail;
        }
    }
    Py_DECREF(pieces);
    Py_DECREF(stm);
    Py_XDECREF(castling);
    Py_XDECREF(ep);
    return Py_BuildValue("(NN)", planes, ok);
fail:
    Py_XDECREF(pieces);
    Py_XDECREF(stm);
    Py_XDECREF(castling);
    Py_XDECREF(ep);
    Py_XDECREF(planes);
    Py_XDECREF(ok);
    return NULL;
}

PyMethodDef dfpy_planes_methods[] = {
    {"_planes_from_fens", (PyCFunction)(void (*)(void))py_planes_from_fens,
     METH_VARARGS | METH_KEYWORDS, NULL},
    {"_planes_from_rows", (PyCFunction)(void (*)(void))py_planes_from_rows,
     METH_VARARGS | METH_KEYWORDS, NULL},
    {NULL, NULL, 0, NULL}};
