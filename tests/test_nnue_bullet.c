/* SPDX-License-Identifier: MIT */
/* bullet's formats (binpack.h): bulletformat's ChessBoard (.bf), MarlinFormat (.marlin),
 * viriformat games (.vf) and the `FEN | score | result` text (.txt). Each format's bytes, as its
 * writer makes them, decoded by a slow reference decoder written here from the formats' documents
 * (bulletformat's README and ChessBoard, viriformat's README), and its reader's entries against
 * the same decoding, on hand-made games (castling, en passant, promotions, Black to move,
 * Chess960 starts, standard and not); round
 * trips through every pair of formats, what each loses counted field by field against
 * df_nnue_writer_losses; hostile records, each an error naming its record or game and byte,
 * the reading going on after it. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "dft.h"
#include "nnue_games.h"
#include "reference.h"
#include "splitmix64.h"

/* ---- memory as input and output ---- */

typedef struct {
    unsigned char *p;
    size_t len, cap;
} mem;

static void mem_put(mem *m, const void *data, size_t n)
{
    if (m->len + n > m->cap) {
        m->cap = (m->len + n) * 2 + 64;
        m->p = realloc(m->p, m->cap);
        assert_non_null(m->p);
    }
    memcpy(m->p + m->len, data, n);
    m->len += n;
}

static long mem_write(void *ctx, const char *buf, size_t n)
{
    mem_put(ctx, buf, n);
    return (long)n;
}

static bool moveless(df_nnue_format f)
{
    return f == DF_NNUE_BULLETFORMAT || f == DF_NNUE_MARLINFORMAT || f == DF_NNUE_BULLET_TEXT;
}

/* What a reader gave: entries, and errors with the entries read before each. */
typedef struct {
    dft_entries es;
    df_nnue_error errors[16];
    size_t before[16];
    size_t nerrors;
} readout;

static readout read_all(df_nnue_format f, const void *data, size_t len, size_t piece)
{
    dft_memory s = {data, len, 0, piece, (size_t)DFT_NEVER};
    df_nnue_reader *r = df_nnue_reader_from_function(f, dft_memory_read, &s);
    assert_non_null(r);
    readout out = {0};
    df_nnue_entry e;
    df_nnue_error err;
    df_nnue_next got;
    while ((got = df_nnue_read_next(r, &e, &err)) != DF_NNUE_END) {
        if (got == DF_NNUE_ERROR) {
            assert_true(out.nerrors < 16);
            assert_true(err.kind != DF_NNUE_ERR_NONE && err.offset <= len);
            out.before[out.nerrors] = out.es.n;
            out.errors[out.nerrors++] = err;
            continue;
        }
        assert_true(df_board_is_valid(&e.pos) && df_board_playable(&e.pos));
        assert_true(e.pos.key == df_polyglot_key(&e.pos));
        assert_true(moveless(f) ? e.move == DF_MOVE_NONE : df_move_is_legal(&e.pos, e.move));
        dft_entries_add(&out.es, &e);
    }
    df_nnue_reader_free(r);
    return out;
}

/* es written in f, each accepted; its losses into *lost (may be NULL). */
static mem write_all(df_nnue_format f, const df_nnue_entry *es, size_t n, df_nnue_losses *lost)
{
    mem out = {0};
    df_nnue_writer *w = df_nnue_writer_to_function(f, mem_write, &out);
    assert_non_null(w);
    for (size_t i = 0; i < n; i++) {
        df_nnue_error err;
        if (df_nnue_write(w, &es[i], &err) != DF_OK) fail_msg("entry %zu: %s", i, err.message);
    }
    if (lost) df_nnue_writer_losses(w, lost);
    assert_int_equal(DF_OK, df_nnue_writer_close(w));
    return out;
}

/* ---- hand-made games ---- */

static int16_t random_score(uint64_t *rng)
{
    const uint64_t r = splitmix64_next(rng);
    return r % 8 ? (int16_t)((int)((r >> 16) % 4001) - 2000) : (int16_t)(r >> 16);
}

/* The entries of a game from fen (Chess960 when c960): the UCI moves, one entry before each,
 * the plies from the FEN's move number, scores and the result (White's view) made up. */
static void line_entries(dft_entries *out, const char *fen, bool c960, int white,
                         const char *const *moves)
{
    df_board b = c960 ? dft_fen960(fen) : dft_fen(fen);
    for (int i = 0; moves[i]; i++) {
        df_nnue_entry e = {.pos = b,
                           .score = (int16_t)(41 * i - 90),
                           .ply = (uint16_t)(2 * (b.fullmove - 1) + b.stm),
                           .result = (int8_t)(b.stm ? -white : white)};
        if (df_move_from_uci(&e.move, &b, moves[i], strlen(moves[i])) != DF_OK)
            fail_msg("%s: move %d, %s, is not legal", fen, i, moves[i]);
        dft_entries_add(out, &e);
        df_make_move(&b, &b, e.move);
    }
}

/* Games through what the formats must get right: castling both ways and one right left, en
 * passant (a square kept, one taken), promotions to each piece, Black to move first, a start
 * after moves (counters not 0 and 1), a Chess960 start whose rights are standard chess's, and
 * one whose are not (king b1, rooks a1 c1). */
