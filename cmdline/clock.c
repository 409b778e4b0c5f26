/* SPDX-License-Identifier: MIT */
/* The one clock of the program and the benchmark: monotonic, so a time step of the system
 * clock never shows up in a figure. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "cmdline.h"

double cmd_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
