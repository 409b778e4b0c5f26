/* SPDX-License-Identifier: MIT */
/* Batches handed from a process to another through shared memory that is reused, so that the
 * hand-over moves no bytes and, after the first batches, maps and touches no fresh page
 * (dirfill.torch's DataLoader workers: a fresh page costs microseconds in a VM).
 *
 * The sending process packs a batch's arrays into a region: a memfd mapped MAP_SHARED, its
 * first 64 bytes a header with a random id and an atomic count of who still uses it (the
 * sender's handle, and one for each time the handle was sent). The receiver maps the region
 * once, through /proc/<sender>/fd/<fd> (a region the sender keeps, when the sender is dumpable)
 * or a duplicate of its fd (otherwise), keeps the mapping for the next batches in it (as many
 * as the sender keeps regions), and takes a lease for each batch: a buffer over the mapping
 * whose release gives the count back (when the last array over it dies). The sender fills a
 * region again only once its count is zero: a batch the receiver keeps is never overwritten.
 *
 * Handles and leases belong to the process that made them: a forked child that inherits them
 * never gives a count back (as it drops them, exits or collects a cycle that holds one), never
 * sends or fills its parent's regions. A region is mapped only once its file is known to be as
 * large as the size sent, and its header is then checked: a wrong (pid, fd) is an error, never
 * a fault. */
#include "_common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

enum { HEADER = 64, KEPT = 8 };
#define MAGIC 0x64667368u /* "dfsh" */

typedef struct {
    uint32_t magic;
    _Atomic uint32_t users;
    uint64_t id;
} header;

/* A region of this process: its mapping, size (header included), fd, and the process that
 * made it (a forked child must not fill its parent's regions). */
typedef struct {
    char *base;
    size_t bytes;
    int fd;
    pid_t pid;
} region;

static header *head(const region *r) { return (header *)r->base; }

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

