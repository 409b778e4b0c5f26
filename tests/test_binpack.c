/* SPDX-License-Identifier: MIT */
/* NNUE training data (binpack.h): the .binpack writer against a slow reference encoder written
 * here from nnue-pytorch's rules (destination sets square by square, the en-passant rule
 * condition by condition), round trips of .binpack, .plain and .bin on games this project
 * generates (castling, promotions, en passant), a file cut at every byte, every hostile input
 * the reader answers (each error's kind, byte and chunk, and the reading after it), what
 * the writers refuse, and a file writer that leaves its path whole or as it was. */
#define _GNU_SOURCE
#include <dirent.h>
#include <math.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dft.h"
#include "nnue_games.h"
#include "pgngen.h"
#include "reference.h"
#include "splitmix64.h"

/* ---- memory as input ---- */

/* What a reader gave: entries and errors in order. */
typedef struct {
    df_nnue_entry *entries;
    size_t n, cap;
    df_nnue_error errors[64];
    size_t nerrors;
    size_t entries_before[64]; /* entries read before each error */
} readout;

static void readout_free(readout *r) { free(r->entries); }

/* What a reader of share rank of world gave (df_nnue_reader_set_share), its reads failing from
 * byte fail_at on (DFT_NEVER: never). */
static readout read_from(df_nnue_format format, const void *data, size_t len, size_t piece,
                         uint32_t rank, uint32_t world, size_t fail_at)
{
    dft_memory s = {data, len, 0, piece, fail_at};
    df_nnue_reader *r = df_nnue_reader_from_function(format, dft_memory_read, &s);
    assert_non_null(r);
    assert_int_equal(DF_OK, df_nnue_reader_set_share(r, rank, world));
    readout out = {0};
    df_nnue_entry e;
    df_nnue_error err;
    df_nnue_next got;
    while ((got = df_nnue_read_next(r, &e, &err)) != DF_NNUE_END) {
        if (got == DF_NNUE_ERROR) {
            assert_true(out.nerrors < 64);
            assert_true(err.kind != DF_NNUE_ERR_NONE);
            assert_non_null(memchr(err.message, 0, sizeof err.message));
            out.entries_before[out.nerrors] = out.n;
            out.errors[out.nerrors++] = err;
            continue;
        }
        assert_true(df_board_is_valid(&e.pos));
        assert_true(df_board_playable(&e.pos));
        /* bullet's ChessBoard, MarlinFormat and text store no move */
        const bool moveless = format == DF_NNUE_BULLETFORMAT || format == DF_NNUE_MARLINFORMAT ||
                              format == DF_NNUE_BULLET_TEXT;
        assert_true(moveless ? e.move == DF_MOVE_NONE : df_move_is_legal(&e.pos, e.move));
        assert_true(e.pos.key == df_polyglot_key(&e.pos));
        if (out.n == out.cap) {
            out.cap = out.cap ? 2 * out.cap : 256;
            out.entries = realloc(out.entries, out.cap * sizeof *out.entries);
        }
        out.entries[out.n++] = e;
    }
    df_nnue_reader_free(r);
    return out;
}

static readout read_share(df_nnue_format format, const void *data, size_t len, size_t piece,
                          uint32_t rank, uint32_t world)
{
    return read_from(format, data, len, piece, rank, world, (size_t)DFT_NEVER);
}

static readout read_all(df_nnue_format format, const void *data, size_t len, size_t piece)
{
    return read_share(format, data, len, piece, 0, 1);
}

/* ---- entries from generated games ---- */

static int16_t random_score(uint64_t *rng)
{
    const uint64_t r = splitmix64_next(rng);
    switch (r % 8) {
    case 0:
        return (int16_t)(r >> 16); /* any 16-bit value: the deltas wrap */
    case 1:
        return DF_NNUE_SCORE_NONE;
    case 2:
        return r & 1 ? INT16_MIN : INT16_MAX;
    default:
        return (int16_t)((int)((r >> 16) % 2001) - 1000);
    }
}

/* The positions of games of random legal moves, one entry before each move: chains of
 * consecutive plies with alternating results, broken now and then by a skipped position. */
static void game_entries(dft_entries *out, uint64_t *rng, int games, bool chess960)
{
    const dft_game_style style = {chess960, 20, 300, random_score, 50};
    dft_game_entries(out, rng, games, &style);
}

/* ---- the reference encoder: nnue-pytorch's rules, the obvious way ---- */

typedef struct {
    unsigned char *bit; /* one byte per bit */
    size_t n, cap;
} bits;

static void bits_put(bits *v, unsigned value, unsigned width)
{
    for (unsigned i = width; i-- > 0;) {
        if (v->n == v->cap) {
            v->cap = v->cap ? 2 * v->cap : 256;
            v->bit = realloc(v->bit, v->cap);
        }
        v->bit[v->n++] = (unsigned char)(value >> i & 1);
    }
}

/* The bits as bytes, most significant first, the last zero-padded. */
static void bits_to(dft_mem *m, const bits *v)
{
    for (size_t i = 0; i < v->n; i += 8) {
        unsigned char byte = 0;
        for (size_t k = 0; k < 8; k++)
            byte |= (unsigned char)((i + k < v->n ? v->bit[i + k] : 0) << (7 - k));
        dft_mem_put(m, &byte, 1);
    }
}

static unsigned ref_width(unsigned n)
{
    unsigned w = 0;
    while ((1u << w) < n) w++;
    return w;
}

static int piece_at(const df_board *b, int sq, int *color)
{
    *color = 0;
    for (int t = 0; t < DF_PIECE_TYPES; t++)
        if (b->piece[t] >> sq & 1) {
            *color = (int)(b->color[DF_BLACK] >> sq & 1);
            return t;
        }
    return -1;
}

static bool is(const df_board *b, int sq, int type, int color)
{
    int c;
    return sq >= 0 && sq < 64 && piece_at(b, sq, &c) == type && c == color;
}

static unsigned count(df_bb s)
{
    unsigned n = 0;
    for (int sq = 0; sq < 64; sq++) n += (unsigned)(s >> sq & 1);
    return n;
}

static unsigned below(df_bb s, int sq) { return count(s & ((UINT64_C(1) << sq) - 1)); }

/* nnue-pytorch's en-passant square (SPEC a.6), condition by condition, or -1. */
static int ref_ep(const df_board *b)
{
    if (b->ep >= 64) return -1;
    const int ep = b->ep, us = b->stm, them = us ^ 1, fwd = us == DF_WHITE ? 8 : -8;
    const df_bb occ = b->color[0] | b->color[1];
    df_bb capturers = 0;
    for (int sq = 0; sq < 64; sq++)
        if (is(b, sq, DF_PAWN, us) &&
            ((ref_pawn(UINT64_C(1) << sq, us, 0) | ref_pawn(UINT64_C(1) << sq, us, 1)) >> ep & 1))
            capturers |= UINT64_C(1) << sq;
    if (!capturers || (occ >> ep & 1) || (occ >> (ep + fwd) & 1) || !is(b, ep - fwd, DF_PAWN, them))
        return -1;
    int ksq = 0;
    while (!is(b, ksq, DF_KING, us)) ksq++;
    df_bb diagonal = 0, straight = 0;
    for (int sq = 0; sq < 64; sq++) {
        if (is(b, sq, DF_BISHOP, them) || is(b, sq, DF_QUEEN, them)) diagonal |= UINT64_C(1) << sq;
        if (is(b, sq, DF_ROOK, them) || is(b, sq, DF_QUEEN, them)) straight |= UINT64_C(1) << sq;
    }
    if (!((diagonal | straight) & ref_piece_attacks(DF_QUEEN, us, ksq, 0))) return ep;
    for (int sq = 0; sq < 64; sq++) {
        if (!(capturers >> sq & 1)) continue;
        df_bb after = (occ & ~(UINT64_C(1) << sq) & ~(UINT64_C(1) << (ep - fwd))) | UINT64_C(1)
                                                                                        << ep;
        if (!(ref_piece_attacks(DF_BISHOP, us, ksq, after) & diagonal) &&
            !(ref_piece_attacks(DF_ROOK, us, ksq, after) & straight))
            return ep;
    }
    return -1;
}

/* Where the piece on from may go by nnue-pytorch's movetext rules, square by square. */
static df_bb ref_targets(const df_board *b, int from, int ep)
{
    const int us = b->stm, push = us == DF_WHITE ? 8 : -8;
    const df_bb ours = b->color[us], theirs = b->color[us ^ 1], occ = ours | theirs;
    int c;
    const int type = piece_at(b, from, &c);
    df_bb d = 0;
    for (int to = 0; to < 64; to++) {
        const df_bb t = UINT64_C(1) << to;
        bool in;
        if (type == DF_PAWN) {
            const df_bb hits =
                ref_pawn(UINT64_C(1) << from, us, 0) | ref_pawn(UINT64_C(1) << from, us, 1);
            const bool start = from / 8 == (us == DF_WHITE ? 1 : 6);
            in = ((hits & t) && ((theirs & t) || to == ep)) || (to == from + push && !(occ & t)) ||
                 (start && to == from + 2 * push && !(occ >> (from + push) & 1) && !(occ & t));
        } else if (type == DF_KING) {
            in = (ref_king(UINT64_C(1) << from) & t) && !(ours & t);
        } else {
            in = (ref_piece_attacks(type, us, from, occ) & t) && !(ours & t);
        }
        if (in) d |= t;
    }
    return d;
}

static void ref_item(bits *v, const df_nnue_entry *e, int16_t *last)
{
    const df_board *b = &e->pos;
    const int us = b->stm, from = df_move_from(e->move), to = df_move_to(e->move);
    const df_bb ours = b->color[us];
    int c;
    const int type = piece_at(b, from, &c);
    unsigned id, n;
    if (type == DF_KING) {
        const df_bb a = ref_king(UINT64_C(1) << from) & ~ours;
        const unsigned rights = count((df_bb)(b->castling & (us ? 12 : 3)));
        const bool long_right = b->castling & (us ? DF_CASTLE_BQ : DF_CASTLE_WQ);
        n = count(a) + rights;
        id = df_move_kind_of(e->move) == DF_MOVE_CASTLING
                 ? count(a) - 1 + long_right + (to % 8 == 7)
                 : below(a, to);
    } else {
        const df_bb d = ref_targets(b, from, ref_ep(b));
        id = below(d, to);
        n = count(d);
        if (type == DF_PAWN && from / 8 == (us == DF_WHITE ? 6 : 1)) {
            id = 4 * id + (unsigned)(df_move_promotion(e->move) - DF_KNIGHT);
            n *= 4;
        }
    }
    bits_put(v, below(ours, from), ref_width(count(ours)));
    bits_put(v, id, ref_width(n));
    const int delta = (int16_t)(uint16_t)((unsigned)(uint16_t)e->score - (unsigned)(uint16_t)*last);
    unsigned u = delta >= 0 ? 2u * (unsigned)delta : 2u * (unsigned)-delta - 1u;
    do {
        bits_put(v, (u & 15) | (u > 15) << 4, 5);
        u >>= 4;
    } while (u);
    *last = (int16_t)-e->score;
}

static unsigned zigzag(int v) { return (unsigned)(v >= 0 ? 2 * v : -2 * v - 1) & 0xffff; }

