/* SPDX-License-Identifier: MIT */
/* PGN sources for Python: a path (.pgn, .zst, .gz, a pipe or FIFO; or a byte range of a regular
 * file), bytes-like data, or a binary file object, read through the library's df_source.
 * A reader that must stop sets its interrupt (df_source_set_interrupt): a file object's
 * read is then not called again. */
#ifndef DFPY_SOURCE_H
#define DFPY_SOURCE_H

#include "_common.h"

#include <stdio.h>

/* What a source reads from, and what must live while it does. */
typedef struct {
    df_source *source;
    Py_buffer view; /* bytes-like data */
    bool have_view;
    size_t at;            /* read position in view */
    PyObject *file;       /* a file object (its read method is called with the GIL) */
    PyObject *name;       /* a path's str, for its errors */
    PyThreadState **save; /* set while the calling thread has released the GIL */
    bool own_thread;      /* read on a thread of the extension's own: the GIL taken for it */
    FILE *range_file;     /* a byte range of a regular file */
    uint64_t range_left;
    uint64_t first_line; /* the line the source begins on in its file (1 but for a range) */
    bool failed;         /* a file object's read raised (or gave what is not bytes) */
    uint64_t given;      /* the bytes a file object's reads gave */
    PyObject *exc_type, *exc_value, *exc_tb; /* own_thread: a failed read's exception */
} dfpy_source;

/* Opens obj as a source (with the GIL); range: NULL or None, or (start, end) bytes of a plain
 * file, or (start, end, line): the same, start on that line of the file (without it, the lines
 * before start are counted). -1 with an exception. */
int dfpy_source_open(dfpy_source *s, PyObject *obj, PyObject *range);
/* Closes it (with the GIL: it may hold Python objects). */
void dfpy_source_close(dfpy_source *s);
/* Sets the exception of a failed read (with the GIL): the file object's own when it raised, else
 * an OSError naming the path and the problem. */
void dfpy_source_error(dfpy_source *s);

/* A source that cannot be read to its end, noted in failures (a list) as (index, name, errno,
 * reason) for dirfill.SourceError, which the readers raise once every other source is read:
 * name is the path (only a path's source fails so: data never does, and a file object's
 * failure is an exception of its own), errno the system's (None when the library found the
 * fault: a corrupt or truncated compressed stream). With the GIL.
 * After dfpy_source_open failed: its OSError (a path that cannot be opened) is noted (0); any
 * other exception stays set (-1: a source of no usable type, a byte range that cannot be). */
int dfpy_open_failed(PyObject *failures, long index, PyObject *obj);
/* After a read of s failed: the file object's own exception stays set (-1: it is raised as it
 * is), else the source's fault is noted (0; -1 when out of memory). */
int dfpy_read_failed(dfpy_source *s, long index, PyObject *failures);

#endif
