/* SPDX-License-Identifier: MIT */
/* FEN parsing and formatting. The parser reads exactly len bytes, never more, allocates
 * nothing and does not recurse: any byte string is safe input. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dirfill.h"

typedef struct {
    const char *start;
    size_t len, offset;
} df__field;

static const char *const df__field_names[] = {[DF_FEN_NO_FIELD] = "",
                                              [DF_FEN_PLACEMENT] = "piece placement",
                                              [DF_FEN_SIDE_FIELD] = "side to move",
                                              [DF_FEN_CASTLING_FIELD] = "castling",
                                              [DF_FEN_EP_FIELD] = "en passant",
                                              [DF_FEN_HALFMOVE] = "half-move clock",
                                              [DF_FEN_FULLMOVE] = "full-move number"};

/* Printable form of a byte for messages: the character itself, or \xNN. */
static void df__byte_name(char out[8], unsigned char c)
{
    if (c >= 0x20 && c < 0x7f)
        snprintf(out, 8, "'%c'", c);
    else
        snprintf(out, 8, "\\x%02x", c);
}

static df_status df__fail(df_fen_error *err, df_fen_error_kind kind, df_fen_field field,
                          size_t offset, const char *fmt, ...)
{
    if (!err) return DF_ERR_FEN;
    err->kind = kind;
    err->field = field;
    err->offset = offset;
    int n = field ? snprintf(err->message, sizeof err->message, "%s: ", df__field_names[field]) : 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message + n, sizeof err->message - (size_t)n, fmt, ap);
    va_end(ap);
    return DF_ERR_FEN;
}

static bool df__is_space(char c) { return c == ' ' || c == '\t'; }

/* Piece type of a FEN letter (upper case white), or -1. */
static int df__piece_of(unsigned char c, int *color)
{
    static const char letters[] = "pnbrqkPNBRQK";
    const char *p = c ? memchr(letters, c, 12) : NULL;
    if (!p) return -1;
    int i = (int)(p - letters);
    *color = i < 6 ? DF_BLACK : DF_WHITE;
    return i % 6;
}

static df_status df__parse_placement(df_board *b, df__field f, df_fen_error *err)
{
    int rank = 7, file = 0;
    for (size_t i = 0; i < f.len; i++) {
        unsigned char c = (unsigned char)f.start[i];
        size_t at = f.offset + i;
        if (c == '/') {
            if (file != 8)
                return df__fail(err, DF_FEN_RANK_WIDTH, DF_FEN_PLACEMENT, at,
                                "rank %d has %d files, not 8", rank + 1, file);
            if (--rank < 0)
                return df__fail(err, DF_FEN_RANK_COUNT, DF_FEN_PLACEMENT, at, "more than 8 ranks");
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
            if (file > 8)
                return df__fail(err, DF_FEN_RANK_WIDTH, DF_FEN_PLACEMENT, at,
                                "rank %d has more than 8 files", rank + 1);
        } else if (c == '0' || c == '9') {
            return df__fail(err, DF_FEN_RANK_WIDTH, DF_FEN_PLACEMENT, at,
                            "digit %c is not a count of 1 to 8 empty squares", c);
        } else {
            int color, type = df__piece_of(c, &color);
            if (type < 0) {
                char name[8];
                df__byte_name(name, c);
                return df__fail(err, DF_FEN_PIECE, DF_FEN_PLACEMENT, at, "unknown piece letter %s",
                                name);
            }
            if (file >= 8)
                return df__fail(err, DF_FEN_RANK_WIDTH, DF_FEN_PLACEMENT, at,
                                "rank %d has more than 8 files", rank + 1);
            df_bb sq = df_square_bb(df_make_square(file++, rank));
            b->color[color] |= sq;
            b->piece[type] |= sq;
        }
    }
    if (rank > 0)
        return df__fail(err, DF_FEN_RANK_COUNT, DF_FEN_PLACEMENT, f.offset + f.len,
                        "%d ranks, not 8", 8 - rank);
    if (file != 8)
        return df__fail(err, DF_FEN_RANK_WIDTH, DF_FEN_PLACEMENT, f.offset + f.len,
                        "rank %d has %d files, not 8", rank + 1, file);
    for (int c = 0; c < 2; c++) {
        int kings = df_popcount(b->color[c] & b->piece[DF_KING]);
        if (kings != 1)
            return df__fail(err, DF_FEN_KINGS, DF_FEN_PLACEMENT, f.offset,
                            "%s has %d kings, not exactly one", c ? "black" : "white", kings);
    }
    df_bb stray = b->piece[DF_PAWN] & (DF_RANK_1 | DF_RANK_8);
    if (stray) {
        int sq = df_lsb(stray);
        return df__fail(err, DF_FEN_PAWN_RANK, DF_FEN_PLACEMENT, f.offset,
                        "pawn on %c%d (first or last rank)", 'a' + df_file_of(sq),
                        df_rank_of(sq) + 1);
    }
    return DF_OK;
}

