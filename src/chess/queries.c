/* SPDX-License-Identifier: MIT */
/* Square-centric queries (the Chess Programming Wiki's "Square Attacked By"). */
#include "lookup/lookup.h"

df_bb df_piece_attacks(df_square sq, df_bb occ, df_piece_type type, df_color color)
{
    assert((unsigned)sq < 64 && (unsigned)type < DF_PIECE_TYPES && (unsigned)color < DF_COLORS);
    switch (type) {
    case DF_PAWN:
        return df_pawn_table[color & 1][sq];
    case DF_KNIGHT:
        return df_knight_table[sq];
    case DF_BISHOP:
        return df_square_bishop_attacks(sq, occ);
    case DF_ROOK:
        return df_square_rook_attacks(sq, occ);
    case DF_QUEEN:
        return df_square_queen_attacks(sq, occ);
    case DF_KING:
        return df_king_table[sq];
    default:
        return 0;
    }
}

/* A slider attacks along its lines when nothing stands strictly between. */
bool df_piece_attacks_square(df_square from, df_square to, df_bb occ, df_piece_type type,
                             df_color color)
{
    assert((unsigned)from < 64 && (unsigned)to < 64);
    const df_bb t = df_square_bb(to);
    const bool clear = from != to && (df_between(from, to) & occ) == 0;
    switch (type) {
    case DF_BISHOP:
        return clear && (df_diagonal_lines(from) & t);
    case DF_ROOK:
        return clear && (df_orthogonal_lines(from) & t);
    case DF_QUEEN:
        return clear && ((df_diagonal_lines(from) | df_orthogonal_lines(from)) & t);
    default:
        return (df_piece_attacks(from, occ, type, color) & t) != 0;
    }
}

/* One-square queries: the lookup method chosen for this CPU (src/lookup/). */
df_bb df_attackers_to(const df_board *b, df_square sq, df_bb occ)
{
    assert(b && (unsigned)sq < 64);
    return df__lookup_active()->attackers_to(b, sq, occ);
}

void df_attackers_to_all(df_bb out[64], const df_board *b)
{
    assert(out && b);
    df__lookup_active()->attackers_to_all(out, b);
}

bool df_is_attacked(const df_board *b, df_square sq, df_color by, df_bb occ)
{
    assert(b && (unsigned)sq < 64 && (unsigned)by < DF_COLORS);
    return df__lookup_active()->is_attacked(b, sq, by, occ);
}
