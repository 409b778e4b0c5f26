/* SPDX-License-Identifier: MIT */
/* viriformat's games: a MarlinFormat start position (its result the game's, White's view), then
 * a (16-bit move, 16-bit score from White's view) pair for each position from it on, then four
 * zero bytes. Each pair is an entry: the position its move is played in, the move, the score and
 * the game's result. A writer makes an entry that continues the previous one (its position after
 * its move, the ply one more, the result the other side's) the next pair of its game, else starts
 * a game. A bad game is one error naming it and its byte; reading goes on at the next game. */
#include <string.h>

#include "nnue/internal.h"

enum { PAIR = 4 };

/* Their move's kind (bits 14-15): en passant 1, castling 2, promotion 3; ours numbers them
 * promotion 1, en passant 2, castling 3. Both put castling as the king taking its rook. */
static const unsigned their_kind[4] = {0, 3, 1, 2}, our_kind[4] = {0, 2, 3, 1};

static df_move move_from_viri(uint16_t m)
{
    const unsigned kind = our_kind[m >> 14];
    /* Their promotion bits are free on other moves ("may be left at zero"): ours must be. */
    const unsigned promo = kind == DF_MOVE_PROMOTION ? (m & 0x3000u) : 0;
    return (df_move)((m & 0x0fffu) | promo | kind << 14);
}

static uint16_t move_to_viri(df_move m)
{
    return (uint16_t)((m & 0x3fffu) | their_kind[df_move_kind_of(m)] << 14);
}

/* Fails the game at offset, where its pairs up to the terminator are passed over. */
static df_nnue_next game_error(df_nnue_reader *r, df_nnue_error *err, df_nnue_error_kind kind,
                               uint64_t offset, const char *why)
{
    df__viri_state *g = &r->vf;
    if (offset == g->at)
        df__nnue_fail(err, kind, offset, g->game, "game %llu at byte %llu: %s",
                      (unsigned long long)g->game, (unsigned long long)g->at, why);
    else
        df__nnue_fail(err, kind, offset, g->game, "game %llu at byte %llu: byte %llu: %s",
                      (unsigned long long)g->game, (unsigned long long)g->at,
                      (unsigned long long)offset, why);
    g->skipping = true;
    return DF_NNUE_ERROR;
}

/* A game's start position; false after an error (the game is then passed over). */
static df_nnue_next read_start(df_nnue_reader *r, df_nnue_error *err)
{
    df__nnue_input *in = &r->in;
    df__viri_state *g = &r->vf;
    const size_t got = df__nnue_peek(in, DF__MARLIN_BYTES);
    if (!got || (got < DF__MARLIN_BYTES && in->failed)) return DF_NNUE_END;
    g->at = in->offset;
    g->in_game = true;
    g->skipping = false;
    if (got < DF__MARLIN_BYTES) {
        df__nnue_consume(in, got);
        g->in_game = false;
        df__nnue_fail(err, DF_NNUE_ERR_TRUNCATED, g->at, g->game,
                      "game %llu at byte %llu: the file ends inside its start position (%zu of "
                      "32 bytes)",
                      (unsigned long long)g->game, (unsigned long long)g->at, got);
        g->game++;
        return DF_NNUE_ERROR;
    }
    unsigned char rec[DF__MARLIN_BYTES];
    memcpy(rec, in->buf + in->pos, sizeof rec);
    df__nnue_consume(in, sizeof rec);
    df_nnue_error_kind kind;
    int16_t unused_score; /* the start position's own score: viriformat leaves it 0 */
    unsigned wdl;
    const char *why = df__marlin_unpack(&g->board, &unused_score, &wdl, rec, &kind);
    if (why) return game_error(r, err, kind, g->at, why);
    g->white_result = (int8_t)((int)wdl - 1);
    g->ply = df__nnue_ply_of(&g->board);
    return DF_NNUE_ENTRY;
}