static dft_entries hand_made(bool with_960)
{
    dft_entries es = {0};
    line_entries(&es, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", false, 1,
                 (const char *const[]){"e1c1", "e8g8", "a2a3", "a7a6", NULL});
    line_entries(&es, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b Kq - 3 17", false, -1,
                 (const char *const[]){"e8c8", "e1g1", "h7h6", NULL});
    line_entries(&es, "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 40", false, 0,
                 (const char *const[]){"e2e4", "d4e3", "e1e2", NULL});
    line_entries(&es, "4k3/2p5/8/1P6/8/8/8/4K3 b - - 5 30", false, 0,
                 (const char *const[]){"c7c5", "b5c6", "e8e7", "c6c7", NULL});
    line_entries(&es, "1n2k3/P1P5/8/8/8/8/p1p5/1N2K3 w - - 0 1", false, 1,
                 (const char *const[]){"a7b8b", "c2c1n", "c7c8q", "e8e7", "e1f2", "a2b1r", NULL});
    line_entries(&es, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", true, -1,
                 (const char *const[]){"g1f3", "g8f6", "e2e4", NULL});
    if (with_960)
        line_entries(&es, "rkr5/pppppppp/8/8/8/8/PPPPPPPP/RKR5 w ACac - 0 1", true, 1,
                     (const char *const[]){"b1c1", "b8c8", "a2a3", NULL});
    return es;
}

/* ---- reference decoders, from the formats' documents ---- */

/* What a record says: a piece letter per square (0 empty, white upper case), the side, the
 * castling rooks, the en-passant square (-1 none), the counters, a score and result as stored. */
typedef struct {
    char board[64];
    int stm;
    df_bb castling_rooks;
    int ep, halfmove, fullmove;
    int score, result;
} ref_pos;

static unsigned nibble(const unsigned char *p, int i) { return p[8 + i / 2] >> (4 * (i % 2)) & 15; }

static uint64_t le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

/* MarlinFormat (viriformat's README): occupancy; the i-th nibble the i-th lowest occupied
 * square's piece, type in bits 0-2 (6 an unmoved rook: a castling right), black in bit 3; side in
 * bit 7 and en passant (64 none) in bits 0-6 of byte 24; half-move clock; move number; score;
 * result; a spare byte. */
static ref_pos ref_marlin(const unsigned char *rec)
{
    ref_pos p;
    memset(&p, 0, sizeof p);
    const uint64_t occ = le(rec, 8);
    int i = 0;
    for (int sq = 0; sq < 64; sq++) {
        if (!(occ >> sq & 1)) continue;
        const unsigned n = nibble(rec, i++);
        const unsigned type = n & 7;
        if (type == 6) p.castling_rooks |= UINT64_C(1) << sq;
        const char c = "pnbrqkr?"[type];
        p.board[sq] = n & 8 ? c : (char)(c - 'a' + 'A');
    }
    p.stm = rec[24] >> 7;
    p.ep = (rec[24] & 127) == 64 ? -1 : rec[24] & 127;
    p.halfmove = rec[25];
    p.fullmove = (int)le(rec + 26, 2);
    p.score = (int16_t)le(rec + 28, 2);
    p.result = rec[30];
    return p;
}

/* ChessBoard (bulletformat's chess.rs): the same occupancy and nibbles of the side to move's view
 * (bit 3: the other side's piece), its score and result (0..2), both kings' squares, 3 spare
 * bytes. As a board: "ours" white, White to move. */
static ref_pos ref_chessboard(const unsigned char *rec)
{
    ref_pos p;
    memset(&p, 0, sizeof p);
    const uint64_t occ = le(rec, 8);
    int i = 0;
    for (int sq = 0; sq < 64; sq++) {
        if (!(occ >> sq & 1)) continue;
        const unsigned n = nibble(rec, i++);
        const char c = "pnbrqk??"[n & 7];
        p.board[sq] = n & 8 ? c : (char)(c - 'a' + 'A');
        if (c == 'k') assert_int_equal(n & 8 ? (sq ^ 56) : sq, rec[n & 8 ? 28 : 27]);
    }
    p.ep = -1;
    p.fullmove = 1;
    p.score = (int16_t)le(rec + 24, 2);
    p.result = rec[26];
    return p;
}

/* Fails unless e holds what r says (score and result as the entry's, the side to move's view). */
static void assert_ref(const ref_pos *r, const df_nnue_entry *e, const char *what)
{
    char fen[DF_FEN_MAX];
    df_nnue_entry_fen(fen, sizeof fen, e);
    for (int sq = 0; sq < 64; sq++) {
        const df_piece_type t = df_board_type_at(&e->pos, (df_square)sq);
        const char c = t == DF_PIECE_TYPES ? 0 : "pnbrqk"[t];
        const char want = c && !df_has(e->pos.color[DF_BLACK], (df_square)sq) ? (char)(c - 32) : c;
        if (want != r->board[sq])
            fail_msg("%s: %s: square %d holds %c, the record %c", what, fen, sq, want ? want : '.',
                     r->board[sq] ? r->board[sq] : '.');
    }
    const df_square ep = df_nnue_entry_ep(e);
    if (r->stm != e->pos.stm || r->castling_rooks != df_board_castling_rooks(&e->pos) ||
        r->ep != (ep == DF_SQUARE_NONE ? -1 : (int)ep) ||
        (unsigned)r->halfmove != e->pos.halfmove ||
        (unsigned)(r->fullmove ? r->fullmove : 1) != e->pos.fullmove || r->score != e->score ||
        r->result != e->result)
        fail_msg("%s: %s: side %d castling %llx ep %d counters %d %d score %d result %d, the "
                 "record says %d %llx %d %d %d %d %d",
                 what, fen, e->pos.stm, (unsigned long long)df_board_castling_rooks(&e->pos),
                 ep == DF_SQUARE_NONE ? -1 : (int)ep, e->pos.halfmove, e->pos.fullmove, e->score,
                 e->result, r->stm, (unsigned long long)r->castling_rooks, r->ep, r->halfmove,
                 r->fullmove, r->score, r->result);
}