/* Records right r held with the rook on rook; a right named twice is an error. */
static df_status df__grant(df_board *b, int r, df_square rook, df__field f, size_t i,
                           df_fen_error *err)
{
    if (b->castling & (1u << r)) {
        char name[8];
        df__byte_name(name, (unsigned char)f.start[i]);
        return df__fail(err, DF_FEN_CASTLING, DF_FEN_CASTLING_FIELD, f.offset + i,
                        "%s repeats a right already given", name);
    }
    b->castling |= (uint8_t)(1u << r);
    b->castle_rook[r] = (uint8_t)rook;
    return DF_OK;
}

/* Standard chess: K Q k q, with the king and the rook on their home squares. */
static df_status df__parse_castling_standard(df_board *b, df__field f, df_fen_error *err)
{
    static const char letters[] = "KQkq";
    static const unsigned char home[DF_COLORS] = {DF_E1, DF_E8};
    static const unsigned char rook_home[DF_CASTLE_RIGHTS] = {DF_H1, DF_A1, DF_H8, DF_A8};
    for (size_t i = 0; i < f.len; i++) {
        const char *p = f.start[i] ? memchr(letters, f.start[i], 4) : NULL;
        char name[8];
        df__byte_name(name, (unsigned char)f.start[i]);
        if (!p)
            return df__fail(err, DF_FEN_CASTLING, DF_FEN_CASTLING_FIELD, f.offset + i,
                            "%s is not one of K Q k q or a lone -", name);
        const int r = (int)(p - letters), color = r >> 1;
        const df_square king = (df_square)home[color], rook = (df_square)rook_home[r];
        if (!df_has(b->color[color] & b->piece[DF_KING], king) ||
            !df_has(b->color[color] & b->piece[DF_ROOK], rook))
            return df__fail(err, DF_FEN_CASTLING, DF_FEN_CASTLING_FIELD, f.offset + i,
                            "%s needs the king on %c%d and a rook on %c%d", name,
                            'a' + df_file_of(king), df_rank_of(king) + 1, 'a' + df_file_of(rook),
                            df_rank_of(rook) + 1);
        df_status s = df__grant(b, r, rook, f, i, err);
        if (s != DF_OK) return s;
    }
    return DF_OK;
}

/* Chess960: a rook file (Shredder-FEN, A-H white, a-h black) or K Q k q for the outermost
 * rook on that side of the king (X-FEN). King and rook stand on their first rank; the side
 * of the right is the side of the king the rook stands on. */
static df_status df__parse_castling_960(df_board *b, df__field f, df_fen_error *err)
{
    for (size_t i = 0; i < f.len; i++) {
        const unsigned char c = (unsigned char)f.start[i];
        char name[8];
        df__byte_name(name, c);
        const bool upper = c == 'K' || c == 'Q' || (c >= 'A' && c <= 'H');
        const bool lower = c == 'k' || c == 'q' || (c >= 'a' && c <= 'h');
        if (!upper && !lower)
            return df__fail(err, DF_FEN_CASTLING, DF_FEN_CASTLING_FIELD, f.offset + i,
                            "%s is not a rook file (A-H, a-h), one of K Q k q, or a lone -", name);
        const df_color color = upper ? DF_WHITE : DF_BLACK;
        const df_bb first = df_relative_rank_bb(color, 0);
        const df_bb king = b->color[color] & b->piece[DF_KING] & first;
        const df_bb rooks = b->color[color] & b->piece[DF_ROOK] & first;
        if (!king)
            return df__fail(err, DF_FEN_CASTLING, DF_FEN_CASTLING_FIELD, f.offset + i,
                            "%s needs the %s king on its first rank", name,
                            color ? "black" : "white");
        const df_square ksq = df_lsb(king);
        const df_bb h_side = rooks & (DF_FULL << ksq), a_side = rooks & ~(DF_FULL << ksq);
        df_bb rook;
        const int lc = c | 0x20;
        if (lc == 'k')
            rook = h_side ? df_square_bb(df_msb(h_side)) : 0;
        else if (lc == 'q')
            rook = a_side ? df_square_bb(df_lsb(a_side)) : 0;
        else
            rook = rooks & df_file_bb(lc - 'a');
        if (!rook)
            return df__fail(err, DF_FEN_CASTLING, DF_FEN_CASTLING_FIELD, f.offset + i,
                            "%s names no %s rook on its first rank on that side of the king", name,
                            color ? "black" : "white");
        const df_square rsq = df_lsb(rook);
        df_status s = df__grant(b, 2 * (int)color + (rsq < ksq), rsq, f, i, err);
        if (s != DF_OK) return s;
    }
    return DF_OK;
}

