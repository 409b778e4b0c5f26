/* SPDX-License-Identifier: MIT */
/**
 * @file source.h
 * @brief Bytes in: a file, standard input, a pipe or FIFO, or a function, decompressed as it is
 *        read when its name ends in .zst or .gz. Every reader of the library (PGN, NNUE
 *        training data) takes its input through one.
 *
 * A stream that ends before its last frame or member, or does not decode, is an error, never
 * a hang or a short success. A read of a pipe, FIFO, socket or terminal waits for what it has
 * and can be interrupted (df_source_set_interrupt).
 *
 * Thread-safety: a source belongs to one thread at a time; sources are independent.
 */
#ifndef DIRFILL_SOURCE_H
#define DIRFILL_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "export.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An input: a file or standard input, decompressed as it is read when its name ends in .zst
 *  (Zstandard) or .gz (gzip). Opaque. */
typedef struct df_source df_source;

/** Opens path ("-": standard input) for reading. Returns DF_OK; DF_ERR_IO when it cannot be
 *  opened (errno kept; a directory: EISDIR); DF_ERR_UNSUPPORTED when it is compressed in a
 *  format this build lacks (built without libzstd or zlib). A pipe, FIFO, socket or terminal
 *  is read as its bytes come (a read gives what is there rather than waiting for all it asked
 *  for); opening a FIFO does not wait for a writer, its first read does. */
DF_API df_status df_source_open(df_source **out, const char *path);
/** An input read through a function: read(ctx, buf, size) fills buf with up to size bytes and
 *  returns how many, 0 at the end, or -1 for an error (plain text: no decompression). For
 *  memory, a Python file object, a range of a file. NULL when out of memory. */
DF_API df_source *df_source_from_function(long (*read)(void *ctx, char *buf, size_t size),
                                          void *ctx);
/** Up to size bytes of the (decompressed) input into buf: the number read, 0 at the end, or -1
 *  for an error: a read error, a corrupt or truncated compressed stream (see
 *  df_source_error). */
DF_API long df_source_read(df_source *s, char *buf, size_t size);
/** The last error of s in words, or NULL. */
DF_API const char *df_source_error(const df_source *s);
/** Makes the reads of s stop once in->requested(in->ctx) returns true (in is copied; NULL:
 *  never), asked on the thread that reads s before each read and, while a pipe, FIFO, socket
 *  or terminal has nothing to read, every 20 ms: a stop request waits that long at most, even
 *  for a writer that never writes. That read and every later one fail (-1,
 *  df_source_error says "interrupted"); a reader of s (df_pgn_read_threaded,
 *  df_pgn_find_cuts, df_nnue_reader_open's) then fails as its read error. */
DF_API void df_source_set_interrupt(df_source *s, const df_interrupt *in);
/** Bytes of the file read so far (compressed bytes for a compressed file). */
DF_API uint64_t df_source_consumed(const df_source *s);
/** Closes s (NULL: nothing). */
DF_API void df_source_close(df_source *s);

#ifdef __cplusplus
}
#endif
#endif
