/* SPDX-License-Identifier: MIT */
/* The .bin form: 40-byte PackedSfenValue records (a 256-bit Huffman-coded position, the score,
 * Stockfish's 16-bit move, the ply, the result, a pad byte), read and written one at a time. A
 * bad record is one error naming it; reading goes on at the next. */
#include <string.h>

#include "nnue/internal.h"

enum { RECORD = 40, SFEN_BITS = 256 };

/* The Huffman codes of pawn to queen, as 4-bit values read least significant bit first; an
 * empty square is a single 0 bit, and a piece's code is followed by its colour bit. */
static const unsigned char piece_code[DF_KING] = {1, 3, 5, 7, 9};

typedef struct {
    unsigned char *p;
    unsigned bit;
} sfen_bits;

/* n bits, least significant first; false past the 256th. */
static bool get(sfen_bits *s, unsigned n, unsigned *out)
{
    if (s->bit + n > SFEN_BITS) return false;
    unsigned v = 0;
    for (unsigned i = 0; i < n; i++, s->bit++)
        v |= (unsigned)(s->p[s->bit >> 3] >> (s->bit & 7) & 1) << i;
    *out = v;
    return true;
}

static void put(sfen_bits *s, unsigned v, unsigned n)
{
    for (unsigned i = 0; i < n; i++, s->bit++)
        s->p[s->bit >> 3] |= (unsigned char)((v >> i & 1) << (s->bit & 7));
}

/* Stockfish's move is df_move with from and to swapped: to in bits 0-5, from in 6-11. */
static uint16_t swap_squares(uint16_t m)
{
    return (uint16_t)((m & 0xf000) | (m & 63) << 6 | (m >> 6 & 63));
}

static uint16_t le16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }

/* The position of a record; NULL or why not. */
static const char *read_sfen(df_board *out, unsigned char *data)
{
    sfen_bits s = {data, 0};
    df_board_parts parts;
    memset(&parts, 0, sizeof parts);
    unsigned stm, king[2], v;
    get(&s, 1, &stm);
    get(&s, 6, &king[0]);
    get(&s, 6, &king[1]);
    if (king[0] == king[1]) return "both kings on one square";
    parts.stm = (df_color)stm;
    parts.pieces[df_piece_index(DF_WHITE, DF_KING)] = df_square_bb((df_square)king[0]);
    parts.pieces[df_piece_index(DF_BLACK, DF_KING)] = df_square_bb((df_square)king[1]);
    for (int rank = 7; rank >= 0; rank--)
        for (int file = 0; file < 8; file++) {
            const df_square sq = df_make_square(file, rank);
            if (sq == (df_square)king[0] || sq == (df_square)king[1]) continue;
            if (!get(&s, 1, &v)) return "the board runs past the 256 bits";
            if (!v) continue;
            unsigned rest, color;
            if (!get(&s, 3, &rest) || !get(&s, 1, &color))
                return "the board runs past the 256 bits";
            const unsigned code = 1 | rest << 1;
            int t = 0;
            while (t < DF_KING && piece_code[t] != code) t++;
            if (t == DF_KING) return "a piece code that is no piece";
            parts.pieces[df_piece_index((df_color)color, (df_piece_type)t)] |= df_square_bb(sq);
        }
    unsigned rights, has_ep, ep = 0, rule50, low, high, top;
    if (!get(&s, 4, &rights) || !get(&s, 1, &has_ep) || (has_ep && !get(&s, 6, &ep)) ||
        !get(&s, 6, &rule50) || !get(&s, 8, &low) || !get(&s, 8, &high) || !get(&s, 1, &top))
        return "the counters run past the 256 bits";
    static const df_square rooks[DF_CASTLE_RIGHTS] = {DF_H1, DF_A1, DF_H8, DF_A8};
    for (int r = 0; r < DF_CASTLE_RIGHTS; r++)
        if (rights >> r & 1) parts.castling_rooks |= df_square_bb(rooks[r]);
    parts.halfmove = rule50 | top << 6;
    parts.fullmove = low | high << 8;
    parts.ep = -1;
    const char *why = df__nnue_board(out, &parts);
    if (why || !has_ep) return why;
    /* Their reader keeps the square only where nnue-pytorch's rule does, silently. */
    df_board with = *out;
    with.ep = (uint8_t)ep;
    if (df_nnue_ep_square(&with) != (df_square)ep) return NULL;
    parts.ep = (int)ep;
    return df__nnue_board(out, &parts);
}

