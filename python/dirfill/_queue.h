/* SPDX-License-Identifier: MIT */
/* A reader on a thread of the extension's own handing items to a Python iterator through a
 * queue of at most max_ready items: the reader waits when the iterator does not keep up (memory
 * bounded), the iterator waits without the GIL and runs the signal handlers every 20 ms (Ctrl-C
 * stops the reader), and stopping (close, Ctrl-C, the iterator dropped) joins the reader once,
 * from any thread, the items not taken dropped.
 *
 * The reader's thread is its process's: a child of os.fork() has none, and the queue's lock
 * may have been held by it or by another thread of the parent when the child was made. So in
 * a forked child stopping and destroying wait for nothing and take no lock (what the queue
 * holds stays allocated there: leaked, as the reader's own state, which a forked child never
 * frees), and taking an item is a RuntimeError that says to make a new iterator. */
#ifndef DFPY_QUEUE_H
#define DFPY_QUEUE_H

#include "_common.h"

#include <pthread.h>
#include <sys/types.h>

/* An item: a struct whose first member this is. */
typedef struct dfpy_item {
    struct dfpy_item *next;
} dfpy_item;

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    dfpy_item *head, *tail;
    size_t nready, max_ready;
    bool stop;     /* (atomic) the reader must stop: it stops at its next put or stop check */
    bool done;     /* (under lock) the reader has finished */
    bool started;  /* the reader's thread runs */
    bool stopping; /* (with the GIL) a thread stops the reader */
    bool joined;   /* (under lock) the reader's thread is joined, its queue emptied */
    pthread_t thread;
    pid_t pid;                 /* the process whose thread the reader is */
    const char *name;          /* the iterator's, for errors: "nnue_batches" */
    void (*drop)(dfpy_item *); /* frees an item not taken */
} dfpy_queue;

/* max_ready 1 or more before the reader puts an item (a run that puts none, pgn_positions',
 * may leave it 0); name the Python call that makes the iterator (a static string). */
void dfpy_queue_init(dfpy_queue *q, const char *name, size_t max_ready, void (*drop)(dfpy_item *));
/* Starts the reader, main(arg), which ends with dfpy_queue_finish: 0, or -1 with OSError. */
int dfpy_queue_start(dfpy_queue *q, void *(*main)(void *), void *arg);
/* The reader: queues item, waiting while the queue is full; false (the item dropped) when the
 * run must stop. */
bool dfpy_queue_put(dfpy_queue *q, dfpy_item *item);
/* The reader: whether it must stop (the sources ask it before each read). */
bool dfpy_queue_stopped(const dfpy_queue *q);
/* The reader, at its end. */
void dfpy_queue_finish(dfpy_queue *q);
/* Whether this process is a forked child of the one whose thread the reader is (a reader never
 * started: false). */
bool dfpy_queue_forked(const dfpy_queue *q);
/* With the GIL, before the iterator uses the queue or what its reader shares under its lock: 0,
 * or -1 with RuntimeError in a forked child. */
int dfpy_queue_check(const dfpy_queue *q);
/* The iterator (with the GIL): the next item; NULL when the reader has finished and every item
 * is taken (no exception), or NULL with KeyboardInterrupt (or a signal handler's exception),
 * the reader then stopped, or with RuntimeError in a forked child (dfpy_queue_check). */
dfpy_item *dfpy_queue_take(dfpy_queue *q);
/* Stops the reader and waits for its thread, from any thread, any number of times (with the
 * GIL, given up meanwhile). Nothing in a forked child. */
void dfpy_queue_stop(dfpy_queue *q);
/* After the reader is stopped (with the GIL): frees what is left (in a forked child, nothing). */
void dfpy_queue_destroy(dfpy_queue *q);

#endif