static void ref_stem(dft_mem *m, const df_nnue_entry *e)
{
    const df_board *b = &e->pos;
    const int ep = ref_ep(b), stm = b->stm;
    const df_bb occ = b->color[0] | b->color[1];
    unsigned char s[32] = {0};
    for (int i = 0; i < 8; i++) s[i] = (unsigned char)(occ >> (8 * (7 - i)));
    int j = 0;
    for (int sq = 0; sq < 64; sq++) {
        if (!(occ >> sq & 1)) continue;
        int color;
        const int type = piece_at(b, sq, &color);
        unsigned code = (unsigned)(2 * type + color);
        if (type == DF_PAWN && ep >= 0 && sq % 8 == ep % 8 && sq / 8 == (stm ? 3 : 4)) code = 12;
        if (type == DF_ROOK && !color &&
            ((sq == 0 && (b->castling & DF_CASTLE_WQ)) ||
             (sq == 7 && (b->castling & DF_CASTLE_WK))))
            code = 13;
        if (type == DF_ROOK && color &&
            ((sq == 56 && (b->castling & DF_CASTLE_BQ)) ||
             (sq == 63 && (b->castling & DF_CASTLE_BK))))
            code = 14;
        if (type == DF_KING && color && stm) code = 15;
        s[8 + j / 2] |= (unsigned char)(j % 2 ? code << 4 : code);
        j++;
    }
    const df_move mv = e->move;
    const unsigned kinds[4] = {0, 1, 3, 2};
    const unsigned move =
        kinds[df_move_kind_of(mv)] << 14 | df_move_from(mv) << 8 | df_move_to(mv) << 2 |
        (df_move_kind_of(mv) == DF_MOVE_PROMOTION ? (unsigned)(df_move_promotion(mv) - DF_KNIGHT)
                                                  : 0);
    const unsigned words[4] = {move, zigzag(e->score), e->ply | zigzag(e->result) << 14,
                               b->halfmove};
    for (int i = 0; i < 4; i++) {
        s[24 + 2 * i] = (unsigned char)(words[i] >> 8);
        s[25 + 2 * i] = (unsigned char)words[i];
    }
    dft_mem_put(m, s, sizeof s);
}

static bool same_position(const df_board *a, const df_board *b)
{
    return !memcmp(a->color, b->color, sizeof a->color) &&
           !memcmp(a->piece, b->piece, sizeof a->piece) && a->stm == b->stm &&
           a->castling == b->castling && ref_ep(a) == ref_ep(b);
}

/* The .binpack of n entries, and for each the file offset from which it can be read (its stem
 * and ply count, or its movetext item, all there). */
static dft_mem ref_encode(const df_nnue_entry *es, size_t n, size_t *ready)
{
    dft_mem file = {0}, chunk = {0};
    bits text = {0};
    unsigned plies = 0;
    int16_t last_score = 0;
    size_t text_at = 0, chain_entries = 0;
    /* Items' ready offsets are known once the chunk's place in the file is. */
    size_t *bit_end = calloc(n + 1, sizeof *bit_end);
    const df_nnue_entry *last = NULL;
#define END_CHAIN()                                                                                \
    do {                                                                                           \
        const unsigned char np[2] = {(unsigned char)(plies >> 8), (unsigned char)plies};           \
        dft_mem_put(&chunk, np, 2);                                                                \
        text_at = chunk.len;                                                                       \
        if (plies) bits_to(&chunk, &text);                                                         \
        for (size_t k = 0; k < chain_entries; k++)                                                 \
            if (ready && bit_end[k]) ready[i_first + k] = text_at + (bit_end[k] + 7) / 8;          \
    } while (0)
#define FLUSH_CHUNK()                                                                              \
    do {                                                                                           \
        const size_t base = file.len + 8;                                                          \
        const unsigned char h[8] = {'B',                                                           \
                                    'I',                                                           \
                                    'N',                                                           \
                                    'P',                                                           \
                                    (unsigned char)chunk.len,                                      \
                                    (unsigned char)(chunk.len >> 8),                               \
                                    (unsigned char)(chunk.len >> 16),                              \
                                    (unsigned char)(chunk.len >> 24)};                             \
        dft_mem_put(&file, h, 8);                                                                  \
        dft_mem_put(&file, chunk.p, chunk.len);                                                    \
        for (size_t k = chunk_first; ready && k < i_end; k++) ready[k] += base;                    \
        chunk.len = 0;                                                                             \
        chunk_first = i_end;                                                                       \
    } while (0)
    size_t i_first = 0, chunk_first = 0, i_end = 0;
    for (size_t i = 0; i < n; i++) {
        const df_nnue_entry *e = &es[i];
        bool cont = false;
        if (last && last->result == -e->result && last->ply + 1 == e->ply && plies < 65535) {
            df_board after;
            ref_make_move(&after, &last->pos, last->move);
            cont = same_position(&after, &e->pos);
        }
        if (cont) {
            ref_item(&text, e, &last_score);
            plies++;
            bit_end[chain_entries++] = text.n;
        } else {
            if (last) END_CHAIN();
            i_end = i;
            if (chunk.len >= 1u << 20) FLUSH_CHUNK();
            ref_stem(&chunk, e);
            if (ready) ready[i] = chunk.len + 2;
            text.n = 0;
            plies = 0;
            last_score = (int16_t)-e->score;
            i_first = i;
            bit_end[0] = 0;
            chain_entries = 1;
        }
        last = e;
    }
    if (last) {
        END_CHAIN();
        i_end = n;
        FLUSH_CHUNK();
    }
#undef END_CHAIN
#undef FLUSH_CHUNK
    free(bit_end);
    free(text.bit);
    free(chunk.p);
    return file;
}

/* ---- checks ---- */

/* The same entry, as far as the format keeps it. */
static void assert_same_entry(const df_nnue_entry *want, const df_nnue_entry *got, size_t i,
                              bool counters)
{
    char a[DF_FEN_MAX], b[DF_FEN_MAX];
    df_nnue_fen(a, sizeof a, &want->pos);
    df_nnue_fen(b, sizeof b, &got->pos);
    if (!same_position(&want->pos, &got->pos) || want->move != got->move ||
        want->score != got->score || want->ply != got->ply || want->result != got->result ||
        (want->pos.halfmove & 0xff) != got->pos.halfmove ||
        (counters && want->pos.fullmove != got->pos.fullmove))
        fail_msg("entry %zu: wrote %s move %04x score %d ply %u result %d, read %s move %04x score "
                 "%d ply %u result %d",
                 i, a, want->move, want->score, want->ply, want->result, b, got->move, got->score,
                 got->ply, got->result);
}

static dft_entries generated; /* standard games */
static dft_entries generated960;

static int make_entries(void **state)
{
    (void)state;
    uint64_t rng = dft_seed;
    game_entries(&generated, &rng, 120, false);
    game_entries(&generated960, &rng, 20, true);
    return 0;
}

static int free_entries(void **state)
{
    (void)state;
    dft_entries_free(&generated);
    dft_entries_free(&generated960);
    return 0;
}

/* The writer makes the reference's bytes; the reader gives back every entry, read whole and
 * in pieces of a few bytes; every kind of move occurs. */
static void test_binpack_round_trip(void **state)
{
    (void)state;
    const dft_entries *g = &generated;
    unsigned castles = 0, promotions = 0, ep_moves = 0, ep_squares = 0, ep_cleared = 0;
    for (size_t i = 0; i < g->n; i++) {
        const df_move_kind k = df_move_kind_of(g->e[i].move);
        castles += k == DF_MOVE_CASTLING;
        promotions += k == DF_MOVE_PROMOTION;
        ep_moves += k == DF_MOVE_EN_PASSANT;
        ep_squares += ref_ep(&g->e[i].pos) >= 0;
        assert_int_equal(ref_ep(&g->e[i].pos), df_nnue_ep_square(&g->e[i].pos) == DF_SQUARE_NONE
                                                   ? -1
                                                   : (int)df_nnue_ep_square(&g->e[i].pos));
        ep_cleared += g->e[i].pos.ep < 64 && ref_ep(&g->e[i].pos) < 0;
    }
    print_message("%zu entries: %u castlings, %u promotions, %u en passant captures, %u positions "
                  "with an en-passant square (%u more the library keeps)\n",
                  g->n, castles, promotions, ep_moves, ep_squares, ep_cleared);
    assert_true(castles > 0 && promotions > 0 && ep_moves > 0);
    dft_mem ours = dft_nnue_write_all(DF_NNUE_BINPACK, g->e, g->n);
    size_t *ready = calloc(g->n, sizeof *ready);
    dft_mem ref = ref_encode(g->e, g->n, ready);
    assert_int_equal(ref.len, ours.len);
    assert_memory_equal(ref.p, ours.p, ref.len);
    for (size_t piece = 0; piece < 8; piece += 7) {
        readout r = read_all(DF_NNUE_BINPACK, ours.p, ours.len, piece);
        assert_int_equal(0, r.nerrors);
        assert_int_equal(g->n, r.n);
        for (size_t i = 0; i < g->n; i++) assert_same_entry(&g->e[i], &r.entries[i], i, true);
        readout_free(&r);
    }
    free(ready);
    free(ours.p);
    free(ref.p);
}

/* More than a megabyte: chunks of at least DF_BINPACK_CHUNK_TARGET bytes, each ending where a
 * chain ends, as the reference makes them. */
static void test_binpack_chunks(void **state)
{
    (void)state;
    dft_entries many = {0};
    /* Every position a chain of its own (a ply apart), then the games as chains. */
    for (int round = 0; round < 3; round++)
        for (size_t i = 0; i < generated.n; i++) {
            df_nnue_entry e = generated.e[i];
            if (round < 2) e.ply = (uint16_t)(e.ply + 2 * (i % 2));
            dft_entries_add(&many, &e);
        }
    dft_mem ours = dft_nnue_write_all(DF_NNUE_BINPACK, many.e, many.n);
    dft_mem ref = ref_encode(many.e, many.n, NULL);
    assert_int_equal(ref.len, ours.len);
    assert_memory_equal(ref.p, ours.p, ref.len);
    size_t chunks = 0;
    for (size_t at = 0; at < ours.len; chunks++) {
        assert_memory_equal("BINP", ours.p + at, 4);
        const size_t size = ours.p[at + 4] | ours.p[at + 5] << 8 | (size_t)ours.p[at + 6] << 16 |
                            (size_t)ours.p[at + 7] << 24;
        at += 8 + size;
        if (at < ours.len) assert_true(size >= DF_BINPACK_CHUNK_TARGET);
    }
    assert_true(chunks >= 2);
    readout r = read_all(DF_NNUE_BINPACK, ours.p, ours.len, 0);
    assert_int_equal(0, r.nerrors);
    assert_int_equal(many.n, r.n);
    /* A ply moved by 2 moves the move number read back (ply / 2 + 1). */
    for (size_t i = 0; i < many.n; i++) assert_same_entry(&many.e[i], &r.entries[i], i, false);
    readout_free(&r);
    dft_entries_free(&many);
    free(ours.p);
    free(ref.p);
}

/* DDP shares: a .binpack's chunks rank, rank + world, ... (five files joined: five chunks), a
 * .plain or .bin input's entries round-robin; together every entry once. */