static df_status df__parse_ep(df_board *b, df__field f, df_fen_error *err)
{
    if (f.len == 1 && f.start[0] == '-') return DF_OK;
    if (f.len != 2 || f.start[0] < 'a' || f.start[0] > 'h' || f.start[1] < '1' || f.start[1] > '8')
        return df__fail(err, DF_FEN_EN_PASSANT, DF_FEN_EP_FIELD, f.offset,
                        "not a square like e3 or -");
    int file = f.start[0] - 'a', rank = f.start[1] - '1';
    int want = b->stm == DF_WHITE ? 5 : 2;
    if (rank != want)
        return df__fail(err, DF_FEN_EN_PASSANT, DF_FEN_EP_FIELD, f.offset,
                        "%c%d is not on rank %d, where %s could capture en passant", f.start[0],
                        rank + 1, want + 1, b->stm == DF_WHITE ? "white" : "black");
    int sq = df_make_square(file, rank), pawn_sq = b->stm == DF_WHITE ? sq - 8 : sq + 8;
    int them = b->stm ^ 1;
    if (!((b->color[them] & b->piece[DF_PAWN]) >> pawn_sq & 1))
        return df__fail(err, DF_FEN_EN_PASSANT, DF_FEN_EP_FIELD, f.offset,
                        "no %s pawn on %c%d that could just have moved two squares",
                        them ? "black" : "white", 'a' + file, df_rank_of(pawn_sq) + 1);
    if (df_board_occupied(b) >> sq & 1)
        return df__fail(err, DF_FEN_EN_PASSANT, DF_FEN_EP_FIELD, f.offset, "%c%d is occupied",
                        f.start[0], rank + 1);
    /* Kept only when a pawn of the side to move stands next to the pawn (the rule df_make_move
     * follows), so that equal positions make equal boards whatever the FEN's writer did. */
    if (df_pawn_table[them][sq] & b->color[b->stm] & b->piece[DF_PAWN]) b->ep = (uint8_t)sq;
    return DF_OK;
}

static df_status df__parse_counter(uint32_t *out, df__field f, df_fen_field field,
                                   df_fen_error *err)
{
    uint64_t v = 0;
    for (size_t i = 0; i < f.len; i++) {
        unsigned char c = (unsigned char)f.start[i];
        if (c < '0' || c > '9')
            return df__fail(err, DF_FEN_COUNTER, field, f.offset + i,
                            "not an unsigned decimal integer");
        v = v * 10 + (c - '0');
        if (v > UINT32_MAX)
            return df__fail(err, DF_FEN_COUNTER, field, f.offset, "does not fit in 32 bits");
    }
    *out = (uint32_t)v;
    return DF_OK;
}

