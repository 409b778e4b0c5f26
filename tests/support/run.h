/* SPDX-License-Identifier: MIT */
/* Test support: the dirfill program (DFT_PROGRAM) run as a child with its standard input,
 * output, error, environment and address space set up, its output and status collected. */
#ifndef DFT_RUN_H
#define DFT_RUN_H

#include <stdbool.h>
#include <stddef.h>

/* What a run gives back. */
typedef struct {
    int status; /* the exit status, or 128 + the signal */
    char *out, *err;
    size_t out_len, err_len;
} result;

/* How a run is set up besides its arguments. */
typedef struct {
    const char *backend;   /* DIRFILL_BACKEND, or NULL: unset */
    const char *in_path;   /* standard input from this file instead of the given bytes */
    const char *out_path;  /* standard output to this file (e.g. /dev/full) */
    long address_space_mb; /* a limit on the child's address space, or 0 */
    int in_fd;             /* standard input from this open file, or -1 */
} run_setup;

/* A temporary file, already unlinked: its descriptor. */
int temp_file(void);
/* Runs the program with args (NULL-terminated, at most 30), stdin bytes and setup. */
result run_with(const char *const *args, const char *in, size_t in_len, const run_setup *setup);
/* Runs the program with args, stdin bytes and DIRFILL_BACKEND (NULL: unset). */
result run(const char *const *args, const char *in, size_t in_len, const char *backend);
/* Frees what a run gave back. */
void done(result *r);
/* Writes len bytes of data to path (created or replaced). */
void write_path(const char *path, const char *data, size_t len);

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

#endif
