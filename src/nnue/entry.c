/* SPDX-License-Identifier: MIT */
/* The rules every NNUE data format shares: nnue-pytorch's en-passant square, FENs with it,
 * formats by file name, which entries a writer takes, boards from a reader's parts, errors. */
#include <stdio.h>
#include <string.h>

#include "nnue/internal.h"

df_square df_nnue_ep_square(const df_board *b)
{
    const df_square ep = (df_square)b->ep;
    if (ep >= 64 || (df_rank_of(ep) != 2 && df_rank_of(ep) != 5)) return DF_SQUARE_NONE;
    const df_color us = df_board_stm(b), them = (df_color)(us ^ 1);
    const df_bb occ = df_board_occupied(b), enemy = b->color[them];
    const df_bb capturers = df_pawn_table[them][ep] & b->piece[DF_PAWN] & b->color[us];
    const df_square beyond = (df_square)(us == DF_WHITE ? ep + 8 : ep - 8);
    const df_square victim = df_en_passant_victim(ep);
    if (!capturers || df_has(occ, ep) || df_has(occ, beyond) ||
        !df_has(enemy & b->piece[DF_PAWN], victim))
        return DF_SQUARE_NONE;
    /* Only a slider can be uncovered: the pawn that just moved is the one other checker a
     * reachable position can have, and the capture removes it. */
    const df_square ksq = df_board_king(b, us);
    const df_bb diagonal = enemy & (b->piece[DF_BISHOP] | b->piece[DF_QUEEN]);
    const df_bb orthogonal = enemy & (b->piece[DF_ROOK] | b->piece[DF_QUEEN]);
    if (!((diagonal | orthogonal) & (df_orthogonal_lines(ksq) | df_diagonal_lines(ksq)))) return ep;
    for (df_bb from = capturers; from;) {
        const df_bb after =
            ((occ ^ df_square_bb(df_pop_lsb(&from))) | df_square_bb(ep)) ^ df_square_bb(victim);
        if (!(df_square_bishop_attacks(ksq, after) & diagonal) &&
            !(df_square_rook_attacks(ksq, after) & orthogonal))
            return ep;
    }
    return DF_SQUARE_NONE;
}

/* Whether b's castling rights are standard chess's: king on e1/e8, rooks in the corners. */
static bool standard_castling(const df_board *b);

/* b's FEN with ep as its en-passant field. */
static size_t fen_with_ep(char *buf, size_t size, const df_board *b, df_square ep)
{
    df_board shown = *b;
    shown.ep = (uint8_t)ep;
    /* A Chess960 position whose rights are king e1/e8 and corner rooks is written as the formats
     * hold it, KQkq, which every reader of .plain reads (nnue-pytorch's takes no other letters). */
    if (standard_castling(b)) shown.chess960 = 0;
    return df_fen_format(buf, size, &shown, DF_FEN_STANDARD);
}

size_t df_nnue_fen(char *buf, size_t size, const df_board *b)
{
    return fen_with_ep(buf, size, b, df_nnue_ep_square(b));
}

/* The field was added where the struct had padding: arrays of entries keep their layout. */
struct df__nnue_entry_before_ep_as_stored {
    df_board pos;
    df_move move;
    int16_t score;
    uint16_t ply;
    int8_t result;
};
_Static_assert(sizeof(df_nnue_entry) == sizeof(struct df__nnue_entry_before_ep_as_stored),
               "df_nnue_entry.ep_as_stored must fit in the struct's padding");

df_square df_nnue_entry_ep(const df_nnue_entry *e)
{
    /* nnue-pytorch's stem decoder sets the square unchecked (setEpSquareUnchecked), and
     * Stockfish's data generator stores one wherever an enemy pawn stands next to the pushed
     * pawn, pinned or not: such real data keeps its square, as their reader and writer keep it.
     * Every other position goes through their nullifyEpSquareIfNotPossible. */
    if (e->ep_as_stored) return e->pos.ep < 64 ? (df_square)e->pos.ep : DF_SQUARE_NONE;
    return df_nnue_ep_square(&e->pos);
}

size_t df_nnue_entry_fen(char *buf, size_t size, const df_nnue_entry *e)
{
    return fen_with_ep(buf, size, &e->pos, df_nnue_entry_ep(e));
}

static bool ends_with(const char *s, size_t n, const char *suffix)
{
    const size_t m = strlen(suffix);
    return n >= m && !memcmp(s + n - m, suffix, m);
}

bool df_nnue_format_of(df_nnue_format *out, const char *path)
{
    static const char *const extensions[DF_NNUE_FORMATS] = {".binpack", ".plain",  ".bin", ".pgn",
                                                            ".bf",      ".marlin", ".vf",  ".txt"};
    if (!out || !path) return false;
    size_t n = strlen(path);
    if (ends_with(path, n, ".zst"))
        n -= 4;
    else if (ends_with(path, n, ".gz"))
        n -= 3;
    for (int f = 0; f < DF_NNUE_FORMATS; f++)
        if (ends_with(path, n, extensions[f])) {
            *out = (df_nnue_format)f;
            return true;
        }
    return false;
}