df_status df_fen_parse(df_board *out, const char *text, size_t len, df_fen_flags flags,
                       df_fen_error *err)
{
    if (err) memset(err, 0, sizeof *err);
    if (!text) len = 0;
    while (len > 0 &&
           (text[len - 1] == '\r' || text[len - 1] == '\n' || df__is_space(text[len - 1])))
        len--;
    df__field fields[7];
    int n = 0;
    for (size_t i = 0; i < len;) {
        if (df__is_space(text[i])) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < len && !df__is_space(text[j])) j++;
        if (n == 6)
            return df__fail(err, DF_FEN_FIELD_COUNT, DF_FEN_NO_FIELD, i, "more than 6 fields");
        fields[n++] = (df__field){text + i, j - i, i};
        i = j;
    }
    if (n != 4 && n != 6)
        return df__fail(err, DF_FEN_FIELD_COUNT, DF_FEN_NO_FIELD, len,
                        "%d field%s; a FEN has 6 (or 4 without the move counters)", n,
                        n == 1 ? "" : "s");

    df_board b;
    memset(&b, 0, sizeof b);
    b.ep = DF_SQUARE_NONE;
    b.fullmove = 1;
    b.chess960 = (flags & DF_FEN_CHESS960) != 0;
    df_status s = df__parse_placement(&b, fields[0], err);
    if (s != DF_OK) return s;
    if (fields[1].len != 1 || (fields[1].start[0] != 'w' && fields[1].start[0] != 'b'))
        return df__fail(err, DF_FEN_SIDE, DF_FEN_SIDE_FIELD, fields[1].offset, "not w or b");
    b.stm = fields[1].start[0] == 'b';
    if (!(fields[2].len == 1 && fields[2].start[0] == '-')) {
        s = flags & DF_FEN_CHESS960 ? df__parse_castling_960(&b, fields[2], err)
                                    : df__parse_castling_standard(&b, fields[2], err);
        if (s != DF_OK) return s;
    }
    if ((s = df__parse_ep(&b, fields[3], err)) != DF_OK) return s;
    if (n == 6) {
        if ((s = df__parse_counter(&b.halfmove, fields[4], DF_FEN_HALFMOVE, err)) != DF_OK)
            return s;
        if ((s = df__parse_counter(&b.fullmove, fields[5], DF_FEN_FULLMOVE, err)) != DF_OK)
            return s;
    }
    b.key = df_polyglot_key(&b);
    *out = b;
    return DF_OK;
}

/* Whether the side to move has a legal en-passant capture (an unplayable board has no legal
 * moves to ask about: its pseudo-legal square stands). */
static bool df__legal_ep(const df_board *b)
{
    if (!df_board_playable(b)) return true;
    df_move_list list;
    df_generate_captures(&list, b);
    for (uint32_t i = 0; i < list.count; i++)
        if (df_move_kind_of(list.moves[i]) == DF_MOVE_EN_PASSANT) return true;
    return false;
}

size_t df_fen_format(char *buf, size_t size, const df_board *b, df_fen_flags flags)
{
    static const char letters[2][7] = {"PNBRQK", "pnbrqk"};
    char tmp[DF_FEN_MAX];
    size_t n = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int gap = 0;
        for (int file = 0; file < 8; file++) {
            const df_square sq = df_make_square(file, rank);
            const df_piece_type type = df_board_type_at(b, sq);
            if (type == DF_PIECE_TYPES) {
                gap++;
                continue;
            }
            if (gap) tmp[n++] = (char)('0' + gap);
            gap = 0;
            tmp[n++] = letters[df_has(b->color[DF_BLACK], sq)][type];
        }
        if (gap) tmp[n++] = (char)('0' + gap);
        if (rank) tmp[n++] = '/';
    }
    tmp[n++] = ' ';
    tmp[n++] = b->stm ? 'b' : 'w';
    tmp[n++] = ' ';
    if (!b->castling) tmp[n++] = '-';
    for (int r = 0; r < DF_CASTLE_RIGHTS; r++) {
        if (!((b->castling >> r) & 1)) continue;
        /* Shredder-FEN names the rook's file: upper case for white. */
        const char file = (char)('a' + df_file_of((df_square)b->castle_rook[r]));
        tmp[n++] = b->chess960 ? (char)(r < 2 ? file - 32 : file) : "KQkq"[r];
    }
    tmp[n++] = ' ';
    if (b->ep >= 64 || ((flags & DF_FEN_LEGAL_EP) && !df__legal_ep(b))) {
        tmp[n++] = '-';
    } else {
        tmp[n++] = (char)('a' + df_file_of((df_square)b->ep));
        tmp[n++] = (char)('1' + df_rank_of((df_square)b->ep));
    }
    tmp[n] = 0;
    return (size_t)snprintf(buf, size, "%s %u %u", tmp, (unsigned)b->halfmove,
                            (unsigned)b->fullmove);
}