df_nnue_next df__bin_next(df_nnue_reader *r, df_nnue_entry *out, df_nnue_error *err)
{
    df__nnue_input *in = &r->in;
    const size_t got = df__nnue_peek(in, RECORD);
    /* A record cut by a read error is no fault of the file: read_any says the error. */
    if (!got || (got < RECORD && in->failed)) return DF_NNUE_END;
    const unsigned long long index = r->records++, offset = in->offset;
    if (got < RECORD) {
        df__nnue_consume(in, got);
        df__nnue_fail(err, DF_NNUE_ERR_TRUNCATED, offset, index,
                      "record %llu at byte %llu: the file ends inside it (%zu of 40 bytes)", index,
                      offset, got);
        return DF_NNUE_ERROR;
    }
    unsigned char rec[RECORD];
    memcpy(rec, in->buf + in->pos, RECORD);
    df__nnue_consume(in, RECORD);
    const char *why = read_sfen(&out->pos, rec);
    if (why) {
        df__nnue_fail(err, DF_NNUE_ERR_POSITION, offset, index, "record %llu at byte %llu: %s",
                      index, offset, why);
        return DF_NNUE_ERROR;
    }
    const int result = (signed char)rec[38];
    if (result < -1 || result > 1) {
        df__nnue_fail(err, DF_NNUE_ERR_FIELD, offset, index,
                      "record %llu at byte %llu: result %d (only -1, 0, 1 are results)", index,
                      offset, result);
        return DF_NNUE_ERROR;
    }
    out->score = (int16_t)le16(rec + 32);
    out->move = swap_squares(le16(rec + 34));
    out->ply = le16(rec + 36);
    out->result = (int8_t)result;
    out->ep_as_stored = 0; /* the square was put through nnue-pytorch's rule (read_sfen) */
    if (!df_move_is_legal(&out->pos, out->move)) {
        char fen[DF_FEN_MAX], uci[DF_UCI_MAX];
        df_nnue_fen(fen, sizeof fen, &out->pos);
        df_move_to_uci(uci, &out->pos, out->move);
        df__nnue_fail(err, DF_NNUE_ERR_ILLEGAL, offset, index,
                      "record %llu at byte %llu: move %s (0x%04x) is not legal in %s", index,
                      offset, uci, le16(rec + 34), fen);
        return DF_NNUE_ERROR;
    }
    return DF_NNUE_ENTRY;
}

df_status df__bin_write(df_nnue_writer *w, const df_nnue_entry *e, df_nnue_error *err)
{
    const df_board *b = &e->pos;
    const df_bb kings = b->piece[DF_KING], others = df_board_occupied(b) & ~kings;
    /* side, kings, a bit per empty square and five per piece, castling, en passant, counters */
    const int ep = df_nnue_entry_ep(e);
    const int bits = 1 + 12 + (62 - df_popcount(others)) + 5 * df_popcount(others) + 4 + 1 +
                     (ep < 64 ? 6 : 0) + 6 + 16 + 1;
    const char *why = bits > SFEN_BITS       ? "more pieces than the 256 bits of a .bin hold"
                      : b->halfmove > 127    ? "a half-move clock over 127 (.bin keeps 7 bits)"
                      : b->fullmove > 0xffff ? "a move number over 65535 (.bin keeps 16 bits)"
                                             : NULL;
    if (why) {
        df__nnue_fail(err, DF_NNUE_ERR_UNENCODABLE, 0, 0, "%s", why);
        return DF_ERR_BOARD;
    }
    unsigned char rec[RECORD];
    memset(rec, 0, sizeof rec);
    sfen_bits s = {rec, 0};
    put(&s, b->stm, 1);
    put(&s, df_board_king(b, DF_WHITE), 6);
    put(&s, df_board_king(b, DF_BLACK), 6);
    for (int rank = 7; rank >= 0; rank--)
        for (int file = 0; file < 8; file++) {
            const df_square sq = df_make_square(file, rank);
            const df_piece_type t = df_board_type_at(b, sq);
            if (t == DF_KING) continue;
            if (t == DF_PIECE_TYPES) {
                put(&s, 0, 1);
                continue;
            }
            put(&s, piece_code[t], 4);
            put(&s, df_has(b->color[DF_BLACK], sq), 1);
        }
    static const unsigned order[DF_CASTLE_RIGHTS] = {DF_CASTLE_WK, DF_CASTLE_WQ, DF_CASTLE_BK,
                                                     DF_CASTLE_BQ};
    for (int r = 0; r < DF_CASTLE_RIGHTS; r++) put(&s, (b->castling & order[r]) != 0, 1);
    put(&s, ep < 64, 1);
    if (ep < 64) put(&s, (unsigned)ep, 6);
    put(&s, b->halfmove & 63, 6);
    put(&s, b->fullmove & 0xff, 8);
    put(&s, b->fullmove >> 8 & 0xff, 8);
    put(&s, b->halfmove >> 6 & 1, 1);
    const uint16_t words[3] = {(uint16_t)e->score, swap_squares(e->move), e->ply};
    for (int i = 0; i < 3; i++) {
        rec[32 + 2 * i] = (unsigned char)words[i];
        rec[33 + 2 * i] = (unsigned char)(words[i] >> 8);
    }
    rec[38] = (unsigned char)e->result;
    rec[39] = 0xff; /* the pad byte as nnue-pytorch's encoder writes it */
    if (df__nnue_put(&w->out, rec, sizeof rec)) return DF_OK;
    df__nnue_fail(err, DF_NNUE_ERR_IO, 0, w->entries - 1, "the output could not be written");
    return DF_ERR_IO;
}
