/* SPDX-License-Identifier: MIT */
/* The .binpack writer: entries into chains (a continuation when the previous entry's move
 * leads to this position, its ply one more, its result negated) and chains into chunks of at
 * least DF_BINPACK_CHUNK_TARGET bytes, as nnue-pytorch's writer makes them, byte for byte. */
#include <stdlib.h>
#include <string.h>

#include "nnue/binpack_rules.h"

/* Room for n more bytes at *buf[len]. */
static bool reserve(unsigned char **buf, size_t *cap, size_t len, size_t n)
{
    if (len + n <= *cap) return true;
    size_t grown = *cap ? *cap : 256;
    while (grown < len + n) grown *= 2;
    unsigned char *p = realloc(*buf, grown);
    if (!p) return false;
    *buf = p;
    *cap = grown;
    return true;
}

/* n (0-8) bits of value after the movetext's last, most significant first. */
static void put_bits(df__binpack_writer *bp, unsigned value, unsigned n)
{
    if (!n) return;
    if (bp->free_bits == 0) {
        bp->text[bp->text_len++] = (unsigned char)(value << (8 - n));
        bp->free_bits = 8;
    } else if (n <= bp->free_bits) {
        bp->text[bp->text_len - 1] |= (unsigned char)(value << (bp->free_bits - n));
    } else {
        const unsigned spill = n - bp->free_bits;
        bp->text[bp->text_len - 1] |= (unsigned char)(value >> spill);
        bp->text[bp->text_len++] = (unsigned char)(value << (8 - spill));
        bp->free_bits += 8;
    }
    bp->free_bits -= n;
}

static df_bb below(df_square sq) { return df_square_bb(sq) - 1; }

/* One movetext item: e's move and score, in e's position. */
static bool put_item(df__binpack_writer *bp, const df_nnue_entry *e)
{
    /* An item is at most 5 + 5 + 4 * 5 bits. */
    if (!reserve(&bp->text, &bp->text_cap, bp->text_len, 8)) return false;
    const df_board *b = &e->pos;
    const df_color us = df_board_stm(b);
    const df_bb ours = b->color[us];
    const df_square from = df_move_from(e->move), to = df_move_to(e->move);
    const df_piece_type type = df_board_type_at(b, from);
    unsigned id, n;
    if (type == DF_PAWN) {
        /* The square nnue-pytorch's writer sees, e's: continues found it equal to the rule's
         * after the previous move, which their reader will decode the item with. */
        const df_bb d = df__bp_pawn_targets(b, from, us, df_nnue_entry_ep(e));
        id = (unsigned)df_popcount(d & below(to));
        n = (unsigned)df_popcount(d);
        if (df_move_kind_of(e->move) == DF_MOVE_PROMOTION) {
            id = 4 * id + (unsigned)(df_move_promotion(e->move) - DF_KNIGHT);
            n *= 4;
        }
    } else if (type == DF_KING) {
        const df_bb a = df_king_table[from] & ~ours;
        const unsigned moves = (unsigned)df_popcount(a);
        n = moves + df__bp_castlings(b, us);
        if (df_move_kind_of(e->move) == DF_MOVE_CASTLING)
            id = moves - 1 + df__bp_long_right(b, us) + (df_file_of(to) == 7);
        else
            id = (unsigned)df_popcount(a & below(to));
    } else {
        const df_bb d = df__bp_piece_targets(b, from, type, us);
        id = (unsigned)df_popcount(d & below(to));
        n = (unsigned)df_popcount(d);
    }
    put_bits(bp, (unsigned)df_popcount(ours & below(from)),
             df__bp_width((unsigned)df_popcount(ours)));
    put_bits(bp, id, df__bp_width(n));
    unsigned delta =
        df__bp_zigzag((int16_t)(uint16_t)((uint16_t)e->score - (uint16_t)bp->last_score));
    do {
        put_bits(bp, (delta & 15u) | (delta > 15u) << DF__SCORE_BLOCK, DF__SCORE_BLOCK + 1);
        delta >>= DF__SCORE_BLOCK;
    } while (delta);
    bp->last_score = (int16_t)-e->score;
    bp->plies++;
    return true;
}