/* Our board as bulletformat sees it from the side to move: with Black to move, ranks flipped
 * and colours swapped (bit 3 the side not to move's). */
static df_board side_view(const df_board *b)
{
    if (!b->stm) return *b;
    df_board v;
    memset(&v, 0, sizeof v);
    for (int c = 0; c < 2; c++) v.color[c] = __builtin_bswap64(b->color[c ^ 1]);
    for (int t = 0; t < DF_PIECE_TYPES; t++) v.piece[t] = __builtin_bswap64(b->piece[t]);
    v.ep = DF_SQUARE_NONE;
    v.fullmove = 1;
    v.key = df_polyglot_key(&v);
    return v;
}

/* viriformat's move (its README): from in bits 0-5, to in 6-11, the promotion (knight 0 to
 * queen 3) in 12-13, the kind in 14-15: en passant 1, castling (king takes rook) 2, promotion 3. */
static df_move ref_viri_move(unsigned m, const df_board *b)
{
    const int from = m & 63, to = m >> 6 & 63, kind = m >> 14;
    char uci[8];
    snprintf(uci, sizeof uci, "%c%d%c%d", 'a' + from % 8, 1 + from / 8, 'a' + to % 8, 1 + to / 8);
    if (kind == 3) strcat(uci, (const char *[]){"n", "b", "r", "q"}[m >> 12 & 3]);
    if (kind == 2 && !b->chess960) uci[2] = to % 8 == 7 ? 'g' : 'c'; /* UCI's king move */
    df_move out;
    assert_int_equal(DF_OK, df_move_from_uci(&out, b, uci, strlen(uci)));
    assert_int_equal(kind == 1, df_move_kind_of(out) == DF_MOVE_EN_PASSANT);
    assert_int_equal(kind == 2, df_move_kind_of(out) == DF_MOVE_CASTLING);
    return out;
}

/* ---- each format against its reference decoder ---- */

static void test_chessboard_decoded(void **state)
{
    (void)state;
    dft_entries es = hand_made(true);
    df_nnue_losses lost;
    mem out = write_all(DF_NNUE_BULLETFORMAT, es.e, es.n, &lost);
    assert_int_equal(32 * es.n, out.len);
    readout r = read_all(DF_NNUE_BULLETFORMAT, out.p, out.len, 5);
    assert_int_equal(0, r.nerrors);
    assert_int_equal(es.n, r.es.n);
    size_t black = 0;
    for (size_t i = 0; i < es.n; i++) {
        const unsigned char *rec = out.p + 32 * i;
        ref_pos p = ref_chessboard(rec);
        p.result -= 1;
        assert_ref(&p, &r.es.e[i], "ChessBoard");
        /* the entry's own view: its score and result, its board seen from the side to move */
        assert_int_equal(es.e[i].score, r.es.e[i].score);
        assert_int_equal(es.e[i].result, r.es.e[i].result);
        const df_board v = side_view(&es.e[i].pos);
        assert_memory_equal(v.color, r.es.e[i].pos.color, sizeof v.color);
        assert_memory_equal(v.piece, r.es.e[i].pos.piece, sizeof v.piece);
        assert_int_equal(0, rec[29] | rec[30] | rec[31]);
        black += es.e[i].pos.stm;
    }
    assert_true(black > 0);
    assert_int_equal(black, lost.side_to_move);
    assert_int_equal(es.n, lost.moves);
    dft_entries_free(&r.es);
    dft_entries_free(&es);
    free(out.p);
}

static void test_marlin_decoded(void **state)
{
    (void)state;
    dft_entries es = hand_made(true);
    df_nnue_losses lost;
    mem out = write_all(DF_NNUE_MARLINFORMAT, es.e, es.n, &lost);
    assert_int_equal(32 * es.n, out.len);
    readout r = read_all(DF_NNUE_MARLINFORMAT, out.p, out.len, 3);
    assert_int_equal(0, r.nerrors);
    assert_int_equal(es.n, r.es.n);
    size_t rights960 = 0, eps = 0;
    for (size_t i = 0; i < es.n; i++) {
        ref_pos p = ref_marlin(out.p + 32 * i);
        /* stored from White's view */
        if (p.stm) p.score = (int16_t)-p.score;
        p.result = p.stm ? 1 - p.result : p.result - 1;
        assert_ref(&p, &r.es.e[i], "MarlinFormat");
        assert_ref(&p, &es.e[i], "MarlinFormat of the entry written");
        rights960 += es.e[i].pos.chess960 && (p.castling_rooks & ~(DF_FILE_A | DF_FILE_H));
        eps += p.ep >= 0;
    }
    assert_true(rights960 > 0 && eps > 0);
    /* the plies of the hand-made games are their move numbers': nothing but the moves lost */
    assert_int_equal(es.n, lost.moves);
    assert_int_equal(es.n, lost.entries);
    assert_int_equal(0, lost.ply + lost.halfmove + lost.fullmove + lost.castling);
    dft_entries_free(&r.es);
    dft_entries_free(&es);
    free(out.p);
}

/* viriformat: a game per hand-made line (each entry the previous one's position after its move),
 * decoded by replaying its moves on the reference's own make-move. */
