/* SPDX-License-Identifier: MIT */
/**
 * @file nnue_stream.h
 * @brief The entries a trainer takes from many NNUE training data inputs: each input's share,
 *        nnue-pytorch's skip predicate, and optionally its shuffle (a buffer of entries handed
 *        out in random order, pieces of the inputs picked at random) and its cyclic reading.
 *
 * A stream reads its inputs (each a df_nnue_reader: a path with its format, or a reader the
 * caller's open hook makes) and hands out the kept entries one at a time:
 * - each input is read as the share (rank, world) df_nnue_reader_set_share makes, and a PGN
 *   input with the stream's PGN options (df_nnue_reader_set_pgn);
 * - the skip predicate (nnue_skip.h), when given, is asked of every entry in the order the
 *   stream reads them, seeded with the stream's seed;
 * - shuffle 0: the inputs are read one after the other, each in its order: the entries, the
 *   errors and the predicate's draws are those of reading the inputs in turn with readers;
 * - shuffle N > 0: what nnue-pytorch's loader does. The stream reads a piece of an input at a
 *   time, the input picked at random weighted by the bytes left of it (equal weights when some
 *   input's size is not known), a piece being a `.binpack` chunk (all its entries of the share)
 *   or, in the other formats, the entries of DF_NNUE_STREAM_PIECE bytes of the input; kept
 *   entries fill a buffer of N; a full buffer is shuffled (Fisher-Yates) and handed out, then
 *   the next is filled; at the end of the inputs the partial buffer is shuffled and handed
 *   out. Memory is N entries (df_nnue_stream_counts says how many are held), not the input;
 * - cyclic: an input that ends is opened again and read from its start (its share again),
 *   without end; the predicate's draws go on. An input whose pass gave no entry, or ended in a
 *   read error (DF_NNUE_ERR_IO), is not opened again: a stream whose inputs are all so ends;
 * - an error (a bad chunk, record or game, an input that cannot be opened) is handed out when
 *   it is met, in reading order, with the index of its input; reading goes on after it.
 *
 * Randomness: the predicate draws from an mt19937_64 seeded with the seed (as nnue_skip.h
 * says); the picks and the shuffles from a second mt19937_64 seeded with SplitMix64's first
 * output for the seed (x = seed + 0x9e3779b97f4a7c15; x = (x ^ x >> 30) * 0xbf58476d1ce4e5b9;
 * x = (x ^ x >> 27) * 0x94d049bb133111eb; x ^ x >> 31), so the two streams differ. A number
 * below m is drawn by Lemire's multiply-and-reject (the high half of a draw times m, drawn
 * again when the low half falls in the biased part). A pick draws one below the total of the
 * weights and takes the input whose weight holds it (the inputs left, in input order); a
 * buffer of n entries is shuffled by, for i from n - 1 down to 1, swapping entries i and j,
 * j drawn below i + 1, and handed out from the first. So the same inputs,
 * options and seed give the same entries in the same order, whatever computes their features
 * afterwards, and a pass of a stream that is not cyclic gives every kept entry exactly once.
 *
 * Thread-safety: a stream belongs to one thread at a time; its hooks run on that thread.
 */
#ifndef DIRFILL_NNUE_STREAM_H
#define DIRFILL_NNUE_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "binpack.h"
#include "export.h"
#include "nnue_skip.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The bytes of a `.plain`, `.bin` or PGN input a shuffling stream reads as one piece before it
 *  picks an input again (1 MiB: what a `.binpack` chunk holds as nnue-pytorch's writer makes
 *  them, so every format's piece is about one chunk's worth of input). */
#define DF_NNUE_STREAM_PIECE (1u << 20)
/** The largest shuffle buffer, in entries (entries are numbered by 32 bits in it). */
#define DF_NNUE_STREAM_SHUFFLE_MAX UINT32_MAX

/** One input of a stream. */
typedef struct df_nnue_stream_input {
    const char *path;      /**< opened with df_nnue_reader_open, or NULL: the open hook's */
    df_nnue_format format; /**< the path's format (the open hook's reader has its own) */
    uint64_t size;         /**< the input's bytes as its source reads them (a compressed file's
                                compressed size), for the picks; 0: not known, or for a path
                                that is a regular file, its size */
} df_nnue_stream_input;

