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

/* Why an entry cannot be written in format (NULL: it can): the board is not one
 * df_board_is_valid accepts or not playable, a Chess960 castling right other than king on the
 * e-file and rook in a corner (but in the formats that hold any, df__nnue_holds_960), the move is
 * not legal, or there is none and the format stores one, the result not -1, 0 or 1. *kind gets
 * the kind. */
const char *df__nnue_unwritable(const df_nnue_entry *e, df_nnue_format format,
                                df_nnue_error_kind *kind);

/* Whether format stores the move played (an entry of the others has DF_MOVE_NONE). */
bool df__nnue_has_moves(df_nnue_format format);
/* Whether format holds castling rights of any king and rook files (MarlinFormat's unmoved
 * rooks), or drops them (ChessBoard), or names them in a FEN (bullet's text): the formats whose
 * writers take a Chess960 castling right. */
bool df__nnue_holds_960(df_nnue_format format);
/* The ply a position's move number and side give, 2 (fullmove - 1) + 1 for Black (a move number
 * 0 read as 1): what the formats that store no ply give an entry. */
static inline uint16_t df__nnue_ply_of(const df_board *b)
{
    const uint32_t fullmove = b->fullmove ? b->fullmove : 1;
    return (uint16_t)(2 * (fullmove - 1) + (b->stm & 1));
}
/* The score seen from the other side: 16 bits, so -32768, which has no negation, stays. */
static inline int16_t df__nnue_flip_score(int16_t score)
{
    return (int16_t)(uint16_t)(0u - (uint16_t)score);
}

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

/* .vf: the game being read. */
typedef struct df__viri_state {
    bool in_game;   /* a start position was read: (move, score) pairs follow */
    bool skipping;  /* the game had an error: its pairs are passed over up to its terminator */
    df_board board; /* the position the next pair's move is played in */
    uint16_t ply;
    int8_t white_result; /* the game's result, White's view */
    uint64_t game;       /* the game being read, or the next (0-based) */
    uint64_t at;         /* the input offset of its start position */
} df__viri_state;

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
    df__viri_state vf;
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
/* The next record of n (<= DF__NNUE_INPUT) bytes of a format of fixed records into rec (input.c):
 * 1; 0 at the end (or at a record a read error cut, which the reader says); -1 for a record the
 * end of the file cuts (err says it). *index and *offset get its number (from 0) and offset. */
int df__nnue_next_record(df_nnue_reader *r, unsigned char *rec, size_t n, uint64_t *index,
                         uint64_t *offset, df_nnue_error *err);
df_nnue_next df__bulletformat_next(df_nnue_reader *r, df_nnue_entry *out, df_nnue_error *err);
df_nnue_next df__marlin_next(df_nnue_reader *r, df_nnue_entry *out, df_nnue_error *err);
df_nnue_next df__viri_next(df_nnue_reader *r, df_nnue_entry *out, df_nnue_error *err);
df_nnue_next df__bullet_text_next(df_nnue_reader *r, df_nnue_entry *out, df_nnue_error *err);
typedef struct df__pgn_state df__pgn_state;
void df__pgn_free(df__pgn_state *s);

/* The next line of a text format into r->line (plain.c): its length (NUL-terminated, CR and
 * surrounding space trimmed), -1 at the end of the input, -2 when it is longer than the buffer
 * (read to its end; its first DF__PLAIN_LINE_MAX - 1 bytes kept, untrimmed). *start gets its
 * input offset, r->records its number (from 1), r->line_len the bytes in r->line, r->control
 * the index there of its first control byte, or -1. */
long df__nnue_next_line(df_nnue_reader *r, uint64_t *start);

/* ---- MarlinFormat's 32 bytes, also viriformat's start positions (marlin.c) ---- */

enum { DF__MARLIN_BYTES = 32 };

/* Why b cannot be a MarlinFormat position (NULL: it can): counters wider than its fields. */
const char *df__marlin_unfit(const df_board *b);
/* The record of b with en-passant square ep (DF_SQUARE_NONE: none), the score and the result
 * (0 Black won, 1 drawn, 2 White won) from White's view. */
void df__marlin_pack(unsigned char out[DF__MARLIN_BYTES], const df_board *b, df_square ep,
                     int16_t white_score, unsigned wdl);
/* The position of a record into *out, its score and result (White's view) into the others; NULL,
 * or why it is no position (*kind: DF_NNUE_ERR_POSITION or _FIELD). */
const char *df__marlin_unpack(df_board *out, int16_t *white_score, unsigned *wdl,
                              const unsigned char rec[DF__MARLIN_BYTES], df_nnue_error_kind *kind);

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
    uint32_t seen_halfmove, seen_fullmove; /* last's clocks as a reader of the chain has them */
} df__binpack_writer;

/* .vf: the game being written. */
typedef struct df__viri_writer {
    bool started;       /* a game is open: its start position and pairs written, no terminator */
    df_nnue_entry last; /* the previous entry */
    df_board seen;      /* last's position as a reader of the output holds it (its counters) */
    uint16_t seen_ply;  /* and its ply */
} df__viri_writer;

struct df_nnue_writer {
    df_nnue_format format;
    df__nnue_output out;
    uint64_t entries; /* entries given, for errors */
    df_nnue_losses losses;
    df__binpack_writer bp;
    df__viri_writer vf;
};

/* Adds e (checked by the caller with df__nnue_unwritable) or finishes; false: err filled. */
df_status df__binpack_write(df_nnue_writer *w, const df_nnue_entry *e, df_nnue_error *err);
df_status df__binpack_finish(df_nnue_writer *w);
df_status df__plain_write(df_nnue_writer *w, const df_nnue_entry *e, df_nnue_error *err);
df_status df__bin_write(df_nnue_writer *w, const df_nnue_entry *e, df_nnue_error *err);
df_status df__bulletformat_write(df_nnue_writer *w, const df_nnue_entry *e, df_nnue_error *err);
df_status df__marlin_write(df_nnue_writer *w, const df_nnue_entry *e, df_nnue_error *err);
df_status df__viri_write(df_nnue_writer *w, const df_nnue_entry *e, df_nnue_error *err);
df_status df__viri_finish(df_nnue_writer *w);
df_status df__bullet_text_write(df_nnue_writer *w, const df_nnue_entry *e, df_nnue_error *err);
void df__binpack_writer_free(df__binpack_writer *bp);

/* Counts an entry written into w's losses: lost, the df_nnue_losses fields it lost, as these
 * bits (entries counts every entry that lost any). */
enum {
    DF__LOST_MOVE = 1,
    DF__LOST_SIDE = 2,
    DF__LOST_CASTLING = 4,
    DF__LOST_EP = 8,
    DF__LOST_HALFMOVE = 16,
    DF__LOST_FULLMOVE = 32,
    DF__LOST_PLY = 64
};
static inline void df__nnue_lost(df_nnue_writer *w, unsigned lost)
{
    df_nnue_losses *l = &w->losses;
    l->entries += lost != 0;
    l->moves += (lost & DF__LOST_MOVE) != 0;
    l->side_to_move += (lost & DF__LOST_SIDE) != 0;
    l->castling += (lost & DF__LOST_CASTLING) != 0;
    l->en_passant += (lost & DF__LOST_EP) != 0;
    l->halfmove += (lost & DF__LOST_HALFMOVE) != 0;
    l->fullmove += (lost & DF__LOST_FULLMOVE) != 0;
    l->ply += (lost & DF__LOST_PLY) != 0;
}

#endif
