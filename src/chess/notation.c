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

/* What a byte of SAN text can be: a piece letter (DF__SAN_LETTER, its type in the low bits;
 * a byte that is no letter reads as a pawn), a check or annotation mark, a capture mark. One
 * load per byte where comparisons would branch. */
enum { DF__SAN_TYPE = 7, DF__SAN_LETTER = 8, DF__SAN_SUFFIX = 16, DF__SAN_CAPTURE = 32 };
static const unsigned char df__san_byte[256] = {['P'] = DF__SAN_LETTER | DF_PAWN,
                                                ['N'] = DF__SAN_LETTER | DF_KNIGHT,
                                                ['B'] = DF__SAN_LETTER | DF_BISHOP,
                                                ['R'] = DF__SAN_LETTER | DF_ROOK,
                                                ['Q'] = DF__SAN_LETTER | DF_QUEEN,
                                                ['K'] = DF__SAN_LETTER | DF_KING,
                                                ['+'] = DF__SAN_SUFFIX,
                                                ['#'] = DF__SAN_SUFFIX,
                                                ['!'] = DF__SAN_SUFFIX,
                                                ['?'] = DF__SAN_SUFFIX,
                                                ['x'] = DF__SAN_CAPTURE,
                                                [':'] = DF__SAN_CAPTURE};

static unsigned df__san_class(char c) { return df__san_byte[(unsigned char)c]; }

/* What a SAN text asks for. */
typedef struct {
    df_piece_type piece, promotion;
    df_square to;
    int castle;     /* 0 none, 1 king side, 2 queen side */
    int file, rank; /* disambiguation, -1 when absent */
} df__san;

/* Reads [piece][file][rank][x|:]square[[=]promotion] followed by any of + # ! ?, or castling
 * with O or 0. Bytes are classed by one table load, not by chains of comparisons, and the
 * capture mark is dropped by a select: the PGN reader's moves vary in shape from one ply to
 * the next with no pattern a branch predictor could learn. */
