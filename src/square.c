/* Square-centric queries (seed "Square Attacked By") and check detection by move
 * (seed "Checks and Pinned Pieces": Direct Check, Discovered Check). */
#include "dirfill/board.h"

df_bb df_attackers_to(const df_board *b, int sq, df_bb occ)
{
    const df_bb s = df_square_bb(sq);
    const df_bb pawns = b->piece[DF_PAWN];
    return (df_pawn_any_attacks(s, DF_WHITE) & pawns & b->color[DF_BLACK]) |
           (df_pawn_any_attacks(s, DF_BLACK) & pawns & b->color[DF_WHITE]) |
           (df_knight_attacks(s) & b->piece[DF_KNIGHT]) | (df_king_attacks(s) & b->piece[DF_KING]) |
           (df_square_rook_attacks(sq, occ) & (b->piece[DF_ROOK] | b->piece[DF_QUEEN])) |
           (df_square_bishop_attacks(sq, occ) & (b->piece[DF_BISHOP] | b->piece[DF_QUEEN]));
}

bool df_is_attacked(const df_board *b, int sq, int by, df_bb occ)
{
    const df_bb s = df_square_bb(sq), them = b->color[by & 1];
    if (df_pawn_any_attacks(s, (by & 1) ^ 1) & them & b->piece[DF_PAWN]) return true;
    if (df_knight_attacks(s) & them & b->piece[DF_KNIGHT]) return true;
    if (df_king_attacks(s) & them & b->piece[DF_KING]) return true;
    const df_bb queens = b->piece[DF_QUEEN];
    if (df_square_bishop_attacks(sq, occ) & them & (b->piece[DF_BISHOP] | queens)) return true;
    return (df_square_rook_attacks(sq, occ) & them & (b->piece[DF_ROOK] | queens)) != 0;
}

/* A slider attacks along its lines when nothing stands strictly between. */
bool df_attacks_square(int type, int color, int from, int to, df_bb occ)
{
    const df_bb t = df_square_bb(to), f = df_square_bb(from);
    const bool clear = from != to && (df_between(from, to) & occ) == 0;
    switch (type) {
    case DF_PAWN:
        return (df_pawn_any_attacks(f, color & 1) & t) != 0;
    case DF_KNIGHT:
        return (df_knight_attacks(f) & t) != 0;
    case DF_KING:
        return (df_king_attacks(f) & t) != 0;
    case DF_BISHOP:
        return clear && (df_diagonal_lines(from) & t);
    case DF_ROOK:
        return clear && (df_orthogonal_lines(from) & t);
    case DF_QUEEN:
        return clear && ((df_diagonal_lines(from) | df_orthogonal_lines(from)) & t);
    default:
        return false;
    }
}

int df_gives_check(const df_board *b, int from, int to, int promotion)
{
    const int us = b->stm, eksq = df_board_king(b, us ^ 1);
    const df_bb own = b->color[us];
    int type = df_board_type_at(b, from);
    df_bb moved = df_square_bb(from) | df_square_bb(to);
    df_bb occ = (df_board_occupied(b) & ~df_square_bb(from)) | df_square_bb(to);
    int result = DF_CHECK_NONE;

    if (type == DF_PAWN && to == b->ep) occ &= ~df_square_bb(us ? to + 8 : to - 8);
    if (type == DF_KING && (to - from == 2 || from - to == 2)) {
        int rook_from = to > from ? from + 3 : from - 4, rook_to = (from + to) / 2;
        occ = (occ & ~df_square_bb(rook_from)) | df_square_bb(rook_to);
        moved |= df_square_bb(rook_from) | df_square_bb(rook_to);
        if (df_attacks_square(DF_ROOK, us, rook_to, eksq, occ)) result |= DF_CHECK_DIRECT;
    }
    if (promotion >= DF_KNIGHT && promotion <= DF_QUEEN) type = promotion;
    if (df_attacks_square(type, us, to, eksq, occ)) result |= DF_CHECK_DIRECT;

    const df_bb others = own & ~moved;
    const df_bb rq = others & (b->piece[DF_ROOK] | b->piece[DF_QUEEN]);
    const df_bb bq = others & (b->piece[DF_BISHOP] | b->piece[DF_QUEEN]);
    if ((df_square_rook_attacks(eksq, occ) & rq) | (df_square_bishop_attacks(eksq, occ) & bq))
        result |= DF_CHECK_DISCOVERED;
    return result;
}

void df_attack_bytes(uint8_t out[64], const df_attack_map *m)
{
    const df_bb pawn = m->by_type[DF_ATK_PAWN_EAST] | m->by_type[DF_ATK_PAWN_WEST];
    const df_bb minor = m->by_type[DF_ATK_KNIGHT] | m->by_type[DF_ATK_BISHOP];
    for (int sq = 0; sq < 64; sq++) {
        int n = df_attack_count(m, sq);
        out[sq] = (uint8_t)((n > DF_EDB_COUNT ? DF_EDB_COUNT : n) |
                            (((pawn >> sq) & 1) ? DF_EDB_PAWN : 0) |
                            (((minor >> sq) & 1) ? DF_EDB_MINOR : 0) |
                            (((m->by_type[DF_ATK_ROOK] >> sq) & 1) ? DF_EDB_ROOK : 0) |
                            (((m->by_type[DF_ATK_QUEEN] >> sq) & 1) ? DF_EDB_QUEEN : 0) |
                            (((m->by_type[DF_ATK_KING] >> sq) & 1) ? DF_EDB_KING : 0));
    }
}