static void test_shares(void **state)
{
    (void)state;
    enum { PARTS = 5 };
    dft_mem part[PARTS], joined = {0};
    size_t first[PARTS + 1];
    for (size_t k = 0; k <= PARTS; k++) first[k] = generated.n * k / PARTS;
    for (size_t k = 0; k < PARTS; k++) {
        part[k] =
            dft_nnue_write_all(DF_NNUE_BINPACK, generated.e + first[k], first[k + 1] - first[k]);
        joined.p = realloc(joined.p, joined.len + part[k].len);
        memcpy(joined.p + joined.len, part[k].p, part[k].len);
        joined.len += part[k].len;
    }
    for (uint32_t world = 1; world <= 7; world++) {
        size_t total = 0;
        for (uint32_t rank = 0; rank < world; rank++) {
            readout r = read_share(DF_NNUE_BINPACK, joined.p, joined.len, 0, rank, world);
            assert_int_equal(0, r.nerrors);
            size_t i = 0;
            for (size_t k = rank; k < PARTS; k += world)
                for (size_t j = first[k]; j < first[k + 1]; j++, i++) {
                    assert_true(i < r.n);
                    assert_same_entry(&generated.e[j], &r.entries[i], j, false);
                }
            assert_int_equal(i, r.n);
            total += r.n;
            readout_free(&r);
        }
        assert_int_equal(generated.n, total);
    }
    for (df_nnue_format f = DF_NNUE_PLAIN; f <= DF_NNUE_BIN; f++) {
        dft_mem all = dft_nnue_write_all(f, generated.e, generated.n);
        for (uint32_t world = 2; world <= 3; world++)
            for (uint32_t rank = 0; rank < world; rank++) {
                readout r = read_share(f, all.p, all.len, 0, rank, world);
                assert_int_equal((generated.n + world - 1 - rank) / world, r.n);
                for (size_t i = 0; i < r.n; i++)
                    assert_same_entry(&generated.e[rank + i * world], &r.entries[i], i, false);
                readout_free(&r);
            }
        free(all.p);
    }
    /* The arguments: world 0, rank beyond it, NULL. */
    df_nnue_reader *r =
        df_nnue_reader_from_function(DF_NNUE_BIN, dft_memory_read, &(dft_memory){0});
    assert_int_equal(DF_ERR_ARGUMENT, df_nnue_reader_set_share(r, 0, 0));
    assert_int_equal(DF_ERR_ARGUMENT, df_nnue_reader_set_share(r, 2, 2));
    assert_int_equal(DF_ERR_ARGUMENT, df_nnue_reader_set_share(NULL, 0, 1));
    assert_int_equal(DF_OK, df_nnue_reader_set_share(r, 1, 2));
    df_nnue_reader_free(r);
    for (size_t k = 0; k < PARTS; k++) free(part[k].p);
    free(joined.p);
}

/* A file cut at every byte: one error (the file ends inside a chunk), never a crash, and every
 * entry whose bytes are all there read. */
static void test_binpack_truncated(void **state)
{
    (void)state;
    const size_t n = 150;
    size_t *ready = calloc(n, sizeof *ready);
    dft_mem file = ref_encode(generated.e, n, ready);
    for (size_t cut = 0; cut < file.len; cut++) {
        readout r = read_all(DF_NNUE_BINPACK, file.p, cut, cut % 5);
        size_t want = 0;
        while (want < n && ready[want] <= cut) want++;
        if (r.n != want) fail_msg("cut at %zu: %zu entries read, %zu expected", cut, r.n, want);
        for (size_t i = 0; i < r.n; i++) assert_same_entry(&generated.e[i], &r.entries[i], i, true);
        assert_int_equal(cut ? 1 : 0, r.nerrors);
        if (cut) {
            assert_int_equal(DF_NNUE_ERR_TRUNCATED, r.errors[0].kind);
            assert_true(r.errors[0].offset <= cut);
            assert_int_equal(0, r.errors[0].where);
        }
        readout_free(&r);
    }
    free(ready);
    free(file.p);
}

/* ---- hand-made positions and chains ---- */

static df_nnue_entry entry_at(const char *fen, const char *uci, int16_t score, uint16_t ply,
                              int8_t result)
{
    df_nnue_entry e = {.pos = dft_fen(fen), .score = score, .ply = ply, .result = result};
    if (uci) assert_int_equal(DF_OK, df_move_from_uci(&e.move, &e.pos, uci, strlen(uci)));
    return e;
}

/* The entries of a game from fen: the moves in UCI, one entry before each. */
static void line_entries(dft_entries *out, const char *fen, const char *const *moves)
{
    df_board b = dft_fen(fen);
    const uint16_t first = (uint16_t)(2 * (b.fullmove - 1) + b.stm);
    for (int i = 0; moves[i]; i++) {
        df_nnue_entry e = {.pos = b,
                           .score = (int16_t)(37 * i - 50),
                           .ply = (uint16_t)(first + i),
                           .result = (int8_t)(i % 2 ? -1 : 1)};
        assert_int_equal(DF_OK, df_move_from_uci(&e.move, &b, moves[i], strlen(moves[i])));
        dft_entries_add(out, &e);
        df_make_move(&b, &b, e.move);
    }
}

/* nnue-pytorch's en-passant square: kept when a capture does not uncover the king to a slider
 * (checks by other pieces are not looked at), whatever the library keeps. */
static void test_ep_rule(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        int ep;
    } cases[] = {
        {"rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3", DF_E3},
        {"8/8/8/8/k2pP2Q/8/8/4K3 b - e3 0 1", -1},      /* both pawns leave the rank */
        {"7B/8/8/8/3pP3/8/8/k3K3 b - e3 0 1", -1},      /* the capturer is pinned */
        {"7B/8/8/8/3pPp2/8/8/k3K3 b - e3 0 1", DF_E3},  /* one of two capturers is */
        {"8/8/8/8/3pP3/1k6/8/2N1K3 b - e3 0 1", DF_E3}, /* a knight's check is not seen */
        {"6b1/8/8/3pP3/8/8/8/K6k w - d6 0 1", DF_D6},   /* pinned along the capture */
        {"4k3/8/8/2pP4/8/8/7r/4K3 w - c6 0 1", DF_C6},  /* a rook off the king's lines */
        {"4k3/8/8/2pP4/8/8/8/4K2r w - c6 0 1", -1},     /* a checking rook stays */
        {"4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", -1},       /* nobody can capture */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const df_board b = dft_fen(cases[i].fen);
        const df_square got = df_nnue_ep_square(&b);
        if ((got == DF_SQUARE_NONE ? -1 : (int)got) != cases[i].ep || ref_ep(&b) != cases[i].ep)
            fail_msg("%s: en passant %d, reference %d, expected %d", cases[i].fen, (int)got,
                     ref_ep(&b), cases[i].ep);
        char fen[DF_FEN_MAX];
        df_nnue_fen(fen, sizeof fen, &b);
        assert_non_null(strstr(fen, cases[i].ep < 0 ? " - " : " e3 ") ||
                        strstr(fen, cases[i].ep == DF_D6 ? " d6 " : " c6 "));
    }
}

/* Chains through what random games rarely reach: an en-passant square the library keeps and
 * nnue-pytorch does not (a pawn move's width depends on it), en passant captures, castling
 * with one or both rights, promotions to every piece, the score's extremes. */
static void test_binpack_hand_made(void **state)
{
    (void)state;
    dft_entries es = {0};
    line_entries(&es, "8/8/8/8/k2p3Q/8/4P3/4K3 w - - 0 1",
                 (const char *const[]){"e2e4", "d4d3", "e1d2", "a4b3", NULL});
    line_entries(&es, "8/8/8/8/k2p4/8/4P3/4K3 w - - 0 1",
                 (const char *const[]){"e2e4", "d4e3", "e1e2", "a4b3", NULL});
    line_entries(&es, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
                 (const char *const[]){"e1c1", "e8g8", "a2a3", "a7a6", NULL});
    line_entries(&es, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w Kq - 0 1",
                 (const char *const[]){"e1g1", "e8c8", NULL});
    line_entries(&es, "1n2k3/P1P5/8/8/8/8/p1p5/1N2K3 w - - 0 1",
                 (const char *const[]){"a7b8b", "c2c1n", "c7c8q", "e8e7", "e1f2", "a2b1r", NULL});
    es.e[1].score = INT16_MIN;
    es.e[2].score = INT16_MAX;
    es.e[3].score = DF_NNUE_SCORE_NONE;
    size_t cleared = 0;
    for (size_t i = 0; i < es.n; i++) cleared += es.e[i].pos.ep < 64 && ref_ep(&es.e[i].pos) < 0;
    assert_true(cleared > 0);
    dft_mem ours = dft_nnue_write_all(DF_NNUE_BINPACK, es.e, es.n);
    dft_mem ref = ref_encode(es.e, es.n, NULL);
    assert_int_equal(ref.len, ours.len);
    assert_memory_equal(ref.p, ours.p, ref.len);
    readout r = read_all(DF_NNUE_BINPACK, ours.p, ours.len, 1);
    assert_int_equal(0, r.nerrors);
    assert_int_equal(es.n, r.n);
    for (size_t i = 0; i < es.n; i++) assert_same_entry(&es.e[i], &r.entries[i], i, true);
    readout_free(&r);
    free(ours.p);
    free(ref.p);
    dft_entries_free(&es);
}

/* ---- hostile .binpack ---- */

static void put_header(dft_mem *m, const char magic[4], uint32_t size)
{
    const unsigned char h[8] = {(unsigned char)magic[0],     (unsigned char)magic[1],
                                (unsigned char)magic[2],     (unsigned char)magic[3],
                                (unsigned char)size,         (unsigned char)(size >> 8),
                                (unsigned char)(size >> 16), (unsigned char)(size >> 24)};
    dft_mem_put(m, h, 8);
}

static void put_chunk(dft_mem *m, const dft_mem *payload)
{
    put_header(m, "BINP", (uint32_t)payload->len);
    dft_mem_put(m, payload->p, payload->len);
}

/* A stem from (square, nibble) pairs in ascending squares, and the words after them. */
static void put_stem(dft_mem *m, const int *squares, const unsigned *codes, int n, unsigned move,
                     unsigned plyword, unsigned plies)
{
    unsigned char s[34] = {0};
    df_bb occ = 0;
    for (int i = 0; i < n; i++) {
        occ |= UINT64_C(1) << squares[i];
        if (i < 32) s[8 + i / 2] |= (unsigned char)(codes[i] << (4 * (i % 2)));
    }
    for (int i = 0; i < 8; i++) s[i] = (unsigned char)(occ >> (8 * (7 - i)));
    const unsigned words[5] = {move, 0, plyword, 0, plies};
    for (int i = 0; i < 5; i++) {
        s[24 + 2 * i] = (unsigned char)(words[i] >> 8);
        s[25 + 2 * i] = (unsigned char)words[i];
    }
    dft_mem_put(m, s, sizeof s);
}

/* Their move word: kind (0 normal), from, to. */
static unsigned move_word(int from, int to) { return (unsigned)(from << 8 | to << 2); }

/* A chain of one stem (fen, its move) and one movetext item of the given bits. */
static void put_crafted_chain(dft_mem *m, const char *fen, const char *uci, unsigned plies,
                              const char *item_bits)
{
    const df_nnue_entry e = entry_at(fen, uci, 0, 0, 0);
    dft_mem stem = {0};
    ref_stem(&stem, &e);
    dft_mem_put(m, stem.p, stem.len);
    const unsigned char count[2] = {(unsigned char)(plies >> 8), (unsigned char)plies};
    dft_mem_put(m, count, 2);
    bits b = {0};
    for (const char *c = item_bits; *c; c++) bits_put(&b, (unsigned)(*c - '0'), 1);
    bits_to(m, &b);
    free(b.bit);
    free(stem.p);
}

/* The payload of one chain: the entries' .binpack by the reference encoder, without its chunk
 * header; stored >= 0: the stem's pawn behind that square gets code 12 (the square stored),
 * whether the position allows a capture there or not. */
