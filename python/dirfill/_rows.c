/* SPDX-License-Identifier: MIT */
/* Rows, sinks and records of the PGN readers (see _rows.h). */
#include "_rows.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* ---- columns ---- */

/* Faults in the whole pages of [p, p + bytes) writable without writing them (advice: may fail):
 * in a VM a fault a page, as rows are first written, cost more than the pages' clearing. */
static void populate_pages(void *p, size_t bytes)
{
#ifdef MADV_POPULATE_WRITE
    const uintptr_t from = ((uintptr_t)p + 4095) & ~(uintptr_t)4095,
                    to = ((uintptr_t)p + bytes) & ~(uintptr_t)4095;
    if (to > from) madvise((void *)from, to - from, MADV_POPULATE_WRITE);
#else
    (void)p, (void)bytes;
#endif
}

bool dfpy_rows_reserve(dfpy_rows *c, size_t need)
{
    if (need <= c->cap) return true;
    /* pgn_positions' columns, written in place by the one-thread reader: moved by the kernel. */
    if (c->column_maps) return dfpy_rows_grow_mapped(c, need);
    /* A run of the threaded reader (a segment is cut once 512 KB wait, after a read of 1 MB:
     * about 1 MB of PGN) holds some 28,000 positions: room for them at once (growing would copy
     * them and fault in fresh pages). */
    size_t cap = c->cap ? c->cap : 32768;
    while (cap < need) cap *= 2;
    if (c->region) {
        /* A batch's one mapping cannot grow in place: its rows move to a larger one. */
        dfpy_rows grown;
        if (!dfpy_rows_map(&grown, cap, c->with_uci)) return c->failed = true, false;
        dfpy_rows_append(&grown, c, 0, c->n, 0);
        dfpy_rows_free(c);
        *c = grown;
        return true;
    }
#define GROW(name, width)                                                                          \
    {                                                                                              \
        void *grown = realloc(c->name, cap * (width) * sizeof *c->name);                           \
        if (!grown) return c->failed = true, false;                                                \
        c->name = grown;                                                                           \
        populate_pages(c->name + c->cap * (width), (cap - c->cap) * (width) * sizeof *c->name);    \
    }
    DFPY_COLUMN_FIELDS(GROW)
#undef GROW
    if (c->with_uci) {
        void *grown = realloc(c->uci, cap * sizeof *c->uci);
        if (!grown) return c->failed = true, false;
        c->uci = grown;
    }
    c->cap = cap;
    return true;
}

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

/* Mappings of batches the arrays gave back, kept for the next batches: their pages stay mapped
 * (a fresh mapping faults in every page as the rows are written, which costs more than the
 * copy that writes them). */
enum { POOL = 8 };
static struct {
    pthread_mutex_t lock;
    void *p[POOL];
    size_t bytes[POOL];
    int n;
} pool = {PTHREAD_MUTEX_INITIALIZER, {NULL}, {0}, 0};

/* Regions below this come from malloc: a small batch (batch_size of a few rows) is one of many
 * that a game fills at once, and a mapping each, given back with munmap (a TLB shootdown across
 * the CPUs), cost far more than its rows. */
enum { SMALL_REGION = 64 << 10 };

/* A reader's thread takes regions while the caller may fork: the lock is held across fork() so
 * that the child's copy is never locked by a thread it does not have (a child dropping the
 * batches it inherited, or reading its own, gives regions back and takes them). No thread
 * waits for anything while it holds the lock, so the fork waits a moment at most. */
static void pool_lock(void) { pthread_mutex_lock(&pool.lock); }
static void pool_unlock(void) { pthread_mutex_unlock(&pool.lock); }
static void pool_at_fork(void) { pthread_atfork(pool_lock, pool_unlock, pool_unlock); }
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

void *dfpy_region_take(size_t bytes)
{
    if (bytes < SMALL_REGION) return aligned_alloc(64, bytes);
    /* Before the pool holds a region: a region given back was taken here first. */
    pthread_once(&pool_once, pool_at_fork);
    void *p = NULL;
    pthread_mutex_lock(&pool.lock);
    for (int i = 0; i < pool.n; i++)
        if (pool.bytes[i] == bytes) {
            p = pool.p[i];
            pool.p[i] = pool.p[--pool.n];
            pool.bytes[i] = pool.bytes[pool.n];
            break;
        }
    pthread_mutex_unlock(&pool.lock);
    if (p) return p;
    p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    populate_pages(p, bytes); /* the slack's pages too: fewer than the faults they save */
    return p;
}