/* Whether e continues the chain of the previous entry: the position after its move, whose
 * square nnue-pytorch's doMove puts through its rule, equals e's, whose square is
 * df_nnue_entry_ep's (a stem's square no pawn can take differs from the rule's none, and starts
 * a chain, as their Position equality decides). */
static bool continues(const df__binpack_writer *bp, const df_nnue_entry *e, df_board *after)
{
    const df_nnue_entry *l = &bp->last;
    if (!bp->started || bp->plies == UINT16_MAX || l->result != -e->result || l->ply + 1 != e->ply)
        return false;
    df_make_move(after, &l->pos, l->move);
    return !memcmp(after->color, e->pos.color, sizeof after->color) &&
           !memcmp(after->piece, e->pos.piece, sizeof after->piece) && after->stm == e->pos.stm &&
           after->castling == e->pos.castling && df_nnue_ep_square(after) == df_nnue_entry_ep(e);
}

/* The 32-byte stem of e at out. */
static void put_stem(unsigned char *out, const df_nnue_entry *e)
{
    const df_board *b = &e->pos;
    const df_bb occ = df_board_occupied(b);
    const df_square ep = df_nnue_entry_ep(e);
    const df_color stm = df_board_stm(b);
    memset(out, 0, DF__STEM_BYTES);
    for (int i = 0; i < 8; i++) out[i] = (unsigned char)(occ >> (56 - 8 * i));
    int j = 0;
    for (df_bb s = occ; s; j++) {
        const df_square sq = df_pop_lsb(&s);
        const df_piece_type t = df_board_type_at(b, sq);
        const df_color c = df_has(b->color[DF_BLACK], sq) ? DF_BLACK : DF_WHITE;
        unsigned code = 2u * t + c;
        if (t == DF_PAWN && ep < 64 && df_file_of(sq) == df_file_of(ep) &&
            df_rank_of(sq) == (stm == DF_BLACK ? 3 : 4))
            code = DF__NIBBLE_EP_PAWN;
        else if (t == DF_ROOK && (b->castling & (c ? 12u : 3u)) &&
                 ((sq == (c ? DF_A8 : DF_A1) && b->castling & (c ? DF_CASTLE_BQ : DF_CASTLE_WQ)) ||
                  (sq == (c ? DF_H8 : DF_H1) && b->castling & (c ? DF_CASTLE_BK : DF_CASTLE_WK))))
            code = c ? DF__NIBBLE_BLACK_CASTLE_ROOK : DF__NIBBLE_WHITE_CASTLE_ROOK;
        else if (t == DF_KING && c == DF_BLACK && stm == DF_BLACK)
            code = DF__NIBBLE_BLACK_KING_TO_MOVE;
        out[8 + j / 2] |= (unsigned char)(code << (4 * (j & 1)));
    }
    const uint16_t words[4] = {df__bp_move_pack(e->move), df__bp_zigzag(e->score),
                               (uint16_t)(e->ply | df__bp_zigzag(e->result) << 14),
                               (uint16_t)b->halfmove};
    for (int i = 0; i < 4; i++) {
        out[24 + 2 * i] = (unsigned char)(words[i] >> 8);
        out[25 + 2 * i] = (unsigned char)words[i];
    }
}

/* The chain's ply count and movetext after its stem. */
static bool end_chain(df__binpack_writer *bp)
{
    if (!reserve(&bp->chunk, &bp->cap, bp->len, 2 + bp->text_len)) return false;
    bp->chunk[bp->len++] = (unsigned char)(bp->plies >> 8);
    bp->chunk[bp->len++] = (unsigned char)bp->plies;
    if (bp->plies) {
        memcpy(bp->chunk + bp->len, bp->text, bp->text_len);
        bp->len += bp->text_len;
    }
    return true;
}