static void put_chain(dft_mem *payload, const df_nnue_entry *es, size_t n, int stored)
{
    dft_mem file = ref_encode(es, n, NULL);
    unsigned char *stem = file.p + 8;
    if (stored >= 0) {
        const df_bb occ = es[0].pos.color[0] | es[0].pos.color[1];
        const int pawn = stored + (es[0].pos.stm == DF_WHITE ? -8 : 8);
        assert_true(occ >> pawn & 1);
        const unsigned j = below(occ, pawn);
        stem[8 + j / 2] =
            (unsigned char)((stem[8 + j / 2] & (0xf0u >> 4 * (j % 2))) | 12u << 4 * (j % 2));
    }
    dft_mem_put(payload, stem, file.len - 8);
    free(file.p);
}

/* A .bin record's en-passant field: the square, or -1 (the board's bits read past: a bit per
 * empty square, five per piece, after the side and the kings; then four of castling). */
static int bin_ep_field(const unsigned char *rec)
{
    unsigned i = 1 + 12;
#define BIT(k) ((rec[(k) / 8] >> ((k) % 8)) & 1)
    for (int sq = 0; sq < 62; sq++) i += BIT(i) ? 5 : 1;
    i += 4;
    if (!BIT(i)) return -1;
    int ep = 0;
    for (unsigned k = 0; k < 6; k++) ep |= BIT(i + 1 + k) << k;
#undef BIT
    return ep;
}

/* A stem's en-passant square (code 12) is kept as stored, as nnue-pytorch's decoder keeps it
 * (setEpSquareUnchecked): with no pawn to take there, with the only one pinned, and with a legal
 * capture. Stockfish's generator stores the square whenever an enemy pawn stands next to the
 * pushed one, pinned or not, so real data has such stems. The same position reached by the
 * double push in a chain gets their rule (their doMove), as does the position after the stem's
 * move. Written back, the file is the same bytes. The FENs are nnue-pytorch's (their reader on
 * this very file prints the same first four fields; its move number is (ply + 1) / 2). */
static void test_binpack_stem_ep_as_stored(void **state)
{
    (void)state;
    static const struct {
        const char *before; /* black to move, the push d7d5 to come */
        const char *stem;   /* the position after it, as a stem of its own (ply 60), which
                               stores d6 whatever the FEN parser keeps of the square */
        const char *then, *reply;
        const char *fens[4]; /* before, reached, the stem, after the stem's move */
    } cases[] = {
        {"4k3/3p4/8/8/8/8/8/4K3 b - - 0 10",
         "4k3/8/8/3p4/8/8/8/4K3 w - d6 0 31",
         "e1e2",
         "e8e7",
         {"4k3/3p4/8/8/8/8/8/4K3 b - -", "4k3/8/8/3p4/8/8/8/4K3 w - -",
          "4k3/8/8/3p4/8/8/8/4K3 w - d6", "4k3/8/8/3p4/8/8/4K3/8 b - -"}},
        /* e5 pinned on the e-file by the rook on e8 */
        {"4r2k/3p4/8/4P3/8/8/8/4K3 b - - 0 10",
         "4r2k/8/8/3pP3/8/8/8/4K3 w - d6 0 31",
         "e1d1",
         "h8g8",
         {"4r2k/3p4/8/4P3/8/8/8/4K3 b - -", "4r2k/8/8/3pP3/8/8/8/4K3 w - -",
          "4r2k/8/8/3pP3/8/8/8/4K3 w - d6", "4r2k/8/8/3pP3/8/8/8/3K4 b - -"}},
        /* a legal capture: the stem's move takes en passant */
        {"4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 10",
         "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 31",
         "e5d6",
         "e8d7",
         {"4k3/3p4/8/4P3/8/8/8/4K3 b - -", "4k3/8/8/3pP3/8/8/8/4K3 w - d6",
          "4k3/8/8/3pP3/8/8/8/4K3 w - d6", "4k3/8/3P4/8/8/8/8/4K3 b - -"}},
    };
    enum { CASES = sizeof cases / sizeof *cases };
    dft_mem payload = {0};
    for (size_t c = 0; c < CASES; c++) {
        dft_entries reached = {0}, stem = {0};
        line_entries(&reached, cases[c].before, (const char *const[]){"d7d5", cases[c].then, NULL});
        line_entries(&stem, cases[c].stem,
                     (const char *const[]){cases[c].then, cases[c].reply, NULL});
        put_chain(&payload, reached.e, reached.n, -1);
        put_chain(&payload, stem.e, stem.n, DF_D6);
        dft_entries_free(&reached);
        dft_entries_free(&stem);
    }
    dft_mem file = {0};
    put_chunk(&file, &payload);
    readout r = read_all(DF_NNUE_BINPACK, file.p, file.len, 3);
    if (r.nerrors) fail_msg("%s", r.errors[0].message);
    assert_int_equal(4 * CASES, r.n);
    for (size_t c = 0; c < CASES; c++)
        for (size_t k = 0; k < 4; k++) {
            const df_nnue_entry *e = &r.entries[4 * c + k];
            char fen[DF_FEN_MAX];
            df_nnue_entry_fen(fen, sizeof fen, e);
            const size_t len = strlen(cases[c].fens[k]);
            if (strncmp(fen, cases[c].fens[k], len) || fen[len] != ' ')
                fail_msg("case %zu, entry %zu: %s, nnue-pytorch's %s", c, k, fen, cases[c].fens[k]);
        }
    /* Stems (entries 0 and 2 of each case) hold the square as stored; moves give the rule's. */
    for (size_t i = 0; i < r.n; i++) {
        assert_int_equal(i % 2 == 0, r.entries[i].ep_as_stored != 0);
        if (i % 4 == 2) assert_int_equal(DF_D6, df_nnue_entry_ep(&r.entries[i]));
    }
    /* df_nnue_fen of a board is the rule's, whatever the entry holds. */
    char fen[DF_FEN_MAX];
    df_nnue_fen(fen, sizeof fen, &r.entries[2].pos);
    assert_non_null(strstr(fen, " w - - "));
    dft_mem back = dft_nnue_write_all(DF_NNUE_BINPACK, r.entries, r.n);
    assert_int_equal(file.len, back.len);
    assert_memory_equal(file.p, back.p, file.len);
    /* The push and the position after it as two stems, the second storing a square no pawn
     * can take: their writer keeps them apart (the position after the push, its square put
     * through the rule, is not the stem's), where the rule on both sides would chain them. */
    dft_mem split = {0}, split_file = {0};
    for (size_t c = 0; c < 2; c++) {
        dft_entries reached = {0};
        line_entries(&reached, cases[c].before, (const char *const[]){"d7d5", cases[c].then, NULL});
        put_chain(&split, &reached.e[0], 1, -1);
        put_chain(&split, &reached.e[1], 1, DF_D6);
        dft_entries_free(&reached);
    }
    put_chunk(&split_file, &split);
    readout sr = read_all(DF_NNUE_BINPACK, split_file.p, split_file.len, 0);
    assert_int_equal(4, sr.n);
    dft_mem split_back = dft_nnue_write_all(DF_NNUE_BINPACK, sr.entries, sr.n);
    assert_int_equal(split_file.len, split_back.len);
    assert_memory_equal(split_file.p, split_back.p, split_file.len);
    readout_free(&sr);
    free(split_back.p);
    free(split_file.p);
    free(split.p);
    /* .plain and .bin store the square too (nnue-pytorch's writers do), and their readers put
     * it through the rule: a square no pawn can take is gone once read back. */
    for (df_nnue_format f = DF_NNUE_PLAIN; f <= DF_NNUE_BIN; f++) {
        dft_mem other = dft_nnue_write_all(f, r.entries, r.n);
        for (size_t c = 0; c < CASES; c++)
            if (f == DF_NNUE_BIN) assert_int_equal(DF_D6, bin_ep_field(other.p + 40 * (4 * c + 2)));
        if (f == DF_NNUE_PLAIN)
            assert_non_null(memmem(other.p, other.len, "fen 4r2k/8/8/3pP3/8/8/8/4K3 w - d6 ", 35));
        readout o = read_all(f, other.p, other.len, 0);
        assert_int_equal(r.n, o.n);
        for (size_t c = 0; c < CASES; c++) {
            assert_int_equal(c == 2 ? DF_D6 : DF_SQUARE_NONE,
                             df_nnue_entry_ep(&o.entries[4 * c + 2]));
            assert_int_equal(0, o.entries[4 * c + 2].ep_as_stored);
        }
        readout_free(&o);
        free(other.p);
    }
    readout_free(&r);
    free(back.p);
    free(file.p);
    free(payload.p);
}

/* Each bad chunk, followed by a good one: one error of the expected kind naming the byte and
 * chunk 0, the entries before it kept, and every entry of the next chunk read. */
