/* SPDX-License-Identifier: MIT */
/* The .binpack reader: chunks framed and read whole (within DF_BINPACK_CHUNK_MAX), their chains
 * decoded entry by entry on the library's copy-make, every move checked; a problem is one error
 * naming its byte and its chunk, after which reading resumes at the next chunk. */
#include <stdlib.h>
#include <string.h>

#include "chess/make_move.h"
#include "nnue/binpack_rules.h"

static uint16_t be16(const unsigned char *p) { return (uint16_t)(p[0] << 8 | p[1]); }

static uint64_t be64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | p[i];
    return v;
}

/* The input offset of byte i of the chunk's payload. */
static uint64_t at(const df__binpack_state *bp, size_t i) { return bp->at + DF__HEADER_BYTES + i; }

/* The rest of the chunk is not read: the next call goes on at the next chunk (and says first
 * that this chunk was cut short, if it was). */
static df_nnue_next abandon(df__binpack_state *bp)
{
    bp->pos = bp->len;
    bp->plies_left = 0;
    return DF_NNUE_ERROR;
}

/* What the movetext item being decoded is, for a message: its chain and its number. */
static void item_what(char *buf, size_t size, const df__binpack_state *bp)
{
    const unsigned chain_plies = (unsigned)bp->chunk[bp->text - 2] << 8 | bp->chunk[bp->text - 1];
    snprintf(buf, size, "the chain at byte %llu, item %u of %u",
             (unsigned long long)at(bp, bp->text - DF__CHAIN_HEAD),
             chain_plies - bp->plies_left + 1u, chain_plies);
}

/* A chunk's bytes ran out under a chain's item at chunk byte where: the end of the file when
 * the chunk is short of its size (said once, here), else the chain runs past its chunk. */
static df_nnue_next ran_out(df__binpack_state *bp, df_nnue_error *err, size_t where)
{
    char what[96];
    item_what(what, sizeof what, bp);
    if (bp->len < bp->claimed && bp->short_reported) {
        abandon(bp); /* cut by a read error, which read_any says */
        return DF_NNUE_END;
    }
    if (bp->len < bp->claimed) {
        bp->short_reported = true;
        df__nnue_fail(err, DF_NNUE_ERR_TRUNCATED, at(bp, where), bp->index,
                      "chunk %llu at byte %llu: %s at byte %llu is cut off by the end of the "
                      "file (the chunk's size is %u, %zu bytes are there)",
                      (unsigned long long)bp->index, (unsigned long long)bp->at, what,
                      (unsigned long long)at(bp, where), bp->claimed, bp->len);
    } else {
        df__nnue_fail(err, DF_NNUE_ERR_MOVETEXT, at(bp, where), bp->index,
                      "chunk %llu at byte %llu: %s at byte %llu runs past the end of its chunk",
                      (unsigned long long)bp->index, (unsigned long long)bp->at, what,
                      (unsigned long long)at(bp, where));
    }
    return abandon(bp);
}

/* ---- framing ---- */

/* Skips to the next "BINP" (or the end); returns the bytes skipped. */
static uint64_t resync(df__nnue_input *in)
{
    uint64_t skipped = 0;
    for (;;) {
        const size_t n = df__nnue_peek(in, DF__NNUE_INPUT);
        if (n < 4) {
            df__nnue_consume(in, n);
            return skipped + n;
        }
        const unsigned char *p = in->buf + in->pos;
        for (size_t i = 0; i + 4 <= n; i++)
            if (p[i] == 'B' && !memcmp(p + i, "BINP", 4)) {
                df__nnue_consume(in, i);
                return skipped + i;
            }
        df__nnue_consume(in, n - 3);
        skipped += n - 3;
    }
}

/* Reads claimed bytes of payload (fewer at the end of the input), the buffer grown as bytes
 * arrive, never to more than twice what is there (or a chunk of the writers' usual size): a
 * size field is not believed before its bytes are. */
