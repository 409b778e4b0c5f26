/* SPDX-License-Identifier: MIT */
/* Internal: the library's threads. One rule for what a thread count means (0: one per CPU this
 * process may run on) and one fork-join loop, shared by every batch call that runs on threads
 * (planes, NNUE features) and by the PGN reader's count of workers. */
#ifndef DF_SRC_SERVICES_THREADS_H
#define DF_SRC_SERVICES_THREADS_H

#include <stddef.h>

/* The most threads a call starts: far more than a batch can use, few enough for the stack. */
enum { DF__THREADS_MAX = 256 };

/* The threads a call asked for, made concrete: 0 is df_hardware_threads(); at most
 * DF__THREADS_MAX. */
unsigned df__threads_resolve(unsigned requested);

/* One share of a parallel loop: items [begin, end) of the whole; returns what the share counts
 * (accepted positions, cut rows), summed over the shares by df__parallel_for. */
typedef size_t (*df__share_fn)(void *ctx, size_t begin, size_t end);

/* Runs share over [0, n) cut into contiguous shares, one per thread (threads as
 * df__threads_resolve reads it), none smaller than grain items unless n is: the calling thread
 * takes the first, and a thread that cannot start has its share run by the caller, so the work
 * is always all done. Returns the sum of the shares' counts. */
size_t df__parallel_for(size_t n, size_t grain, unsigned threads, df__share_fn share, void *ctx);

#endif
