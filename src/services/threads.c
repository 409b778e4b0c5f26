/* SPDX-License-Identifier: MIT */
/* The thread count rule and the fork-join loop (services/threads.h), and df_hardware_threads
 * (threads.h). The loop starts its threads per call: a batch call carries thousands of
 * positions, against which a thread's start is small, and nothing is left running between
 * calls (a process that forks after one finds no thread of the library's). */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <unistd.h>

#include "dirfill/threads.h"
#include "services/threads.h"

unsigned df_hardware_threads(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

unsigned df__threads_resolve(unsigned requested)
{
    const unsigned t = requested ? requested : df_hardware_threads();
    return t < DF__THREADS_MAX ? t : DF__THREADS_MAX;
}

typedef struct df__share {
    df__share_fn fn;
    void *ctx;
    size_t begin, end, count;
} df__share;

static void *df__run_share(void *arg)
{
    df__share *s = arg;
    s->count = s->fn(s->ctx, s->begin, s->end);
    return NULL;
}

size_t df__parallel_for(size_t n, size_t grain, unsigned threads, df__share_fn fn, void *ctx)
{
    if (n == 0) return 0;
    if (grain == 0) grain = 1;
    unsigned t = df__threads_resolve(threads);
    if ((size_t)t > (n + grain - 1) / grain) t = (unsigned)((n + grain - 1) / grain);
    df__share shares[DF__THREADS_MAX];
    pthread_t tid[DF__THREADS_MAX];
    bool started[DF__THREADS_MAX];
    for (unsigned i = 0; i < t; i++) {
        shares[i] = (df__share){fn, ctx, n * i / t, n * (i + 1) / t, 0};
        started[i] = i > 0 && pthread_create(&tid[i], NULL, df__run_share, &shares[i]) == 0;
    }
    df__run_share(&shares[0]);
    size_t count = shares[0].count;
    for (unsigned i = 1; i < t; i++) {
        if (started[i])
            pthread_join(tid[i], NULL);
        else
            df__run_share(&shares[i]);
        count += shares[i].count;
    }
    return count;
}
