/* SPDX-License-Identifier: MIT */
/* Internal: what the NNUE data readers and writers of each format share (binpack.h). */
#ifndef DF_SRC_NNUE_INTERNAL_H
#define DF_SRC_NNUE_INTERNAL_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "dirfill.h"

/* ---- errors ---- */

/* Fills err (may be NULL) with kind, offset, where and the message. */
void df__nnue_fail(df_nnue_error *err, df_nnue_error_kind kind, uint64_t offset, uint64_t where,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Why an entry cannot be written in any format (NULL: it can): the board is not one
 * df_board_is_valid accepts or not playable, a Chess960 castling right other than king on the e-file
 * and rook in a corner, the move is not legal, the result not -1, 0 or 1. *kind gets the kind. */
const char *df__nnue_unwritable(const df_nnue_entry *e, df_nnue_error_kind *kind);

/* Why a parsed board is no position of the formats (NULL: it is one): the side not to move in
 * check, or more than DF_NNUE_PIECES_MAX pieces. */
const char *df__nnue_position_error(const df_board *b);

/* The board of a reader's position from its parts, as the formats hold positions (standard
 * chess); NULL, or why it is no position: "no white king", "a pawn on the last rank", ... */
const char *df__nnue_board(df_board *out, const df_board_parts *parts);

/* ---- input: a source read through a buffer (input.c) ---- */

/* Bytes the input buffers (a .binpack chunk's payload goes past it, straight into the chunk). */
enum { DF__NNUE_INPUT = 1 << 16 };

typedef struct df__nnue_input {
    df_source *src;
    unsigned char *buf; /* DF__NNUE_INPUT bytes: buf[pos, len) not yet consumed */
    size_t pos, len;
    uint64_t offset; /* the input offset of buf[pos] */
    bool ended;      /* the source said end (or failed) */
    bool failed;     /* the source failed */
} df__nnue_input;

/* Makes up to n (<= DF__NNUE_INPUT) bytes contiguous at in->buf + in->pos; returns how many
 * there are (fewer only at the end of the input). */
size_t df__nnue_peek(df__nnue_input *in, size_t n);
/* Consumes n bytes of those peeked. */
static inline void df__nnue_consume(df__nnue_input *in, size_t n)
{
    in->pos += n;
    in->offset += n;
}
/* Reads up to n bytes into dst (any n); returns how many (fewer only at the end). */
size_t df__nnue_take(df__nnue_input *in, unsigned char *dst, size_t n);
/* Why the source failed, for a message. */
const char *df__nnue_input_error(const df__nnue_input *in);

/* ---- each format's reading state ---- */

/* .binpack: the chunk being decoded and the chain in it. */
typedef struct df__binpack_state {
    unsigned char *chunk; /* the payload read so far: chunk[0, len) */
    size_t len, cap;
    uint32_t claimed;    /* the size field */
    uint64_t index;      /* chunk number, from 0: the next to read when !active */
    uint64_t at;         /* input offset of the chunk's header */
    size_t pos;          /* where the next chain starts in chunk */
    bool active;         /* a chunk is being decoded */
    bool short_reported; /* its short-read error has been said */
    /* the chain: the entry last returned (its position board[cur], the one after its move
     * board[cur ^ 1]: each made where the next item reads it), and where its successor's bits
     * are */
    df_board board[2];
    unsigned cur;
    df_move move;
    int16_t score;
    uint16_t ply;
    int8_t result;
    uint32_t plies_left; /* movetext items still to decode */
    size_t text;         /* the movetext's first byte in chunk */
    uint64_t bit;        /* next bit, from text */
    int16_t last;        /* the score the next delta is added to */
} df__binpack_state;

/* .plain: the line being read. */
enum { DF__PLAIN_LINE_MAX = 512 };

struct df_nnue_reader {
    df_nnue_format format;
    df__nnue_input in;
    uint64_t records;     /* .plain lines / .bin records read */
    bool io_said;         /* the input's read error has been reported */
    bool plain_skip;      /* .plain: a record's error was said, its lines up to e are skipped */
    size_t line_len;      /* .plain: the bytes in line */
    long control;         /* .plain: the index in line of its first control byte, or -1 */
    uint32_t rank, world; /* the share read (df_nnue_reader_set_share): world 1, all of it */
    uint64_t items;       /* .plain, .bin: the entries and record errors met so far */
    df__binpack_state bp;
    struct df__pgn_state *pgn; /* PGN: its reader and queue (pgn.c), made at the first use */
    char line[DF__PLAIN_LINE_MAX];
};

df_nnue_next df__binpack_next(df_nnue_reader *r, df_nnue_entry *out, df_nnue_error *err);
/* .binpack: the chunk being decoded has no entry left (or none is being decoded): the next
 * entry is another chunk's. What a shuffling stream reads as one piece (stream.c). */
bool df__binpack_chunk_over(const df_nnue_reader *r);
/* .binpack: frees the chunk's buffer between chunks (the next chunk takes a new one), so that a
 * stream of many inputs holds one chunk at a time, not one per input. */
void df__binpack_release(df_nnue_reader *r);
df_nnue_next df__plain_next(df_nnue_reader *r, df_nnue_entry *out, df_nnue_error *err);
df_nnue_next df__bin_next(df_nnue_reader *r, df_nnue_entry *out, df_nnue_error *err);
df_nnue_next df__pgn_next(df_nnue_reader *r, df_nnue_entry *out, df_nnue_error *err);
typedef struct df__pgn_state df__pgn_state;
void df__pgn_free(df__pgn_state *s);

/* ---- output ---- */

typedef struct df__nnue_output {
    long (*write)(void *ctx, const char *buf, size_t size);
    void *ctx;
    df_file_out *file; /* what df_nnue_writer_open opened (NULL for a function) */
    bool failed;
    int error; /* errno of the failure, for the close to report */
} df__nnue_output;

/* Hands n bytes to the output; false (and failed) when it fails. The first failure is kept, so
 * a format writes on without checking each call and the writer reports it once. */
static inline bool df__nnue_put(df__nnue_output *out, const void *data, size_t n)
{
    if (out->failed) return false;
    errno = 0;
    if (n && out->write(out->ctx, data, n) != (long)n) {
        out->failed = true;
        out->error = errno ? errno : EIO;
    }
    return !out->failed;
}

/* .binpack: the chunk being filled and the chain at its end. */
typedef struct df__binpack_writer {
    unsigned char *chunk; /* chunk[0, len) */
    size_t len, cap;
    bool started;        /* an entry has been written: last is valid */
    df_nnue_entry last;  /* the previous entry */
    uint16_t plies;      /* the chain's movetext items */
    unsigned char *text; /* the chain's movetext: text[0, text_len), free bits in the last */
    size_t text_len, text_cap;
    unsigned free_bits;
    int16_t last_score;
} df__binpack_writer;

struct df_nnue_writer {
    df_nnue_format format;
    df__nnue_output out;
    uint64_t entries; /* entries given, for errors */
    df__binpack_writer bp;
};

/* Adds e (checked by the caller with df__nnue_unwritable) or finishes; false: err filled. */
df_status df__binpack_write(df_nnue_writer *w, const df_nnue_entry *e, df_nnue_error *err);
df_status df__binpack_finish(df_nnue_writer *w);
df_status df__plain_write(df_nnue_writer *w, const df_nnue_entry *e, df_nnue_error *err);
df_status df__bin_write(df_nnue_writer *w, const df_nnue_entry *e, df_nnue_error *err);
void df__binpack_writer_free(df__binpack_writer *bp);

#endif
