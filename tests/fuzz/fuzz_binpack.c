/* SPDX-License-Identifier: MIT */
/* libFuzzer target: any bytes through the NNUE data readers (binpack.h), in the format and in
 * pieces whose sizes the first byte picks (bits 0-1 and 7 the format, 2-6 the piece size).
 * Nothing may fault or read out of bounds; every entry must hold a valid, playable board with a
 * legal move (none in the formats that store none: bullet's ChessBoard, MarlinFormat, text);
 * every error a kind, a message and a byte inside the input; the same entries and errors however
 * the input is cut. Every entry read must be written back by the writer of its format (all but
 * PGN's) and read again the same. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dft.h"
#include "dirfill.h"

/* Entries kept for the second pass: what a fuzz input of a few kilobytes gives, and more. */
enum { KEEP = 4096 };

typedef struct {
    uint8_t *p;
    size_t len, cap;
} sink;

static long sink_write(void *ctx, const char *buf, size_t n)
{
    sink *s = ctx;
    if (s->len + n > s->cap) {
        s->cap = 2 * (s->len + n);
        uint8_t *grown = realloc(s->p, s->cap);
        if (!grown) return -1;
        s->p = grown;
    }
    memcpy(s->p + s->len, buf, n);
    s->len += n;
    return (long)n;
}

/* Reads all of data: the entries (up to KEEP of them) into out, a digest of all it saw. */
static uint64_t read_all(df_nnue_format f, const uint8_t *data, size_t len, size_t piece,
                         df_nnue_entry *out, size_t *n)
{
    dft_memory s = {data, len, 0, piece, (size_t)DFT_NEVER};
    df_nnue_reader *r = df_nnue_reader_from_function(f, dft_memory_read, &s);
    if (!r) abort();
    uint64_t digest = 0;
    df_nnue_entry e;
    df_nnue_error err;
    df_nnue_next got;
    *n = 0;
    while ((got = df_nnue_read_next(r, &e, &err)) != DF_NNUE_END) {
        if (got == DF_NNUE_ERROR) {
            if (err.kind == DF_NNUE_ERR_NONE || err.offset > len ||
                !memchr(err.message, 0, sizeof err.message))
                abort();
            digest = (digest ^ err.kind ^ err.offset << 8 ^ err.where << 40) * 0x100000001b3u;
            continue;
        }
        const bool moveless =
            f == DF_NNUE_BULLETFORMAT || f == DF_NNUE_MARLINFORMAT || f == DF_NNUE_BULLET_TEXT;
        if (!df_board_is_valid(&e.pos) || !df_board_playable(&e.pos) ||
            (moveless ? e.move != DF_MOVE_NONE : !df_move_is_legal(&e.pos, e.move)) ||
            e.result < -1 || e.result > 1)
            abort();
        digest = (digest ^ e.pos.key ^ (uint64_t)e.move << 32 ^ (uint64_t)(uint16_t)e.score << 48 ^
                  e.ply) *
                 0x100000001b3u;
        if (*n < KEEP) out[(*n)++] = e;
    }
    df_nnue_reader_free(r);
    return digest;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static df_nnue_entry first[KEEP], again[KEEP];
    if (size < 1) return 0;
    const df_nnue_format f = (df_nnue_format)((data[0] & 3) | (data[0] >> 7) << 2);
    const size_t piece = 1 + (data[0] >> 2 & 31);
    data++;
    size--;
    size_t n, m;
    const uint64_t whole = read_all(f, data, size, 0, first, &n);
    if (read_all(f, data, size, piece, again, &m) != whole || m != n) abort();
    if (f == DF_NNUE_PGN) return 0; /* read only */
    /* Written back, read again: the same entries (a .binpack continuation's half-move clock is
     * derived, not stored: not compared), en passant as nnue-pytorch holds it (a stem's square
     * kept as stored, whether a pawn can take there or not). */
    sink out = {0};
    df_nnue_writer *w = df_nnue_writer_to_function(f, sink_write, &out);
    if (!w) abort();
    for (size_t i = 0; i < n; i++) {
        df_nnue_error err;
        if (df_nnue_write(w, &first[i], &err) != DF_OK) abort();
    }
    if (df_nnue_writer_close(w) != DF_OK) abort();
    read_all(f, out.p, out.len, 0, again, &m);
    if (m != n) abort();
    for (size_t i = 0; i < n; i++) {
        const df_nnue_entry *a = &first[i], *b = &again[i];
        if (memcmp(a->pos.color, b->pos.color, sizeof a->pos.color) ||
            memcmp(a->pos.piece, b->pos.piece, sizeof a->pos.piece) || a->pos.stm != b->pos.stm ||
            a->pos.castling != b->pos.castling || df_nnue_entry_ep(a) != df_nnue_entry_ep(b) ||
            a->move != b->move || a->score != b->score || a->ply != b->ply ||
            a->result != b->result)
            abort();
    }
    free(out.p);
    return 0;
}
