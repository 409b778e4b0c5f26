/* SPDX-License-Identifier: MIT */
/* Move notation: UCI (long algebraic) and SAN, written and read against the legal moves. */
#include <string.h>

#include "dirfill.h"
#include "make_move.h"

static const char df__piece_letters[] = "PNBRQK";

/* The square where the king lands, which UCI names in standard chess. */
static df_square df__castle_king_square(const df_board *b, df_move m)
{
    return df_castle_king_to(df__castling_right(df_board_stm(b), df_move_from(m), df_move_to(m)));
}

static size_t df__square_text(char *out, df_square sq)
{
    out[0] = (char)('a' + df_file_of(sq));
    out[1] = (char)('1' + df_rank_of(sq));
    return 2;
}

size_t df_move_to_uci(char out[DF_UCI_MAX], const df_board *b, df_move m)
{
    if (m == DF_MOVE_NONE) {
        memcpy(out, "0000", 5);
        return 4;
    }
    df_square to = df_move_to(m);
    if (df_move_kind_of(m) == DF_MOVE_CASTLING && !b->chess960) to = df__castle_king_square(b, m);
    size_t n = df__square_text(out, df_move_from(m));
    n += df__square_text(out + n, to);
    if (df_move_kind_of(m) == DF_MOVE_PROMOTION) out[n++] = "pnbrqk"[df_move_promotion(m)];
    out[n] = 0;
    return n;
}

/* A square from two characters, or DF_SQUARE_NONE. */
static df_square df__parse_square(const char *t)
{
    if (t[0] < 'a' || t[0] > 'h' || t[1] < '1' || t[1] > '8') return DF_SQUARE_NONE;
    return df_make_square(t[0] - 'a', t[1] - '1');
}

df_status df_move_from_uci(df_move *out, const df_board *b, const char *text, size_t len)
{
    if (!text || (len != 4 && len != 5)) return DF_ERR_MOVE;
    const df_square from = df__parse_square(text), to = df__parse_square(text + 2);
    if (from == DF_SQUARE_NONE || to == DF_SQUARE_NONE) return DF_ERR_MOVE;
    df_piece_type promo = DF_PIECE_TYPES;
    if (len == 5) {
        const char *p = memchr("nbrq", text[4], 4);
        if (!p || !text[4]) return DF_ERR_MOVE;
        promo = (df_piece_type)(DF_KNIGHT + (p - "nbrq"));
    }
    df_move_list list;
    df_generate_legal(&list, b);
    for (uint32_t i = 0; i < list.count; i++) {
        const df_move m = list.moves[i];
        if (df_move_from(m) != from || df_move_promotion(m) != promo) continue;
        const bool castling = df_move_kind_of(m) == DF_MOVE_CASTLING;
        if (df_move_to(m) == to ||
            (castling && !b->chess960 && df__castle_king_square(b, m) == to)) {
            *out = m;
            return DF_OK;
        }
    }
    return DF_ERR_MOVE;
}

/* The piece a SAN letter names (PNBRQK), else DF_PIECE_TYPES: a switch, not a memchr call
 * (the PGN reader parses a SAN per ply). */
static df_piece_type df__piece_of_letter(char c)
{
    switch (c) {
    case 'P':
        return DF_PAWN;
    case 'N':
        return DF_KNIGHT;
    case 'B':
        return DF_BISHOP;
    case 'R':
        return DF_ROOK;
    case 'Q':
        return DF_QUEEN;
    case 'K':
        return DF_KING;
    default:
        return DF_PIECE_TYPES;
    }
}

/* What a SAN text asks for. */
typedef struct {
    df_piece_type piece, promotion;
    df_square to;
    int castle;     /* 0 none, 1 king side, 2 queen side */
    int file, rank; /* disambiguation, -1 when absent */
} df__san;

static bool df__parse_san(const char *t, size_t len, df__san *s)
{
    /* Check, mate and annotation marks (a byte test: a library call per byte cost the PGN
     * reader 5 % of its time). */
    while (len &&
           (t[len - 1] == '+' || t[len - 1] == '#' || t[len - 1] == '!' || t[len - 1] == '?'))
        len--;
    *s = (df__san){DF_PAWN, DF_PIECE_TYPES, DF_SQUARE_NONE, 0, -1, -1};
    if (len && (t[0] == 'O' || t[0] == '0')) {
        /* O-O, O-O-O, or the same with zeros. */
        const char o = t[0];
        if ((len == 3 || len == 5) && t[1] == '-' && t[2] == o &&
            (len == 3 || (t[3] == '-' && t[4] == o))) {
            s->castle = len == 3 ? 1 : 2;
            return true;
        }
        return false;
    }
    size_t i = 0;
    const df_piece_type named = len ? df__piece_of_letter(t[0]) : DF_PIECE_TYPES;
    if (named != DF_PIECE_TYPES) {
        if (named == DF_PAWN) return false; /* "P" is not written */
        s->piece = named;
        i = 1;
    }
    /* A promotion suffix: "=Q" or "Q" after the destination. */
    const df_piece_type promoted = len >= 2 ? df__piece_of_letter(t[len - 1]) : DF_PIECE_TYPES;
    if (s->piece == DF_PAWN && promoted >= DF_KNIGHT && promoted <= DF_QUEEN) {
        s->promotion = promoted;
        len -= t[len - 2] == '=' ? 2 : 1;
    }
    if (len < i + 2) return false;
    s->to = df__parse_square(t + len - 2);
    if (s->to == DF_SQUARE_NONE) return false;
    size_t end = len - 2;
    if (end > i && (t[end - 1] == 'x' || t[end - 1] == ':')) end--;
    for (; i < end; i++) {
        if (t[i] >= 'a' && t[i] <= 'h' && s->file < 0 && s->rank < 0)
            s->file = t[i] - 'a';
        else if (t[i] >= '1' && t[i] <= '8' && s->rank < 0)
            s->rank = t[i] - '1';
        else
            return false;
    }
    return true;
}