static void test_viri_decoded(void **state)
{
    (void)state;
    dft_entries es = hand_made(true);
    df_nnue_losses lost;
    mem out = write_all(DF_NNUE_VIRIFORMAT, es.e, es.n, &lost);
    assert_int_equal(0, lost.entries); /* their counters are the moves' */
    size_t at = 0, i = 0, games = 0;
    while (at < out.len) {
        ref_pos p = ref_marlin(out.p + at);
        assert_int_equal(0, p.score); /* viriformat's start positions are unscored */
        const int white = p.result - 1;
        /* the start position as the entry it is, then the moves */
        df_board b = es.e[i].pos;
        p.score = es.e[i].score;
        p.result = b.stm ? -white : white;
        assert_ref(&p, &es.e[i], "viriformat start");
        at += 32;
        games++;
        for (;; at += 4) {
            const unsigned m = (unsigned)le(out.p + at, 2);
            const int score = (int16_t)le(out.p + at + 2, 2);
            if (!m && !score) break;
            assert_true(i < es.n);
            assert_memory_equal(b.color, es.e[i].pos.color, sizeof b.color);
            assert_memory_equal(b.piece, es.e[i].pos.piece, sizeof b.piece);
            const df_move mv = ref_viri_move(m, &b);
            assert_int_equal(es.e[i].move, mv);
            assert_int_equal(es.e[i].score, b.stm ? -score : score);
            assert_int_equal(es.e[i].result, b.stm ? -white : white);
            ref_make_move(&b, &b, mv);
            i++;
        }
        at += 4;
    }
    assert_int_equal(es.n, i);
    assert_int_equal(7, games); /* one a line */
    readout r = read_all(DF_NNUE_VIRIFORMAT, out.p, out.len, 7);
    assert_int_equal(0, r.nerrors);
    assert_int_equal(es.n, r.es.n);
    for (size_t k = 0; k < es.n; k++) {
        const df_nnue_entry *a = &es.e[k], *b = &r.es.e[k];
        /* A Chess960 board whose rights are standard chess's is read as standard chess. */
        df_board pos = a->pos;
        pos.chess960 = b->pos.chess960;
        if (memcmp(&pos, &b->pos, sizeof pos) || a->move != b->move || a->score != b->score ||
            a->ply != b->ply || a->result != b->result)
            fail_msg("entry %zu read back otherwise", k);
    }
    mem again = write_all(DF_NNUE_VIRIFORMAT, r.es.e, r.es.n, NULL);
    assert_int_equal(out.len, again.len);
    assert_memory_equal(out.p, again.p, out.len);
    dft_entries_free(&r.es);
    dft_entries_free(&es);
    free(out.p);
    free(again.p);
}

/* The text: `FEN | score | result`, both White's view; other forms of the result and a FEN of
 * placement and side alone, as bulletformat's parser reads them. */
static void test_text_decoded(void **state)
{
    (void)state;
    dft_entries es = hand_made(true);
    mem out = write_all(DF_NNUE_BULLET_TEXT, es.e, es.n, NULL);
    readout r = read_all(DF_NNUE_BULLET_TEXT, out.p, out.len, 11);
    assert_int_equal(0, r.nerrors);
    assert_int_equal(es.n, r.es.n);
    const char *line = (const char *)out.p;
    for (size_t i = 0; i < es.n; i++) {
        const char *end = memchr(line, '\n', out.len - (size_t)(line - (const char *)out.p));
        assert_non_null(end);
        const char *bar = strstr(line, " | ");
        assert_non_null(bar);
        char fen[DF_FEN_MAX];
        df_nnue_entry_fen(fen, sizeof fen, &es.e[i]);
        assert_int_equal(strlen(fen), (size_t)(bar - line));
        assert_memory_equal(fen, line, strlen(fen));
        int score;
        char result[8];
        assert_int_equal(2, sscanf(bar, " | %d | %7s", &score, result));
        const int sign = es.e[i].pos.stm ? -1 : 1;
        assert_int_equal(es.e[i].score, sign * score);
        assert_string_equal(sign * es.e[i].result > 0   ? "1.0"
                            : sign * es.e[i].result < 0 ? "0.0"
                                                        : "0.5",
                            result);
        const df_nnue_entry *a = &es.e[i], *b = &r.es.e[i];
        assert_memory_equal(a->pos.color, b->pos.color, sizeof a->pos.color);
        assert_int_equal(df_board_castling_rooks(&a->pos), df_board_castling_rooks(&b->pos));
        assert_int_equal(a->pos.halfmove, b->pos.halfmove);
        assert_int_equal(a->score, b->score);
        assert_int_equal(a->ply, b->ply);
        line = end + 1;
    }
    static const char other[] =
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b | -35 | [1.0]\n"
        "\n"
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1|+12|1/2\r\n"
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 0 | 0\n";
    readout o = read_all(DF_NNUE_BULLET_TEXT, other, sizeof other - 1, 0);
    assert_int_equal(0, o.nerrors);
    assert_int_equal(3, o.es.n);
    assert_int_equal(35, o.es.e[0].score); /* Black's view of White's -35 */
    assert_int_equal(-1, o.es.e[0].result);
    assert_int_equal(0, o.es.e[0].pos.castling);
    assert_int_equal(1, o.es.e[0].ply);
    assert_int_equal(-12, o.es.e[1].score);
    assert_int_equal(0, o.es.e[1].result);
    assert_int_equal(15, o.es.e[1].pos.castling);
    assert_int_equal(-1, o.es.e[2].result);
    dft_entries_free(&o.es);
    dft_entries_free(&r.es);
    dft_entries_free(&es);
    free(out.p);
}

/* ---- round trips through every pair ---- */

static const df_nnue_format writable[] = {
    DF_NNUE_BINPACK,      DF_NNUE_PLAIN,      DF_NNUE_BIN,        DF_NNUE_BULLETFORMAT,
    DF_NNUE_MARLINFORMAT, DF_NNUE_VIRIFORMAT, DF_NNUE_BULLET_TEXT};
