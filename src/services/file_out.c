/* SPDX-License-Identifier: MIT */
/* Bytes out (file_out.h): a file written under a temporary name beside it and renamed over it
 * at the close, so that its name holds the old file or the whole new one, never a part. */
#define _XOPEN_SOURCE 700 /* fdopen, fileno, fchmod, fsync, lstat, mkstemp, realpath, strdup */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dirfill/file_out.h"

struct df_file_out {
    FILE *file;
    char *temp; /* the file being written, renamed to path at the close; NULL: written in place */
    char *path;
};

/* The process's umask. Linux says it in /proc without changing it; umask(2) reads it only by
 * setting it, and a file another thread created meanwhile would get the wrong mode. */
static mode_t current_umask(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    unsigned mask;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "Umask: %o", &mask) == 1) {
            fclose(f);
            return (mode_t)mask & 0777;
        }
    if (f) fclose(f);
    const mode_t mask_now = umask(022);
    umask(mask_now);
    return mask_now;
}

/* The file a temporary file replaces at the close: path, or the file a symbolic link names
 * (fopen writes through it), in new memory. NULL with errno 0 when path is written directly:
 * what is not a regular file and a link that names no file (fopen creates it; a link into /proc
 * of a descriptor whose file is gone says so too); NULL with errno ENOMEM. */
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

/* A temporary file beside final, <folder>/.<name>.XXXXXX, with the mode fopen would give final;
 * o->temp and o->path (final, taken) are set. NULL with errno when it cannot be made (final
 * then freed). */
static FILE *open_temp(df_file_out *o, char *final)
{
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
    struct stat st;
    const mode_t mode = stat(final, &st) == 0 ? st.st_mode & 0777 : 0666 & ~current_umask();
    const int fd = mkstemp(temp);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (f) {
        /* mkstemp makes it 0600. A file system without modes (FAT) refuses, as it refuses
         * fopen's: the file is written all the same. */
        (void)fchmod(fd, mode);
        o->temp = temp;
        o->path = final;
        return f;
    }
    const int why = errno;
    if (fd >= 0) {
        close(fd);
        unlink(temp);
    }
    free(temp);
    free(final);
    errno = why;
    return NULL;
}

df_status df_file_out_open(df_file_out **out, const char *path)
{
    if (!out || !path) return DF_ERR_ARGUMENT;
    *out = NULL;
    df_file_out *o = calloc(1, sizeof *o);
    if (!o) {
        errno = ENOMEM;
        return DF_ERR_IO;
    }
    if (!strcmp(path, "-")) {
        o->file = stdout;
    } else {
        char *final = replaced_file(path);
        o->file = final ? open_temp(o, final) : errno ? NULL : fopen(path, "wb");
    }
    if (!o->file) {
        const int why = errno;
        free(o);
        errno = why;
        return DF_ERR_IO;
    }
    *out = o;
    return DF_OK;
}

FILE *df_file_out_stream(const df_file_out *f) { return f ? f->file : NULL; }

const char *df_file_out_temp_path(const df_file_out *f) { return f ? f->temp : NULL; }

static void file_out_free(df_file_out *f)
{
    free(f->temp);
    free(f->path);
    free(f);
}

df_status df_file_out_close(df_file_out *f)
{
    if (!f) return DF_OK;
    bool bad = ferror(f->file);
    int why = EIO;
    if (!bad && fflush(f->file) != 0) {
        bad = true;
        why = errno;
    }
    /* The data on the disk before the new name points at it: a system that stops (power, a
     * crash) soon after the rename otherwise may leave the name on an empty or partial file,
     * the very thing the temporary file is for. It costs waiting once for the writing the
     * kernel does anyway. A file system that cannot sync (some FUSE ones) has the data as
     * well as it can. */
    if (f->temp && !bad && fsync(fileno(f->file)) != 0 && errno != EINVAL && errno != ENOSYS) {
        bad = true;
        why = errno;
    }
    if (f->file != stdout && fclose(f->file) != 0 && !bad) {
        bad = true;
        why = errno;
    }
    if (f->temp) {
        if (!bad && rename(f->temp, f->path) != 0) {
            bad = true;
            why = errno;
        }
        if (bad) unlink(f->temp);
    }
    file_out_free(f);
    if (!bad) return DF_OK;
    errno = why;
    return DF_ERR_IO;
}

void df_file_out_discard(df_file_out *f)
{
    if (!f) return;
    const int why = errno;
    if (f->file != stdout) fclose(f->file);
    if (f->temp) unlink(f->temp);
    file_out_free(f);
    errno = why;
}