void df__nnue_fail(df_nnue_error *err, df_nnue_error_kind kind, uint64_t offset, uint64_t where,
                   const char *fmt, ...)
{
    if (!err) return;
    err->kind = kind;
    err->offset = offset;
    err->where = where;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

static bool standard_castling(const df_board *b)
{
    for (int r = 0; r < DF_CASTLE_RIGHTS; r++) {
        if (!(b->castling >> r & 1)) continue;
        const df_color c = (df_color)(r >> 1);
        const df_square rook = (df_square)b->castle_rook[r];
        if (df_board_king(b, c) != (c ? DF_E8 : DF_E1) ||
            rook != (df_square)(c ? (r & 1 ? DF_A8 : DF_H8) : (r & 1 ? DF_A1 : DF_H1)))
            return false;
    }
    return true;
}

bool df__nnue_has_moves(df_nnue_format format)
{
    return format != DF_NNUE_BULLETFORMAT && format != DF_NNUE_MARLINFORMAT &&
           format != DF_NNUE_BULLET_TEXT;
}

bool df__nnue_holds_960(df_nnue_format format)
{
    return format >= DF_NNUE_BULLETFORMAT && format < DF_NNUE_FORMATS;
}

const char *df__nnue_unwritable(const df_nnue_entry *e, df_nnue_format format,
                                df_nnue_error_kind *kind)
{
    *kind = DF_NNUE_ERR_POSITION;
    if (!df_board_is_valid(&e->pos)) return "not a valid board";
    const char *bad = df__nnue_position_error(&e->pos);
    if (bad) return bad;
    *kind = DF_NNUE_ERR_UNENCODABLE;
    if (e->pos.chess960 && !standard_castling(&e->pos) && !df__nnue_holds_960(format))
        return "a Chess960 castling right (this format knows only king e1/e8 with a corner rook)";
    if (e->move == DF_MOVE_NONE && df__nnue_has_moves(format))
        return "no move (its input stores none), and this format stores the move played";
    *kind = DF_NNUE_ERR_ILLEGAL;
    if (e->move != DF_MOVE_NONE && !df_move_is_legal(&e->pos, e->move))
        return "its move is not legal in its position";
    *kind = DF_NNUE_ERR_FIELD;
    if (e->result < -1 || e->result > 1) return "its result is not -1, 0 or 1";
    *kind = DF_NNUE_ERR_NONE;
    return NULL;
}

const char *df__nnue_position_error(const df_board *b)
{
    static char many[64]; /* written only for a count no board of the formats has */
    const int pieces = df_popcount(df_board_occupied(b));
    if (pieces > DF_NNUE_PIECES_MAX) {
        snprintf(many, sizeof many, "%d pieces (the formats hold at most %d)", pieces,
                 DF_NNUE_PIECES_MAX);
        return many;
    }
    if (!df_board_playable(b)) return "the side not to move is in check";
    return NULL;
}

const char *df__nnue_board(df_board *out, const df_board_parts *parts)
{
    for (int c = 0; c < DF_COLORS; c++) {
        const df_bb kings = parts->pieces[df_piece_index((df_color)c, DF_KING)];
        if (!kings) return c ? "no black king" : "no white king";
        if (df_more_than_one(kings)) return c ? "two black kings" : "two white kings";
    }
    if ((parts->pieces[df_piece_index(DF_WHITE, DF_PAWN)] |
         parts->pieces[df_piece_index(DF_BLACK, DF_PAWN)]) &
        (DF_RANK_1 | DF_RANK_8))
        return "a pawn on the first or last rank";
    /* Chess960 rights (MarlinFormat's) are checked by df_board_from_parts: king and rook on
     * their first rank, one rook a side. */
    for (df_bb rooks = parts->chess960 ? 0 : parts->castling_rooks; rooks;) {
        const df_square rook = df_pop_lsb(&rooks);
        const df_color c = rook >= DF_A8 ? DF_BLACK : DF_WHITE;
        if (!df_has(parts->pieces[df_piece_index(c, DF_KING)], c ? DF_E8 : DF_E1))
            return c ? "a black castling right without the king on e8"
                     : "a white castling right without the king on e1";
        if (!df_has(parts->pieces[df_piece_index(c, DF_ROOK)], rook))
            return "a castling right without its rook in the corner";
    }
    if (df_board_from_parts(out, parts) != DF_OK)
        return parts->chess960 ? "a castling right without its king and rook on their first rank"
                               : "an en-passant square not behind the pawn that made it";
    return df__nnue_position_error(out);
}