void dfpy_region_give(void *p, size_t bytes)
{
    if (bytes < SMALL_REGION) {
        free(p);
        return;
    }
    pthread_mutex_lock(&pool.lock);
    const bool kept = pool.n < POOL;
    if (kept) {
        pool.p[pool.n] = p;
        pool.bytes[pool.n++] = bytes;
    }
    pthread_mutex_unlock(&pool.lock);
    if (!kept) munmap(p, bytes);
}

bool dfpy_rows_map(dfpy_rows *c, size_t cap, bool with_uci)
{
    memset(c, 0, sizeof *c);
    size_t bytes = 0;
#define SIZE(name, width) bytes += align64(cap * (width) * sizeof *c->name);
    DFPY_COLUMN_FIELDS(SIZE)
#undef SIZE
    if (with_uci) bytes += align64(cap * sizeof *c->uci);
    if (bytes == 0) bytes = 64;
    void *p = dfpy_region_take(bytes);
    if (!p) return false;
    char *at = p;
#define PLACE(name, width)                                                                         \
    c->name = (void *)at;                                                                          \
    at += align64(cap * (width) * sizeof *c->name);
    DFPY_COLUMN_FIELDS(PLACE)
#undef PLACE
    if (with_uci) c->uci = (void *)at;
    c->with_uci = with_uci;
    c->cap = cap;
    c->region = p;
    c->region_bytes = bytes;
    return true;
}

static size_t page_bytes(size_t n) { return n ? (n + 4095) & ~(size_t)4095 : 4096; }

static void *map_column(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE); /* advice: a fault per 2 MB where the kernel allows it */
#endif
    return p;
}

bool dfpy_rows_reserve_mapped(dfpy_rows *c, size_t cap, bool with_uci)
{
    memset(c, 0, sizeof *c);
    c->column_maps = true;
    c->with_uci = with_uci;
    for (; cap >= 4096; cap /= 2) {
        bool ok = true;
#define MAP(name, width)                                                                           \
    if (ok && !(c->name = map_column(page_bytes(cap * (width) * sizeof *c->name)))) ok = false;
        DFPY_COLUMN_FIELDS(MAP)
#undef MAP
        if (ok && with_uci && !(c->uci = map_column(page_bytes(cap * sizeof *c->uci)))) ok = false;
        c->cap = cap;
        if (ok) return true;
        dfpy_rows_free(c);
        c->column_maps = true;
        c->with_uci = with_uci;
    }
    return false;
}

/* Moves a column's mapping to a larger one: the kernel moves its pages, nothing is copied. */
static void *remap(void *p, size_t old, size_t bytes)
{
    void *q = mremap(p, old, bytes, MREMAP_MAYMOVE);
    return q == MAP_FAILED ? NULL : q;
}

bool dfpy_rows_grow_mapped(dfpy_rows *c, size_t need)
{
    if (need <= c->cap) return true;
    size_t cap = c->cap;
    while (cap < need) cap *= 2;
#define GROW(name, width)                                                                          \
    {                                                                                              \
        void *q = remap(c->name, page_bytes(c->cap * (width) * sizeof *c->name),                   \
                        page_bytes(cap * (width) * sizeof *c->name));                              \
        if (!q) return c->failed = true, false;                                                    \
        c->name = q;                                                                               \
    }
    DFPY_COLUMN_FIELDS(GROW)
#undef GROW
    if (c->with_uci) {
        void *q =
            remap(c->uci, page_bytes(c->cap * sizeof *c->uci), page_bytes(cap * sizeof *c->uci));
        if (!q) return c->failed = true, false;
        c->uci = (void *)q;
    }
    c->cap = cap;
    return true;
}