static bool read_payload(df__nnue_input *in, df__binpack_state *bp)
{
    bp->len = 0;
    while (bp->len < bp->claimed) {
        if (bp->len == bp->cap) {
            size_t cap = bp->cap ? 2 * bp->cap : DF_BINPACK_CHUNK_TARGET + (1u << 16);
            if (cap > bp->claimed) cap = bp->claimed;
            unsigned char *grown = realloc(bp->chunk, cap);
            if (!grown) return false;
            bp->chunk = grown;
            bp->cap = cap;
        }
        const size_t want = (bp->cap < bp->claimed ? bp->cap : bp->claimed) - bp->len;
        const size_t got = df__nnue_take(in, bp->chunk + bp->len, want);
        bp->len += got;
        if (got < want) break;
    }
    return true;
}

/* The next chunk's header and payload; DF_NNUE_ENTRY when one is ready to decode. */
static df_nnue_next next_chunk(df_nnue_reader *r, df_nnue_error *err)
{
    df__binpack_state *bp = &r->bp;
    df__nnue_input *in = &r->in;
next:;
    const size_t got = df__nnue_peek(in, DF__HEADER_BYTES);
    /* A header cut by a read error is no fault of the file: read_any says the error. */
    if (!got || (got < DF__HEADER_BYTES && in->failed)) return DF_NNUE_END;
    const unsigned long long index = bp->index++, offset = in->offset;
    bp->at = in->offset;
    const unsigned char *h = in->buf + in->pos;
    if (got < DF__HEADER_BYTES) {
        df__nnue_consume(in, got);
        df__nnue_fail(err, DF_NNUE_ERR_TRUNCATED, offset, index,
                      "chunk %llu at byte %llu: the file ends inside its 8-byte header", index,
                      offset);
        return DF_NNUE_ERROR;
    }
    if (memcmp(h, "BINP", 4)) {
        char seen[4 * 4 + 1];
        for (int i = 0; i < 4; i++) snprintf(seen + 3 * i, 4, "%02x ", h[i]);
        seen[11] = 0;
        df__nnue_consume(in, 1);
        const uint64_t skipped = 1 + resync(in);
        df__nnue_fail(err, DF_NNUE_ERR_MAGIC, offset, index,
                      "chunk %llu at byte %llu: no BINP magic (%s): %llu bytes skipped to %s",
                      index, offset, seen, (unsigned long long)skipped,
                      in->len > in->pos ? "the next BINP" : "the end");
        return DF_NNUE_ERROR;
    }
    const uint32_t size =
        (uint32_t)h[4] | (uint32_t)h[5] << 8 | (uint32_t)h[6] << 16 | (uint32_t)h[7] << 24;
    df__nnue_consume(in, DF__HEADER_BYTES);
    if (size > DF_BINPACK_CHUNK_MAX) {
        const uint64_t skipped = resync(in);
        df__nnue_fail(err, DF_NNUE_ERR_CHUNK_SIZE, offset, index,
                      "chunk %llu at byte %llu: size %u is over the %u-byte cap: %llu bytes "
                      "skipped to %s",
                      index, offset, size, DF_BINPACK_CHUNK_MAX, (unsigned long long)skipped,
                      in->len > in->pos ? "the next BINP" : "the end");
        return DF_NNUE_ERROR;
    }
    if (index % r->world != r->rank) { /* another rank's: passed over */
        for (uint64_t left = size, n; left; left -= n)
            if (!(n = df__nnue_peek(in, left < DF__NNUE_INPUT ? (size_t)left : DF__NNUE_INPUT)))
                break;
            else
                df__nnue_consume(in, (size_t)n);
        goto next; /* a loop: a file of many chunks must not deepen the stack */
    }
    bp->claimed = size;
    if (!read_payload(in, bp)) {
        df__nnue_fail(err, DF_NNUE_ERR_IO, offset, index,
                      "chunk %llu at byte %llu: out of memory for its %u bytes", index, offset,
                      size);
        return DF_NNUE_ERROR;
    }
    bp->index = index;
    bp->pos = 0;
    bp->plies_left = 0;
    /* A chunk cut short by a failed read is no fault of the file: its chains are read as far
     * as they go, and the read error (read_any's) is all that is said. */
    bp->short_reported = bp->len < bp->claimed && in->failed;
    bp->active = true;
    return DF_NNUE_ENTRY;
}