static bool region_new(region *r, size_t bytes)
{
    r->bytes = (bytes + 65535) & ~(size_t)65535;
    r->fd = memfd_create("dirfill-batch", MFD_CLOEXEC);
    if (r->fd < 0) return false;
    void *p = MAP_FAILED;
    uint64_t id;
    if (ftruncate(r->fd, (off_t)r->bytes) == 0 && getrandom(&id, sizeof id, 0) == sizeof id)
        p = mmap(NULL, r->bytes, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
    if (p == MAP_FAILED) {
        close(r->fd);
        return false;
    }
    r->base = p;
    r->pid = getpid();
    head(r)->magic = MAGIC;
    head(r)->id = id;
    atomic_init(&head(r)->users, 0);
    return true;
}

static void region_free(region *r)
{
    munmap(r->base, r->bytes);
    close(r->fd);
}

/* The regions kept by this process (used with the GIL held). */
static region kept[KEPT];
static int nkept;

/* A region of at least bytes that nobody uses, its count set to one (the caller's): a kept
 * one, or a new one, kept when there is room (or in place of a free one too small). *slot: its
 * place among the kept ones (a receiver's mapping of that place is replaced when the region
 * is), or -1 when it is not kept (freed with its handle: every kept one is in use). False when
 * none could be made. */
static bool region_take(region *out, size_t bytes, int *slot)
{
    if (nkept && kept[0].pid != getpid()) nkept = 0; /* a forked child: its parent's regions */
    int small = -1;
    for (int i = 0; i < nkept; i++) {
        if (atomic_load_explicit(&head(&kept[i])->users, memory_order_acquire) != 0) continue;
        if (kept[i].bytes >= bytes) {
            atomic_store_explicit(&head(&kept[i])->users, 1, memory_order_relaxed);
            *out = kept[i];
            *slot = i;
            return true;
        }
        small = i;
    }
    if (!region_new(out, bytes)) return false;
    atomic_store_explicit(&head(out)->users, 1, memory_order_relaxed);
    *slot = -1;
    if (nkept < KEPT)
        *slot = nkept++;
    else if (small >= 0)
        region_free(&kept[(*slot = small)]); /* the receivers' mappings stay valid */
    if (*slot >= 0) kept[*slot] = *out;
    return true;
}

static void release(header *h) { atomic_fetch_sub_explicit(&h->users, 1, memory_order_release); }

/* ---- the sender's handle ---- */

typedef struct {
    PyObject_HEAD region r;
    int slot; /* its place among the kept regions, -1 when not kept */
} HandleObject;

static void Handle_dealloc(HandleObject *self)
{
    if (self->r.base && self->r.pid == getpid()) {
        release(head(&self->r));
        if (self->slot < 0) region_free(&self->r); /* receivers have mappings of their own */
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* 0, or -1 with RuntimeError in a forked child of the process that packed the handle. */
static int handle_is_ours(const HandleObject *self)
{
    if (self->r.pid == getpid()) return 0;
    PyErr_Format(PyExc_RuntimeError,
                 "a batch region belongs to the process that packed it (%d), not to a forked "
                 "child",
                 (int)self->r.pid);
    return -1;
}

static PyObject *Handle_send(HandleObject *self, PyObject *unused)
{
    (void)unused;
    if (handle_is_ours(self) < 0) return NULL;
    atomic_fetch_add_explicit(&head(&self->r)->users, 1, memory_order_release);
    /* Other processes of the user cannot open the /proc/<pid>/fd of a process that is not
     * dumpable (prctl PR_SET_DUMPABLE 0, a setuid start): its kept regions go as fds too. */
    const bool by_proc = self->slot >= 0 && prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 1;
    return Py_BuildValue("(iiKniO)", (int)self->r.pid, self->r.fd,
                         (unsigned long long)head(&self->r)->id, (Py_ssize_t)self->r.bytes,
                         self->slot, by_proc ? Py_True : Py_False);
}

static PyMethodDef Handle_methods[] = {
    {"send", (PyCFunction)Handle_send, METH_NOARGS,
     "send() -> (pid, fd, id, size, slot, by_proc): counts one more receiver, which must take a "
     "lease of the region's mapping (_shared_open(pid, fd, id, size) when by_proc, else "
     "_shared_map(a duplicate of fd, id, size)) to give the count back when it is done. slot: "
     "the region's place among those the sender keeps (a later region there replaces it), -1 "
     "when it is not kept. RuntimeError in a forked child."},
    {NULL, NULL, 0, NULL}};

/* The region, writable (the arrays over it keep the handle alive); not in a forked child. */
static int Handle_getbuffer(HandleObject *self, Py_buffer *view, int flags)
{
    if (handle_is_ours(self) < 0) return -1;
    return PyBuffer_FillInfo(view, (PyObject *)self, self->r.base, (Py_ssize_t)self->r.bytes, 0,
                             flags);
}

static PyBufferProcs Handle_buffer = {(getbufferproc)Handle_getbuffer, NULL};

static PyTypeObject Handle_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "dirfill._SharedHandle",
    .tp_basicsize = sizeof(HandleObject),
    .tp_dealloc = (destructor)Handle_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_methods = Handle_methods,
    .tp_as_buffer = &Handle_buffer,
};

/* _shared_pack(arrays, room=0) -> (handle, offsets): the arrays' bytes copied into a region,
 * each at a multiple of 64 from the region's start, and room more bytes after them (the last
 * offset: the handle is a writable buffer over the region, for what is computed into it). */
static PyObject *py_shared_pack(PyObject *unused, PyObject *args)
{
    (void)unused;
    PyObject *list;
    Py_ssize_t room = 0;
    if (!PyArg_ParseTuple(args, "O|n", &list, &room)) return NULL;
    if (room < 0) return PyErr_Format(PyExc_ValueError, "room must be 0 or more");
    PyObject *seq = PySequence_Fast(list, "_shared_pack takes a list of arrays");
    if (!seq) return NULL;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *offsets = PyList_New(n + 1);
    size_t at = HEADER;
    for (Py_ssize_t i = 0; offsets && i <= n; i++) {
        PyObject *a = i < n ? PySequence_Fast_GET_ITEM(seq, i) : NULL, *o = NULL;
        if (a && (!PyArray_Check(a) || !PyArray_IS_C_CONTIGUOUS((PyArrayObject *)a)))
            PyErr_SetString(PyExc_TypeError, "_shared_pack takes C-contiguous numpy arrays");
        else
            o = PyLong_FromSize_t(at);
        if (!o) {
            Py_CLEAR(offsets);
            break;
        }
        PyList_SET_ITEM(offsets, i, o);
        at += align64(a ? (size_t)PyArray_NBYTES((PyArrayObject *)a) : (size_t)room);
    }
    HandleObject *h = offsets ? PyObject_New(HandleObject, &Handle_Type) : NULL;
    if (h && !region_take(&h->r, at, &h->slot)) {
        h->r.base = NULL;
        PyErr_SetFromErrno(PyExc_OSError);
        Py_CLEAR(h);
    }
    for (Py_ssize_t i = 0; h && i < n; i++) {
        PyArrayObject *a = (PyArrayObject *)PySequence_Fast_GET_ITEM(seq, i);
        memcpy(h->r.base + PyLong_AsSize_t(PyList_GET_ITEM(offsets, i)), PyArray_DATA(a),
               (size_t)PyArray_NBYTES(a));
    }
    Py_DECREF(seq);
    if (!h) {
        Py_XDECREF(offsets);
        return NULL;
    }
    return Py_BuildValue("(NN)", (PyObject *)h, offsets);
}

/* ---- the receiver's mapping and leases ---- */

typedef struct {
    PyObject_HEAD char *base;
    size_t bytes;
    dev_t dev; /* the region's file: a receiver tells whether its sender still keeps it */
    ino_t ino;
} MappingObject;

static void Mapping_dealloc(MappingObject *self)
{
    munmap(self->base, self->bytes);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A lease: a buffer over a mapping (held) that gives the region's count back when released by
 * the process that took it. */
typedef struct {
    PyObject_HEAD MappingObject *mapping;
    pid_t pid;
} LeaseObject;

static void Lease_dealloc(LeaseObject *self)
{
    /* The sender may fill it again. A forked child's copy of the lease is its parent's: the
     * parent still uses the batch, and gives the count back itself. */
    if (self->pid == getpid()) release((header *)self->mapping->base);
    Py_DECREF(self->mapping);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A view holds the lease (the arrays over it keep it alive). */
static int Lease_getbuffer(LeaseObject *self, Py_buffer *view, int flags)
{
    return PyBuffer_FillInfo(view, (PyObject *)self, self->mapping->base,
                             (Py_ssize_t)self->mapping->bytes, 0, flags);
}

static PyBufferProcs Lease_buffer = {(getbufferproc)Lease_getbuffer, NULL};

static PyTypeObject Lease_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "dirfill._SharedLease",
    .tp_basicsize = sizeof(LeaseObject),
    .tp_dealloc = (destructor)Lease_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_as_buffer = &Lease_buffer,
};

static PyObject *Mapping_lease(MappingObject *self, PyObject *unused)
{
    (void)unused;
    LeaseObject *l = PyObject_New(LeaseObject, &Lease_Type);
    if (!l) return NULL;
    Py_INCREF(self);
    l->mapping = self;
    l->pid = getpid();
    return (PyObject *)l;
}

static PyMethodDef Mapping_methods[] = {
    {"lease", (PyCFunction)Mapping_lease, METH_NOARGS,
     "lease() -> a buffer over the region that gives one count back when released (by this "
     "process: not by a forked child)."},
    {NULL, NULL, 0, NULL}};

static PyObject *Mapping_inode(MappingObject *self, void *unused)
{
    (void)unused;
    return Py_BuildValue("(KK)", (unsigned long long)self->dev, (unsigned long long)self->ino);
}

static PyGetSetDef Mapping_getset[] = {
    {"inode", (getter)Mapping_inode, NULL,
     "(st_dev, st_ino) of the region's file: os.stat of the sender's /proc/<pid>/fd/<fd> gives "
     "the same while the sender keeps the region.",
     NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject Mapping_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "dirfill._SharedMapping",
    .tp_basicsize = sizeof(MappingObject),
    .tp_dealloc = (destructor)Mapping_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_methods = Mapping_methods,
    .tp_getset = Mapping_getset,
};

/* The mapping of fd (closed), checked to be the region id: mapped only once its file is known to
 * be a regular file of at least size bytes (a page of a mapping past the file's end faults when
 * it is read), its header read only then. */
static PyObject *map_region(int fd, unsigned long long id, Py_ssize_t size)
{
    struct stat st;
    int err = size < HEADER ? EINVAL : fstat(fd, &st) != 0 ? errno : 0;
    const bool region = !err && S_ISREG(st.st_mode) && st.st_size >= (off_t)size;
    void *p =
        region ? mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    if (region && p == MAP_FAILED) err = errno;
    close(fd);
    if (err) {
        errno = err;
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    if (!region) {
        if (S_ISREG(st.st_mode))
            PyErr_Format(PyExc_ValueError,
                         "not the dirfill batch region sent: its file (%lld bytes) is smaller "
                         "than the %zd bytes sent",
                         (long long)st.st_size, size);
        else
            PyErr_SetString(PyExc_ValueError,
                            "not the dirfill batch region sent: not a regular file");
        return NULL;
    }
    const header *h = p;
    if (h->magic != MAGIC || h->id != id) {
        munmap(p, (size_t)size);
        PyErr_SetString(PyExc_ValueError, "not the dirfill batch region sent");
        return NULL;
    }
    MappingObject *m = PyObject_New(MappingObject, &Mapping_Type);
    if (!m) {
        munmap(p, (size_t)size);
        return NULL;
    }
    m->base = p;
    m->bytes = (size_t)size;
    m->dev = st.st_dev;
    m->ino = st.st_ino;
    return (PyObject *)m;
}

/* _shared_map(fd, id, size) -> the mapping of the region (fd, a duplicate of the sender's, is
 * closed). */
static PyObject *py_shared_map(PyObject *unused, PyObject *args)
{
    (void)unused;
    int fd;
    unsigned long long id;
    Py_ssize_t size;
    if (!PyArg_ParseTuple(args, "iKn", &fd, &id, &size)) return NULL;
    return map_region(fd, id, size);
}

/* _shared_open(pid, fd, id, size) -> the mapping of the region the sender pid keeps open as
 * fd, opened through /proc. */
static PyObject *py_shared_open(PyObject *unused, PyObject *args)
{
    (void)unused;
    int pid, fd;
    unsigned long long id;
    Py_ssize_t size;
    if (!PyArg_ParseTuple(args, "iiKn", &pid, &fd, &id, &size)) return NULL;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd/%d", pid, fd);
    const int mine = open(path, O_RDWR | O_CLOEXEC);
    if (mine < 0) return PyErr_SetFromErrnoWithFilename(PyExc_OSError, path);
    return map_region(mine, id, size);
}

PyMethodDef dfpy_shm_batches_methods[] = {{"_shared_pack", py_shared_pack, METH_VARARGS, NULL},
                                          {"_shared_map", py_shared_map, METH_VARARGS, NULL},
                                          {"_shared_open", py_shared_open, METH_VARARGS, NULL},
                                          {NULL, NULL, 0, NULL}};

int dfpy_add_shm_batches(PyObject *module)
{
    (void)module;
    return PyType_Ready(&Handle_Type) < 0 || PyType_Ready(&Mapping_Type) < 0 ||
                   PyType_Ready(&Lease_Type) < 0
               ? -1
               : 0;
}
