/* SPDX-License-Identifier: MIT */
/**
 * @file threads.h
 * @brief What `threads = 0` means wherever a call of the library takes a thread count: one
 *        thread per CPU this process may run on.
 */
#ifndef DIRFILL_THREADS_H
#define DIRFILL_THREADS_H

#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The CPUs this process may run on (its affinity mask; at least 1). */
DF_API unsigned df_hardware_threads(void);

#ifdef __cplusplus
}
#endif
#endif