static void populate(void *base, size_t from, size_t to)
{
#ifdef MADV_POPULATE_WRITE
    from &= ~(size_t)4095;
    to = page_bytes(to);
    if (to > from) madvise((char *)base + from, to - from, MADV_POPULATE_WRITE); /* may fail */
#else
    (void)base, (void)from, (void)to;
#endif
}

void dfpy_rows_populate(const dfpy_rows *c, size_t from, size_t to)
{
    if (!c->column_maps || from >= to) return;
    if (to > c->cap) to = c->cap;
#define POPULATE(name, width)                                                                      \
    populate(c->name, from *(width) * sizeof *c->name, to * (width) * sizeof *c->name);
    DFPY_COLUMN_FIELDS(POPULATE)
#undef POPULATE
    if (c->uci) populate(c->uci, from * sizeof *c->uci, to * sizeof *c->uci);
}

/* Gives back the pages of a mapping of bytes at base past the page that holds byte used - 1
 * (advice: may fail). */
static void release(void *base, size_t used, size_t bytes)
{
    const size_t from = page_bytes(used);
    madvise((char *)base + from, page_bytes(bytes) - from, MADV_DONTNEED);
}

void dfpy_rows_release_unused(const dfpy_rows *c)
{
#define RELEASE(name, width)                                                                       \
    release(c->name, c->n *(width) * sizeof *c->name, c->cap * (width) * sizeof *c->name);
    DFPY_COLUMN_FIELDS(RELEASE)
#undef RELEASE
    if (c->uci) release(c->uci, c->n * sizeof *c->uci, c->cap * sizeof *c->uci);
}

void dfpy_rows_free(dfpy_rows *c)
{
    if (c->region) {
        dfpy_region_give(c->region, c->region_bytes);
    } else if (c->column_maps) {
#define UNMAP(name, width)                                                                         \
    if (c->name) munmap(c->name, page_bytes(c->cap *(width) * sizeof *c->name));
        DFPY_COLUMN_FIELDS(UNMAP)
#undef UNMAP
        if (c->uci) munmap(c->uci, page_bytes(c->cap * sizeof *c->uci));
    } else {
#define FREE(name, width) free(c->name);
        DFPY_COLUMN_FIELDS(FREE)
#undef FREE
        free(c->uci);
    }
    memset(c, 0, sizeof *c);
}

void dfpy_rows_append(dfpy_rows *dst, const dfpy_rows *src, size_t from, size_t to,
                      int64_t game_add)
{
    const size_t n = to - from, at = dst->n;
    if (n == 0) return;
#define COPY(name, width)                                                                          \
    memcpy(dst->name + at * (width), src->name + from * (width), n * (width) * sizeof *dst->name);
    DFPY_COLUMN_FIELDS(COPY)
#undef COPY
    if (dst->with_uci) memcpy(dst->uci + at, src->uci + from, n * sizeof *dst->uci);
    for (size_t i = 0; i < n; i++) dst->game[at + i] += game_add;
    dst->n += n;
}

/* A capsule that owns a mapping: a batch's (given back to the pool) or a column's (unmapped). */
static void give_capsule(PyObject *capsule)
{
    dfpy_region_give(PyCapsule_GetPointer(capsule, NULL),
                     (size_t)(uintptr_t)PyCapsule_GetContext(capsule));
}

static void unmap_capsule(PyObject *capsule)
{
    munmap(PyCapsule_GetPointer(capsule, NULL), (size_t)(uintptr_t)PyCapsule_GetContext(capsule));
}

static PyObject *owner_of(void *p, size_t bytes, PyCapsule_Destructor d)
{
    PyObject *o = PyCapsule_New(p, NULL, d);
    if (o) PyCapsule_SetContext(o, (void *)(uintptr_t)bytes);
    return o;
}

PyObject *dfpy_region_owner(void *p, size_t bytes) { return owner_of(p, bytes, give_capsule); }