enum { WRITABLE = sizeof writable / sizeof *writable };

/* Read back from f, entries w as r: every field f does not drop the same, and each field that
 * differs in as many entries as f's writer said it lost. */
static void assert_losses(df_nnue_format f, const dft_entries *w, const dft_entries *r,
                          const df_nnue_losses *lost, const char *what)
{
    assert_int_equal(w->n, r->n);
    df_nnue_losses seen = {0};
    for (size_t i = 0; i < w->n; i++) {
        const df_nnue_entry *a = &w->e[i], *b = &r->e[i];
        const df_board view = f == DF_NNUE_BULLETFORMAT ? side_view(&a->pos) : a->pos;
        if (memcmp(view.color, b->pos.color, sizeof view.color) ||
            memcmp(view.piece, b->pos.piece, sizeof view.piece) || a->score != b->score ||
            a->result != b->result)
            fail_msg("%s: entry %zu: position, score or result changed", what, i);
        const uint64_t d[7] = {a->move != b->move,
                               a->pos.stm != b->pos.stm,
                               a->pos.castling != b->pos.castling,
                               df_nnue_entry_ep(a) != df_nnue_entry_ep(b),
                               a->pos.halfmove != b->pos.halfmove,
                               a->pos.fullmove != b->pos.fullmove,
                               a->ply != b->ply};
        uint64_t *s = &seen.moves;
        int any = 0;
        for (int k = 0; k < 7; k++) s[k] += d[k], any |= (int)d[k];
        seen.entries += (uint64_t)any;
    }
    if (memcmp(&seen, lost, sizeof seen))
        fail_msg("%s: lost %llu entries: %llu moves, %llu sides, %llu castling, %llu ep, %llu "
                 "halfmove, %llu fullmove, %llu ply; the writer said %llu: %llu %llu %llu %llu "
                 "%llu %llu %llu",
                 what, (unsigned long long)seen.entries, (unsigned long long)seen.moves,
                 (unsigned long long)seen.side_to_move, (unsigned long long)seen.castling,
                 (unsigned long long)seen.en_passant, (unsigned long long)seen.halfmove,
                 (unsigned long long)seen.fullmove, (unsigned long long)seen.ply,
                 (unsigned long long)lost->entries, (unsigned long long)lost->moves,
                 (unsigned long long)lost->side_to_move, (unsigned long long)lost->castling,
                 (unsigned long long)lost->en_passant, (unsigned long long)lost->halfmove,
                 (unsigned long long)lost->fullmove, (unsigned long long)lost->ply);
}

static const char *name(df_nnue_format f)
{
    static const char *const names[DF_NNUE_FORMATS] = {"binpack", "plain",  "bin", "pgn",
                                                       "bf",      "marlin", "vf",  "txt"};
    return names[f];
}

/* Generated games (castling, promotions, en passant, both sides to move, plies from the move
 * numbers), with positions left out now and then and the plies of some games moved (so a chain
 * or game breaks, and a move number and ply disagree): written in A, read, written in B, read.
 * What each format loses is exactly what its writer counts; what neither loses survives both. An
 * entry without a move is refused by the formats that store one, naming why. */
static void test_every_pair(void **state)
{
    (void)state;
    uint64_t rng = dft_seed ^ 0xb011e7;
    dft_entries all = {0}, es = {0};
    const dft_game_style style = {false, 20, 120, random_score, 40};
    dft_game_entries(&all, &rng, 40, &style);
    for (size_t i = 0; i < all.n; i++) {
        df_nnue_entry e = all.e[i];
        if (e.pos.halfmove > 127) continue;             /* .bin's 7 bits */
        if (i % 97 == 5) e.ply = (uint16_t)(e.ply + 2); /* a ply its move number does not give */
        if (i % 89 == 7) e.pos.halfmove = (e.pos.halfmove + 3) & 127; /* a clock moves do not */
        dft_entries_add(&es, &e);
    }
    size_t pairs = 0;
    for (int a = 0; a < WRITABLE; a++) {
        const df_nnue_format fa = writable[a];
        df_nnue_losses lost_a;
        mem in_a = write_all(fa, es.e, es.n, &lost_a);
        readout ra = read_all(fa, in_a.p, in_a.len, 13);
        assert_int_equal(0, ra.nerrors);
        assert_losses(fa, &es, &ra.es, &lost_a, name(fa));
        print_message("%s: %zu entries; lost: %llu moves, %llu sides, %llu castling, %llu en "
                      "passant, %llu half-move clocks, %llu move numbers, %llu plies\n",
                      name(fa), es.n, (unsigned long long)lost_a.moves,
                      (unsigned long long)lost_a.side_to_move, (unsigned long long)lost_a.castling,
                      (unsigned long long)lost_a.en_passant, (unsigned long long)lost_a.halfmove,
                      (unsigned long long)lost_a.fullmove, (unsigned long long)lost_a.ply);
        for (int b = 0; b < WRITABLE; b++) {
            const df_nnue_format fb = writable[b];
            char what[32];
            snprintf(what, sizeof what, "%s then %s", name(fa), name(fb));
            if (moveless(fa) && !moveless(fb)) {
                mem sink = {0};
                df_nnue_writer *w = df_nnue_writer_to_function(fb, mem_write, &sink);
                df_nnue_error err;
                assert_int_equal(DF_ERR_BOARD, df_nnue_write(w, &ra.es.e[0], &err));
                assert_int_equal(DF_NNUE_ERR_UNENCODABLE, err.kind);
                assert_non_null(strstr(err.message, "no move"));
                assert_int_equal(DF_OK, df_nnue_writer_close(w));
                assert_int_equal(0, sink.len);
                free(sink.p);
                continue;
            }
            df_nnue_losses lost_b;
            mem in_b = write_all(fb, ra.es.e, ra.es.n, &lost_b);
            readout rb = read_all(fb, in_b.p, in_b.len, 0);
            assert_int_equal(0, rb.nerrors);
            assert_losses(fb, &ra.es, &rb.es, &lost_b, what);
            /* scores and results survive every format */
            for (size_t i = 0; i < es.n; i++)
                if (es.e[i].score != rb.es.e[i].score || es.e[i].result != rb.es.e[i].result)
                    fail_msg("%s: entry %zu: score or result", what, i);
            pairs++;
            dft_entries_free(&rb.es);
            free(in_b.p);
        }
        dft_entries_free(&ra.es);
        free(in_a.p);
    }
    assert_int_equal(WRITABLE * WRITABLE - 3 * 4, pairs);
    dft_entries_free(&all);
    dft_entries_free(&es);
}

