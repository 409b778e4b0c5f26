/* SPDX-License-Identifier: MIT */
/* bulletformat's ChessBoard, 32-byte records seen from the side to move: its pieces are "ours"
 * and "theirs", and with Black to move the board is mirrored (ranks flipped, colours swapped).
 * The occupancy, a 4-bit piece per occupied square in square order (colour bit 3: theirs), the
 * score and the result (0 lost, 1 drawn, 2 won) of the side to move, both kings' squares each
 * seen from its own side, three spare bytes. No move, side, castling, en passant or counters:
 * an entry read is White to move; a writer counts what it drops (df_nnue_writer_losses). A bad
 * record is one error naming it; reading goes on at the next. */
#include <string.h>

#include "nnue/internal.h"

enum { RECORD = 32, THEIRS = 8 };

df_nnue_next df__bulletformat_next(df_nnue_reader *r, df_nnue_entry *out, df_nnue_error *err)
{
    unsigned char rec[RECORD];
    uint64_t index, offset;
    const int got = df__nnue_next_record(r, rec, sizeof rec, &index, &offset, err);
    if (got <= 0) return got ? DF_NNUE_ERROR : DF_NNUE_END;
    char why[96] = "";
    df_nnue_error_kind kind = DF_NNUE_ERR_POSITION;
    df_bb occ = 0;
    for (int i = 0; i < 8; i++) occ |= (df_bb)rec[i] << (8 * i);
    df_board_parts parts;
    memset(&parts, 0, sizeof parts);
    parts.ep = -1;
    if (df_popcount(occ) > DF_NNUE_PIECES_MAX)
        snprintf(why, sizeof why, "%d occupied squares (a record holds %d pieces)",
                 df_popcount(occ), DF_NNUE_PIECES_MAX);
    int j = 0;
    for (df_bb left = occ; left && !*why; j++) {
        const df_square sq = df_pop_lsb(&left);
        const unsigned code = rec[8 + j / 2] >> (4 * (j & 1)) & 15;
        if ((code & 7) > DF_KING)
            snprintf(why, sizeof why, "piece code %u on square %d is no piece", code, (int)sq);
        else
            parts.pieces[df_piece_index((df_color)(code >> 3), (df_piece_type)(code & 7))] |=
                df_square_bb(sq);
    }
    const char *bad = *why ? why : df__nnue_board(&out->pos, &parts);
    if (!bad) {
        /* bullet's inputs read the kings' squares from their fields: they must be the pieces'. */
        kind = DF_NNUE_ERR_FIELD;
        const unsigned ours = df_board_king(&out->pos, DF_WHITE);
        const unsigned theirs = df_flip_rank(df_board_king(&out->pos, DF_BLACK));
        if (rec[27] != ours || rec[28] != theirs)
            snprintf(why, sizeof why,
                     "king squares %u and %u, where the pieces have them on %u and %u", rec[27],
                     rec[28], ours, theirs);
        else if (rec[26] > 2)
            snprintf(why, sizeof why, "result %u (0, 1 and 2 are results)", rec[26]);
        bad = *why ? why : NULL;
    }
    if (bad) {
        df__nnue_fail(err, kind, offset, index, "record %llu at byte %llu: %s",
                      (unsigned long long)index, (unsigned long long)offset, bad);
        return DF_NNUE_ERROR;
    }
    out->move = DF_MOVE_NONE;
    out->score = (int16_t)(uint16_t)(rec[24] | rec[25] << 8);
    out->ply = 0;
    out->result = (int8_t)(rec[26] - 1);
    out->ep_as_stored = 0;
    return DF_NNUE_ENTRY;
}

df_status df__bulletformat_write(df_nnue_writer *w, const df_nnue_entry *e, df_nnue_error *err)
{
    const df_board *b = &e->pos;
    const df_color us = df_board_stm(b);
    /* Black's position is seen from Black's side: its ranks flipped (a byte swap of each set). */
    df_bb mine = b->color[us], occ = df_board_occupied(b);
    if (us == DF_BLACK) {
        mine = __builtin_bswap64(mine);
        occ = __builtin_bswap64(occ);
    }
    unsigned char rec[RECORD];
    memset(rec, 0, sizeof rec);
    for (int i = 0; i < 8; i++) rec[i] = (unsigned char)(occ >> (8 * i));
    int j = 0;
    for (df_bb left = occ; left; j++) {
        const df_square sq = df_pop_lsb(&left);
        const df_square real = us == DF_BLACK ? df_flip_rank(sq) : sq;
        const unsigned code = df_board_type_at(b, real) | (df_has(mine, sq) ? 0 : THEIRS);
        rec[8 + j / 2] |= (unsigned char)(code << (4 * (j & 1)));
    }
    rec[24] = (unsigned char)(uint16_t)e->score;
    rec[25] = (unsigned char)((uint16_t)e->score >> 8);
    rec[26] = (unsigned char)(e->result + 1);
    const df_square ours = df_board_king(b, us), theirs = df_board_king(b, (df_color)(us ^ 1));
    /* Each king seen from its own side: ours as the board is seen, theirs flipped back. */
    rec[27] = (unsigned char)(us == DF_BLACK ? df_flip_rank(ours) : ours);
    rec[28] = (unsigned char)(us == DF_BLACK ? theirs : df_flip_rank(theirs));
    if (!df__nnue_put(&w->out, rec, sizeof rec)) {
        df__nnue_fail(err, DF_NNUE_ERR_IO, 0, w->entries - 1, "the output could not be written");
        return DF_ERR_IO;
    }
    df__nnue_lost(w, (e->move != DF_MOVE_NONE ? DF__LOST_MOVE : 0) |
                         (us == DF_BLACK ? DF__LOST_SIDE : 0) |
                         (b->castling ? DF__LOST_CASTLING : 0) |
                         (df_nnue_entry_ep(e) != DF_SQUARE_NONE ? DF__LOST_EP : 0) |
                         (b->halfmove ? DF__LOST_HALFMOVE : 0) |
                         (b->fullmove != 1 ? DF__LOST_FULLMOVE : 0) | (e->ply ? DF__LOST_PLY : 0));
    return DF_OK;
}
