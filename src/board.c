/* Board-level checks and construction. */
#include <string.h>

#include "dirfill.h"

bool df_board_playable(const df_board *b)
{
    const df_color us = df_board_stm(b), them = (df_color)(us ^ 1);
    return !df_is_attacked(b, df_board_king(b, them), us, df_board_occupied(b));
}

df_status df_board_from_pieces(df_board *out, const uint64_t pieces[12], df_color stm)
{
    if (!out || !pieces || (unsigned)stm >= DF_COLORS) return DF_ERR_ARGUMENT;
    df_board b;
    memset(&b, 0, sizeof b);
    df_bb seen = 0;
    for (int c = 0; c < DF_COLORS; c++)
        for (int t = 0; t < DF_PIECE_TYPES; t++) {
            const df_bb set = pieces[df_piece_index((df_color)c, (df_piece_type)t)];
            if (set & seen) return DF_ERR_BOARD;
            seen |= set;
            b.color[c] |= set;
            b.piece[t] |= set;
        }
    for (int c = 0; c < DF_COLORS; c++)
        if (df_popcount(b.color[c] & b.piece[DF_KING]) != 1) return DF_ERR_BOARD;
    if (b.piece[DF_PAWN] & (DF_RANK_1 | DF_RANK_8)) return DF_ERR_BOARD;
    b.stm = (uint8_t)stm;
    b.ep = DF_SQUARE_NONE;
    b.fullmove = 1;
    b.key = df_polyglot_key(&b);
    *out = b;
    return DF_OK;
}