static void test_binpack_hostile(void **state)
{
    (void)state;
    const size_t good_n = 40;
    dft_mem good = dft_nnue_write_all(DF_NNUE_BINPACK, generated.e, good_n);
    static const int k_only[] = {DF_E1, DF_E8};
    typedef struct {
        const char *what;
        df_nnue_error_kind kind;
        size_t offset; /* of the error, in the bad chunk's file */
        size_t before; /* entries it gives first */
    } expect;
    for (int c = 0;; c++) {
        dft_mem bad = {0}, payload = {0};
        expect x = {NULL, DF_NNUE_ERR_NONE, 0, 0};
        const unsigned codes_kings[2] = {10, 11};
        switch (c) {
        case 0:
            x = (expect){"a wrong magic", DF_NNUE_ERR_MAGIC, 0, 0};
            put_header(&bad, "BINX", 34);
            put_stem(&bad, k_only, codes_kings, 2, move_word(DF_E1, DF_E2), 0, 0);
            break;
        case 1:
            x = (expect){"a size over the cap", DF_NNUE_ERR_CHUNK_SIZE, 0, 0};
            put_header(&bad, "BINP", DF_BINPACK_CHUNK_MAX + 1);
            put_stem(&bad, k_only, codes_kings, 2, move_word(DF_E1, DF_E2), 0, 0);
            break;
        case 2: {
            x = (expect){"no white king", DF_NNUE_ERR_POSITION, 8, 0};
            const int sq[] = {DF_E2, DF_E8};
            const unsigned code[] = {0, 11};
            put_stem(&payload, sq, code, 2, move_word(DF_E2, DF_E3), 0, 0);
            break;
        }
        case 3: {
            x = (expect){"two black kings", DF_NNUE_ERR_POSITION, 8, 0};
            const int sq[] = {DF_E1, DF_A8, DF_E8};
            const unsigned code[] = {10, 11, 15};
            put_stem(&payload, sq, code, 3, move_word(DF_E8, DF_D8), 0, 0);
            break;
        }
        case 4: {
            x = (expect){"33 pieces", DF_NNUE_ERR_POSITION, 8, 0};
            int sq[33];
            unsigned code[33];
            for (int i = 0; i < 33; i++) sq[i] = i, code[i] = 2;
            put_stem(&payload, sq, code, 33, 0, 0, 0);
            break;
        }
        case 5: {
            x = (expect){"an en-passant pawn on rank 2", DF_NNUE_ERR_POSITION, 8, 0};
            const int sq[] = {DF_E1, DF_D2, DF_E8};
            const unsigned code[] = {10, 12, 11};
            put_stem(&payload, sq, code, 3, move_word(DF_E1, DF_F1), 0, 0);
            break;
        }
        case 6: {
            x = (expect){"a castling rook on d1", DF_NNUE_ERR_POSITION, 8, 0};
            const int sq[] = {DF_D1, DF_E1, DF_E8};
            const unsigned code[] = {13, 10, 11};
            put_stem(&payload, sq, code, 3, move_word(DF_E1, DF_F1), 0, 0);
            break;
        }
        case 7: {
            x = (expect){"a pawn on the last rank", DF_NNUE_ERR_POSITION, 8, 0};
            const int sq[] = {DF_E1, DF_E8, DF_A8};
            const unsigned code[] = {10, 11, 0};
            put_stem(&payload, sq, code, 3, move_word(DF_E1, DF_F1), 0, 0);
            break;
        }
        case 8: {
            x = (expect){"a castling right without its king", DF_NNUE_ERR_POSITION, 8, 0};
            const int sq[] = {DF_D1, DF_H1, DF_E8};
            const unsigned code[] = {10, 13, 11};
            put_stem(&payload, sq, code, 3, move_word(DF_D1, DF_C1), 0, 0);
            break;
        }
        case 9:
            x = (expect){"result code 3", DF_NNUE_ERR_FIELD, 8, 0};
            put_stem(&payload, k_only, codes_kings, 2, move_word(DF_E1, DF_E2), 3u << 14, 0);
            break;
        case 10: {
            x = (expect){"the side not to move in check", DF_NNUE_ERR_POSITION, 8, 0};
            const int sq[] = {DF_E1, DF_E7, DF_E8};
            const unsigned code[] = {10, 6, 11}; /* a white rook gives check, white to move */
            put_stem(&payload, sq, code, 3, move_word(DF_E1, DF_D1), 0, 0);
            break;
        }
        case 11:
            x = (expect){"an illegal stem move", DF_NNUE_ERR_ILLEGAL, 8, 0};
            put_stem(&payload, k_only, codes_kings, 2, move_word(DF_E1, DF_E3), 0, 0);
            break;
        case 12:
            x = (expect){"a piece index out of range", DF_NNUE_ERR_MOVETEXT, 8 + 34, 1};
            put_crafted_chain(&payload, "r3k3/4p3/8/8/8/8/4P3/4K3 w q - 0 1", "e2e3", 1, "11");
            break;
        case 13:
            x = (expect){"a destination out of range", DF_NNUE_ERR_MOVETEXT, 8 + 34, 1};
            put_crafted_chain(&payload, "r3k3/4p3/8/8/8/8/4P3/4K3 w q - 0 1", "e2e3", 1, "011111");
            break;
        case 14:
            x = (expect){"a score code over 16 bits", DF_NNUE_ERR_MOVETEXT, 8 + 34, 1};
            put_crafted_chain(&payload, "r3k3/4p3/8/8/8/8/4P3/4K3 w q - 0 1", "e2e3", 1,
                              "010000"
                              "10000"
                              "10000"
                              "10000"
                              "10000"
                              "00000");
            break;
        case 15:
            x = (expect){"a pinned piece moved", DF_NNUE_ERR_ILLEGAL, 8 + 34, 1};
            put_crafted_chain(&payload, "4k3/4b3/8/8/8/8/8/R5K1 w - - 0 1", "a1e1", 1, "00000");
            break;
        case 16:
            /* Three plies claimed, one there, ending on a byte: the second runs out. */
            x = (expect){"a movetext past its chunk", DF_NNUE_ERR_MOVETEXT, 8 + 34 + 2, 2};
            put_crafted_chain(&payload, "r3k3/4p3/8/8/8/8/4P3/4K3 w q - 0 1", "e2e3", 3,
                              "01"
                              "0000"
                              "10000"
                              "00001");
            break;
        default:
            break;
        }
        if (!x.what) {
            free(bad.p);
            free(payload.p);
            break;
        }
        if (payload.len) put_chunk(&bad, &payload);
        dft_mem file = {0};
        dft_mem_put(&file, bad.p, bad.len);
        dft_mem_put(&file, good.p, good.len);
        readout r = read_all(DF_NNUE_BINPACK, file.p, file.len, 0);
        if (r.nerrors != 1 || r.errors[0].kind != x.kind || r.errors[0].where != 0 ||
            r.errors[0].offset != x.offset || r.entries_before[0] != x.before ||
            r.n != good_n + x.before)
            fail_msg("%s: %zu errors, the first of kind %d at byte %llu of chunk %llu after %zu "
                     "entries (%s), %zu entries in all",
                     x.what, r.nerrors, r.nerrors ? r.errors[0].kind : 0,
                     r.nerrors ? (unsigned long long)r.errors[0].offset : 0ull,
                     r.nerrors ? (unsigned long long)r.errors[0].where : 0ull,
                     r.nerrors ? r.entries_before[0] : 0, r.nerrors ? r.errors[0].message : "",
                     r.n);
        /* The good chunk after it, whole, as chunk 1. */
        for (size_t i = 0; i < good_n; i++)
            assert_same_entry(&generated.e[i], &r.entries[r.n - good_n + i], i, true);
        print_message("%s: %s\n", x.what, r.errors[0].message);
        readout_free(&r);
        free(file.p);
        free(bad.p);
        free(payload.p);
    }
    free(good.p);
}

/* A chunk whose size (the cap, 100 MiB) runs past a file of a few bytes: an error, and no more
 * memory than the bytes there need (checked under an address-space limit well below the claim,
 * the soft limit lowered for the read and put back: a forked child's would do, but a child
 * forked under Debian 12's qemu-user hangs, so the aarch64 run could not have this file;
 * sanitizers reserve address space of their own, so they run it without the limit). */
static void test_binpack_claim_not_believed(void **state)
{
    (void)state;
    dft_mem file = {0};
    put_header(&file, "BINP", DF_BINPACK_CHUNK_MAX);
    const unsigned char junk[20] = {0}; /* fewer bytes than a stem */
    dft_mem_put(&file, junk, sizeof junk);
    struct rlimit old;
    assert_int_equal(0, getrlimit(RLIMIT_AS, &old));
#ifndef DFT_SANITIZED
    long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    assert_non_null(f);
    assert_int_equal(1, fscanf(f, "%ld", &pages));
    fclose(f);
    const rlim_t limit = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + (48u << 20);
    if (limit < old.rlim_cur) {
        const struct rlimit lim = {limit, old.rlim_max};
        assert_int_equal(0, setrlimit(RLIMIT_AS, &lim));
        /* The limit bites: a reader that believed the claim could not have its buffer. Not
         * under qemu-user, whose guest maps come from space it reserved before the limit. */
        void *claim = malloc(DF_BINPACK_CHUNK_MAX);
        const bool refused = claim == NULL;
        free(claim);
#if defined(__x86_64__)
        assert_true(refused);
#else
        if (!refused)
            print_message("the address-space limit does not bind here: only the error "
                          "is checked\n");
#endif
    }
#endif
    dft_memory s = {file.p, file.len, 0, 0, (size_t)DFT_NEVER};
    df_nnue_reader *r = df_nnue_reader_from_function(DF_NNUE_BINPACK, dft_memory_read, &s);
    df_nnue_entry e;
    df_nnue_error err;
    int errors = 0, truncated = 0;
    df_nnue_next got;
    while (r && (got = df_nnue_read_next(r, &e, &err)) != DF_NNUE_END) {
        errors += got == DF_NNUE_ERROR;
        truncated += got == DF_NNUE_ERROR && err.kind == DF_NNUE_ERR_TRUNCATED;
    }
    df_nnue_reader_free(r);
    assert_int_equal(0, setrlimit(RLIMIT_AS, &old));
    assert_non_null(r);
    assert_int_equal(1, errors);
    assert_int_equal(1, truncated);
    free(file.p);
}

/* A source that fails: the entries before it, then the read error (after the chunk it cut). */
static void test_read_error(void **state)
{
    (void)state;
    const size_t n = 300;
    size_t *ready = calloc(n, sizeof *ready);
    dft_mem file = ref_encode(generated.e, n, ready);
    const size_t cut = file.len / 2;
    dft_memory s = {file.p, file.len, 0, 3, cut};
    df_nnue_reader *r = df_nnue_reader_from_function(DF_NNUE_BINPACK, dft_memory_read, &s);
    df_nnue_entry e;
    df_nnue_error err;
    size_t entries_read = 0, want = 0;
    df_nnue_error_kind last = DF_NNUE_ERR_NONE;
    df_nnue_next got;
    while ((got = df_nnue_read_next(r, &e, &err)) != DF_NNUE_END) {
        if (got == DF_NNUE_ERROR)
            last = err.kind;
        else
            entries_read++;
    }
    while (want < n && ready[want] <= cut) want++;
    assert_int_equal(want, entries_read);
    assert_int_equal(DF_NNUE_ERR_IO, last);
    df_nnue_reader_free(r);
    free(ready);
    free(file.p);
}

/* A read that fails inside a chunk, a record, a line or a game is the read error alone: what it
 * cut is no fault of the file, so no "cut off by the end of the file" (nor a FEN of half a line,
 * nor a game cut short) is said of it; the entries before are given. At every cut of each
 * format's file. */
static void test_read_error_alone(void **state)
{
    (void)state;
    for (int f = 0; f < DF_NNUE_FORMATS; f++) {
        dft_mem file = {0};
        if (f == DF_NNUE_PGN) {
            uint64_t rng = dft_seed ^ 0xcafe;
            const df_board start = dft_fen(DF_FEN_START);
            pgngen_text text = {0};
            for (int g = 0; g < 3; g++)
                assert_true(
                    pgngen_game(&text, &rng, &start, false, 20, PGNGEN_EVALS, (uint64_t)g, NULL));
            dft_mem_put(&file, text.text, text.len);
            pgngen_text_free(&text);
        } else {
            file = dft_nnue_write_all((df_nnue_format)f, generated.e, 12);
        }
        readout whole = read_all((df_nnue_format)f, file.p, file.len, 0);
        assert_int_equal(0, whole.nerrors);
        for (size_t cut = 1; cut < file.len; cut += 1 + cut / 16) {
            readout r = read_from((df_nnue_format)f, file.p, file.len, 0, 0, 1, cut);
            if (r.nerrors != 1 || r.errors[0].kind != DF_NNUE_ERR_IO || r.n > whole.n)
                fail_msg("format %d cut at %zu of %zu: %zu errors (%s), %zu entries", f, cut,
                         file.len, r.nerrors, r.nerrors ? r.errors[0].message : "", r.n);
            for (size_t i = 0; i < r.n; i++)
                assert_same_entry(&whole.entries[i], &r.entries[i], i, true);
            readout_free(&r);
        }
        readout_free(&whole);
        free(file.p);
    }
}

/* ---- PGN ---- */

/* PGN games as entries: one before each move with an evaluation of each game with a result,
 * scored from the side to move's view (centipawns into Stockfish's units, mates as
 * 32000 - plies), the game's result; what is no entry counted by reason; a share is every
 * world-th game; a bad game an error in its place. */
