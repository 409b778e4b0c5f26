/* SPDX-License-Identifier: MIT */
/* PGN sources for Python (see _source.h). */
#include "_source.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static long read_view(void *ctx, char *buf, size_t size)
{
    dfpy_source *s = ctx;
    const size_t left = (size_t)s->view.len - s->at, n = left < size ? left : size;
    memcpy(buf, (const char *)s->view.buf + s->at, n);
    s->at += n;
    return (long)n;
}

static long read_range(void *ctx, char *buf, size_t size)
{
    dfpy_source *s = ctx;
    const size_t want = s->range_left < size ? (size_t)s->range_left : size;
    const size_t n = want ? fread(buf, 1, want, s->range_file) : 0;
    s->range_left -= n;
    return n == 0 && want && ferror(s->range_file) ? -1 : (long)n;
}

/* file.read(size), the GIL taken for it when the calling thread released it or when the read
 * runs on a thread of the extension's own. A failed read leaves its exception set (with the GIL
 * of the thread that read: the stream fetches it from there). */
static long read_file_object(void *ctx, char *buf, size_t size)
{
    dfpy_source *s = ctx;
    PyGILState_STATE state = PyGILState_UNLOCKED;
    if (s->save)
        PyEval_RestoreThread(*s->save);
    else if (s->own_thread)
        state = PyGILState_Ensure();
    long n = -1;
    PyObject *data = PyObject_CallMethod(s->file, "read", "n", (Py_ssize_t)size);
    if (data && PyBytes_Check(data) && (size_t)PyBytes_GET_SIZE(data) <= size) {
        n = (long)PyBytes_GET_SIZE(data);
        memcpy(buf, PyBytes_AS_STRING(data), (size_t)n);
        s->given += (uint64_t)n;
    } else if (data && PyBytes_Check(data)) {
        PyErr_Format(PyExc_OSError,
                     "the file object's read(%zu) returned %zd bytes, more than asked", size,
                     PyBytes_GET_SIZE(data));
    } else if (data) {
        PyErr_Format(PyExc_TypeError,
                     "the file must be opened in binary mode (its read returned %.100s, not bytes)",
                     Py_TYPE(data)->tp_name);
    }
    Py_XDECREF(data);
    if (n < 0) s->failed = true; /* the exception stays set */
    if (n < 0 && s->own_thread && !s->save && !s->exc_type)
        PyErr_Fetch(&s->exc_type, &s->exc_value, &s->exc_tb); /* this thread's state goes */
    if (s->save)
        *s->save = PyEval_SaveThread();
    else if (s->own_thread)
        PyGILState_Release(state);
    return n;
}

void dfpy_source_close(dfpy_source *s)
{
    df_source_close(s->source);
    if (s->have_view) PyBuffer_Release(&s->view);
    Py_XDECREF(s->file);
    Py_XDECREF(s->name);
    Py_XDECREF(s->exc_type);
    Py_XDECREF(s->exc_value);
    Py_XDECREF(s->exc_tb);
    if (s->range_file) fclose(s->range_file);
    memset(s, 0, sizeof *s);
}

static bool compressed_name(const char *p)
{
    const size_t n = strlen(p);
    return (n > 4 && !strcmp(p + n - 4, ".zst")) || (n > 3 && !strcmp(p + n - 3, ".gz"));
}

/* The line the byte at offset start is on: 1 + the newlines before it (f's position moves). */
static bool line_of(FILE *f, uint64_t start, uint64_t *line)
{
    enum { BLOCK = 1 << 20 };
    char *buf = malloc(BLOCK);
    uint64_t count = 1;
    bool ok = buf != NULL;
    for (uint64_t left = start; ok && left;) {
        const size_t n = fread(buf, 1, left < BLOCK ? (size_t)left : BLOCK, f);
        for (const char *q = buf, *end = buf + n; (q = memchr(q, '\n', (size_t)(end - q))); q++)
            count++;
        left -= n;
        if (n == 0) break; /* a range after the end: it reads nothing */
    }
    ok = ok && !ferror(f);
    free(buf);
    *line = count;
    return ok;
}

/* A byte range is read by seeking: a regular file only, opened without waiting (a FIFO's open
 * waits for a writer). NULL with errno, or with *regular false for anything else. */
static FILE *open_regular(const char *p, bool *regular)
{
    *regular = true;
    const int fd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC); /* no effect on a regular file */
    if (fd < 0) return NULL;
    struct stat st;
    FILE *f = NULL;
    if (fstat(fd, &st) == 0 && !(*regular = S_ISREG(st.st_mode))) errno = ESPIPE;
    if (*regular) f = fdopen(fd, "rb");
    if (!f) {
        const int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}

static int open_range(dfpy_source *s, PyObject *obj, const char *p, PyObject *range)
{
    unsigned long long start, end, line = 0;
    if (!PyArg_ParseTuple(range, "KK|K", &start, &end, &line) || start > end) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "byte_range is (start, end), start <= end");
        return -1;
    }
    if (compressed_name(p)) {
        PyErr_SetString(PyExc_ValueError,
                        "byte_range reads a plain file: a compressed file is read whole");
        return -1;
    }
    bool regular;
    s->range_file = open_regular(p, &regular);
    if (!regular) {
        PyErr_Format(PyExc_ValueError,
                     "%s: byte_range reads a part of a regular file, not of a pipe, FIFO or "
                     "device",
                     p);
        return -1;
    }
    bool counted = true;
    if (s->range_file && !line) {
        Py_BEGIN_ALLOW_THREADS
            counted = line_of(s->range_file, start, &s->first_line);
        Py_END_ALLOW_THREADS
    } else {
        s->first_line = line;
    }
    if (!s->range_file || !counted || fseeko(s->range_file, (off_t)start, SEEK_SET) != 0) {
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, obj);
        return -1;
    }
    s->range_left = end - start;
    s->source = df_source_from_function(read_range, s);
    return 0;
}