/* Chess960 positions with rights other than standard chess's: MarlinFormat and viriformat hold
 * them (unmoved rooks), the text names them (Shredder-FEN), ChessBoard drops them (counted);
 * Stockfish's formats refuse them. */
static void test_chess960_rights(void **state)
{
    (void)state;
    uint64_t rng = dft_seed ^ 960;
    dft_entries es = {0};
    const dft_game_style style = {true, 10, 40, random_score, 0};
    dft_game_entries(&es, &rng, 6, &style);
    size_t odd = 0;
    for (size_t i = 0; i < es.n; i++)
        odd += (df_board_castling_rooks(&es.e[i].pos) & ~(DF_FILE_A | DF_FILE_H)) != 0;
    assert_true(odd > 0);
    for (int k = 0; k < WRITABLE; k++) {
        const df_nnue_format f = writable[k];
        mem out = {0};
        df_nnue_writer *w = df_nnue_writer_to_function(f, mem_write, &out);
        size_t refused = 0;
        for (size_t i = 0; i < es.n; i++) {
            df_nnue_error err;
            if (df_nnue_write(w, &es.e[i], &err) != DF_OK) {
                assert_int_equal(DF_NNUE_ERR_UNENCODABLE, err.kind);
                assert_non_null(strstr(err.message, "Chess960"));
                refused++;
            }
        }
        df_nnue_losses lost;
        df_nnue_writer_losses(w, &lost);
        assert_int_equal(DF_OK, df_nnue_writer_close(w));
        if (f < DF_NNUE_PGN) {
            assert_true(refused >= odd);
        } else {
            assert_int_equal(0, refused);
            readout r = read_all(f, out.p, out.len, 0);
            assert_int_equal(0, r.nerrors);
            assert_losses(f, &es, &r.es, &lost, name(f));
            if (f != DF_NNUE_BULLETFORMAT) assert_int_equal(0, lost.castling);
            dft_entries_free(&r.es);
        }
        free(out.p);
    }
    dft_entries_free(&es);
}

/* ---- hostile records ---- */

/* Each bad record between two good ones: one error of its kind naming record 1 at byte 32, both
 * good ones read. */
static void assert_bad_record(df_nnue_format f, const unsigned char good[32],
                              const unsigned char bad[32], df_nnue_error_kind kind,
                              const char *words)
{
    mem file = {0};
    mem_put(&file, good, 32);
    mem_put(&file, bad, 32);
    mem_put(&file, good, 32);
    readout r = read_all(f, file.p, file.len, 0);
    if (r.nerrors != 1 || r.errors[0].kind != kind || r.errors[0].where != 1 ||
        r.errors[0].offset != 32 || r.es.n != 2 || !strstr(r.errors[0].message, words))
        fail_msg("%s, %s: %zu errors (kind %d: %s), %zu entries", name(f), words, r.nerrors,
                 r.nerrors ? r.errors[0].kind : 0, r.nerrors ? r.errors[0].message : "", r.es.n);
    dft_entries_free(&r.es);
    /* cut: the record the file ends in */
    r = read_all(f, file.p, 50, 0);
    assert_int_equal(1, r.es.n);
    assert_int_equal(1, r.nerrors);
    assert_int_equal(DF_NNUE_ERR_TRUNCATED, r.errors[0].kind);
    assert_int_equal(32, r.errors[0].offset);
    dft_entries_free(&r.es);
    free(file.p);
}

/* The i-th nibble of a record set to v. */
static void set_nibble(unsigned char *rec, int i, unsigned v)
{
    rec[8 + i / 2] =
        (unsigned char)((rec[8 + i / 2] & ~(15 << (4 * (i % 2)))) | v << (4 * (i % 2)));
}