/* Puts an array over data into out; owner (a new reference, consumed) keeps the memory. */
static int put_array(PyObject *out, const char *name, PyObject *owner, void *data, int nd,
                     npy_intp *dims, PyArray_Descr *descr)
{
    PyObject *a = owner && descr ? PyArray_NewFromDescr(&PyArray_Type, descr, nd, dims, NULL, data,
                                                        NPY_ARRAY_CARRAY, NULL)
                                 : NULL;
    if (!a || PyArray_SetBaseObject((PyArrayObject *)a, owner) < 0) {
        Py_XDECREF(a);
        Py_XDECREF(owner);
        return -1;
    }
    const int r = PyDict_SetItemString(out, name, a);
    Py_DECREF(a);
    return r;
}

int dfpy_rows_to_dict(dfpy_rows *c, PyObject *out)
{
    dfpy_rows rows = *c;
    memset(c, 0, sizeof *c); /* the arrays own the memory now */
    PyObject *region = rows.region ? owner_of(rows.region, rows.region_bytes, give_capsule) : NULL;
    if (rows.region && !region) {
        dfpy_region_give(rows.region, rows.region_bytes);
        return -1;
    }
    npy_intp n = (npy_intp)rows.n, dims2[2] = {n, 12};
    struct {
        const char *name;
        void *data;
        int nd, type;
        size_t bytes;
    } cols[] = {
        {"pieces", rows.pieces, 2, NPY_UINT64, 96},
        {"turn", rows.turn, 1, NPY_BOOL, 1},
        {"castling", rows.castling, 1, NPY_UINT64, 8},
        {"ep", rows.ep, 1, NPY_INT8, 1},
        {"halfmove", rows.halfmove, 1, NPY_UINT32, 4},
        {"fullmove", rows.fullmove, 1, NPY_UINT32, 4},
        {"game", rows.game, 1, NPY_INT64, 8},
        {"ply", rows.ply, 1, NPY_UINT32, 4},
        {"move", rows.move, 1, NPY_UINT16, 2},
        {"result", rows.result, 1, NPY_INT8, 1},
        {"eval", rows.eval, 1, NPY_FLOAT32, 4},
        {"clock", rows.clock, 1, NPY_FLOAT32, 4},
        {"uci", rows.uci, 1, NPY_STRING, DF_UCI_MAX},
    };
    int status = 0;
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
        if (!cols[i].data) continue;
        PyObject *owner = region;
        if (region)
            Py_INCREF(region);
        else
            owner = owner_of(cols[i].data, page_bytes(rows.cap * cols[i].bytes), unmap_capsule);
        if (!owner && !region) munmap(cols[i].data, page_bytes(rows.cap * cols[i].bytes));
        PyArray_Descr *d = NULL;
        if (cols[i].type == NPY_STRING) {
            if ((d = PyArray_DescrNewFromType(NPY_STRING))) d->elsize = DF_UCI_MAX;
        } else {
            d = PyArray_DescrFromType(cols[i].type);
        }
        if (!status)
            status = put_array(out, cols[i].name, owner, cols[i].data, cols[i].nd,
                               cols[i].nd == 2 ? dims2 : &n, d);
        else
            Py_XDECREF(owner), Py_XDECREF(d);
    }
    Py_XDECREF(region);
    return status;
}

/* ---- records ---- */

static void put(dfpy_records *r, const void *p, size_t n)
{
    if (r->len + n > r->cap) {
        size_t cap = r->cap ? r->cap : 1 << 14;
        while (cap < r->len + n) cap *= 2;
        char *grown = realloc(r->text, cap);
        if (!grown) {
            r->failed = true;
            return;
        }
        r->text = grown;
        r->cap = cap;
    }
    if (n) memcpy(r->text + r->len, p, n);
    r->len += n;
}

void dfpy_record(dfpy_records *r, char kind, uint64_t game, const char *a, size_t na, const char *b,
                 size_t nb)
{
    const uint32_t la = (uint32_t)na, lb = (uint32_t)nb;
    put(r, &kind, 1);
    put(r, &game, 8);
    put(r, &la, 4);
    put(r, a, na);
    put(r, &lb, 4);
    put(r, b, nb);
}

void dfpy_records_append(dfpy_records *dst, const dfpy_records *src)
{
    put(dst, src->text, src->len);
}