static void test_pgn_entries(void **state)
{
    (void)state;
    uint64_t rng = dft_seed ^ 0x5eed;
    pgngen_text text = {0};
    dft_entries want = {0};
    df_nnue_pgn_counts counts = {0};
    uint64_t first_of_game[41];
    const int games = 40;
    for (int g = 0; g < games; g++) {
        const df_board start = dft_fen(DF_FEN_START);
        pgngen_truth t;
        assert_true(pgngen_game(&text, &rng, &start, false, 10 + (uint32_t)(g * 7 % 50),
                                g % 4 ? PGNGEN_ALL : PGNGEN_EVALS, (uint64_t)g, &t));
        first_of_game[g] = want.n;
        counts.games++;
        df_board b = start;
        const int white = t.result == DF_RESULT_WHITE_WINS   ? 1
                          : t.result == DF_RESULT_BLACK_WINS ? -1
                                                             : 0;
        for (uint32_t i = 0; i < t.plies; i++) {
            if (t.result == DF_RESULT_NONE) {
                counts.no_result++;
            } else if (t.eval_kind[i] == DF_PGN_EVAL_NONE) {
                counts.no_eval++;
            } else {
                const df_color stm = df_board_stm(&b);
                df_nnue_entry e = {.pos = b,
                                   .move = t.moves[i],
                                   .ply = (uint16_t)i,
                                   .result = (int8_t)(stm == DF_WHITE ? white : -white)};
                if (t.eval_kind[i] == DF_PGN_EVAL_PAWNS) {
                    const long cp = lroundf(t.pawns[i] * 100) * (stm == DF_WHITE ? 1 : -1);
                    e.score = (int16_t)df_nnue_value_from_cp((int)cp, &b);
                } else {
                    const bool mover = t.mate[i] == 0 || (t.mate[i] > 0) == (stm == DF_WHITE);
                    const int plies = 2 * abs(t.mate[i]) + mover;
                    e.score = (int16_t)(mover ? 32000 - plies : plies - 32000);
                }
                dft_entries_add(&want, &e);
                counts.entries++;
            }
            df_make_move(&b, &b, t.moves[i]);
        }
        pgngen_truth_free(&t);
    }
    first_of_game[games] = want.n;
    assert_true(counts.no_eval && counts.no_result);
    cmd_text_puts(&text, "[Event \"bad\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n");
    for (uint32_t world = 1; world <= 3; world++)
        for (uint32_t rank = 0; rank < world; rank++) {
            dft_memory m = {text.text, text.len, 0, 1000 + 37 * rank, (size_t)DFT_NEVER};
            df_nnue_reader *r = df_nnue_reader_from_function(DF_NNUE_PGN, dft_memory_read, &m);
            assert_non_null(r);
            assert_int_equal(DF_OK, df_nnue_reader_set_share(r, rank, world));
            size_t k = 0, errors = 0;
            df_nnue_entry e;
            df_nnue_error err;
            df_nnue_next got;
            for (int g = (int)rank; g < games; g += (int)world)
                for (size_t i = first_of_game[g]; i < first_of_game[g + 1]; i++, k++) {
                    assert_int_equal(DF_NNUE_ENTRY, df_nnue_read_next(r, &e, &err));
                    assert_same_entry(&want.e[i], &e, i, true);
                    assert_int_equal(want.e[i].score, e.score);
                }
            while ((got = df_nnue_read_next(r, &e, &err)) == DF_NNUE_ERROR) {
                assert_int_equal(DF_NNUE_ERR_GAME, err.kind);
                assert_int_equal(games, err.where);
                assert_non_null(strstr(err.message, "Ke3"));
                errors++;
            }
            assert_int_equal(DF_NNUE_END, got);
            assert_int_equal((uint32_t)games % world == rank, errors);
            df_nnue_pgn_counts c;
            df_nnue_reader_pgn_counts(r, &c);
            assert_int_equal(k, c.entries);
            if (world == 1) {
                assert_int_equal(counts.games + 1, c.games);
                assert_int_equal(counts.no_eval, c.no_eval);
                assert_int_equal(counts.no_result, c.no_result);
                assert_int_equal(2, c.in_errors); /* e4 e5 before Ke3 */
            }
            df_nnue_reader_free(r);
        }
    /* Kept without an evaluation, unscored; centipawns kept as they are. */
    dft_memory m = {text.text, text.len, 0, 0, (size_t)DFT_NEVER};
    df_nnue_reader *r = df_nnue_reader_from_function(DF_NNUE_PGN, dft_memory_read, &m);
    const df_nnue_pgn_options keep = {true, DF_NNUE_UNITS_CP};
    assert_int_equal(DF_OK, df_nnue_reader_set_pgn(r, &keep));
    df_nnue_entry e;
    uint64_t n = 0, unscored = 0;
    df_nnue_next got;
    while ((got = df_nnue_read_next(r, &e, NULL)) != DF_NNUE_END)
        if (got == DF_NNUE_ENTRY) {
            n++;
            unscored += e.score == DF_NNUE_SCORE_NONE;
        }
    assert_int_equal(counts.entries + counts.no_eval, n);
    assert_int_equal(counts.no_eval, unscored);
    df_nnue_reader_free(r);
    /* PGN is read only; options are a PGN reader's. */
    assert_null(df_nnue_writer_to_function(DF_NNUE_PGN, dft_mem_write, &(dft_mem){0}));
    assert_int_equal(DF_ERR_ARGUMENT,
                     df_nnue_writer_open(&(df_nnue_writer *){NULL}, "x.pgn", DF_NNUE_PGN));
    m.pos = 0;
    r = df_nnue_reader_from_function(DF_NNUE_PLAIN, dft_memory_read, &m);
    assert_int_equal(DF_ERR_ARGUMENT, df_nnue_reader_set_pgn(r, &keep));
    df_nnue_reader_free(r);
    dft_entries_free(&want);
    pgngen_text_free(&text);
}

/* Stockfish's own outputs (its UCI to_cp, run on these values): its scale both ways. */
static void test_stockfish_scale(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        int value, cp;
    } facts[] = {
#include "data/stockfish_to_cp.h"
    };
    for (size_t i = 0; i < sizeof facts / sizeof *facts; i++) {
        const df_board b = dft_fen(facts[i].fen);
        if (df_nnue_cp_from_value(facts[i].value, &b) != facts[i].cp)
            fail_msg("%s: value %d is %d cp to Stockfish, %d here", facts[i].fen, facts[i].value,
                     facts[i].cp, df_nnue_cp_from_value(facts[i].value, &b));
        const int v = df_nnue_value_from_cp(facts[i].cp, &b);
        assert_int_equal(facts[i].cp, df_nnue_cp_from_value(v, &b));
    }
}

/* ---- .plain and .bin ---- */

/* The generated entries as .plain and .bin (those .bin holds: half-move clocks to 127), and
 * .bin's pad byte as nnue-pytorch writes it. */
static void test_plain_and_bin_round_trip(void **state)
{
    (void)state;
    for (int f = DF_NNUE_PLAIN; f <= DF_NNUE_BIN; f++) {
        dft_entries kept = {0};
        for (size_t i = 0; i < generated.n; i++)
            if (f == DF_NNUE_PLAIN || generated.e[i].pos.halfmove <= 127)
                dft_entries_add(&kept, &generated.e[i]);
        dft_mem out = dft_nnue_write_all((df_nnue_format)f, kept.e, kept.n);
        if (f == DF_NNUE_BIN) {
            assert_int_equal(40 * kept.n, out.len);
            assert_int_equal(0xff, out.p[39]);
        } else {
            assert_memory_equal("fen ", out.p, 4);
        }
        readout r = read_all((df_nnue_format)f, out.p, out.len, f == DF_NNUE_PLAIN ? 7 : 0);
        assert_int_equal(0, r.nerrors);
        assert_int_equal(kept.n, r.n);
        for (size_t i = 0; i < kept.n; i++) assert_same_entry(&kept.e[i], &r.entries[i], i, true);
        readout_free(&r);
        free(out.p);
        dft_entries_free(&kept);
    }
}

/* Each bad .plain record, followed by a good one: an error naming its line and byte, the good
 * record read; keys of other programs ignored. */
static void test_plain_hostile(void **state)
{
    (void)state;
    static const char good[] = "fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
                               "move e2e4\nscore 20\nply 0\nresult 0\ne\n";
/* A record's lines but its e, with line as its third. */
#define RECORD_WITH(line) "fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\nmove e1e2\n" line "ply 0\nresult 0\n"
    const struct {
        const char *text;
        size_t len; /* 0: strlen */
        df_nnue_error_kind kind;
        unsigned line; /* of the error, 1-based */
    } cases[] = {
        {"fen 8/8/8/8/8/8/8/8 w - - 0 1\nmove e2e4\nscore 0\nply 0\nresult 0\ne\n", 0,
         DF_NNUE_ERR_POSITION, 1},
        {"fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\nmove e1e3\nscore 0\nply 0\nresult 0\ne\n", 0,
         DF_NNUE_ERR_ILLEGAL, 1},
        {RECORD_WITH("score 40000\n") "e\n", 0, DF_NNUE_ERR_FIELD, 3},
        {"fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\nmove e1e2\nscore 1\nply 0\nresult 2\ne\n", 0,
         DF_NNUE_ERR_FIELD, 5},
        {"fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\nmove e1e2\nply 0\nresult 0\ne\n", 0, DF_NNUE_ERR_FIELD,
         1},
        /* More pieces than the formats hold: no row of nnue-pytorch's has room for them. */
        {"fen rnbqkbnr/pppppppp/8/8/8/QQQQQQQQ/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nmove a3a4\n"
         "score 0\nply 0\nresult 0\ne\n",
         0, DF_NNUE_ERR_POSITION, 1},
        /* A control byte inside a value, or a key, is no text: 12<NUL>3456 is not 12. */
        {RECORD_WITH("score 12\0"
                     "3456\n") "e\n",
         sizeof RECORD_WITH("score 12\0"
                            "3456\n") "e\n" -
             1,
         DF_NNUE_ERR_FIELD, 3},
        /* A terminator that is not "e": the record is an error, the next one is read. */
        {RECORD_WITH("score 1\n") "e\0junk\n", sizeof RECORD_WITH("score 1\n") "e\0junk\n" - 1,
         DF_NNUE_ERR_FIELD, 6},
        {"fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\0junk\nmove e1e2\nscore 1\nply 0\nresult 0\ne\n",
         sizeof "fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\0junk\nmove e1e2\nscore 1\nply 0\nresult "
                "0\ne\n" -
             1,
         DF_NNUE_ERR_FIELD, 1},
        {NULL, 0, DF_NNUE_ERR_FIELD, 2}, /* a line too long under a key that is read */
    };
#undef RECORD_WITH
    char longline[700];
    memset(longline, 'x', sizeof longline);
    memcpy(longline, "score ", 6);
    longline[sizeof longline - 1] = 0;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        dft_mem text = {0};
        if (cases[c].text) {
            dft_mem_put(&text, cases[c].text, cases[c].len ? cases[c].len : strlen(cases[c].text));
        } else {
            static const char head[] = "fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n";
            dft_mem_put(&text, head, sizeof head - 1);
            dft_mem_put(&text, longline, strlen(longline));
            static const char tail[] = "\nmove e1e2\nply 0\nresult 0\ne\n";
            dft_mem_put(&text, tail, sizeof tail - 1);
        }
        /* the byte where the error's line starts */
        size_t offset = 0;
        for (unsigned l = 1; l < cases[c].line; l++)
            offset +=
                (size_t)((const unsigned char *)memchr(text.p + offset, '\n', text.len - offset) -
                         (text.p + offset)) +
                1;
        dft_mem_put(&text, "unknown key\n", 12);
        dft_mem_put(&text, good, sizeof good - 1);
        readout r = read_all(DF_NNUE_PLAIN, text.p, text.len, 0);
        if (r.nerrors != 1 || r.errors[0].kind != cases[c].kind ||
            r.errors[0].where != cases[c].line || r.errors[0].offset != offset || r.n != 1)
            fail_msg("case %zu: %zu errors (kind %d, line %llu, byte %llu: %s), %zu entries", c,
                     r.nerrors, r.nerrors ? r.errors[0].kind : 0,
                     r.nerrors ? (unsigned long long)r.errors[0].where : 0ull,
                     r.nerrors ? (unsigned long long)r.errors[0].offset : 0ull,
                     r.nerrors ? r.errors[0].message : "", r.n);
        assert_int_equal(20, r.entries[0].score);
        readout_free(&r);
        /* Cut before its e: the record is cut short. */
        r = read_all(DF_NNUE_PLAIN, good, sizeof good - 3, 0);
        assert_int_equal(1, r.nerrors);
        assert_int_equal(DF_NNUE_ERR_TRUNCATED, r.errors[0].kind);
        assert_int_equal(0, r.n);
        readout_free(&r);
        free(text.p);
    }
}