df_nnue_next df__viri_next(df_nnue_reader *r, df_nnue_entry *out, df_nnue_error *err)
{
    df__nnue_input *in = &r->in;
    df__viri_state *g = &r->vf;
    for (;;) {
        if (!g->in_game) {
            const df_nnue_next got = read_start(r, err);
            if (got != DF_NNUE_ENTRY) return got;
        }
        const size_t got = df__nnue_peek(in, PAIR);
        if (got < PAIR) {
            /* A game cut by a read error is no fault of the file: read_any says the error. */
            const bool said = g->skipping || in->failed;
            const uint64_t at = in->offset, game = g->game++;
            df__nnue_consume(in, got);
            g->in_game = false;
            if (said) return DF_NNUE_END;
            df__nnue_fail(err, DF_NNUE_ERR_TRUNCATED, at, game,
                          "game %llu at byte %llu: the file ends at byte %llu inside it, before "
                          "its terminator (four zero bytes)",
                          (unsigned long long)game, (unsigned long long)g->at,
                          (unsigned long long)(at + got));
            return DF_NNUE_ERROR;
        }
        const unsigned char *p = in->buf + in->pos;
        const uint64_t at = in->offset;
        const uint16_t raw = (uint16_t)(p[0] | p[1] << 8);
        const int16_t score = (int16_t)(uint16_t)(p[2] | p[3] << 8);
        df__nnue_consume(in, PAIR);
        if (!raw && !score) { /* the terminator */
            g->in_game = false;
            g->game++;
            continue;
        }
        if (g->skipping) continue;
        const df_move m = move_from_viri(raw);
        if (!df_move_is_legal(&g->board, m)) {
            char why[DF_FEN_MAX + 64], fen[DF_FEN_MAX];
            df_nnue_fen(fen, sizeof fen, &g->board);
            snprintf(why, sizeof why, "move 0x%04x is not legal in %s", raw, fen);
            return game_error(r, err, DF_NNUE_ERR_ILLEGAL, at, why);
        }
        const df_color stm = df_board_stm(&g->board);
        out->pos = g->board;
        out->move = m;
        out->score = stm == DF_WHITE ? score : df__nnue_flip_score(score);
        out->ply = g->ply++;
        out->result = (int8_t)(stm == DF_WHITE ? g->white_result : -g->white_result);
        out->ep_as_stored = 0; /* each square went through nnue-pytorch's rule */
        df_make_move(&g->board, &out->pos, m);
        return DF_NNUE_ENTRY;
    }
}

/* Whether e continues the game the writer has open: the position after the previous entry's
 * move (pieces, side, castling, en passant by nnue-pytorch's rule), the ply one more (in the
 * 16 bits an entry and a reader count it in: a game may outlast them), the same game result. */
static bool continues(const df__viri_writer *v, const df_nnue_entry *e, const df_board *after)
{
    const df_nnue_entry *l = &v->last;
    return v->started && l->result == -e->result && (uint16_t)(l->ply + 1) == e->ply &&
           !memcmp(after->color, e->pos.color, sizeof after->color) &&
           !memcmp(after->piece, e->pos.piece, sizeof after->piece) && after->stm == e->pos.stm &&
           after->castling == e->pos.castling && df_nnue_ep_square(after) == df_nnue_entry_ep(e);
}

df_status df__viri_write(df_nnue_writer *w, const df_nnue_entry *e, df_nnue_error *err)
{
    df__viri_writer *v = &w->vf;
    const bool black = df_board_stm(&e->pos) == DF_BLACK;
    unsigned lost = 0;
    df_board after;
    if (v->started) df_make_move(&after, &v->seen, v->last.move);
    if (v->started && continues(v, e, &after)) {
        /* A reader has the counters and ply the moves give from the start position. */
        v->seen = after;
        v->seen_ply++;
    } else {
        const char *why = df__marlin_unfit(&e->pos);
        if (why) {
            df__nnue_fail(err, DF_NNUE_ERR_UNENCODABLE, 0, 0, "%s", why);
            return DF_ERR_BOARD;
        }
        static const unsigned char terminator[PAIR] = {0};
        if (v->started) df__nnue_put(&w->out, terminator, sizeof terminator);
        unsigned char start[DF__MARLIN_BYTES];
        df__marlin_pack(start, &e->pos, df_nnue_entry_ep(e), 0,
                        (unsigned)((black ? -e->result : e->result) + 1));
        df__nnue_put(&w->out, start, sizeof start);
        v->started = true;
        v->seen = e->pos;
        v->seen.ep = (uint8_t)df_nnue_entry_ep(e); /* what a reader keeps of the stored square */
        v->seen_ply = df__nnue_ply_of(&e->pos);
    }
    const int16_t score = black ? df__nnue_flip_score(e->score) : e->score;
    const uint16_t m = move_to_viri(e->move);
    const unsigned char pair[PAIR] = {(unsigned char)m, (unsigned char)(m >> 8),
                                      (unsigned char)(uint16_t)score,
                                      (unsigned char)((uint16_t)score >> 8)};
    if (!df__nnue_put(&w->out, pair, sizeof pair)) {
        df__nnue_fail(err, DF_NNUE_ERR_IO, 0, w->entries - 1, "the output could not be written");
        return DF_ERR_IO;
    }
    v->last = *e;
    lost |= v->seen.halfmove != e->pos.halfmove ? DF__LOST_HALFMOVE : 0;
    lost |= v->seen.fullmove != e->pos.fullmove ? DF__LOST_FULLMOVE : 0;
    lost |= v->seen_ply != e->ply ? DF__LOST_PLY : 0;
    df__nnue_lost(w, lost);
    return DF_OK;
}

df_status df__viri_finish(df_nnue_writer *w)
{
    static const unsigned char terminator[PAIR] = {0};
    if (w->vf.started) df__nnue_put(&w->out, terminator, sizeof terminator);
    w->vf.started = false;
    return w->out.failed ? DF_ERR_IO : DF_OK;
}