/* ---- chains ---- */

/* board[cur ^ 1]: the position after the pseudo-legal move m in board[cur], with
 * nnue-pytorch's 8-bit half-move clock. False when m leaves its king attacked (not legal). */
static bool make_after(df__binpack_state *bp, df_move m)
{
    const df_board *b = &bp->board[bp->cur];
    df_board *after = &bp->board[bp->cur ^ 1];
    const df_color us = df_board_stm(b);
    df__make_move(after, b, m, true);
    after->halfmove &= 0xff;
    return !df_is_attacked(after, df_board_king(after, us), (df_color)(us ^ 1),
                           df_board_occupied(after));
}

/* The stem at bp->pos: its entry, the chain after it set up. */
static df_nnue_next read_stem(df__binpack_state *bp, df_nnue_error *err)
{
    const size_t start = bp->pos;
    const unsigned char *p = bp->chunk + start;
    const df_bb occ = be64(p);
    const unsigned long long chunk = bp->index, offset = at(bp, start);
#define STEM_FAIL(kind, ...)                                                                       \
    do {                                                                                           \
        char what_[256];                                                                           \
        snprintf(what_, sizeof what_, __VA_ARGS__);                                                \
        df__nnue_fail(err, kind, offset, chunk,                                                    \
                      "chunk %llu at byte %llu: the stem at byte %llu: %s", chunk,                 \
                      (unsigned long long)bp->at, offset, what_);                                  \
        return abandon(bp);                                                                        \
    } while (0)
    if (df_popcount(occ) > 32)
        STEM_FAIL(DF_NNUE_ERR_POSITION, "%d pieces (a stem holds at most 32)", df_popcount(occ));
    df_board_parts parts;
    memset(&parts, 0, sizeof parts);
    parts.ep = -1;
    parts.stm = DF_WHITE;
    int j = 0;
    for (df_bb s = occ; s; j++) {
        const df_square sq = df_pop_lsb(&s);
        const unsigned code = (p[8 + j / 2] >> (4 * (j & 1))) & 15;
        const df_bb bit = df_square_bb(sq);
        char name[3] = {(char)('a' + df_file_of(sq)), (char)('1' + df_rank_of(sq)), 0};
        if (code < DF__NIBBLE_EP_PAWN) {
            parts.pieces[df_piece_index((df_color)(code & 1), (df_piece_type)(code >> 1))] |= bit;
        } else if (code == DF__NIBBLE_EP_PAWN) {
            const int rank = df_rank_of(sq);
            if ((rank != 3 && rank != 4) || parts.ep >= 0)
                STEM_FAIL(DF_NNUE_ERR_POSITION, "%s en-passant pawn (code 12) on %s",
                          parts.ep >= 0 ? "a second" : "an", name);
            const df_color c = rank == 3 ? DF_WHITE : DF_BLACK;
            parts.pieces[df_piece_index(c, DF_PAWN)] |= bit;
            parts.ep = c == DF_WHITE ? (int)sq - 8 : (int)sq + 8;
        } else if (code == DF__NIBBLE_WHITE_CASTLE_ROOK || code == DF__NIBBLE_BLACK_CASTLE_ROOK) {
            const df_color c = code == DF__NIBBLE_WHITE_CASTLE_ROOK ? DF_WHITE : DF_BLACK;
            if (!(bit & (c ? (df_square_bb(DF_A8) | df_square_bb(DF_H8))
                           : (df_square_bb(DF_A1) | df_square_bb(DF_H1)))))
                STEM_FAIL(DF_NNUE_ERR_POSITION, "a castling rook (code %u) on %s", code, name);
            parts.pieces[df_piece_index(c, DF_ROOK)] |= bit;
            parts.castling_rooks |= bit;
        } else {
            parts.pieces[df_piece_index(DF_BLACK, DF_KING)] |= bit;
            parts.stm = DF_BLACK;
        }
    }
    const uint16_t word = be16(p + 28);
    const int16_t result = df__bp_unzigzag((uint16_t)(word >> 14));
    if (result < -1) STEM_FAIL(DF_NNUE_ERR_FIELD, "result code 3 (only 0, 1, 2 are results)");
    df_board *const pos = &bp->board[bp->cur];
    bp->ply = word & 0x3fff;
    bp->result = (int8_t)result;
    bp->score = df__bp_unzigzag(be16(p + 26));
    parts.halfmove = p[31]; /* their counter is 8 bits: the high byte is dropped */
    parts.fullmove = bp->ply / 2u + 1u;
    const char *why = df__nnue_board(pos, &parts);
    if (why) STEM_FAIL(DF_NNUE_ERR_POSITION, "%s", why);
    /* The entry's square is the stored one, as nnue-pytorch's decoder sets it unchecked
     * (df_nnue_entry_ep), even where df_board_from_parts dropped it for want of a pawn next to
     * it: its checks passed (the square empty, behind the pawn, on the right rank), so the
     * board stays valid, and the key leaves out a square no pawn can take either way. Only an
     * en-passant move looks at the square, and only from a pawn next to it. The position after
     * the move gets their rule, as their doMove gives it, before the movetext reads it. */
    pos->ep = parts.ep >= 0 ? (uint8_t)parts.ep : (uint8_t)DF_SQUARE_NONE;
    bp->move = df__bp_move_unpack(be16(p + 24));
    if (!df_move_is_legal(pos, bp->move)) {
        char fen[DF_FEN_MAX], uci[DF_UCI_MAX];
        const df_nnue_entry shown = {.pos = *pos, .ep_as_stored = 1};
        df_nnue_entry_fen(fen, sizeof fen, &shown);
        df_move_to_uci(uci, pos, bp->move);
        STEM_FAIL(DF_NNUE_ERR_ILLEGAL, "move %s (0x%04x) is not legal in %s", uci, be16(p + 24),
                  fen);
    }
#undef STEM_FAIL
    bp->plies_left = be16(p + DF__STEM_BYTES);
    if (bp->plies_left) make_after(bp, bp->move);
    bp->pos = start + DF__CHAIN_HEAD;
    bp->text = bp->pos;
    bp->bit = 0;
    bp->last = (int16_t)-bp->score;
    return DF_NNUE_ENTRY;
}

