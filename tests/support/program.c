/* SPDX-License-Identifier: MIT */
/* A program run as a child (program.h). */
#define _GNU_SOURCE
#include "program.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dft.h"

static char *slurp(int fd, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    lseek(fd, 0, SEEK_SET);
    ssize_t r;
    while ((r = read(fd, buf + n, cap - n)) > 0) {
        n += (size_t)r;
        if (n == cap) buf = realloc(buf, (cap *= 2) + 1);
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

int dft_temp_file(void)
{
    char name[] = "/tmp/dirfill-cli-XXXXXX";
    int fd = mkstemp(name);
    assert_true(fd >= 0);
    unlink(name);
    return fd;
}

void dft_write_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(len, fwrite(data, 1, len, f));
    fclose(f);
}

dft_result dft_run_with(const char *program, const char *const *args, const char *in, size_t in_len,
                        const dft_run_setup *setup)
{
    int fin = setup->in_fd >= 0 ? setup->in_fd : dft_temp_file(), fout = dft_temp_file(),
        ferr = dft_temp_file();
    if (in_len) assert_int_equal((ssize_t)in_len, write(fin, in, in_len));
    lseek(fin, 0, SEEK_SET);
    const char *argv[128] = {program};
    int n = 1;
    while (args[n - 1]) {
        assert_true(n < 127);
        argv[n] = args[n - 1], n++;
    }
    argv[n] = NULL;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (setup->in_path) {
            int f = open(setup->in_path, O_RDONLY);
            if (f < 0) _exit(126);
            dup2(f, 0);
        } else {
            dup2(fin, 0);
        }
        if (setup->out_path) {
            int f = open(setup->out_path, O_WRONLY);
            if (f < 0) _exit(126);
            dup2(f, 1);
        } else {
            dup2(fout, 1);
        }
        dup2(ferr, 2);
        if (setup->backend)
            setenv("DIRFILL_BACKEND", setup->backend, 1);
        else
            unsetenv("DIRFILL_BACKEND");
        if (setup->file_size_kb) {
            struct rlimit lim;
            getrlimit(RLIMIT_FSIZE, &lim);
            lim.rlim_cur = (rlim_t)setup->file_size_kb << 10;
            signal(SIGXFSZ, SIG_IGN);
            setrlimit(RLIMIT_FSIZE, &lim);
        }
        if (setup->address_space_mb) {
            const struct rlimit lim = {(rlim_t)setup->address_space_mb << 20,
                                       (rlim_t)setup->address_space_mb << 20};
            setrlimit(RLIMIT_AS, &lim);
        }
        execv(program, (char *const *)argv);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
    dft_result r;
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    r.out = slurp(fout, &r.out_len);
    r.err = slurp(ferr, &r.err_len);
    close(fin);
    close(fout);
    close(ferr);
    return r;
}

dft_result dft_run(const char *program, const char *const *args, const char *in, size_t in_len,
                   const char *backend)
{
    const dft_run_setup setup = {backend, NULL, NULL, 0, -1, 0};
    return dft_run_with(program, args, in, in_len, &setup);
}

void dft_done(dft_result *r)
{
    free(r->out);
    free(r->err);
}