static inline bool df__parse_san(const char *t, size_t len, df__san *s)
{
    while (len && (df__san_class(t[len - 1]) & DF__SAN_SUFFIX)) len--;
    *s = (df__san){DF_PAWN, DF_PIECE_TYPES, DF_SQUARE_NONE, 0, -1, -1};
    if (len < 2) return false;
    if (t[0] == 'O' || t[0] == '0') {
        /* O-O, O-O-O, or the same with zeros. */
        const char o = t[0];
        if ((len == 3 || len == 5) && t[1] == '-' && t[2] == o &&
            (len == 3 || (t[3] == '-' && t[4] == o))) {
            s->castle = len == 3 ? 1 : 2;
            return true;
        }
        return false;
    }
    const unsigned first = df__san_class(t[0]);
    if (first == (DF__SAN_LETTER | DF_PAWN)) return false; /* "P" is not written */
    size_t i = (first & DF__SAN_LETTER) != 0;
    s->piece = (df_piece_type)(first & DF__SAN_TYPE);
    /* A pawn's promotion: "=Q" or "Q" after the destination, found by one comparison that is
     * rarely true (after a piece letter, promoted is out of range). */
    const unsigned promoted =
        (df__san_class(t[len - 1]) - (DF__SAN_LETTER | DF_KNIGHT)) | -(unsigned)i;
    if (promoted <= DF_QUEEN - DF_KNIGHT) {
        s->promotion = (df_piece_type)(promoted + DF_KNIGHT);
        len -= t[len - 2] == '=' ? 2 : 1;
    }
    if (len < i + 2) return false;
    const unsigned to_file = (unsigned char)t[len - 2] - (unsigned)'a';
    const unsigned to_rank = (unsigned char)t[len - 1] - (unsigned)'1';
    if ((to_file | to_rank) > 7) return false;
    s->to = df_make_square((int)to_file, (int)to_rank);
    /* The capture mark before the destination: with nothing between the piece letter and the
     * destination, t[end] is the destination's file, never a mark. */
    size_t end = len - 2;
    end -= (df__san_class(t[end - (end > i)]) & DF__SAN_CAPTURE) != 0;
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

/* The squares a rook, a bishop and a queen reach from each square on an empty board, as
 * constants (DF_DIAGONAL_OF would branch), and with the knight's and the king's tables, the
 * reach of each piece by its type: one load where a switch on the piece would be
 * mispredicted, as the PGN reader's SANs name the pieces in no order a predictor learns.
 * Pawns have none: where they come from depends on their colour and on whether they capture. */
#define DF__ORTHOGONAL(s)                                                                          \
    (((DF_FILE_A << ((s)&7)) | (DF_RANK_1 << ((s)&56))) ^ (UINT64_C(1) << (s)))
#define DF__DIAGONAL(s) ((DF_DIAGONAL_OF(s) | DF_ANTI_DIAGONAL_OF(s)) ^ (UINT64_C(1) << (s)))
#define DF__QUEEN(s)    (DF__ORTHOGONAL(s) | DF__DIAGONAL(s))
#define DF__BOARD8(F, r)                                                                           \
    F(8 * (r)), F(8 * (r) + 1), F(8 * (r) + 2), F(8 * (r) + 3), F(8 * (r) + 4), F(8 * (r) + 5),    \
        F(8 * (r) + 6), F(8 * (r) + 7)
#define DF__BOARD(F)                                                                               \
    {                                                                                              \
        DF__BOARD8(F, 0), DF__BOARD8(F, 1), DF__BOARD8(F, 2), DF__BOARD8(F, 3), DF__BOARD8(F, 4),  \
            DF__BOARD8(F, 5), DF__BOARD8(F, 6), DF__BOARD8(F, 7)                                   \
    }
static const df_bb df__rook_reach[64] = DF__BOARD(DF__ORTHOGONAL);
static const df_bb df__bishop_reach[64] = DF__BOARD(DF__DIAGONAL);
static const df_bb df__queen_reach[64] = DF__BOARD(DF__QUEEN);
static const df_bb *const df__reach[DF_PIECE_TYPES] = {
    NULL, df_knight_table, df__bishop_reach, df__rook_reach, df__queen_reach, df_king_table};

/* The pieces of type t (not a pawn) of the side to move that reach to through occ, before
 * legality: a slider's path must be empty (a leaper's is: it has no squares between). */
static inline df_bb df__piece_origins(const df_board *b, df_piece_type t, df_square to, df_bb occ)
{
    df_bb origins = 0;
    for (df_bb c = df__reach[t][to] & b->color[df_board_stm(b)] & b->piece[t]; c;) {
        const df_square f = df_pop_lsb(&c);
        origins |= df_square_bb(f) & -(df_bb) !(df_between(f, to) & occ);
    }
    return origins;
}

/* Whether our king on ksq is unattacked once the board holds occ and the enemy pieces enemy
 * (a captured piece removed): what df_move_is_legal decides last, its other conditions being
 * those the origins hold. Each enemy piece that could reach ksq on an empty board reaches it
 * when nothing stands between (a leaper never has squares between). There are most often none
 * to two such pieces, a number that varies from ply to ply: those two, the lowest and the
 * highest, are looked at without a loop or a branch. */
static inline __attribute__((always_inline)) bool
df__san_king_safe(const df_board *b, df_color us, df_square ksq, df_bb occ, df_bb enemy)
{
    const df_bb queens = b->piece[DF_QUEEN];
    df_bb attackers = enemy & ((df__rook_reach[ksq] & (b->piece[DF_ROOK] | queens)) |
                               (df__bishop_reach[ksq] & (b->piece[DF_BISHOP] | queens)) |
                               (df_knight_table[ksq] & b->piece[DF_KNIGHT]) |
                               (df_pawn_table[us][ksq] & b->piece[DF_PAWN]) |
                               (df_king_table[ksq] & b->piece[DF_KING]));
    const df_bb rest = attackers & (attackers - 1);
    if (rest & (rest - 1)) {
        while (attackers)
            if (!(df_between(ksq, df_pop_lsb(&attackers)) & occ)) return false;
        return true;
    }
    const df_square low = df_lsb(attackers | (UINT64_C(1) << 63)), high = df_msb(attackers | 1);
    const df_bb blocked = ((df_bb)((df_between(ksq, low) & occ) != 0) << low) |
                          ((df_bb)((df_between(ksq, high) & occ) != 0) << high);
    return !(attackers & ~blocked);
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
            df_bb rivals = 0;
            for (df_bb f =
                     df__piece_origins(b, type, to, df_board_occupied(b)) & ~df_square_bb(from);
                 f;) {
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
 * candidates come from the named piece's geometry, and each is legal when the king is safe
 * after it: no move generation (SAN disambiguates among legal moves only, so a pinned twin is
 * no rival). Inlined into both callers: the PGN reader resolves a SAN per ply. */
static inline __attribute__((always_inline)) int
df__san_candidates(const df_board *b, const char *text, size_t len, df_move *found)
{
    df__san s;
    if (!text || len > 16 || !df__parse_san(text, len, &s)) return -1;
    if (s.castle) {
        const df_move m = df__san_castling(b, s.castle);
        if (m == DF_MOVE_NONE || !df_move_is_legal(b, m)) return 0;
        *found = m;
        return 1;
    }
    const df_color us = df_board_stm(b), them = (df_color)(us ^ 1);
    const df_bb own = b->color[us], enemy = b->color[them], occ = own | enemy;
    const df_square to = s.to;
    const df_bb target = df_square_bb(to);
    /* Never onto one of our pieces or the enemy king. */
    if ((own | (enemy & b->piece[DF_KING])) & target) return 0;
    df_move_kind kind = DF_MOVE_NORMAL;
    df_bb from, captured = enemy & target;
    if (s.piece == DF_PAWN) {
        const bool last = df_has(df_relative_rank_bb(us, 7), to);
        if (last != (s.promotion != DF_PIECE_TYPES)) return 0;
        if (last) kind = DF_MOVE_PROMOTION;
        const df_bb pawns = own & b->piece[DF_PAWN];
        if (s.file >= 0 && s.file != df_file_of(to)) {
            /* A capture names the file it comes from; en passant takes the pawn behind. */
            from = df_pawn_table[them][to] & pawns & df_file_bb(s.file);
            if (to == b->ep) {
                kind = DF_MOVE_EN_PASSANT;
                captured = df_square_bb(df_en_passant_victim(to));
            } else if (!captured) {
                return 0;
            }
        } else {
            if (captured) return 0;
            const int push = df_pawn_push_delta(us), one = (int)to - push;
            if (one < 0 || one > 63) return 0;
            /* A double push crosses an empty square to the fourth rank: masks, not branches, as
             * whether a pawn stands on one varies. */
            const df_bb single = df_square_bb((df_square)one) & pawns;
            const df_bb twice = df_square_bb((df_square)((one - push) & 63)) & pawns &
                                -(df_bb) !(occ & df_square_bb((df_square)one)) &
                                -(df_bb)df_has(df_relative_rank_bb(us, 3), to);
            from = single | twice;
        }
    } else {
        from = df__piece_origins(b, s.piece, to, occ);
        if (s.file >= 0) from &= df_file_bb(s.file);
    }
    if (s.rank >= 0) from &= df_rank_bb(s.rank);
    const df_square king = df_board_king(b, us);
    int matches = 0;
    while (from) {
        const df_square f = df_pop_lsb(&from);
        const df_square ksq = s.piece == DF_KING ? to : king;
        if (df__san_king_safe(b, us, ksq, (occ ^ df_square_bb(f) ^ captured) | target,
                              enemy & ~captured)) {
            *found = df_move_make(f, to, kind, s.promotion);
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