/* A movetext bit reader: a 64-bit window of the bits from an item's first on, most significant
 * first (zeros past the chunk's end), enough for any item (at most 35 bits of the 57 or more
 * it holds), and how many of them are really there. */
typedef struct {
    uint64_t window;
    uint64_t avail, used;
} bits_in;

static inline bits_in bits_at(const unsigned char *text, size_t bytes, uint64_t bit)
{
    const size_t byte = (size_t)(bit >> 3);
    uint64_t w = 0;
    if (bytes - byte >= 8) {
        memcpy(&w, text + byte, sizeof w);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        w = __builtin_bswap64(w);
#endif
    } else {
        for (size_t i = 0; i < 8; i++) w = w << 8 | (byte + i < bytes ? text[byte + i] : 0u);
    }
    return (bits_in){w << (bit & 7), (uint64_t)bytes * 8 - bit, 0};
}

/* n (0-8) bits, most significant first; false when they are not all there. */
static inline bool get_bits(bits_in *b, unsigned n, unsigned *out)
{
    if (b->used + n > b->avail) return false;
    *out = n ? (unsigned)(b->window >> (64 - n)) : 0u;
    b->window <<= n;
    b->used += n;
    return true;
}

/* The next movetext item: the entry after the last one. */
static df_nnue_next read_item(df__binpack_state *bp, df_nnue_error *err)
{
    bits_in in = bits_at(bp->chunk + bp->text, bp->len - bp->text, bp->bit);
    const size_t first = bp->text + (size_t)(bp->bit >> 3);
#define ITEM_FAIL(kind, ...)                                                                       \
    do {                                                                                           \
        char why_[256], what[96];                                                                  \
        snprintf(why_, sizeof why_, __VA_ARGS__);                                                  \
        item_what(what, sizeof what, bp);                                                          \
        df__nnue_fail(err, kind, at(bp, first), bp->index,                                         \
                      "chunk %llu at byte %llu: %s at byte %llu: %s",                              \
                      (unsigned long long)bp->index, (unsigned long long)bp->at, what,             \
                      (unsigned long long)at(bp, first), why_);                                    \
        return abandon(bp);                                                                        \
    } while (0)
    bp->cur ^= 1;
    const df_board *const b = &bp->board[bp->cur];
    const df_color us = df_board_stm(b);
    const df_bb ours = b->color[us];
    const unsigned npieces = (unsigned)df_popcount(ours);
    unsigned index, id;
    if (!get_bits(&in, df__bp_width(npieces), &index)) return ran_out(bp, err, first);
    if (index >= npieces) ITEM_FAIL(DF_NNUE_ERR_MOVETEXT, "piece %u of %u", index, npieces);
    const df_square from = df__bp_nth(ours, index);
    const df_piece_type type = df_board_type_at(b, from);
    df_move m;
    if (type == DF_PAWN) {
        const df_square ep = b->ep < 64 ? df_nnue_ep_square(b) : DF_SQUARE_NONE;
        const df_bb d = df__bp_pawn_targets(b, from, us, ep);
        const unsigned n = (unsigned)df_popcount(d);
        const bool promotes = df_rank_of(from) == (us ? 1 : 6);
        if (!get_bits(&in, df__bp_width(promotes ? 4 * n : n), &id)) return ran_out(bp, err, first);
        if ((promotes ? id / 4 : id) >= n)
            ITEM_FAIL(DF_NNUE_ERR_MOVETEXT, "pawn destination %u of %u", promotes ? id / 4 : id, n);
        const df_square to = df__bp_nth(d, promotes ? id / 4 : id);
        m = promotes
                ? df_move_make(from, to, DF_MOVE_PROMOTION, (df_piece_type)(DF_KNIGHT + id % 4))
            : to == ep ? df_move_make(from, to, DF_MOVE_EN_PASSANT, DF_PAWN)
                       : df_move_make(from, to, DF_MOVE_NORMAL, DF_PAWN);
    } else if (type == DF_KING) {
        const df_bb a = df_king_table[from] & ~ours;
        const unsigned n = (unsigned)df_popcount(a);
        if (!get_bits(&in, df__bp_width(n + df__bp_castlings(b, us)), &id))
            return ran_out(bp, err, first);
        if (id < n) {
            m = df_move_make(from, df__bp_nth(a, id), DF_MOVE_NORMAL, DF_PAWN);
        } else {
            /* Their castling moves are fixed: the king from e1/e8 onto the corner rook. */
            const bool castle_long = id == n && df__bp_long_right(b, us);
            const df_square king = us ? DF_E8 : DF_E1;
            const df_square rook = (df_square)(king + (castle_long ? -4 : 3));
            m = df_move_make(king, rook, DF_MOVE_CASTLING, DF_PAWN);
        }
    } else {
        const df_bb d = df__bp_piece_targets(b, from, type, us);
        const unsigned n = (unsigned)df_popcount(d);
        if (!get_bits(&in, df__bp_width(n), &id)) return ran_out(bp, err, first);
        if (id >= n) ITEM_FAIL(DF_NNUE_ERR_MOVETEXT, "destination %u of %u", id, n);
        m = df_move_make(from, df__bp_nth(d, id), DF_MOVE_NORMAL, DF_PAWN);
    }
    /* The move is pseudo-legal by construction but for castling and en passant, which are
     * checked whole; any move is then made, and is legal when it leaves its king unattacked
     * (the position after it is the next item's). */
    const df_move_kind kind = df_move_kind_of(m);
    if (((kind == DF_MOVE_CASTLING || kind == DF_MOVE_EN_PASSANT) && !df_move_is_legal(b, m)) ||
        !make_after(bp, m)) {
        char fen[DF_FEN_MAX], uci[DF_UCI_MAX];
        df_nnue_fen(fen, sizeof fen, b);
        df_move_to_uci(uci, b, m);
        ITEM_FAIL(DF_NNUE_ERR_ILLEGAL, "move %s is not legal in %s", uci, fen);
    }
    /* The score: 4-bit groups, least significant first, each after its continuation flag. All
     * four are taken from the window at once, then as many kept as the flags say: no loop,
     * whose trip count changes from item to item. A fifth group (a set fourth flag) is read
     * before it is refused, as a loop would. */
    unsigned flags = 0, delta = 0;
    for (unsigned g = 0; g < DF__SCORE_GROUPS_MAX; g++) {
        const unsigned group = (unsigned)(in.window >> (64 - (DF__SCORE_BLOCK + 1) * (g + 1))) &
                               ((1u << (DF__SCORE_BLOCK + 1)) - 1);
        flags |= (group >> DF__SCORE_BLOCK) << g;
        delta |= (group & 15u) << (DF__SCORE_BLOCK * g);
    }
    /* The groups read: one, and one more for each flag of an unbroken run of set flags. */
    const unsigned groups = 1 + (unsigned)__builtin_ctz(~flags);
    if (in.used + (DF__SCORE_BLOCK + 1) * groups > in.avail) return ran_out(bp, err, first);
    if (groups > DF__SCORE_GROUPS_MAX)
        ITEM_FAIL(DF_NNUE_ERR_MOVETEXT, "a score code longer than 16 bits");
    delta &= (1u << (DF__SCORE_BLOCK * groups)) - 1;
    in.used += (DF__SCORE_BLOCK + 1) * groups;
#undef ITEM_FAIL
    bp->move = m;
    bp->score =
        (int16_t)(uint16_t)((uint16_t)bp->last + (uint16_t)df__bp_unzigzag((uint16_t)delta));
    bp->last = (int16_t)-bp->score;
    bp->ply = (uint16_t)(bp->ply + 1);
    bp->result = (int8_t)-bp->result;
    bp->bit += in.used;
    if (--bp->plies_left == 0) bp->pos = bp->text + (size_t)((bp->bit + 7) >> 3);
    return DF_NNUE_ENTRY;
}

