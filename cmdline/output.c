/* SPDX-License-Identifier: MIT */
/* Outputs and the inputs they must not destroy: the check that an output is no input, files
 * written under a temporary name and renamed into place, and the interrupt that removes such a
 * temporary file before the program dies of it. */
#define _XOPEN_SOURCE 700 /* fchmod, fsync, lstat, mkstemp, realpath, sigaction, strdup */
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

/* The file path's temporary file replaces, as df_nnue_writer_open decides (binpack.h):
 * path or a symbolic link's file, in new memory; NULL with errno 0 to write path directly (not
 * a regular file, a link to no file), with errno ENOMEM. */
static char *replaced_file(const char *path)
{
    struct stat st;
    errno = 0;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) return NULL;
    if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode)) return strdup(path);
    char *target = realpath(path, NULL);
    if (!target && errno != ENOMEM) errno = 0;
    return target;
}

FILE *cmd_output_open(cmd_output *o, const char *path)
{
    memset(o, 0, sizeof *o);
    char *final = replaced_file(path);
    if (!final) return errno ? NULL : (o->file = fopen(path, "w"));
    char *temp = malloc(strlen(final) + sizeof "..XXXXXX");
    if (!temp) {
        free(final);
        errno = ENOMEM;
        return NULL;
    }
    const char *slash = strrchr(final, '/');
    const size_t folder = slash ? (size_t)(slash + 1 - final) : 0;
    memcpy(temp, final, folder);
    sprintf(temp + folder, ".%s.XXXXXX", final + folder);
    /* The mode fopen would give: the old file's, or 0666 less the umask (read by setting it:
     * the program makes its files from one thread). */
    struct stat st;
    mode_t mode = 0666;
    if (stat(final, &st) == 0) {
        mode = st.st_mode & 0777;
    } else {
        const mode_t mask = umask(022);
        umask(mask);
        mode &= ~mask;
    }
    cmd_interrupts_hold();
    const int fd = mkstemp(temp);
    o->file = fd >= 0 ? fdopen(fd, "w") : NULL;
    const int why = errno;
    if (o->file) {
        /* mkstemp makes it 0600; a file system without modes (FAT) refuses the change, and the
         * file is written all the same, as fopen writes there. */
        (void)fchmod(fd, mode);
        o->temp = temp;
        o->path = final;
    } else {
        if (fd >= 0) {
            close(fd);
            unlink(temp);
        }
        free(temp);
        free(final);
    }
    cmd_temp_guard(o->temp);
    errno = why;
    return o->file;
}

/* fsync, but a file system that cannot (some FUSE ones) has the data as well as it can. */
static bool synced(FILE *f) { return fsync(fileno(f)) == 0 || errno == EINVAL || errno == ENOSYS; }

bool cmd_output_close(cmd_output *o)
{
    /* A write that failed left its reason in errno: nothing since has touched it. */
    bool ok = o->file && !ferror(o->file);
    int why = ok || !errno ? EIO : errno;
    /* On the disk before the name points at it, as df_nnue_writer_close does (binpack.h). */
    if (ok && o->temp && (fflush(o->file) != 0 || !synced(o->file))) {
        ok = false;
        why = errno;
    }
    if (o->file && fclose(o->file) != 0 && ok) {
        ok = false;
        why = errno;
    }
    if (o->temp) {
        if (ok && rename(o->temp, o->path) != 0) {
            ok = false;
            why = errno;
        }
        if (!ok) unlink(o->temp);
        cmd_temp_guard(NULL);
    }
    free(o->temp);
    free(o->path);
    memset(o, 0, sizeof *o);
    if (!ok) errno = why;
    return ok;
}