/* Lines of keys dirfill does not read are passed over whatever their length or bytes: a 1 MiB
 * comment of another program between two records, and inside one, loses neither. */
static void test_plain_other_programs_lines(void **state)
{
    (void)state;
    static const char record[] = "fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
                                 "move e2e4\nscore 20\nply 0\nresult 0\ne\n";
    const size_t big = 1u << 20;
    char *comment = malloc(big);
    assert_non_null(comment);
    memset(comment, 'x', big);
    memcpy(comment, "comment ", 8);
    comment[big / 2] = '\0'; /* a control byte in a value nobody reads */
    dft_mem text = {0};
    dft_mem_put(&text, record, sizeof record - 1);
    dft_mem_put(&text, comment, big);
    dft_mem_put(&text, "\n", 1);
    dft_mem_put(&text, record, 61); /* the fen line */
    dft_mem_put(&text, comment, big);
    dft_mem_put(&text, "\n", 1);
    dft_mem_put(&text, record + 61, sizeof record - 1 - 61);
    readout r = read_all(DF_NNUE_PLAIN, text.p, text.len, 0);
    if (r.nerrors) fail_msg("%zu errors: %s", r.nerrors, r.errors[0].message);
    assert_int_equal(2, r.n);
    assert_int_equal(20, r.entries[1].score);
    readout_free(&r);
    free(text.p);
    free(comment);
}

/* A Chess960 position whose rights are king e1/e8 and corner rooks (a game tagged Chess960 from
 * the standard start) is written to .plain as KQkq, which dirfill and nnue-pytorch read. */
static void test_plain_chess960_castling(void **state)
{
    (void)state;
    df_nnue_entry e;
    memset(&e, 0, sizeof e);
    static const char start[] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_int_equal(DF_OK, df_fen_parse(&e.pos, start, strlen(start), DF_FEN_CHESS960, NULL));
    assert_true(e.pos.chess960);
    assert_int_equal(DF_OK, df_move_from_uci(&e.move, &e.pos, "g1f3", 4));
    dft_mem out = {0};
    df_nnue_writer *w = df_nnue_writer_to_function(DF_NNUE_PLAIN, dft_mem_write, &out);
    assert_non_null(w);
    assert_int_equal(DF_OK, df_nnue_write(w, &e, NULL));
    assert_int_equal(DF_OK, df_nnue_writer_close(w));
    assert_non_null(memmem(out.p, out.len, " w KQkq - 0 1\n", 14));
    readout r = read_all(DF_NNUE_PLAIN, out.p, out.len, 0);
    if (r.nerrors) fail_msg("%s", r.errors[0].message);
    assert_int_equal(1, r.n);
    assert_int_equal(DF_CASTLE_WK | DF_CASTLE_WQ | DF_CASTLE_BK | DF_CASTLE_BQ,
                     r.entries[0].pos.castling);
    readout_free(&r);
    free(out.p);
}

/* A .bin record's bits, least significant first. */
typedef struct {
    unsigned char rec[40];
    unsigned bit;
} sfen;

static void sfen_put(sfen *s, unsigned v, unsigned n)
{
    for (unsigned i = 0; i < n; i++, s->bit++)
        s->rec[s->bit / 8] |= (unsigned char)((v >> i & 1) << (s->bit % 8));
}

/* Kings e1 and e8 (or both on e1), one piece code on a2 (bits, least significant first; 0:
 * empty), the rest empty; castling none, en passant ep (-1: none); move from-to; result. */
static sfen make_sfen(bool kings_apart, unsigned code, unsigned code_bits, int ep, int from, int to,
                      int result)
{
    sfen s;
    memset(&s, 0, sizeof s);
    sfen_put(&s, 0, 1);
    sfen_put(&s, DF_E1, 6);
    sfen_put(&s, kings_apart ? DF_E8 : DF_E1, 6);
    for (int rank = 7; rank >= 0; rank--)
        for (int file = 0; file < 8; file++) {
            const int sq = 8 * rank + file;
            if (sq == DF_E1 || (kings_apart && sq == DF_E8)) continue;
            if (sq == DF_A2 && code_bits)
                sfen_put(&s, code, code_bits);
            else
                sfen_put(&s, 0, 1);
        }
    sfen_put(&s, 0, 4);
    sfen_put(&s, ep >= 0, 1);
    if (ep >= 0) sfen_put(&s, (unsigned)ep, 6);
    sfen_put(&s, 0, 6);
    sfen_put(&s, 1, 8);
    sfen_put(&s, 0, 9);
    const unsigned move = (unsigned)(to | from << 6);
    s.rec[34] = (unsigned char)move;
    s.rec[35] = (unsigned char)(move >> 8);
    s.rec[38] = (unsigned char)result;
    s.rec[39] = 0xff;
    return s;
}

/* Each bad .bin record before a good one: an error naming the record and its byte. */
static void test_bin_hostile(void **state)
{
    (void)state;
    /* a white rook on a2: code 0111 read least significant bit first, then colour 0 */
    const sfen good = make_sfen(true, 0x7, 5, -1, DF_E1, DF_E2, 1);
    const struct {
        sfen rec;
        df_nnue_error_kind kind;
    } cases[] = {
        {make_sfen(false, 0x7, 5, -1, DF_E1, DF_E2, 1), DF_NNUE_ERR_POSITION}, /* kings on e1 */
        {make_sfen(true, 0xd, 4, -1, DF_E1, DF_E2, 1), DF_NNUE_ERR_POSITION},  /* 1011: no piece */
        {make_sfen(true, 0x7, 5, -1, DF_E1, DF_E2, 5), DF_NNUE_ERR_FIELD},     /* result 5 */
        {make_sfen(true, 0x7, 5, -1, DF_E1, DF_E3, 1), DF_NNUE_ERR_ILLEGAL},   /* e1e3 */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        dft_mem file = {0};
        dft_mem_put(&file, good.rec, 40);
        dft_mem_put(&file, cases[c].rec.rec, 40);
        dft_mem_put(&file, good.rec, 40);
        readout r = read_all(DF_NNUE_BIN, file.p, file.len, 0);
        if (r.nerrors != 1 || r.errors[0].kind != cases[c].kind || r.errors[0].where != 1 ||
            r.errors[0].offset != 40 || r.n != 2)
            fail_msg("case %zu: %zu errors (kind %d: %s), %zu entries", c, r.nerrors,
                     r.nerrors ? r.errors[0].kind : 0, r.nerrors ? r.errors[0].message : "", r.n);
        readout_free(&r);
        free(file.p);
    }
    /* 40 pieces (white queens filling the third rank: 255 bits of the record's 256): more than
     * any format's rows hold, refused as the .plain and .binpack readers refuse it. */
    static const unsigned char forty[40] = {
        0x08, 0xfe, 0xce, 0x9a, 0xeb, 0xbc, 0x31, 0xc6, 0x18, 0x63, 0x8c, 0x00, 0x00, 0x00,
        0x29, 0xa5, 0x94, 0x52, 0x4a, 0x21, 0x84, 0x10, 0x42, 0x08, 0x67, 0x94, 0x54, 0xc6,
        0x79, 0x40, 0x00, 0x00, 0x00, 0x00, 0x18, 0x04, 0x00, 0x00, 0x00, 0xff};
    readout r = read_all(DF_NNUE_BIN, forty, sizeof forty, 0);
    assert_int_equal(1, r.nerrors);
    assert_int_equal(DF_NNUE_ERR_POSITION, r.errors[0].kind);
    assert_non_null(strstr(r.errors[0].message, "40 pieces"));
    assert_int_equal(0, r.n);
    readout_free(&r);
    /* A cut record; an en-passant square nnue-pytorch's rule clears is cleared, silently. */
    r = read_all(DF_NNUE_BIN, good.rec, 20, 0);
    assert_int_equal(1, r.nerrors);
    assert_int_equal(DF_NNUE_ERR_TRUNCATED, r.errors[0].kind);
    readout_free(&r);
    const sfen ep = make_sfen(true, 0x7, 5, DF_E6, DF_E1, DF_E2, 0);
    r = read_all(DF_NNUE_BIN, ep.rec, 40, 0);
    assert_int_equal(0, r.nerrors);
    assert_int_equal(1, r.n);
    assert_int_equal(DF_SQUARE_NONE, df_nnue_ep_square(&r.entries[0].pos));
    assert_int_equal(0, r.entries[0].pos.halfmove);
    readout_free(&r);
}

/* ---- what the writers refuse ---- */

static long failing_write(void *ctx, const char *buf, size_t n)
{
    (void)ctx;
    (void)buf;
    (void)n;
    return -1;
}

/* Entries a format cannot hold are errors naming them, and leave the output as it was: the
 * bytes are those of the accepted entries alone. Chess960 positions are written when their
 * castling rights are standard chess's (or none) and refused otherwise. */
