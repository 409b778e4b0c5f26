/* SPDX-License-Identifier: MIT */
/* Outputs and the inputs they must not destroy: the check that an output is no input, files
 * written whole (the library's df_file_out), and the interrupt that removes such a file's
 * temporary name before the program dies of it. */
#define _XOPEN_SOURCE 700 /* sigaction */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmdline.h"

/* ---- an output that is an input ---- */

int cmd_check_output(const char *cmd, const char *option, const char *output,
                     const char *const *inputs, size_t n)
{
    /* Only a regular file loses what it holds: a terminal, a pipe or /dev/null as both is no
     * harm. */
    struct stat out;
    if ((option ? stat(output, &out) : fstat(STDOUT_FILENO, &out)) != 0 || !S_ISREG(out.st_mode))
        return 0;
    for (size_t i = 0; i < n; i++) {
        const bool std_in = !strcmp(inputs[i], "-");
        struct stat in;
        if ((std_in ? fstat(STDIN_FILENO, &in) : stat(inputs[i], &in)) != 0) continue;
        if (in.st_dev != out.st_dev || in.st_ino != out.st_ino) continue;
        const char *the = std_in ? "" : "the input ",
                   *input = std_in ? "standard input" : inputs[i];
        if (option)
            return cmd_usage_error(cmd, "%s %s is %s%s (the same file): refusing to overwrite it",
                                   option, output, the, input);
        return cmd_usage_error(
            cmd, "standard output is %s%s (the same file): refusing to write to it", the, input);
    }
    return 0;
}

/* ---- interrupts ---- */

/* The signals that end a program someone stops (Ctrl-C, kill, a closed terminal) or whose
 * file grew past its limit. */
static const int stops[] = {SIGINT, SIGTERM, SIGHUP, SIGXFSZ};

/* The file an interrupt removes, when guarded is set. A copy the handler may read whatever the
 * rest of the program does with the name it came from. */
static char guarded_path[PATH_MAX];
static atomic_int guarded;

static void remove_and_stop(int sig)
{
    if (atomic_load(&guarded)) unlink(guarded_path);
    /* SA_RESETHAND made the action the default again: the program dies of sig as it would
     * have, once this returns. */
    raise(sig);
}

/* The signal mask before cmd_interrupts_hold, which cmd_temp_guard gives back. */
static sigset_t mask_before;
static bool held;

void cmd_interrupts_hold(void)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < sizeof stops / sizeof *stops; i++) sigaddset(&set, stops[i]);
    held = pthread_sigmask(SIG_BLOCK, &set, &mask_before) == 0;
}

void cmd_temp_guard(const char *temp)
{
    static bool installed;
    atomic_store(&guarded, 0);
    if (temp && strlen(temp) < sizeof guarded_path) {
        memcpy(guarded_path, temp, strlen(temp) + 1);
        atomic_store(&guarded, 1);
        for (size_t i = 0; i < sizeof stops / sizeof *stops && !installed; i++) {
            /* A signal ignored from the start (a job started in the background) stays so. */
            struct sigaction was, now;
            if (sigaction(stops[i], NULL, &was) != 0 || was.sa_handler == SIG_IGN) continue;
            memset(&now, 0, sizeof now);
            now.sa_handler = remove_and_stop;
            sigemptyset(&now.sa_mask);
            now.sa_flags = SA_RESETHAND;
            sigaction(stops[i], &now, NULL);
        }
        installed = true;
    }
    if (held) pthread_sigmask(SIG_SETMASK, &mask_before, NULL);
    held = false;
}

/* ---- a file renamed into place ---- */

FILE *cmd_output_open(cmd_output *o, const char *path)
{
    cmd_interrupts_hold();
    const df_status opened = df_file_out_open(&o->file, path);
    const int why = errno;
    cmd_temp_guard(opened == DF_OK ? df_file_out_temp_path(o->file) : NULL);
    errno = why;
    return opened == DF_OK ? df_file_out_stream(o->file) : NULL;
}

bool cmd_output_close(cmd_output *o)
{
    const df_status closed = df_file_out_close(o->file);
    const int why = errno;
    cmd_temp_guard(NULL);
    o->file = NULL;
    errno = why;
    return closed == DF_OK;
}