/* The origins the SAN names for a piece moving to s->to (before legality): pawns by their push
 * or capture geometry, pieces by the squares their kind attacks to from. */
static df_bb df__san_origins(const df_board *b, const df__san *s, df_color us)
{
    const df_bb own = b->color[us], occ = df_board_occupied(b);
    const df_square to = s->to;
    df_bb from;
    if (s->piece == DF_PAWN) {
        const df_bb pawns = own & b->piece[DF_PAWN];
        const int push = df_pawn_push_delta(us);
        if (s->file >= 0 && s->file != df_file_of(to)) {
            from = df_pawn_table[us ^ 1][to] & pawns & df_file_bb(s->file);
        } else {
            const int one = (int)to - push;
            if (one < 0 || one > 63) return 0;
            from = df_square_bb((df_square)one) & pawns;
            if (!from && !df_has(occ, (df_square)one) && df_has(df_relative_rank_bb(us, 3), to))
                from = df_square_bb((df_square)(one - push)) & pawns;
        }
        return from & (s->rank >= 0 ? df_rank_bb(s->rank) : DF_FULL);
    }
    switch (s->piece) {
    case DF_KNIGHT:
        from = df_knight_table[to];
        break;
    case DF_BISHOP:
        from = df_square_bishop_attacks(to, occ);
        break;
    case DF_ROOK:
        from = df_square_rook_attacks(to, occ);
        break;
    case DF_QUEEN:
        from = df_square_queen_attacks(to, occ);
        break;
    default:
        from = df_king_table[to];
    }
    from &= own & b->piece[s->piece];
    if (s->file >= 0) from &= df_file_bb(s->file);
    if (s->rank >= 0) from &= df_rank_bb(s->rank);
    return from;
}

/* Whether the destination suits the move s names, which df__san_origins leaves to the caller:
 * not one of our pieces nor the enemy king; a pawn's push onto an empty square, its capture
 * onto an enemy piece (en passant: checked by df_move_is_legal). */
static bool df__san_target_ok(const df_board *b, const df__san *s, df_move_kind kind)
{
    const df_color us = df_board_stm(b);
    const df_bb enemy = b->color[us ^ 1];
    if (df_has(b->color[us] | (enemy & b->piece[DF_KING]), s->to)) return false;
    if (s->piece != DF_PAWN || kind == DF_MOVE_EN_PASSANT) return true;
    const bool capture = s->file >= 0 && s->file != df_file_of(s->to);
    return df_has(enemy, s->to) == capture;
}

/* What decides whether a move of a piece other than the king leaves the king safe, found once
 * per position as Stockfish finds it: the checkers, and our pieces pinned by the enemy
 * sliders on the king's lines (each the only piece between such a slider and the king). Not
 * in check, a piece that is not pinned may go anywhere it can go; a pinned one only along the
 * line of its pin. */
typedef struct {
    df_square king;
    df_bb checkers, pinned;
} df__king_guard;

static df__king_guard df__guard(const df_board *b, df_color us)
{
    const df_bb enemy = b->color[us ^ 1], occ = df_board_occupied(b);
    const df_square k = df_board_king(b, us);
    df__king_guard g = {k, 0, 0};
    g.checkers = enemy & ((df_knight_table[k] & b->piece[DF_KNIGHT]) |
                          (df_pawn_table[us][k] & b->piece[DF_PAWN]));
    const df_bb queens = b->piece[DF_QUEEN];
    for (df_bb snipers = enemy & ((df_orthogonal_lines(k) & (b->piece[DF_ROOK] | queens)) |
                                  (df_diagonal_lines(k) & (b->piece[DF_BISHOP] | queens)));
         snipers;) {
        const df_square sq = df_pop_lsb(&snipers);
        const df_bb between = df_between(k, sq) & occ;
        if (!between)
            g.checkers |= df_square_bb(sq);
        else if (!(between & (between - 1)))
            g.pinned |= between & b->color[us];
    }
    return g;
}