df_nnue_next df__binpack_next(df_nnue_reader *r, df_nnue_entry *out, df_nnue_error *err)
{
    df__binpack_state *bp = &r->bp;
    for (;;) {
        if (!bp->active) {
            const df_nnue_next got = next_chunk(r, err);
            if (got != DF_NNUE_ENTRY) return got;
        }
        df_nnue_next got;
        bool stem = false;
        if (bp->plies_left) {
            got = read_item(bp, err);
        } else if (bp->len - bp->pos >= DF__CHAIN_HEAD) {
            got = read_stem(bp, err);
            stem = true;
        } else {
            /* Fewer bytes than a stem: the chunk is over (nnue-pytorch ignores them too). */
            bp->active = false;
            bp->index++;
            if (bp->len < bp->claimed && !bp->short_reported) {
                df__nnue_fail(err, DF_NNUE_ERR_TRUNCATED, bp->at + DF__HEADER_BYTES + bp->len,
                              bp->index - 1,
                              "chunk %llu at byte %llu: its size %u runs past the end of the "
                              "file (%zu bytes are there)",
                              (unsigned long long)(bp->index - 1), (unsigned long long)bp->at,
                              bp->claimed, bp->len);
                return DF_NNUE_ERROR;
            }
            continue;
        }
        if (got == DF_NNUE_ENTRY) {
            out->pos = bp->board[bp->cur];
            out->move = bp->move;
            out->score = bp->score;
            out->ply = bp->ply;
            out->result = bp->result;
            out->ep_as_stored = stem;
        }
        return got;
    }
}

bool df__binpack_chunk_over(const df_nnue_reader *r)
{
    const df__binpack_state *bp = &r->bp;
    return !bp->active || (!bp->plies_left && bp->len - bp->pos < DF__CHAIN_HEAD);
}

void df__binpack_release(df_nnue_reader *r)
{
    df__binpack_state *bp = &r->bp;
    if (!df__binpack_chunk_over(r)) return;
    free(bp->chunk);
    bp->chunk = NULL;
    bp->cap = 0;
}