size_t dfpy_record_at(const dfpy_records *r, size_t at, char *kind, uint64_t *game, const char **a,
                      uint32_t *na, const char **b, uint32_t *nb)
{
    const char *t = r->text + at;
    *kind = t[0];
    memcpy(game, t + 1, 8);
    memcpy(na, t + 9, 4);
    *a = t + 13;
    memcpy(nb, t + 13 + *na, 4);
    *b = t + 17 + *na;
    return at + 17 + *na + *nb;
}

int dfpy_records_drop_last(dfpy_records *r, uint64_t game)
{
    size_t from = r->len;
    int said = 0;
    char kind;
    uint64_t g;
    const char *a, *b;
    uint32_t na, nb;
    for (size_t at = 0, next; at < r->len; at = next) {
        next = dfpy_record_at(r, at, &kind, &g, &a, &na, &b, &nb);
        if (g != game) {
            from = r->len;
            said = 0;
        } else {
            if (from == r->len) from = at;
            if (kind == 'E' || kind == 'S') said = kind;
        }
    }
    r->len = from;
    return said;
}

uint64_t dfpy_record_number(const char *t, uint32_t n)
{
    uint64_t v = 0;
    for (uint32_t i = 0; i < n && t[i] >= '0' && t[i] <= '9'; i++)
        v = 10 * v + (uint64_t)(t[i] - '0');
    return v;
}

/* Tag names as str, the few a file uses decoded once a batch, each with its last value (up to
 * TAG_VALUE_BYTES bytes): a game's value is often the one before's (Event, Date, Result,
 * TimeControl, Termination...), and the same bytes give the same str, shared, not made again. */
enum { NAMES = 32, TAG_NAME_BYTES = 32, TAG_VALUE_BYTES = 48 };
typedef struct {
    char text[TAG_NAME_BYTES], value_text[TAG_VALUE_BYTES];
    uint32_t len, value_len;
    PyObject *str, *value; /* value: NULL, or the str of value_text */
} name_slot;

typedef struct {
    name_slot slot[NAMES];
    int n;
    /* The tags dict of the last tag's game (held by the headers dict): a game's tags come one
     * after another, so a game's number is made an int and looked up once, not once a tag. */
    PyObject *tags;
    uint64_t game;
} name_cache;

/* A tag name as str; *slot its slot (made when there is room), or NULL. */
static PyObject *tag_name(name_cache *c, const char *a, uint32_t la, name_slot **slot)
{
    *slot = NULL;
    for (int i = 0; la <= TAG_NAME_BYTES && i < c->n; i++)
        if (c->slot[i].len == la && !memcmp(c->slot[i].text, a, la)) {
            *slot = &c->slot[i];
            Py_INCREF(c->slot[i].str);
            return c->slot[i].str;
        }
    PyObject *s = PyUnicode_DecodeUTF8(a, la, "replace");
    if (s && la <= TAG_NAME_BYTES && c->n < NAMES) {
        *slot = &c->slot[c->n++];
        memcpy((*slot)->text, a, la);
        (*slot)->len = la;
        Py_INCREF(s);
        (*slot)->str = s;
        (*slot)->value = NULL;
    }
    return s;
}

/* A tag's value as str: the slot's last one when the bytes are the same. */
static PyObject *tag_value(name_slot *slot, const char *b, uint32_t lb)
{
    if (slot && slot->value && slot->value_len == lb && !memcmp(slot->value_text, b, lb)) {
        Py_INCREF(slot->value);
        return slot->value;
    }
    PyObject *v = PyUnicode_DecodeUTF8(b, lb, "replace");
    if (v && slot && lb <= TAG_VALUE_BYTES) {
        memcpy(slot->value_text, b, lb);
        slot->value_len = lb;
        Py_INCREF(v);
        Py_XSETREF(slot->value, v);
    }
    return v;
}

/* The tags dict of game in headers, made when there is none; NULL with an exception. */
static PyObject *game_tags(PyObject *headers, uint64_t game)
{
    PyObject *key = PyLong_FromUnsignedLongLong(game);
    PyObject *tags = key ? PyDict_GetItemWithError(headers, key) : NULL;
    if (key && !tags && !PyErr_Occurred() && (tags = PyDict_New())) {
        const int r = PyDict_SetItem(headers, key, tags);
        Py_DECREF(tags); /* the dict holds it */
        if (r < 0) tags = NULL;
    }
    Py_XDECREF(key);
    return tags;
}