static void test_writer_refusals(void **state)
{
    (void)state;
    df_nnue_entry bad[8];
    df_nnue_error_kind kinds[8];
    bool binpack_only[8] = {false};
    int nbad = 0;
    bad[nbad] = entry_at("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1e2", 0, 0, 0);
    bad[nbad].move = df_move_make(DF_E1, DF_E3, DF_MOVE_NORMAL, DF_PAWN);
    kinds[nbad++] = DF_NNUE_ERR_ILLEGAL;
    bad[nbad] = entry_at("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1e2", 0, 0, 2);
    kinds[nbad++] = DF_NNUE_ERR_FIELD;
    bad[nbad] = entry_at("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1e2", 0, 0, 0);
    bad[nbad].pos.piece[DF_KING] = bad[nbad].pos.color[DF_WHITE] = 0; /* no white king */
    kinds[nbad++] = DF_NNUE_ERR_POSITION;
    bad[nbad] = entry_at("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1e2", 0, 16384, 0);
    binpack_only[nbad] = true;
    kinds[nbad++] = DF_NNUE_ERR_UNENCODABLE;
    bad[nbad] = entry_at("4k3/8/8/8/8/8/8/4K3 w - - 256 1", "e1e2", 0, 0, 0);
    kinds[nbad++] = DF_NNUE_ERR_UNENCODABLE; /* .binpack: 8 bits; .bin: 7 */
    bad[nbad] = entry_at("rnbqkbnr/pppppppp/pppppppp/8/8/PPPPPPPP/PPPPPPPP/RNBQKBNR w - - 0 1",
                         "a3a4", 0, 0, 0);
    kinds[nbad++] = DF_NNUE_ERR_POSITION;   /* 48 pieces: more than any format's rows hold */
    for (int f = 0; f < DF_NNUE_PGN; f++) { /* the formats a writer writes */
        dft_mem with = {0}, without = {0};
        df_nnue_writer *w = df_nnue_writer_to_function((df_nnue_format)f, dft_mem_write, &with);
        df_nnue_writer *w2 = df_nnue_writer_to_function((df_nnue_format)f, dft_mem_write, &without);
        size_t refused960 = 0, written960 = 0;
        for (size_t i = 0; i < 60; i++) {
            df_nnue_error err;
            const df_nnue_entry *good = &generated.e[i];
            assert_int_equal(DF_OK, df_nnue_write(w, good, &err));
            assert_int_equal(DF_OK, df_nnue_write(w2, good, NULL));
            if (i < (size_t)nbad) {
                const bool refused = !(binpack_only[i] && f != DF_NNUE_BINPACK) &&
                                     !(kinds[i] == DF_NNUE_ERR_UNENCODABLE && f == DF_NNUE_PLAIN);
                const df_status s = df_nnue_write(w, &bad[i], &err);
                if (refused) {
                    if (s != DF_ERR_BOARD || err.kind != kinds[i] || !strstr(err.message, "entry "))
                        fail_msg("format %d, bad entry %zu: status %d, kind %d: %s", f, i, s,
                                 err.kind, err.message);
                } else {
                    assert_int_equal(DF_OK, s);
                    assert_int_equal(DF_OK, df_nnue_write(w2, &bad[i], NULL));
                }
            }
            const df_nnue_entry *c960 = &generated960.e[(i * 37) % generated960.n];
            const df_status s = df_nnue_write(w, c960, &err);
            if (s == DF_OK) {
                written960++;
                assert_int_equal(DF_OK, df_nnue_write(w2, c960, NULL));
            } else {
                /* Chess960 castling, or (.bin) a half-move clock over 127 */
                assert_int_equal(DF_NNUE_ERR_UNENCODABLE, err.kind);
                refused960 += strstr(err.message, "Chess960") != NULL;
            }
        }
        assert_true(refused960 > 0 && written960 > 0);
        assert_int_equal(DF_OK, df_nnue_writer_close(w));
        assert_int_equal(DF_OK, df_nnue_writer_close(w2));
        assert_int_equal(without.len, with.len);
        assert_memory_equal(without.p, with.p, with.len);
        free(with.p);
        free(without.p);
        /* An output that fails: an error at once or at the close, never a success. */
        w = df_nnue_writer_to_function((df_nnue_format)f, failing_write, NULL);
        df_status s = DF_OK;
        for (size_t i = 0; i < 10 && s == DF_OK; i++) s = df_nnue_write(w, &generated.e[i], NULL);
        const df_status closed = df_nnue_writer_close(w);
        assert_true(s == DF_ERR_IO || closed == DF_ERR_IO);
        assert_int_equal(DF_ERR_IO, closed);
    }
}

/* ---- a file writer: the old file or the whole new one ---- */

static dft_mem file_bytes(const char *path)
{
    dft_mem m = {0};
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    unsigned char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) dft_mem_put(&m, buf, n);
    fclose(f);
    return m;
}

static void assert_file_is(const char *path, const dft_mem *want)
{
    dft_mem got = file_bytes(path);
    if (got.len != want->len || memcmp(got.p, want->p, want->len))
        fail_msg("%s: %zu bytes, not the %zu expected", path, got.len, want->len);
    free(got.p);
}

/* Writes n entries of generated to a writer on path in format, as far as it takes them. */
static df_status write_some(df_nnue_writer *w, size_t n)
{
    df_status s = DF_OK;
    for (size_t i = 0; i < n && s == DF_OK; i++) {
        s = df_nnue_write(w, &generated.e[i], NULL);
        if (s == DF_ERR_BOARD) s = DF_OK; /* .bin: a half-move clock over 127 */
    }
    return s;
}

/* df_nnue_writer_open writes a temporary file beside its path and renames it over the path at a
 * good close: while it writes, the path is absent (or the old file); after, the folder holds the
 * file alone, with the mode fopen gives (the old file's). Discarded, or failed on the way (a
 * file size limit) or at the close (the rename refused), the path is as it was and no
 * temporary file remains. A symbolic link is written through, and stays a link. */
static void test_writer_file(void **state)
{
    (void)state;
    char folder[] = "/tmp/dirfill-writer-XXXXXX";
    assert_non_null(mkdtemp(folder));
    const mode_t mask = umask(022);
    umask(mask);
    static const char *const ext[DF_NNUE_PGN] = {".binpack", ".plain", ".bin"};
    for (int f = 0; f < DF_NNUE_PGN; f++) { /* the formats a writer writes */
        char path[128], name[32], prefix[160], want[64];
        snprintf(name, sizeof name, "out%s", ext[f]);
        snprintf(path, sizeof path, "%s/%s", folder, name);
        snprintf(prefix, sizeof prefix, "%s/.%s.", folder, name);
        /* Written whole. */
        df_nnue_writer *w;
        assert_int_equal(DF_OK, df_nnue_writer_open(&w, path, (df_nnue_format)f));
        const char *temp = df_nnue_writer_temp_path(w);
        assert_non_null(temp);
        assert_memory_equal(prefix, temp, strlen(prefix));
        assert_int_equal(strlen(prefix) + 6, strlen(temp));
        assert_int_equal(DF_OK, write_some(w, generated.n));
        assert_int_equal(-1, access(path, F_OK));
        assert_int_equal(0, access(temp, F_OK));
        assert_int_equal(DF_OK, df_nnue_writer_close(w));
        dft_assert_folder(folder, name);
        struct stat st;
        assert_int_equal(0, stat(path, &st));
        assert_int_equal(0666 & ~mask, st.st_mode & 0777);
        dft_mem whole = file_bytes(path);
        assert_true(whole.len > 0);
        df_nnue_reader *r;
        assert_int_equal(DF_OK, df_nnue_reader_open(&r, path, (df_nnue_format)f));
        df_nnue_entry e;
        size_t n = 0;
        while (df_nnue_read_next(r, &e, NULL) == DF_NNUE_ENTRY) n++;
        df_nnue_reader_free(r);
        assert_true(n > generated.n / 2);
        /* Discarded: the old file stays, byte for byte. */
        assert_int_equal(DF_OK, df_nnue_writer_open(&w, path, (df_nnue_format)f));
        assert_int_equal(DF_OK, write_some(w, 100));
        df_nnue_writer_discard(w);
        dft_assert_folder(folder, name);
        assert_file_is(path, &whole);
        /* An existing file keeps its mode. */
        assert_int_equal(0, chmod(path, 0640));
        assert_int_equal(DF_OK, df_nnue_writer_open(&w, path, (df_nnue_format)f));
        assert_int_equal(DF_OK, write_some(w, generated.n));
        assert_int_equal(DF_OK, df_nnue_writer_close(w));
        assert_int_equal(0, stat(path, &st));
        assert_int_equal(0640, st.st_mode & 0777);
        assert_file_is(path, &whole);
        /* A write that fails on the way: files end at 16 KB. */
        struct rlimit was, small;
        assert_int_equal(0, getrlimit(RLIMIT_FSIZE, &was));
        small = was;
        small.rlim_cur = 16 << 10;
        void (*xfsz)(int) = signal(SIGXFSZ, SIG_IGN);
        assert_int_equal(0, setrlimit(RLIMIT_FSIZE, &small));
        assert_int_equal(DF_OK, df_nnue_writer_open(&w, path, (df_nnue_format)f));
        const df_status wrote = write_some(w, generated.n);
        errno = 0;
        const df_status closed = df_nnue_writer_close(w);
        const int why = errno;
        assert_int_equal(0, setrlimit(RLIMIT_FSIZE, &was));
        signal(SIGXFSZ, xfsz);
        assert_true(wrote == DF_OK || wrote == DF_ERR_IO);
        assert_int_equal(DF_ERR_IO, closed);
        assert_int_equal(EFBIG, why);
        dft_assert_folder(folder, name);
        assert_file_is(path, &whole);
        /* A close whose rename is refused: a folder took the name meanwhile. */
        char other[160], inside[200];
        snprintf(other, sizeof other, "%s/taken%s", folder, ext[f]);
        assert_int_equal(DF_OK, df_nnue_writer_open(&w, other, (df_nnue_format)f));
        assert_int_equal(DF_OK, write_some(w, 100));
        assert_int_equal(0, mkdir(other, 0755));
        snprintf(inside, sizeof inside, "%s/x", other);
        FILE *x = fopen(inside, "wb");
        assert_non_null(x);
        fputc('x', x);
        fclose(x);
        assert_int_equal(DF_ERR_IO, df_nnue_writer_close(w));
        snprintf(want, sizeof want, "%s taken%s", name, ext[f]);
        dft_assert_folder(folder, want);
        assert_file_is(inside, &(dft_mem){(unsigned char *)"x", 1, 1});
        unlink(inside);
        rmdir(other);
        /* Through a symbolic link: the file it names is replaced, the link stays. */
        char link[160], target[160] = "";
        snprintf(link, sizeof link, "%s/link%s", folder, ext[f]);
        assert_int_equal(0, symlink(name, link));
        assert_int_equal(DF_OK, df_nnue_writer_open(&w, link, (df_nnue_format)f));
        assert_memory_equal(prefix, df_nnue_writer_temp_path(w), strlen(prefix));
        assert_int_equal(DF_OK, write_some(w, 100));
        assert_int_equal(DF_OK, df_nnue_writer_close(w));
        assert_true(readlink(link, target, sizeof target - 1) > 0);
        assert_string_equal(name, target);
        dft_mem part = file_bytes(path);
        assert_true(part.len > 0 && part.len < whole.len);
        free(part.p);
        unlink(link);
        unlink(path);
        dft_assert_folder(folder, "");
        free(whole.p);
    }
    /* Standard output and a function have no temporary file; discarding them writes nothing. */
    df_nnue_writer *w;
    assert_int_equal(DF_OK, df_nnue_writer_open(&w, "-", DF_NNUE_BINPACK));
    assert_null(df_nnue_writer_temp_path(w));
    assert_int_equal(DF_OK, write_some(w, 100));
    df_nnue_writer_discard(w);
    dft_mem out = {0};
    w = df_nnue_writer_to_function(DF_NNUE_BINPACK, dft_mem_write, &out);
    assert_null(df_nnue_writer_temp_path(w));
    assert_int_equal(DF_OK, write_some(w, 100));
    df_nnue_writer_discard(w);
    assert_int_equal(0, out.len);
    df_nnue_writer_discard(NULL);
    assert_null(df_nnue_writer_temp_path(NULL));
    rmdir(folder);
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_binpack_round_trip),
        cmocka_unit_test(test_binpack_chunks),
        cmocka_unit_test(test_binpack_truncated),
        cmocka_unit_test(test_shares),
        cmocka_unit_test(test_ep_rule),
        cmocka_unit_test(test_binpack_hand_made),
        cmocka_unit_test(test_binpack_stem_ep_as_stored),
        cmocka_unit_test(test_binpack_hostile),
        cmocka_unit_test(test_binpack_claim_not_believed),
        cmocka_unit_test(test_read_error),
        cmocka_unit_test(test_read_error_alone),
        cmocka_unit_test(test_pgn_entries),
        cmocka_unit_test(test_stockfish_scale),
        cmocka_unit_test(test_plain_and_bin_round_trip),
        cmocka_unit_test(test_plain_hostile),
        cmocka_unit_test(test_plain_other_programs_lines),
        cmocka_unit_test(test_plain_chess960_castling),
        cmocka_unit_test(test_bin_hostile),
        cmocka_unit_test(test_writer_refusals),
        cmocka_unit_test(test_writer_file),
    };
    return cmocka_run_group_tests(tests, make_entries, free_entries);
}
