/* SPDX-License-Identifier: MIT */
/* Test support: a program run as a child with arguments, standard input and environment, its
 * exit status and both outputs kept (the tests of the dirfill program). */
#ifndef DFT_PROGRAM_H
#define DFT_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    int status; /* the exit status, or 128 + the signal */
    char *out, *err;
    size_t out_len, err_len;
} dft_result;

/* How a run is set up besides its arguments. */
typedef struct {
    const char *backend;   /* DIRFILL_BACKEND, or NULL: unset */
    const char *in_path;   /* standard input from this file instead of the given bytes */
    const char *out_path;  /* standard output to this file (e.g. /dev/full) */
    long address_space_mb; /* a limit on the child's address space, or 0 */
    int in_fd;             /* standard input from this open file, or -1 */
    long file_size_kb;     /* a limit on the size of the files the child writes (a write past it
                              fails, EFBIG: SIGXFSZ is ignored), or 0 */
} dft_run_setup;

/* A NULL-terminated argument list. */
#define DFT_ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Runs program with args (NULL-terminated, without the program), in[0, in_len) as standard
 * input unless setup says otherwise. */
dft_result dft_run_with(const char *program, const char *const *args, const char *in, size_t in_len,
                        const dft_run_setup *setup);
/* dft_run_with with DIRFILL_BACKEND backend (NULL: unset) and nothing else set up. */
dft_result dft_run(const char *program, const char *const *args, const char *in, size_t in_len,
                   const char *backend);
void dft_done(dft_result *r);
/* A temporary file, already unlinked: its descriptor. */
int dft_temp_file(void);
/* Writes data[0, len) to path (created or truncated). */
void dft_write_file(const char *path, const char *data, size_t len);

#endif