/* The move a castling SAN names (DF_MOVE_NONE when the right is not held). */
static df_move df__san_castling(const df_board *b, int side)
{
    const df_color us = df_board_stm(b);
    const int r = 2 * (int)us + (side == 2);
    if (!((b->castling >> r) & 1)) return DF_MOVE_NONE;
    return df_move_make(df_board_king(b, us), (df_square)b->castle_rook[r], DF_MOVE_CASTLING,
                        DF_PAWN);
}

size_t df_move_to_san(char out[DF_SAN_MAX], const df_board *b, df_move m)
{
    const df_square from = df_move_from(m), to = df_move_to(m);
    const df_move_kind kind = df_move_kind_of(m);
    size_t n = 0;
    if (kind == DF_MOVE_CASTLING) {
        const char *text = to > from ? "O-O" : "O-O-O";
        n = strlen(text);
        memcpy(out, text, n);
    } else {
        const df_piece_type type = df_board_type_at(b, from);
        const bool capture = df_move_is_capture(b, m);
        if (type == DF_PAWN) {
            if (capture) {
                out[n++] = (char)('a' + df_file_of(from));
                out[n++] = 'x';
            }
        } else {
            out[n++] = df__piece_letters[type];
            /* Other pieces of this type that can legally go to the same square. */
            const df__san same = {type, DF_PIECE_TYPES, to, 0, -1, -1};
            df_bb rivals = 0;
            for (df_bb f = df__san_origins(b, &same, df_board_stm(b)) & ~df_square_bb(from); f;) {
                const df_square s = df_pop_lsb(&f);
                if (df_move_is_legal(b, df_move_make(s, to, DF_MOVE_NORMAL, DF_PAWN)))
                    rivals |= df_square_bb(s);
            }
            if (rivals) {
                const bool file_clash = rivals & df_file_bb(df_file_of(from));
                const bool rank_clash = rivals & df_rank_bb(df_rank_of(from));
                if (!file_clash || rank_clash) out[n++] = (char)('a' + df_file_of(from));
                if (file_clash) out[n++] = (char)('1' + df_rank_of(from));
            }
            if (capture) out[n++] = 'x';
        }
        n += df__square_text(out + n, to);
        if (kind == DF_MOVE_PROMOTION) {
            out[n++] = '=';
            out[n++] = df__piece_letters[df_move_promotion(m)];
        }
    }
    df_board child;
    df__make_move(&child, b, m, false);
    if (df_checkers(&child)) out[n++] = df_count_legal(&child) ? '+' : '#';
    out[n] = 0;
    return n;
}

/* The legal moves text matches: 0, 1 (*found) or more; -1 when the text is malformed. The
 * candidates come from the named piece's geometry and each is checked by df_move_is_legal:
 * no move generation (SAN disambiguates among legal moves only, so a pinned twin is no
 * rival). */
static int df__san_candidates(const df_board *b, const char *text, size_t len, df_move *found)
{
    df__san s;
    if (!text || len > 16 || !df__parse_san(text, len, &s)) return -1;
    if (s.castle) {
        const df_move m = df__san_castling(b, s.castle);
        if (m == DF_MOVE_NONE || !df_move_is_legal(b, m)) return 0;
        *found = m;
        return 1;
    }
    const df_color us = df_board_stm(b);
    const bool last = df_has(df_relative_rank_bb(us, 7), s.to);
    if (s.piece != DF_PAWN && s.promotion != DF_PIECE_TYPES) return 0;
    if (s.piece == DF_PAWN && last != (s.promotion != DF_PIECE_TYPES)) return 0;
    df_move_kind kind = last && s.piece == DF_PAWN ? DF_MOVE_PROMOTION : DF_MOVE_NORMAL;
    if (s.piece == DF_PAWN && s.to == b->ep && s.file >= 0 && s.file != df_file_of(s.to))
        kind = DF_MOVE_EN_PASSANT;
    df_bb from = df__san_origins(b, &s, us);
    if (!from || !df__san_target_ok(b, &s, kind)) return 0;
    /* Most SANs name one piece that is neither pinned nor moving out of check: legal from the
     * king's guard alone, without walking rays (the PGN reader resolves a SAN per ply). */
    const df__king_guard g = df__guard(b, us);
    int matches = 0;
    while (from) {
        const df_square f = df_pop_lsb(&from);
        const df_move m = df_move_make(f, s.to, kind, s.promotion);
        const bool legal = s.piece == DF_KING || kind == DF_MOVE_EN_PASSANT || g.checkers
                               ? df_move_is_legal(b, m)
                               : !df_has(g.pinned, f) || df_has(df_line(g.king, f), s.to);
        if (legal) {
            *found = m;
            matches++;
        }
    }
    return matches;
}

df_status df_move_from_san(df_move *out, const df_board *b, const char *text, size_t len)
{
    df_move found = DF_MOVE_NONE;
    if (df__san_candidates(b, text, len, &found) != 1) return DF_ERR_MOVE;
    *out = found;
    return DF_OK;
}

const char *df_move_from_san_error(const df_board *b, const char *text, size_t len)
{
    df_move found;
    const int n = df__san_candidates(b, text, len, &found);
    return n < 0 ? "not SAN" : n == 0 ? "illegal" : n > 1 ? "ambiguous" : NULL;
}