static int add_header(PyObject *headers, name_cache *names, uint64_t game, const char *a,
                      uint32_t la, const char *b, uint32_t lb)
{
    if (!names->tags || names->game != game) {
        if (!(names->tags = game_tags(headers, game))) return -1;
        names->game = game;
    }
    name_slot *slot;
    PyObject *name = tag_name(names, a, la, &slot), *value = tag_value(slot, b, lb);
    const int r = name && value ? PyDict_SetItem(names->tags, name, value) : -1;
    Py_XDECREF(name);
    Py_XDECREF(value);
    return r;
}

/* Whether the record at offset at lies wholly within r (data from Python may not). */
static bool record_fits(const dfpy_records *r, size_t at)
{
    uint32_t na, nb;
    if (r->len - at < 17) return false;
    memcpy(&na, r->text + at + 9, 4);
    if (r->len - at - 17 < na) return false;
    memcpy(&nb, r->text + at + 13 + na, 4);
    return r->len - at - 17 - na >= nb;
}

/* The records of r: the tags into headers (game -> {tag: value}), the others appended to
 * errors, skipped and warnings; a NULL one is left out. -1 with an exception. */
static int decode(const dfpy_records *r, PyObject *headers, PyObject *errors, PyObject *skipped,
                  PyObject *warnings)
{
    int status = 0;
    name_cache names;
    names.n = 0;
    names.tags = NULL;
    for (size_t at = 0; !status && at < r->len;) {
        if (!record_fits(r, at)) {
            PyErr_SetString(PyExc_ValueError, "not PGN records");
            status = -1;
            break;
        }
        char kind;
        uint64_t game;
        const char *a, *b;
        uint32_t la, lb;
        at = dfpy_record_at(r, at, &kind, &game, &a, &la, &b, &lb);
        PyObject *list = kind == 'H'   ? headers
                         : kind == 'E' ? errors
                         : kind == 'S' ? skipped
                                       : warnings;
        if (!list) continue;
        if (kind == 'H') {
            status = add_header(headers, &names, game, a, la, b, lb);
            continue;
        }
        PyObject *key = PyLong_FromUnsignedLongLong(game), *item = NULL;
        if (!key) {
            status = -1;
        } else {
            item = kind == 'E' ? Py_BuildValue("(Os#K)", key, a, (Py_ssize_t)la,
                                               (unsigned long long)dfpy_record_number(b, lb))
                               : Py_BuildValue("(Os#)", key, a, (Py_ssize_t)la);
            status = item ? PyList_Append(list, item) : -1;
        }
        Py_XDECREF(item);
        Py_XDECREF(key);
    }
    for (int i = 0; i < names.n; i++) {
        Py_DECREF(names.slot[i].str);
        Py_XDECREF(names.slot[i].value);
    }
    return status;
}

int dfpy_records_to_dict(const dfpy_records *r, PyObject *out, bool lazy_headers)
{
    PyObject *headers = lazy_headers ? PyBytes_FromStringAndSize(r->text, (Py_ssize_t)r->len)
                                     : PyDict_New(),
             *errors = PyList_New(0), *skipped = PyList_New(0), *warnings = PyList_New(0);
    int status = headers && errors && skipped && warnings ? 0 : -1;
    if (!status) status = decode(r, lazy_headers ? NULL : headers, errors, skipped, warnings);
    if (!status)
        status = PyDict_SetItemString(out, lazy_headers ? "_tags" : "headers", headers) < 0 ||
                         PyDict_SetItemString(out, "errors", errors) < 0 ||
                         PyDict_SetItemString(out, "skipped", skipped) < 0 ||
                         PyDict_SetItemString(out, "warnings", warnings) < 0
                     ? -1
                     : 0;
    Py_XDECREF(headers);
    Py_XDECREF(errors);
    Py_XDECREF(skipped);
    Py_XDECREF(warnings);
    return status;
}

