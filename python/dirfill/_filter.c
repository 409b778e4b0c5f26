/* SPDX-License-Identifier: MIT */
/* where=: the library's tag filter from a str or a list of str. */
#include "_common.h"

#include <stdlib.h>

int dfpy_filter(PyObject *where, df_pgn_filter **out)
{
    *out = NULL;
    if (!where || where == Py_None) return 0;
    PyObject *seq = PyUnicode_Check(where)
                        ? Py_BuildValue("(O)", where)
                        : PySequence_Fast(where, "where is a str or a list of str");
    if (!seq) return -1;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    const char **exprs = calloc((size_t)n + 1, sizeof *exprs);
    int status = exprs ? 0 : -1;
    if (!exprs) PyErr_NoMemory();
    for (Py_ssize_t i = 0; !status && i < n; i++) {
        PyObject *e = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyUnicode_Check(e)) {
            PyErr_Format(PyExc_TypeError, "where[%zd] is %.80s, not str", i, Py_TYPE(e)->tp_name);
            status = -1;
        } else if (!(exprs[i] = PyUnicode_AsUTF8(e))) {
            status = -1;
        }
    }
    if (!status) {
        char error[DF_PGN_FILTER_ERROR_MAX] = "";
        const df_status s = df_pgn_filter_new(out, exprs, (size_t)n, error);
        if (s == DF_ERR_ARGUMENT)
            PyErr_SetString(PyExc_ValueError, error);
        else if (s != DF_OK)
            PyErr_NoMemory();
        status = s == DF_OK ? 0 : -1;
    }
    free(exprs);
    Py_DECREF(seq);
    return status;
}