/** How a stream reads. Zero it (`= {0}`) and set what is wanted: that is no shuffle, not
 *  cyclic, the whole of each input, nothing skipped, seed 0, PGN's defaults. */
typedef struct df_nnue_stream_options {
    size_t shuffle;                   /**< entries shuffled together; 0: the inputs' order */
    bool cyclic;                      /**< read the inputs again and again (see the file) */
    uint32_t rank;                    /**< the share of each input read: rank of world ... */
    uint32_t world;                   /**< ... (0 or 1: the whole input) */
    const df_nnue_skip_options *skip; /**< nnue-pytorch's skip options, or NULL: keep all */
    uint64_t seed;                    /**< the predicate's, the picks' and the shuffles' seed */
    df_nnue_pgn_options pgn;          /**< how PGN inputs make entries */
    /** Makes a reader of input k from its start (each time the stream opens it: once per
     *  pass), or returns NULL when it cannot (the hook says why to its caller: the stream
     *  gives no error for it, and does not open that input again). NULL: the stream opens the
     *  input's path itself (one that cannot be opened is an error of the input, DF_NNUE_ERR_IO
     *  at offset 0, saying why). */
    df_nnue_reader *(*open)(void *ctx, size_t k);
    /** Takes input k's reader r when the stream is done with it: whole is true when r was read
     *  to its end, false when the stream is freed before. The hook frees r (after what it
     *  wants of it: df_nnue_reader_pgn_counts). NULL: the stream frees its readers. */
    void (*close)(void *ctx, size_t k, df_nnue_reader *r, bool whole);
    void *ctx;                     /**< handed to the hooks */
    const df_interrupt *interrupt; /**< asked every few thousand entries read (copied);
                                          NULL: never. A stop ends the stream (DF_NNUE_END) */
} df_nnue_stream_options;

/** A stream of entries over inputs (opaque). */
typedef struct df_nnue_stream df_nnue_stream;

/** A stream over inputs[0, n) (copied; paths are not: they must live as long as the stream)
 *  read as options say. Nothing is opened or read before the first df_nnue_stream_next.
 *  Returns DF_OK; DF_ERR_ARGUMENT for a NULL out or options, inputs NULL with n > 0, an input
 *  without a path when there is no open hook, a path's format out of range, rank >= world,
 *  shuffle over DF_NNUE_STREAM_SHUFFLE_MAX, skip options df_nnue_skip_new refuses; DF_ERR_IO
 *  when out of memory. *out is NULL on an error. */
DF_API df_status df_nnue_stream_new(df_nnue_stream **out, const df_nnue_stream_input *inputs,
                                    size_t n, const df_nnue_stream_options *options);

/** Frees s (NULL: nothing), handing the readers it has open to the close hook (whole false). */
DF_API void df_nnue_stream_free(df_nnue_stream *s);

/** The next kept entry into *out, or the next error into *err (may be NULL), in the stream's
 *  order (see the file); *input (may be NULL) gets the index of the input it comes from.
 *  DF_NNUE_END once every input is read (never, for a cyclic stream with an input that gives
 *  entries), when its interrupt asked it to stop, or for NULL s or out. */
DF_API df_nnue_next df_nnue_stream_next(df_nnue_stream *s, df_nnue_entry *out, df_nnue_error *err,
                                        size_t *input);

/** What a stream has done so far. */
typedef struct df_nnue_stream_counts {
    uint64_t entries; /**< entries read (of the shares), before the skip predicate */
    uint64_t kept;    /**< entries the predicate kept (every one read without it) */
    uint64_t skipped; /**< entries the predicate skipped */
    uint64_t errors;  /**< errors handed out */
    uint64_t opened;  /**< readers opened (an input's once per pass) */
    uint64_t pieces;  /**< pieces read by a shuffling stream (0 in the inputs' order) */
    size_t held;      /**< kept entries in the shuffle buffer, not yet handed out */
    size_t held_peak; /**< the most the buffer has held (never more than shuffle) */
    size_t capacity;  /**< the entries the buffer's memory holds: 0 until the first entry,
                           then shuffle (taken at once, its pages first written as it fills) */
} df_nnue_stream_counts;

/** s's counts into *out (zeros for NULL s). */
DF_API void df_nnue_stream_counts_of(df_nnue_stream_counts *out, const df_nnue_stream *s);

#ifdef __cplusplus
}
#endif
#endif
