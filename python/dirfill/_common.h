/* SPDX-License-Identifier: MIT */
/* The CPython extension's shared parts (defined in _common.c): argument conversions, the
 * analysis dict, interrupts while the GIL is released, and the numpy set-up of the files that
 * use it. The extension is thin: every answer comes from the C library. */
#ifndef DFPY_COMMON_H
#define DFPY_COMMON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API  NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL dirfill_ARRAY_API
#ifndef DFPY_IMPORTS_NUMPY
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include <stdbool.h>

#include <dirfill.h>

/* The bytes of a str (UTF-8) or bytes object; NULL with TypeError for anything else. The
 * pointer lives as long as the object. */
const char *dfpy_text(PyObject *o, Py_ssize_t *len, const char *what);
/* A board from a FEN (str or bytes): 0, or -1 with ValueError/TypeError. */
int dfpy_parse_fen(df_board *b, PyObject *fen, int chess960);
/* A board that has a legal move tree, or -1 with ValueError naming the side in check. */
int dfpy_need_playable(const df_board *b);
/* dict[key] = value, taking the reference to value (NULL: an error already set): 0, or -1. */
int dfpy_put(PyObject *dict, const char *key, PyObject *value);
/* The dict of one line of `dirfill analyze --json`, sets as ints. */
PyObject *dfpy_analysis(const df_board *b);
/* A move as a new str (UCI). */
PyObject *dfpy_uci(const df_board *b, df_move m);
/* A move given as a UCI str or a 16-bit int, checked legal: 0, or -1 with ValueError/TypeError. */
int dfpy_move_arg(df_move *out, const df_board *b, PyObject *arg);
/* A count of threads from a Python int: 0 (every CPU) up to 1024; -1 with ValueError or
 * OverflowError otherwise. */
int dfpy_threads(PyObject *arg, unsigned *out);

/* Interrupts while the GIL is released: a df_interrupt whose requested() takes the GIL back
 * every 20 ms or so, runs the signal handlers (Ctrl-C raises KeyboardInterrupt) and asks the
 * call to stop when one raised. Use between Py_BEGIN_ALLOW_THREADS and _END (which names the
 * saved thread state _save):
 *     dfpy_poll poll;
 *     Py_BEGIN_ALLOW_THREADS
 *         const df_interrupt in = dfpy_poll_start(&poll, &_save);
 *         s = df_perft_interruptible(&nodes, &b, depth, &in);
 *     Py_END_ALLOW_THREADS */
typedef struct {
    PyThreadState **save;
    double next;
} dfpy_poll;
df_interrupt dfpy_poll_start(dfpy_poll *p, PyThreadState **save);
/* With the GIL held: run the signal handlers; -1 when one raised. */
int dfpy_check_signals(void);

/* where=: *out the library's filter of a str or a list of str (NULL for None): 0, or -1 with
 * ValueError (the library's message for a malformed expression) or TypeError. */
int dfpy_filter(PyObject *where, df_pgn_filter **out);

/* 1 and *out = its board when o is a dirfill.Board, else 0. */
int dfpy_board_of(PyObject *o, df_board *out);

/* The types and functions of the other files, added to the module by PyInit__dirfill. */
int dfpy_add_board(PyObject *module);
int dfpy_add_pgn(PyObject *module);
int dfpy_add_pgn_batches(PyObject *module);
int dfpy_add_shm_batches(PyObject *module);
int dfpy_add_nnue(PyObject *module);
extern PyMethodDef dfpy_planes_methods[];
extern PyMethodDef dfpy_pgn_methods[];
extern PyMethodDef dfpy_pgn_batches_methods[];
extern PyMethodDef dfpy_shm_batches_methods[];
extern PyMethodDef dfpy_nnue_methods[];

#endif
