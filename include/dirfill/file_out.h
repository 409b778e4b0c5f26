/* SPDX-License-Identifier: MIT */
/**
 * @file file_out.h
 * @brief Bytes out: a file written whole or not at all. Every file the library or the program
 *        writes by name (NNUE training data, pictures) is written so.
 *
 * The bytes go to a temporary file beside the one named, `<folder>/.<name>.XXXXXX` (mkstemp),
 * with the mode fopen would give the name (the old file's, or 0666 less the umask), and
 * df_file_out_close renames it over the name once everything is written and on the disk: the
 * name holds the old file or the whole new one, never a part, whatever fails or stops the
 * writing. A symbolic link is followed (the file it names is replaced, the link kept); a hard
 * link to the old file keeps the old file. What is not a regular file (a FIFO, a device: a
 * reader may be waiting on it, and a rename would take it away) and standard output ("-") are
 * written directly.
 *
 * Thread-safety: one file belongs to one thread at a time.
 */
#ifndef DIRFILL_FILE_OUT_H
#define DIRFILL_FILE_OUT_H

#include <stdio.h>

#include "export.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A file being written (opaque). */
typedef struct df_file_out df_file_out;

/** Creates path ("-": standard output) for writing, replacing a file that is there, as above.
 *  Returns DF_OK; DF_ERR_IO when it cannot be made (errno kept); DF_ERR_ARGUMENT. */
DF_API df_status df_file_out_open(df_file_out **out, const char *path);
/** The stream to write to (binary; standard output for "-"). */
DF_API FILE *df_file_out_stream(const df_file_out *f);
/** The temporary file f writes until df_file_out_close renames it (valid until f is closed or
 *  discarded), or NULL when there is none (standard output, a file written directly, f NULL). A
 *  program's signal handler may remove it (unlink is async-signal-safe) before the program
 *  dies of the signal. */
DF_API const char *df_file_out_temp_path(const df_file_out *f);
/** Finishes f and frees it (NULL: DF_OK): flushes, syncs to the disk, closes, and renames the
 *  temporary file over the name. Returns DF_OK, or DF_ERR_IO with errno saying why (a write to
 *  the stream that failed: EIO) and the temporary file removed, the name left as it was. */
DF_API df_status df_file_out_close(df_file_out *f);
/** Gives f up without publishing (NULL: nothing): closes it, removes its temporary file, frees
 *  it; the name is left as it was and errno unchanged. */
DF_API void df_file_out_discard(df_file_out *f);

#ifdef __cplusplus
}
#endif
#endif
