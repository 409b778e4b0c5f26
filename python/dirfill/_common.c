/* SPDX-License-Identifier: MIT */
/* The helpers the extension's files share (_common.h): argument conversions, the analysis
 * dict, interrupts while the GIL is released. */
#include "_common.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *dfpy_text(PyObject *o, Py_ssize_t *len, const char *what)
{
    if (PyUnicode_Check(o)) return PyUnicode_AsUTF8AndSize(o, len);
    if (PyBytes_Check(o)) {
        *len = PyBytes_GET_SIZE(o);
        return PyBytes_AS_STRING(o);
    }
    PyErr_Format(PyExc_TypeError, "%s must be str or bytes, not %.100s", what, Py_TYPE(o)->tp_name);
    return NULL;
}

int dfpy_parse_fen(df_board *b, PyObject *fen, int chess960)
{
    Py_ssize_t len;
    const char *text = dfpy_text(fen, &len, "a FEN");
    if (!text) return -1;
    df_fen_error err;
    if (df_fen_parse(b, text, (size_t)len, chess960 ? DF_FEN_CHESS960 : DF_FEN_STANDARD, &err) !=
        DF_OK) {
        PyErr_Format(PyExc_ValueError, "bad FEN: %s", err.message);
        return -1;
    }
    return 0;
}

int dfpy_need_playable(const df_board *b)
{
    if (df_board_playable(b)) return 0;
    PyErr_Format(PyExc_ValueError, "%s, the side not to move, is in check: no legal moves",
                 b->stm == DF_WHITE ? "black" : "white");
    return -1;
}

static int put_int(PyObject *dict, const char *key, df_bb value)
{
    PyObject *v = PyLong_FromUnsignedLongLong(value);
    const int r = v ? PyDict_SetItemString(dict, key, v) : -1;
    Py_XDECREF(v);
    return r;
}

int dfpy_put(PyObject *dict, const char *key, PyObject *value)
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

PyObject *dfpy_analysis(const df_board *b)
{
    df_attack_map m[2];
    df_king_safety_sets ks;
    char text[DF_FEN_MAX];
    df_attack_maps(m, b);
    df_king_safety(&ks, b);
    df_fen_format(text, sizeof text, b, DF_FEN_STANDARD);
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    const int bad = dfpy_put(d, "fen", PyUnicode_FromString(text)) < 0 ||
                    dfpy_put(d, "backend", PyUnicode_FromString(df_backend_name())) < 0 ||
                    dfpy_put(d, "stm", PyUnicode_FromString(b->stm ? "b" : "w")) < 0 ||
                    dfpy_put(d, "white", side_dict(&m[DF_WHITE])) < 0 ||
                    dfpy_put(d, "black", side_dict(&m[DF_BLACK])) < 0 ||
                    put_int(d, "checkers", ks.checkers) < 0 ||
                    put_int(d, "pinned", ks.pinned) < 0 || put_int(d, "pinners", ks.pinners) < 0 ||
                    put_int(d, "check_block", ks.check_block) < 0 ||
                    put_int(d, "discoverers", ks.discoverers) < 0;
    if (bad) Py_CLEAR(d);
    return d;
}

PyObject *dfpy_uci(const df_board *b, df_move m)
{
    char uci[DF_UCI_MAX];
    const size_t n = df_move_to_uci(uci, b, m);
    return PyUnicode_FromStringAndSize(uci, (Py_ssize_t)n);
}

int dfpy_move_arg(df_move *out, const df_board *b, PyObject *arg)
{
    if (dfpy_need_playable(b) < 0) return -1;
    if (PyLong_Check(arg)) {
        const unsigned long v = PyLong_AsUnsignedLong(arg);
        if (PyErr_Occurred() || v > 0xffff) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "a move as an int is a 16-bit df_move (0..65535)");
            return -1;
        }
        if (!df_move_is_legal(b, (df_move)v)) {
            PyErr_Format(PyExc_ValueError, "move %lu is not legal here", v);
            return -1;
        }
        *out = (df_move)v;
        return 0;
    }
    Py_ssize_t len;
    const char *text = dfpy_text(arg, &len, "a move");
    if (!text) return -1;
    if (df_move_from_uci(out, b, text, (size_t)len) != DF_OK) {
        PyErr_Format(PyExc_ValueError, "%R is not a legal move here (UCI)", arg);
        return -1;
    }
    return 0;
}

int dfpy_threads(PyObject *arg, unsigned *out)
{
    if (!arg || arg == Py_None) {
        *out = 0;
        return 0;
    }
    const long long v = PyLong_AsLongLong(arg);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < 0 || v > 1024) {
        PyErr_Format(PyExc_ValueError, "threads must be 0 (every CPU) to 1024, not %lld", v);
        return -1;
    }
    *out = (unsigned)v;
    return 0;
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int dfpy_check_signals(void) { return PyErr_CheckSignals(); }

static bool poll_requested(void *ctx)
{
    dfpy_poll *p = ctx;
    const double now = now_seconds();
    if (now < p->next) return false;
    p->next = now + 0.02;
    PyEval_RestoreThread(*p->save);
    const int raised = PyErr_CheckSignals() < 0;
    *p->save = PyEval_SaveThread();
    return raised;
}

df_interrupt dfpy_poll_start(dfpy_poll *p, PyThreadState **save)
{
    p->save = save;
    p->next = now_seconds() + 0.02;
    return (df_interrupt){poll_requested, p};
}
