/* SPDX-License-Identifier: MIT */
/* A reader's thread and its queue of items for a Python iterator (see _queue.h). */
#include "_queue.h"

#include <errno.h>
#include <time.h>
#include <unistd.h>

void dfpy_queue_init(dfpy_queue *q, const char *name, size_t max_ready, void (*drop)(dfpy_item *))
{
    memset(q, 0, sizeof *q);
    pthread_mutex_init(&q->lock, NULL);
    pthread_cond_init(&q->cond, NULL);
    q->name = name;
    q->max_ready = max_ready;
    q->drop = drop;
}

int dfpy_queue_start(dfpy_queue *q, void *(*main)(void *), void *arg)
{
    q->pid = getpid();
    const int e = pthread_create(&q->thread, NULL, main, arg);
    if (e) {
        errno = e;
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
    q->started = true;
    return 0;
}

bool dfpy_queue_forked(const dfpy_queue *q) { return q->started && q->pid != getpid(); }

int dfpy_queue_check(const dfpy_queue *q)
{
    if (!dfpy_queue_forked(q)) return 0;
    PyErr_Format(PyExc_RuntimeError,
                 "this %s iterator was made in process %ld and cannot be used after os.fork() "
                 "(its reading thread is that process's); make a new one in the child",
                 q->name, (long)q->pid);
    return -1;
}

bool dfpy_queue_stopped(const dfpy_queue *q) { return __atomic_load_n(&q->stop, __ATOMIC_RELAXED); }

bool dfpy_queue_put(dfpy_queue *q, dfpy_item *item)
{
    item->next = NULL;
    pthread_mutex_lock(&q->lock);
    while (q->nready >= q->max_ready && !q->stop) pthread_cond_wait(&q->cond, &q->lock);
    const bool stop = q->stop;
    if (!stop) {
        if (q->tail)
            q->tail->next = item;
        else
            q->head = item;
        q->tail = item;
        /* The waiting iterator is woken once the queue is full, not for each item: a wake-up
         * (an interrupt to another CPU) costs the reader more than an item costs the iterator. */
        if (++q->nready >= q->max_ready) pthread_cond_broadcast(&q->cond);
    }
    pthread_mutex_unlock(&q->lock);
    if (stop) q->drop(item);
    return !stop;
}

void dfpy_queue_finish(dfpy_queue *q)
{
    pthread_mutex_lock(&q->lock);
    q->done = true;
    pthread_cond_broadcast(&q->cond);
    pthread_mutex_unlock(&q->lock);
}

static void drop_all(dfpy_queue *q, dfpy_item *items)
{
    for (dfpy_item *next; items; items = next) {
        next = items->next;
        q->drop(items);
    }
}

void dfpy_queue_stop(dfpy_queue *q)
{
    /* A forked child: no reader to stop or join, and the lock may be held for good. */
    if (!q->started || dfpy_queue_forked(q)) return;
    const bool join = !q->stopping;
    q->stopping = true;
    dfpy_item *dropped = NULL;
    Py_BEGIN_ALLOW_THREADS
        pthread_mutex_lock(&q->lock);
        __atomic_store_n(&q->stop, true, __ATOMIC_RELAXED);
        pthread_cond_broadcast(&q->cond);
        if (join) {
            pthread_mutex_unlock(&q->lock);
            pthread_join(q->thread, NULL);
            pthread_mutex_lock(&q->lock); /* another thread may be taking an item */
            dropped = q->head;
            q->head = q->tail = NULL;
            q->nready = 0;
            q->joined = true;
            pthread_cond_broadcast(&q->cond);
        }
        while (!q->joined) pthread_cond_wait(&q->cond, &q->lock);
        pthread_mutex_unlock(&q->lock);
        drop_all(q, dropped);
    Py_END_ALLOW_THREADS
}

dfpy_item *dfpy_queue_take(dfpy_queue *q)
{
    if (dfpy_queue_check(q) < 0 || !q->started) return NULL;
    for (;;) {
        dfpy_item *item = NULL;
        bool done;
        Py_BEGIN_ALLOW_THREADS
            pthread_mutex_lock(&q->lock);
            if (!q->head && !q->done) {
                struct timespec until;
                clock_gettime(CLOCK_REALTIME, &until);
                until.tv_nsec += 20 * 1000 * 1000;
                if (until.tv_nsec >= 1000000000L) {
                    until.tv_sec++;
                    until.tv_nsec -= 1000000000L;
                }
                pthread_cond_timedwait(&q->cond, &q->lock, &until);
            }
            if ((item = q->head)) {
                q->head = item->next;
                if (!q->head) q->tail = NULL;
                /* The reader waiting for room, likewise, once the queue is empty. */
                if (--q->nready == 0) pthread_cond_broadcast(&q->cond);
            }
            done = q->done;
            pthread_mutex_unlock(&q->lock);
        Py_END_ALLOW_THREADS
        if (item) return item;
        if (done) {
            dfpy_queue_stop(q);
            return NULL;
        }
        if (PyErr_CheckSignals() < 0) {
            dfpy_queue_stop(q); /* Ctrl-C: the reader stops, the items read are dropped */
            return NULL;
        }
    }
}

void dfpy_queue_destroy(dfpy_queue *q)
{
    /* A forked child: the items, the lock and the condition are left as the fork made them
     * (the list may be half changed, the lock held); a child that drops its parent's iterators
     * leaks their memory rather than wait for ever. */
    if (dfpy_queue_forked(q)) return;
    drop_all(q, q->head);
    q->head = q->tail = NULL;
    pthread_mutex_destroy(&q->lock);
    pthread_cond_destroy(&q->cond);
}
