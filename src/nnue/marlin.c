/* SPDX-License-Identifier: MIT */
/* MarlinFormat, the 32-byte position bullet and viriformat share (a stand-alone `.marlin` file of
 * them, and each viriformat game's start): the occupancy, a 4-bit piece per occupied square in
 * square order (an unmoved rook, code 6, holds a castling right, Chess960's too), the side and
 * en-passant square, both counters, a score and a result from White's view, a spare byte. No
 * move. A bad record is one error naming it; reading goes on at the next. */
#include <string.h>

#include "nnue/internal.h"

enum { UNMOVED_ROOK = 6, NO_EP = 64, BLACK_BIT = 8 };

static uint16_t le16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }

static void put16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

const char *df__marlin_unfit(const df_board *b)
{
    if (b->halfmove > 0xff) return "a half-move clock over 255 (MarlinFormat keeps 8 bits)";
    if (b->fullmove > 0xffff) return "a move number over 65535 (MarlinFormat keeps 16 bits)";
    return NULL;
}

void df__marlin_pack(unsigned char out[DF__MARLIN_BYTES], const df_board *b, df_square ep,
                     int16_t white_score, unsigned wdl)
{
    memset(out, 0, DF__MARLIN_BYTES);
    const df_bb occ = df_board_occupied(b), castling_rooks = df_board_castling_rooks(b);
    for (int i = 0; i < 8; i++) out[i] = (unsigned char)(occ >> (8 * i));
    int j = 0;
    for (df_bb left = occ; left; j++) {
        const df_square sq = df_pop_lsb(&left);
        const unsigned type = df_has(castling_rooks, sq) ? UNMOVED_ROOK : df_board_type_at(b, sq);
        const unsigned code = type | (df_has(b->color[DF_BLACK], sq) ? BLACK_BIT : 0);
        out[8 + j / 2] |= (unsigned char)(code << (4 * (j & 1)));
    }
    out[24] = (unsigned char)((b->stm & 1) << 7 | (ep < 64 ? (unsigned)ep : NO_EP));
    out[25] = (unsigned char)b->halfmove;
    put16(out + 26, b->fullmove);
    put16(out + 28, (uint16_t)white_score);
    out[30] = (unsigned char)wdl;
}

/* Whether the castling rooks of parts are standard chess's: on a1 h1 a8 h8, each with its
 * colour's king on e1 / e8. */
static bool standard_rights(const df_board_parts *parts)
{
    for (df_bb rooks = parts->castling_rooks; rooks;) {
        const df_square rook = df_pop_lsb(&rooks);
        const df_color c = rook >= DF_A8 ? DF_BLACK : DF_WHITE;
        if (!df_has(DF_FILE_A | DF_FILE_H, rook) || !df_has(DF_RANK_1 | DF_RANK_8, rook) ||
            !df_has(parts->pieces[df_piece_index(c, DF_KING)], c ? DF_E8 : DF_E1))
            return false;
    }
    return true;
}