static bool flush_chunk(df_nnue_writer *w)
{
    df__binpack_writer *bp = &w->bp;
    const unsigned char header[DF__HEADER_BYTES] = {'B',
                                                    'I',
                                                    'N',
                                                    'P',
                                                    (unsigned char)bp->len,
                                                    (unsigned char)(bp->len >> 8),
                                                    (unsigned char)(bp->len >> 16),
                                                    (unsigned char)(bp->len >> 24)};
    const bool ok =
        df__nnue_put(&w->out, header, sizeof header) && df__nnue_put(&w->out, bp->chunk, bp->len);
    bp->len = 0;
    return ok;
}

static df_status out_of_memory(df_nnue_writer *w, df_nnue_error *err)
{
    w->out.failed = true;
    w->out.error = ENOMEM;
    df__nnue_fail(err, DF_NNUE_ERR_IO, 0, w->entries - 1, "out of memory");
    return DF_ERR_IO;
}

df_status df__binpack_write(df_nnue_writer *w, const df_nnue_entry *e, df_nnue_error *err)
{
    df__binpack_writer *bp = &w->bp;
    df_board after;
    if (continues(bp, e, &after)) {
        if (!put_item(bp, e)) return out_of_memory(w, err);
        /* A reader counts a continuation's clocks on from the stem's, its half-move clock in 8
         * bits: what differs from the entry's is lost. */
        bp->seen_halfmove = after.halfmove ? (bp->seen_halfmove + 1) & 0xff : 0;
        bp->seen_fullmove += df_board_stm(&bp->last.pos) == DF_BLACK;
        df__nnue_lost(w, (e->pos.halfmove != bp->seen_halfmove ? DF__LOST_HALFMOVE : 0) |
                             (e->pos.fullmove != bp->seen_fullmove ? DF__LOST_FULLMOVE : 0));
        bp->last = *e;
        return DF_OK;
    }
    if (e->ply > 0x3fff) {
        df__nnue_fail(err, DF_NNUE_ERR_UNENCODABLE, 0, 0,
                      "ply %u starts a chain, whose stem holds 14 bits of ply", e->ply);
        return DF_ERR_BOARD;
    }
    if (e->pos.halfmove > 0xff) {
        df__nnue_fail(err, DF_NNUE_ERR_UNENCODABLE, 0, 0,
                      "half-move clock %u starts a chain, whose stem holds 8 bits of it",
                      e->pos.halfmove);
        return DF_ERR_BOARD;
    }
    if (bp->started && !end_chain(bp)) return out_of_memory(w, err);
    if (bp->len >= DF_BINPACK_CHUNK_TARGET && !flush_chunk(w)) {
        df__nnue_fail(err, DF_NNUE_ERR_IO, 0, w->entries - 1, "the output could not be written");
        return DF_ERR_IO;
    }
    if (!reserve(&bp->chunk, &bp->cap, bp->len, DF__STEM_BYTES)) return out_of_memory(w, err);
    put_stem(bp->chunk + bp->len, e);
    bp->len += DF__STEM_BYTES;
    bp->plies = 0;
    bp->text_len = 0;
    bp->free_bits = 0;
    bp->last_score = (int16_t)-e->score;
    bp->started = true;
    bp->last = *e;
    bp->seen_halfmove = e->pos.halfmove;
    bp->seen_fullmove = e->ply / 2u + 1u; /* a stem holds the ply, not the move number */
    df__nnue_lost(w, e->pos.fullmove != bp->seen_fullmove ? DF__LOST_FULLMOVE : 0);
    return DF_OK;
}

df_status df__binpack_finish(df_nnue_writer *w)
{
    df__binpack_writer *bp = &w->bp;
    if (!bp->started) return DF_OK;
    if (!end_chain(bp)) {
        w->out.failed = true;
        w->out.error = ENOMEM;
    } else
        flush_chunk(w);
    bp->started = false;
    return w->out.failed ? DF_ERR_IO : DF_OK;
}

void df__binpack_writer_free(df__binpack_writer *bp)
{
    free(bp->chunk);
    free(bp->text);
}