static void test_fixed_records_hostile(void **state)
{
    (void)state;
    df_nnue_entry e = {.pos = dft_fen("r3k3/8/8/3pP3/8/8/8/R3K2R w KQq d6 0 9"), .ply = 16};
    unsigned char good[32], bad[32];
    for (int k = 0; k < 2; k++) {
        const df_nnue_format f = k ? DF_NNUE_MARLINFORMAT : DF_NNUE_BULLETFORMAT;
        mem one = write_all(f, &e, 1, NULL);
        memcpy(good, one.p, 32);
        free(one.p);
        /* pieces by square: a1 rook, e1 king, h1 rook, d5 pawn, e5 pawn, a8 rook, e8 king */
        memcpy(bad, good, 32);
        set_nibble(bad, 3, 7);
        assert_bad_record(f, good, bad, DF_NNUE_ERR_POSITION, "no piece");
        memcpy(bad, good, 32);
        set_nibble(bad, 6, 5); /* the black king made white: two white kings */
        assert_bad_record(f, good, bad, DF_NNUE_ERR_POSITION, "two white kings");
        memcpy(bad, good, 32);
        bad[k ? 30 : 26] = 3;
        assert_bad_record(f, good, bad, DF_NNUE_ERR_FIELD, "result 3");
        memcpy(bad, good, 32);
        memset(bad + 1, 0xff, 5); /* ranks 2 to 6 full: 47 occupied squares */
        assert_bad_record(f, good, bad, DF_NNUE_ERR_POSITION, "occupied squares");
        memcpy(bad, good, 32);
        set_nibble(bad, 3, 0); /* a white pawn on d5 takes the black pawn's place */
        set_nibble(bad, 0, 0); /* and one on a1 */
        assert_bad_record(f, good, bad, DF_NNUE_ERR_POSITION, "first or last rank");
        if (f == DF_NNUE_BULLETFORMAT) {
            memcpy(bad, good, 32);
            bad[27] = DF_E2;
            assert_bad_record(f, good, bad, DF_NNUE_ERR_FIELD, "king squares");
        } else {
            memcpy(bad, good, 32);
            bad[24] = 70;
            assert_bad_record(f, good, bad, DF_NNUE_ERR_FIELD, "en-passant field 70");
            memcpy(bad, good, 32);
            set_nibble(bad, 3, 6); /* an unmoved rook on d5 */
            assert_bad_record(f, good, bad, DF_NNUE_ERR_POSITION, "castling right");
            /* d6 is kept, where the capture is there */
            readout r = read_all(f, good, 32, 0);
            assert_int_equal(DF_D6, df_nnue_entry_ep(&r.es.e[0]));
            assert_int_equal(16, r.es.e[0].ply);
            assert_int_equal(DF_CASTLE_WK | DF_CASTLE_WQ | DF_CASTLE_BQ, r.es.e[0].pos.castling);
            dft_entries_free(&r.es);
        }
    }
}

/* A viriformat file of three games, the middle one spoilt: the first and last read whole, one
 * error naming game 1, its byte and why. */