const char *df__marlin_unpack(df_board *out, int16_t *white_score, unsigned *wdl,
                              const unsigned char rec[DF__MARLIN_BYTES], df_nnue_error_kind *kind)
{
    static _Thread_local char why[96];
    *kind = DF_NNUE_ERR_POSITION;
    df_bb occ = 0;
    for (int i = 0; i < 8; i++) occ |= (df_bb)rec[i] << (8 * i);
    const int n = df_popcount(occ);
    if (n > DF_NNUE_PIECES_MAX) {
        snprintf(why, sizeof why, "%d occupied squares (a record holds %d pieces)", n,
                 DF_NNUE_PIECES_MAX);
        return why;
    }
    df_board_parts parts;
    memset(&parts, 0, sizeof parts);
    int j = 0;
    for (df_bb left = occ; left; j++) {
        const df_square sq = df_pop_lsb(&left);
        const unsigned code = rec[8 + j / 2] >> (4 * (j & 1)) & 15, type = code & 7;
        if (type == 7) {
            snprintf(why, sizeof why, "piece code %u on square %d is no piece", code, (int)sq);
            return why;
        }
        if (type == UNMOVED_ROOK) parts.castling_rooks |= df_square_bb(sq);
        const df_piece_type t = type == UNMOVED_ROOK ? DF_ROOK : (df_piece_type)type;
        parts.pieces[df_piece_index((df_color)(code >> 3), t)] |= df_square_bb(sq);
    }
    *kind = DF_NNUE_ERR_FIELD;
    const unsigned ep = rec[24] & 127;
    if (ep > NO_EP) {
        snprintf(why, sizeof why, "en-passant field %u (0 to 63 a square, 64 none)", ep);
        return why;
    }
    *wdl = rec[30];
    if (*wdl > 2) {
        snprintf(why, sizeof why, "result %u (0, 1 and 2 are results)", *wdl);
        return why;
    }
    *white_score = (int16_t)le16(rec + 28);
    parts.stm = (df_color)(rec[24] >> 7);
    parts.halfmove = rec[25];
    parts.fullmove = le16(rec + 26);
    parts.ep = -1;
    /* Viriformat's data starts from Chess960 positions: rights other than standard chess's
     * make a Chess960 board. */
    parts.chess960 = !standard_rights(&parts);
    *kind = DF_NNUE_ERR_POSITION;
    const char *bad = df__nnue_board(out, &parts);
    if (bad || ep == NO_EP) return bad;
    /* The square is kept where nnue-pytorch's rule keeps it, as every format's reader does
     * (viridithas stores one wherever an enemy pawn stands next to the pushed one). */
    df_board with = *out;
    with.ep = (uint8_t)ep;
    if (df_nnue_ep_square(&with) != (df_square)ep) return NULL;
    parts.ep = (int)ep;
    return df__nnue_board(out, &parts);
}

/* The side to move's view of a score, a result (0..2), from White's. */
static int8_t stm_result(unsigned wdl, df_color stm)
{
    const int white = (int)wdl - 1;
    return (int8_t)(stm == DF_WHITE ? white : -white);
}

df_nnue_next df__marlin_next(df_nnue_reader *r, df_nnue_entry *out, df_nnue_error *err)
{
    unsigned char rec[DF__MARLIN_BYTES];
    uint64_t index, offset;
    const int got = df__nnue_next_record(r, rec, sizeof rec, &index, &offset, err);
    if (got <= 0) return got ? DF_NNUE_ERROR : DF_NNUE_END;
    df_nnue_error_kind kind;
    int16_t score;
    unsigned wdl;
    const char *why = df__marlin_unpack(&out->pos, &score, &wdl, rec, &kind);
    if (why) {
        df__nnue_fail(err, kind, offset, index, "record %llu at byte %llu: %s",
                      (unsigned long long)index, (unsigned long long)offset, why);
        return DF_NNUE_ERROR;
    }
    const df_color stm = df_board_stm(&out->pos);
    out->move = DF_MOVE_NONE;
    out->score = stm == DF_WHITE ? score : df__nnue_flip_score(score);
    out->ply = df__nnue_ply_of(&out->pos);
    out->result = stm_result(wdl, stm);
    out->ep_as_stored = 0; /* the square went through nnue-pytorch's rule (df__marlin_unpack) */
    return DF_NNUE_ENTRY;
}

df_status df__marlin_write(df_nnue_writer *w, const df_nnue_entry *e, df_nnue_error *err)
{
    const char *why = df__marlin_unfit(&e->pos);
    if (why) {
        df__nnue_fail(err, DF_NNUE_ERR_UNENCODABLE, 0, 0, "%s", why);
        return DF_ERR_BOARD;
    }
    const bool black = df_board_stm(&e->pos) == DF_BLACK;
    unsigned char rec[DF__MARLIN_BYTES];
    df__marlin_pack(rec, &e->pos, df_nnue_entry_ep(e),
                    black ? df__nnue_flip_score(e->score) : e->score,
                    (unsigned)((black ? -e->result : e->result) + 1));
    if (!df__nnue_put(&w->out, rec, sizeof rec)) {
        df__nnue_fail(err, DF_NNUE_ERR_IO, 0, w->entries - 1, "the output could not be written");
        return DF_ERR_IO;
    }
    df__nnue_lost(w, (e->move != DF_MOVE_NONE ? DF__LOST_MOVE : 0) |
                         (e->ply != df__nnue_ply_of(&e->pos) ? DF__LOST_PLY : 0));
    return DF_OK;
}