int dfpy_source_open(dfpy_source *s, PyObject *obj, PyObject *range)
{
    memset(s, 0, sizeof *s);
    s->first_line = 1;
    if (PyUnicode_Check(obj) || PyObject_HasAttrString(obj, "__fspath__")) {
        PyObject *path = NULL;
        if (!PyUnicode_FSConverter(obj, &path)) return -1;
        const char *p = PyBytes_AS_STRING(path);
        s->name = PyUnicode_DecodeFSDefaultAndSize(p, PyBytes_GET_SIZE(path));
        int r = s->name ? 0 : -1;
        if (!r && range && range != Py_None) {
            r = open_range(s, obj, p, range);
        } else if (!r) {
            const df_status st = df_source_open(&s->source, p);
            if (st == DF_ERR_UNSUPPORTED)
                PyErr_Format(PyExc_ValueError, "%s: this build cannot decompress it", p);
            else if (st != DF_OK)
                PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, obj);
            r = st == DF_OK ? 0 : -1;
        }
        Py_DECREF(path);
        if (r < 0) {
            dfpy_source_close(s);
            return -1;
        }
    } else if (range && range != Py_None) {
        PyErr_SetString(PyExc_ValueError, "byte_range reads a part of a file given by its path");
        return -1;
    } else if (PyObject_CheckBuffer(obj)) {
        if (PyObject_GetBuffer(obj, &s->view, PyBUF_SIMPLE) < 0) return -1;
        s->have_view = true;
        s->source = df_source_from_function(read_view, s);
    } else if (PyObject_HasAttrString(obj, "read")) {
        Py_INCREF(obj);
        s->file = obj;
        s->source = df_source_from_function(read_file_object, s);
    } else {
        PyErr_Format(PyExc_TypeError,
                     "source must be a path, bytes or a binary file object, not %.100s",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    if (!s->source) {
        dfpy_source_close(s);
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

void dfpy_source_error(dfpy_source *s)
{
    if (s->exc_type) {
        PyErr_Restore(s->exc_type, s->exc_value, s->exc_tb);
        s->exc_type = s->exc_value = s->exc_tb = NULL;
    }
    if (PyErr_Occurred()) return;
    const char *why = s->source ? df_source_error(s->source) : NULL;
    if (!why) why = "cannot read the input";
    if (s->name)
        PyErr_Format(PyExc_OSError, "%U: %s", s->name, why);
    else
        PyErr_Format(PyExc_OSError, "%s", why);
}

/* A path's str for its errors (path_name when the source has one already). */
static PyObject *path_name_of(PyObject *obj, PyObject *path_name)
{
    if (path_name) {
        Py_INCREF(path_name);
        return path_name;
    }
    PyObject *p = PyOS_FSPath(obj);
    if (p && PyBytes_Check(p))
        Py_SETREF(p, PyUnicode_DecodeFSDefaultAndSize(PyBytes_AS_STRING(p), PyBytes_GET_SIZE(p)));
    return p;
}

static int note_failure(PyObject *failures, long index, PyObject *name, PyObject *err,
                        PyObject *reason)
{
    PyObject *item =
        name && reason ? Py_BuildValue("(lOOO)", index, name, err ? err : Py_None, reason) : NULL;
    const int r = item ? PyList_Append(failures, item) : -1;
    Py_XDECREF(item);
    return r;
}

int dfpy_open_failed(PyObject *failures, long index, PyObject *obj)
{
    if (!PyErr_ExceptionMatches(PyExc_OSError)) return -1;
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    PyObject *err = value ? PyObject_GetAttrString(value, "errno") : NULL,
             *why = value ? PyObject_GetAttrString(value, "strerror") : NULL,
             *name = path_name_of(obj, NULL);
    if (why == Py_None) Py_SETREF(why, PyObject_Str(value));
    const int r = note_failure(failures, index, name, err, why);
    Py_XDECREF(err);
    Py_XDECREF(why);
    Py_XDECREF(name);
    if (r < 0) { /* out of memory: the open's own error is raised */
        PyErr_Clear();
        PyErr_Restore(type, value, tb);
        return -1;
    }
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    return 0;
}

int dfpy_read_failed(dfpy_source *s, long index, PyObject *failures)
{
    if (s->exc_type) {
        PyErr_Restore(s->exc_type, s->exc_value, s->exc_tb);
        s->exc_type = s->exc_value = s->exc_tb = NULL;
    }
    if (PyErr_Occurred()) return -1;
    const char *why = s->source ? df_source_error(s->source) : NULL;
    if (!why) why = "cannot read the input";
    /* Only a path's source fails without an exception: a file object's failure is its own. */
    PyObject *reason = PyUnicode_DecodeUTF8(why, (Py_ssize_t)strlen(why), "replace");
    const int r = note_failure(failures, index, s->name ? s->name : Py_None, NULL, reason);
    Py_XDECREF(reason);
    return r;
}