static void test_viri_hostile(void **state)
{
    (void)state;
    dft_entries es = {0};
    line_entries(&es, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false, 1,
                 (const char *const[]){"e2e4", "e8d7", "e1e2", NULL});
    mem game = write_all(DF_NNUE_VIRIFORMAT, es.e, es.n, NULL);
    assert_int_equal(32 + 4 * 3 + 4, game.len);
    static const struct {
        int at; /* the byte changed, in the middle game */
        unsigned char to;
        df_nnue_error_kind kind;
        int offset;     /* of the error, in the middle game */
        size_t entries; /* read in all */
        const char *words;
    } cases[] = {
        {36, 0x3c, DF_NNUE_ERR_ILLEGAL, 36, 7, "not legal"},      /* its second move e8a7 */
        {33, 0x00, DF_NNUE_ERR_ILLEGAL, 32, 6, "not legal"},      /* a null move, scored */
        {8, 0x55, DF_NNUE_ERR_POSITION, 0, 6, "two white kings"}, /* the pawn a king */
        {8, 0x77, DF_NNUE_ERR_POSITION, 0, 6, "no piece"},
        {30, 9, DF_NNUE_ERR_FIELD, 0, 6, "result 9"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases + 2; c++) {
        mem file = {0};
        mem_put(&file, game.p, game.len);
        const size_t middle = file.len;
        mem_put(&file, game.p, game.len);
        if (c < sizeof cases / sizeof *cases) {
            file.p[middle + (size_t)cases[c].at] = cases[c].to;
            if (cases[c].at == 33) file.p[middle + 32] = 0; /* move 0x0000, score kept */
            mem_put(&file, game.p, game.len);
        } else if (c == sizeof cases / sizeof *cases) {
            file.len -= 4; /* the last game without its terminator */
        } else {
            file.len -= 32 + 12 + 4 - 20; /* the file ends inside the last start position */
        }
        readout r = read_all(DF_NNUE_VIRIFORMAT, file.p, file.len, 3);
        if (c < sizeof cases / sizeof *cases) {
            if (r.nerrors != 1 || r.errors[0].kind != cases[c].kind || r.errors[0].where != 1 ||
                r.errors[0].offset != middle + (size_t)cases[c].offset ||
                r.es.n != cases[c].entries || !strstr(r.errors[0].message, cases[c].words))
                fail_msg("case %zu: %zu errors (kind %d, byte %llu: %s), %zu entries", c, r.nerrors,
                         r.nerrors ? r.errors[0].kind : 0,
                         r.nerrors ? (unsigned long long)r.errors[0].offset : 0ull,
                         r.nerrors ? r.errors[0].message : "", r.es.n);
        } else {
            assert_int_equal(1, r.nerrors);
            assert_int_equal(DF_NNUE_ERR_TRUNCATED, r.errors[0].kind);
            assert_int_equal(1, r.errors[0].where);
            assert_int_equal(c == sizeof cases / sizeof *cases ? 3 : 0, r.es.n - 3);
            assert_non_null(strstr(r.errors[0].message, "game 1"));
        }
        dft_entries_free(&r.es);
        free(file.p);
    }
    /* A game past move 65535, its ply past 16 bits: one game, as the moves count on (no entry
     * after its start could start one), read back the same. */
    dft_entries late = {0};
    line_entries(&late, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 65535", false, 0,
                 (const char *const[]){"e8d7", "e2e4", "d7d6", "e1e2", "d6e6", NULL});
    assert_int_equal(0, late.e[3].ply);
    df_nnue_losses lost;
    mem long_game = write_all(DF_NNUE_VIRIFORMAT, late.e, late.n, &lost);
    assert_int_equal(32 + 4 * 5 + 4, long_game.len);
    assert_int_equal(0, lost.entries);
    readout r = read_all(DF_NNUE_VIRIFORMAT, long_game.p, long_game.len, 0);
    assert_int_equal(0, r.nerrors);
    assert_int_equal(late.n, r.es.n);
    for (size_t i = 0; i < late.n; i++) {
        assert_int_equal(late.e[i].ply, r.es.e[i].ply);
        assert_int_equal(late.e[i].pos.fullmove, r.es.e[i].pos.fullmove);
    }
    dft_entries_free(&r.es);
    dft_entries_free(&late);
    free(long_game.p);
    /* An entry without a move: a game has none to store. */
    df_nnue_entry none = es.e[0];
    none.move = DF_MOVE_NONE;
    df_nnue_writer *w = df_nnue_writer_to_function(DF_NNUE_VIRIFORMAT, mem_write, &(mem){0});
    df_nnue_error err;
    assert_int_equal(DF_ERR_BOARD, df_nnue_write(w, &none, &err));
    assert_int_equal(DF_NNUE_ERR_UNENCODABLE, err.kind);
    df_nnue_writer_discard(w);
    dft_entries_free(&es);
    free(game.p);
}

static void test_text_hostile(void **state)
{
    (void)state;
    static const char good[] = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 10 | 0.5\n";
#define CONTROL                                                                                    \
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 1\0"                                                          \
    "0 | 1.0\n"
    static const struct {
        const char *line;
        df_nnue_error_kind kind;
        const char *words;
        size_t len; /* 0: strlen */
    } cases[] = {
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 10\n", DF_NNUE_ERR_FIELD, "FEN | score | result", 0},
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 10 | 1.0 | x\n", DF_NNUE_ERR_FIELD, "FEN | score", 0},
        {"4k3/8/8/8/8/8/8/4KK2 w - - 0 1 | 10 | 1.0\n", DF_NNUE_ERR_POSITION, "FEN", 0},
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 40000 | 1.0\n", DF_NNUE_ERR_FIELD, "score", 0},
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 1e3 | 1.0\n", DF_NNUE_ERR_FIELD, "score", 0},
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 10 | 2.0\n", DF_NNUE_ERR_FIELD, "result", 0},
        {CONTROL, DF_NNUE_ERR_FIELD, "control byte", sizeof CONTROL - 1},
        {"rnbqkbnr/pppppppp/8/8/8/QQQQQQQQ/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 0 | 0.5\n",
         DF_NNUE_ERR_POSITION, "pieces", 0},
    };
#undef CONTROL
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        mem text = {0};
        mem_put(&text, good, sizeof good - 1);
        const size_t n = cases[c].len ? cases[c].len : strlen(cases[c].line);
        mem_put(&text, cases[c].line, n);
        mem_put(&text, good, sizeof good - 1);
        readout r = read_all(DF_NNUE_BULLET_TEXT, text.p, text.len, 0);
        if (r.nerrors != 1 || r.errors[0].kind != cases[c].kind || r.errors[0].where != 2 ||
            r.errors[0].offset != sizeof good - 1 || r.es.n != 2 ||
            !strstr(r.errors[0].message, cases[c].words))
            fail_msg("case %zu: %zu errors (kind %d, line %llu: %s), %zu entries", c, r.nerrors,
                     r.nerrors ? r.errors[0].kind : 0,
                     r.nerrors ? (unsigned long long)r.errors[0].where : 0ull,
                     r.nerrors ? r.errors[0].message : "", r.es.n);
        dft_entries_free(&r.es);
        free(text.p);
    }
}

/* Counters a MarlinFormat position cannot hold are refused, in .marlin and a .vf start. */
static void test_marlin_refusals(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        const df_nnue_format f = k ? DF_NNUE_VIRIFORMAT : DF_NNUE_MARLINFORMAT;
        df_nnue_entry e = {.pos = dft_fen("4k3/8/8/8/8/8/8/4K3 w - - 256 200")};
        assert_int_equal(DF_OK, df_move_from_uci(&e.move, &e.pos, "e1e2", 4));
        mem out = {0};
        df_nnue_writer *w = df_nnue_writer_to_function(f, mem_write, &out);
        df_nnue_error err;
        assert_int_equal(DF_ERR_BOARD, df_nnue_write(w, &e, &err));
        assert_int_equal(DF_NNUE_ERR_UNENCODABLE, err.kind);
        assert_non_null(strstr(err.message, "half-move clock over 255"));
        e.pos.halfmove = 3;
        e.pos.fullmove = 70000;
        assert_int_equal(DF_ERR_BOARD, df_nnue_write(w, &e, &err));
        assert_non_null(strstr(err.message, "over 65535"));
        assert_int_equal(DF_OK, df_nnue_writer_close(w));
        assert_int_equal(0, out.len);
        free(out.p);
    }
    df_nnue_losses none;
    df_nnue_writer_losses(NULL, &none);
    assert_int_equal(0, none.entries);
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chessboard_decoded),
        cmocka_unit_test(test_marlin_decoded),
        cmocka_unit_test(test_viri_decoded),
        cmocka_unit_test(test_text_decoded),
        cmocka_unit_test(test_every_pair),
        cmocka_unit_test(test_chess960_rights),
        cmocka_unit_test(test_fixed_records_hostile),
        cmocka_unit_test(test_viri_hostile),
        cmocka_unit_test(test_text_hostile),
        cmocka_unit_test(test_marlin_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