PyObject *dfpy_decode_headers(PyObject *unused, PyObject *arg)
{
    (void)unused;
    char *text;
    Py_ssize_t len;
    if (PyBytes_AsStringAndSize(arg, &text, &len) < 0) return NULL;
    const dfpy_records r = {text, (size_t)len, (size_t)len, false};
    PyObject *headers = PyDict_New();
    if (headers && decode(&r, headers, NULL, NULL, NULL) < 0) Py_CLEAR(headers);
    return headers;
}

/* ---- what the sinks write ---- */

/* A ply bound from a Python integer (not a bool): 0 to 2^32 - 1. -1 with an exception. */
static int ply_bound(PyObject *o, const char *name, uint32_t *out)
{
    if (PyBool_Check(o) || !PyIndex_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int (a ply), not %.80s", name,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    PyObject *n = PyNumber_Index(o);
    int overflow = 0;
    const long long v = n ? PyLong_AsLongLongAndOverflow(n, &overflow) : -1;
    Py_XDECREF(n);
    if (!n) return -1;
    if (overflow || v < 0 || v > (long long)UINT32_MAX) {
        PyErr_Format(PyExc_ValueError,
                     "%s must be a ply from 0 to %lu (ply 0: the position before the first move), "
                     "not %R",
                     name, (unsigned long)UINT32_MAX, o);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

int dfpy_write_options_parse(dfpy_write_options *o, df_pgn_position_filter *filter, PyObject *view,
                             PyObject *min_ply, PyObject *max_ply, PyObject *min_clock,
                             int require_eval)
{
    memset(filter, 0, sizeof *filter);
    o->positions = NULL;
    o->side_to_move = false;
    if (view && view != Py_None) {
        const char *v = PyUnicode_Check(view) ? PyUnicode_AsUTF8(view) : NULL;
        if (v && !strcmp(v, "side_to_move"))
            o->side_to_move = true;
        else if (!v || strcmp(v, "white")) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError,
                         "view must be \"white\" (eval and result as PGN writes them, White's "
                         "view) or \"side_to_move\", not %R",
                         view);
            return -1;
        }
    }
    if (min_ply && min_ply != Py_None) {
        if (ply_bound(min_ply, "min_ply", &filter->min_ply) < 0) return -1;
        filter->conditions |= DF_PGN_MIN_PLY;
    }
    if (max_ply && max_ply != Py_None) {
        if (ply_bound(max_ply, "max_ply", &filter->max_ply) < 0) return -1;
        filter->conditions |= DF_PGN_MAX_PLY;
    }
    if ((filter->conditions & DF_PGN_MIN_PLY) && (filter->conditions & DF_PGN_MAX_PLY) &&
        filter->min_ply > filter->max_ply) {
        PyErr_Format(PyExc_ValueError, "min_ply %lu is above max_ply %lu: no position would pass",
                     (unsigned long)filter->min_ply, (unsigned long)filter->max_ply);
        return -1;
    }
    if (min_clock && min_clock != Py_None) {
        const double v = PyBool_Check(min_clock) || !PyNumber_Check(min_clock)
                             ? -1.0
                             : PyFloat_AsDouble(min_clock);
        if (v == -1.0 && PyErr_Occurred()) PyErr_Clear();
        if (!(v >= 0 && v <= 1e12)) { /* NaN fails too */
            PyErr_Format(PyExc_ValueError,
                         "min_clock must be seconds, 0 or more (an int or a float), not %R",
                         min_clock);
            return -1;
        }
        filter->min_clock = v;
        filter->conditions |= DF_PGN_MIN_CLOCK;
    }
    if (require_eval) filter->conditions |= DF_PGN_REQUIRE_EVAL;
    if (filter->conditions) o->positions = filter;
    return 0;
}

/* ---- sinks ---- */

void dfpy_sink_pool_init(dfpy_sink_pool *p, bool with_uci, const dfpy_write_options *write,
                         const bool *stop)
{
    memset(p, 0, sizeof *p);
    p->with_uci = with_uci;
    p->write = write;
    p->stop = stop;
    pthread_mutex_init(&p->lock, NULL);
}

static void sink_free(dfpy_sink *s)
{
    dfpy_rows_free(&s->rows);
    free(s->rec.text);
    free(s);
}

void dfpy_sink_pool_drain(dfpy_sink_pool *p)
{
    while (p->nspare) sink_free(p->spare[--p->nspare]);
}

void dfpy_sink_pool_free(dfpy_sink_pool *p)
{
    dfpy_sink_pool_drain(p);
    pthread_mutex_destroy(&p->lock);
}

void *dfpy_sink_open(void *ctx)
{
    dfpy_sink_pool *o = ctx;
    pthread_mutex_lock(&o->lock);
    dfpy_sink *s = o->nspare ? o->spare[--o->nspare] : NULL;
    pthread_mutex_unlock(&o->lock);
    if (!s && (s = calloc(1, sizeof *s))) s->rows.with_uci = o->with_uci;
    if (s) {
        s->stop = o->stop;
        s->write = o->write;
    }
    return s;
}

void dfpy_sink_drop(void *ctx, void *p)
{
    dfpy_sink_pool *o = ctx;
    dfpy_sink *s = p;
    if (dfpy_sink_failed(s)) {
        sink_free(s);
        return;
    }
    s->rows.n = s->game_start = s->rec.len = 0;
    s->positions = 0;
    s->ended = false;
    pthread_mutex_lock(&o->lock);
    const bool kept = o->nspare < DFPY_SPARE_SINKS;
    if (kept) o->spare[o->nspare++] = s;
    pthread_mutex_unlock(&o->lock);
    if (!kept) sink_free(s);
}

bool dfpy_sink_failed(const dfpy_sink *s) { return s->failed || s->rec.failed || s->rows.failed; }

static bool stopped(const dfpy_sink *s)
{
    return dfpy_sink_failed(s) || (s->stop && __atomic_load_n(s->stop, __ATOMIC_RELAXED));
}

static void record_warning(dfpy_sink *s, const df_pgn_game *g)
{
    if (!g->warning || s->warned) return;
    dfpy_record(&s->rec, 'W', g->index, g->warning, strlen(g->warning), "", 0);
    s->warned = true;
}

df_pgn_action dfpy_sink_begin(void *ctx, const df_pgn_game *g)
{
    dfpy_sink *s = ctx;
    s->game_start = s->rows.n;
    s->warned = false;
    for (uint32_t i = 0; s->write->headers && i < g->ntags; i++)
        dfpy_record(&s->rec, 'H', g->index, g->tags[i].name, g->tags[i].name_len, g->tags[i].value,
                    g->tags[i].value_len);
    record_warning(s, g);
    return stopped(s) ? DF_PGN_STOP : DF_PGN_READ;
}

df_pgn_action dfpy_sink_end(void *ctx, const df_pgn_game *g)
{
    dfpy_sink *s = ctx;
    dfpy_rows *c = &s->rows;
    if (!g->error && !g->skipped && s->game_start > c->n) s->game_start = c->n;
    record_warning(s, g);
    if (g->error || g->skipped) {
        c->n = s->game_start; /* only good games give positions */
        if (g->error) {
            char line[24];
            const int n = snprintf(line, sizeof line, "%llu", (unsigned long long)g->error_line);
            dfpy_record(&s->rec, 'E', g->index, g->error, strlen(g->error), line, (size_t)n);
        } else {
            dfpy_record(&s->rec, 'S', g->index, g->skipped, strlen(g->skipped), "", 0);
        }
    } else {
        /* The result from White's view, +1 won, 0 drawn, -1 lost; from the side to move's, negated
         * where Black is to move. */
        const int8_t white = g->result == DF_RESULT_WHITE_WINS   ? 1
                             : g->result == DF_RESULT_BLACK_WINS ? -1
                             : g->result == DF_RESULT_DRAW       ? 0
                                                                 : -128;
        const bool flip = s->write->side_to_move && white != -128;
        for (size_t i = s->game_start; i < c->n; i++)
            c->result[i] = flip && !c->turn[i] ? (int8_t)-white : white;
        s->positions += g->plies;
    }
    s->game_start = c->n;
    s->ended = true;
    s->last_game = g->index;
    s->unended_at = g->has_result ? UINT64_MAX : g->end_offset;
    return stopped(s) ? DF_PGN_STOP : DF_PGN_READ;
}
