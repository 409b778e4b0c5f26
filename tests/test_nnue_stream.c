/* SPDX-License-Identifier: MIT */
/* The stream of entries over many inputs (nnue_stream.h): in the inputs' order it is reading
 * them in turn with one skip predicate, entry for entry and error for error; shuffled, a pass
 * gives every entry once, the same seed the same order, memory never past the buffer, an order
 * unrelated to the file's; pieces are whole chunks or a mebibyte of records; picks follow the
 * bytes left; cyclic reading goes on past the inputs' ends and stops on inputs that give
 * nothing; errors keep their input; the hooks see each reader once. */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dft.h"
#include "nnue_games.h"
#include "splitmix64.h"

/* ---- the data: generated games as .binpack chunks, .bin and .plain ---- */

enum { PARTS = 4, INPUTS_MAX = 8 };

static dft_entries games;
static size_t a_end, b_end;    /* A: games[0, a_end), B: [a_end, b_end), C: the rest */
static size_t part_end[PARTS]; /* A's chunks: entries [part_end[i - 1], part_end[i]) */
static dft_mem binpack_a, bad_a, bin_b, plain_c, all_bin, numbered_bin;
static size_t numbered; /* numbered_bin's entries: entry i has score i */

static int16_t random_score(uint64_t *rng)
{
    return (int16_t)((int)(splitmix64_next(rng) % 1201) - 600);
}

static int setup(void **state)
{
    (void)state;
    uint64_t rng = dft_seed;
    const dft_game_style style = {false, 60, 240, random_score, 0};
    dft_game_entries(&games, &rng, 200, &style);
    assert_true(games.n >= 30000);
    a_end = games.n * 6 / 10;
    b_end = games.n * 85 / 100;
    /* Chunks of a few thousand entries: each part written alone is one chunk. */
    for (size_t i = 0, from = 0; i < PARTS; i++) {
        part_end[i] = a_end * (i + 1) / PARTS;
        dft_mem part = dft_nnue_write_all(DF_NNUE_BINPACK, games.e + from, part_end[i] - from);
        dft_mem_put(&binpack_a, part.p, part.len);
        if (i == 2) dft_mem_put(&bad_a, "XXXXXXXX", 8); /* chunk 2 has no magic */
        dft_mem_put(&bad_a, part.p, part.len);
        free(part.p);
        from = part_end[i];
    }
    bin_b = dft_nnue_write_all(DF_NNUE_BIN, games.e + a_end, b_end - a_end);
    plain_c = dft_nnue_write_all(DF_NNUE_PLAIN, games.e + b_end, games.n - b_end);
    all_bin = dft_nnue_write_all(DF_NNUE_BIN, games.e, games.n);
    numbered = 20000;
    df_nnue_entry *e = malloc(numbered * sizeof *e);
    assert_non_null(e);
    for (size_t i = 0; i < numbered; i++) {
        e[i] = games.e[i];
        e[i].score = (int16_t)i;
    }
    numbered_bin = dft_nnue_write_all(DF_NNUE_BIN, e, numbered);
    free(e);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    dft_entries_free(&games);
    dft_mem *all[] = {&binpack_a, &bad_a, &bin_b, &plain_c, &all_bin, &numbered_bin};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) free(all[i]->p);
    return 0;
}

/* ---- inputs in memory, through the hooks ---- */

typedef struct {
    const dft_mem *data;
    df_nnue_format format;
    bool size_unknown; /* the stream is told no size */
} mem_input;

typedef struct {
    const mem_input *in;
    size_t n;
    dft_memory *reading[INPUTS_MAX];
    unsigned opened[INPUTS_MAX], whole[INPUTS_MAX], cut[INPUTS_MAX];
} mem_ctx;

static df_nnue_reader *mem_open(void *ctx, size_t k)
{
    mem_ctx *c = ctx;
    assert_true(k < c->n);
    assert_null(c->reading[k]); /* one reader of an input at a time */
    dft_memory *m = malloc(sizeof *m);
    assert_non_null(m);
    *m = (dft_memory){c->in[k].data->p, c->in[k].data->len, 0, 0, (size_t)DFT_NEVER};
    c->reading[k] = m;
    c->opened[k]++;
    df_nnue_reader *r = df_nnue_reader_from_function(c->in[k].format, dft_memory_read, m);
    assert_non_null(r);
    return r;
}

static void mem_close(void *ctx, size_t k, df_nnue_reader *r, bool whole)
{
    mem_ctx *c = ctx;
    assert_non_null(c->reading[k]);
    df_nnue_reader_free(r);
    free(c->reading[k]);
    c->reading[k] = NULL;
    if (whole)
        c->whole[k]++;
    else
        c->cut[k]++;
}

/* A stream over c's inputs with options o (its hooks set here). */
static df_nnue_stream *mem_stream(mem_ctx *c, df_nnue_stream_options o)
{
    df_nnue_stream_input spec[INPUTS_MAX];
    assert_true(c->n <= INPUTS_MAX);
    for (size_t k = 0; k < c->n; k++)
        spec[k] = (df_nnue_stream_input){NULL, c->in[k].format,
                                         c->in[k].size_unknown ? 0 : c->in[k].data->len};
    o.open = mem_open;
    o.close = mem_close;
    o.ctx = c;
    df_nnue_stream *s;
    assert_int_equal(DF_OK, df_nnue_stream_new(&s, spec, c->n, &o));
    return s;
}

/* ---- what a stream gave ---- */

/* An entry as one number: every field a format keeps. */
static uint64_t fingerprint(const df_nnue_entry *e)
{
    const uint64_t part[] = {e->pos.color[0],
                             e->pos.color[1],
                             e->pos.piece[0],
                             e->pos.piece[1],
                             e->pos.piece[2],
                             e->pos.piece[3],
                             e->pos.piece[4],
                             e->pos.piece[5],
                             (uint64_t)e->pos.stm | (uint64_t)e->pos.castling << 8 |
                                 (uint64_t)df_nnue_entry_ep(e) << 16,
                             (uint64_t)e->move << 32 | (uint16_t)e->score,
                             (uint64_t)e->ply << 8 | (uint8_t)e->result};
    uint64_t h = 0;
    for (size_t i = 0; i < sizeof part / sizeof *part; i++) {
        uint64_t x = h ^ part[i];
        h = splitmix64_next(&x);
    }
    return h | 1; /* errors are even */
}

/* An error as a number no entry has: its offset, its kind, even. */
static uint64_t error_print(const df_nnue_error *e)
{
    return (e->offset << 8 | (uint64_t)e->kind << 1) & ~UINT64_C(1);
}

typedef struct {
    uint64_t *print; /* entries odd, errors even */
    uint32_t *input;
    size_t n, cap, errors;
} seen;

static void seen_add(seen *s, uint64_t print, size_t input)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 4096;
        s->print = realloc(s->print, s->cap * sizeof *s->print);
        s->input = realloc(s->input, s->cap * sizeof *s->input);
        assert_true(s->print && s->input);
    }
    s->print[s->n] = print;
    s->input[s->n++] = (uint32_t)input;
    s->errors += !(print & 1);
}

static void seen_free(seen *s)
{
    free(s->print);
    free(s->input);
    *s = (seen){0};
}

/* What s gives, up to limit entries and errors (or its end); s is freed. */
static seen drain(df_nnue_stream *s, size_t limit)
{
    seen out = {0};
    df_nnue_entry e;
    df_nnue_error err;
    size_t k = SIZE_MAX;
    for (df_nnue_next got; out.n < limit && (got = df_nnue_stream_next(s, &e, &err, &k));) {
        seen_add(&out, got == DF_NNUE_ENTRY ? fingerprint(&e) : error_print(&err), k);
        if (got == DF_NNUE_ENTRY) assert_true(df_move_is_legal(&e.pos, e.move));
    }
    df_nnue_stream_free(s);
    return out;
}

static int by_value(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Whether a and b hold the same entries, each as many times (errors left out). */
static bool same_entries(const seen *a, const seen *b)
{
    uint64_t *x = malloc((a->n + 1) * sizeof *x), *y = malloc((b->n + 1) * sizeof *y);
    size_t nx = 0, ny = 0;
    for (size_t i = 0; i < a->n; i++)
        if (a->print[i] & 1) x[nx++] = a->print[i];
    for (size_t i = 0; i < b->n; i++)
        if (b->print[i] & 1) y[ny++] = b->print[i];
    qsort(x, nx, sizeof *x, by_value);
    qsort(y, ny, sizeof *y, by_value);
    const bool same = nx == ny && !memcmp(x, y, nx * sizeof *x);
    free(x);
    free(y);
    return same;
}

static bool same_order(const seen *a, const seen *b)
{
    return a->n == b->n && !memcmp(a->print, b->print, a->n * sizeof *a->print) &&
           !memcmp(a->input, b->input, a->n * sizeof *a->input);
}

/* The reference: each input read in turn by a reader of its own, one predicate over them all. */
static seen read_in_turn(const mem_input *in, size_t n, const df_nnue_skip_options *skip,
                         uint64_t seed, uint32_t rank, uint32_t world)
{
    seen out = {0};
    df_nnue_skip *p = skip ? df_nnue_skip_new(skip, seed) : NULL;
    for (size_t k = 0; k < n; k++) {
        dft_memory m = {in[k].data->p, in[k].data->len, 0, 0, (size_t)DFT_NEVER};
        df_nnue_reader *r = df_nnue_reader_from_function(in[k].format, dft_memory_read, &m);
        assert_int_equal(DF_OK, df_nnue_reader_set_share(r, rank, world));
        df_nnue_entry e;
        df_nnue_error err;
        for (df_nnue_next got; (got = df_nnue_read_next(r, &e, &err));) {
            if (got == DF_NNUE_ERROR)
                seen_add(&out, error_print(&err), k);
            else if (!p || !df_nnue_skip_entry(p, &e.pos, e.move, e.score, e.ply, e.result))
                seen_add(&out, fingerprint(&e), k);
        }
        df_nnue_reader_free(r);
    }
    df_nnue_skip_free(p);
    return out;
}

/* ---- the inputs' order ---- */

static void test_in_order_is_reading_in_turn(void **state)
{
    (void)state;
    const mem_input in[] = {{&bad_a, DF_NNUE_BINPACK, false},
                            {&bin_b, DF_NNUE_BIN, false},
                            {&plain_c, DF_NNUE_PLAIN, false}};
    df_nnue_skip_options skip = df_nnue_skip_defaults();
    skip.random_fen_skipping = 2;
    for (uint32_t world = 1; world <= 2; world++)
        for (uint32_t rank = 0; rank < world; rank++)
            for (int skipping = 0; skipping < 2; skipping++) {
                mem_ctx c = {in, 3, {0}, {0}, {0}, {0}};
                df_nnue_stream_options o = {0};
                o.rank = rank;
                o.world = world;
                o.skip = skipping ? &skip : NULL;
                o.seed = 77;
                seen got = drain(mem_stream(&c, o), SIZE_MAX);
                seen want = read_in_turn(in, 3, o.skip, 77, rank, world);
                if (want.n < (skipping ? 200u : 10000u) / world) fail_msg("%zu entries", want.n);
                assert_int_equal(1, want.errors); /* a chunk's framing: every rank's */
                assert_true(same_order(&got, &want));
                for (size_t k = 0; k < 3; k++) {
                    assert_int_equal(1, c.opened[k]);
                    assert_int_equal(1, c.whole[k]);
                    assert_int_equal(0, c.cut[k]);
                }
                seen_free(&got);
                seen_free(&want);
            }
}

/* ---- shuffled ---- */

static const mem_input three[] = {{&binpack_a, DF_NNUE_BINPACK, false},
                                  {&bin_b, DF_NNUE_BIN, false},
                                  {&plain_c, DF_NNUE_PLAIN, false}};

static seen shuffled(size_t shuffle, uint64_t seed, uint32_t rank, uint32_t world)
{
    mem_ctx c = {three, 3, {0}, {0}, {0}, {0}};
    df_nnue_stream_options o = {0};
    o.shuffle = shuffle;
    o.seed = seed;
    o.rank = rank;
    o.world = world;
    return drain(mem_stream(&c, o), SIZE_MAX);
}

static void test_shuffled_pass_gives_every_entry_once(void **state)
{
    (void)state;
    seen want = read_in_turn(three, 3, NULL, 0, 0, 1);
    assert_int_equal(games.n, want.n);
    const size_t sizes[] = {1, 999, 7919, 1u << 20};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        seen got = shuffled(sizes[i], 5489, 0, 1);
        assert_true(same_entries(&got, &want));
        /* A buffer of one hands entries out as they are read: pieces of the inputs in turn. */
        if (sizes[i] > 1) assert_false(same_order(&got, &want));
        seen_free(&got);
    }
    /* Two ranks' shuffled shares are the whole input. */
    seen r0 = shuffled(999, 3, 0, 2), r1 = shuffled(999, 4, 1, 2);
    for (size_t i = 0; i < r1.n; i++) seen_add(&r0, r1.print[i], r1.input[i]);
    assert_true(same_entries(&r0, &want));
    seen_free(&r0);
    seen_free(&r1);
    seen_free(&want);
}

static void test_same_seed_same_order(void **state)
{
    (void)state;
    seen a = shuffled(4000, 11, 0, 1), b = shuffled(4000, 11, 0, 1), c = shuffled(4000, 12, 0, 1);
    assert_true(same_order(&a, &b));
    assert_false(same_order(&a, &c));
    assert_true(same_entries(&a, &c));
    seen_free(&a);
    seen_free(&b);
    seen_free(&c);
}

static void test_memory_bounded_by_the_shuffle(void **state)
{
    (void)state;
    const size_t sizes[] = {256, 1500};
    for (size_t i = 0; i < 2; i++) {
        const size_t n = sizes[i];
        assert_true(games.n >= 20 * n); /* the input is 20 times the buffer or more */
        const mem_input in[] = {{&all_bin, DF_NNUE_BIN, false}};
        mem_ctx c = {in, 1, {0}, {0}, {0}, {0}};
        df_nnue_stream_options o = {0};
        o.shuffle = n;
        df_nnue_stream *s = mem_stream(&c, o);
        df_nnue_entry e;
        df_nnue_stream_counts counts;
        size_t given = 0;
        while (df_nnue_stream_next(s, &e, NULL, NULL) == DF_NNUE_ENTRY) {
            given++;
            df_nnue_stream_counts_of(&counts, s);
            if (counts.held > n || counts.held_peak > n || counts.capacity > n)
                fail_msg("after %zu entries: %zu held, %zu at most, room for %zu; shuffle %zu",
                         given, counts.held, counts.held_peak, counts.capacity, n);
        }
        df_nnue_stream_counts_of(&counts, s);
        assert_int_equal(games.n, given);
        assert_int_equal(n, counts.held_peak);
        assert_int_equal(0, counts.held);
        df_nnue_stream_free(s);
    }
    /* In the inputs' order nothing is held. */
    const mem_input in[] = {{&all_bin, DF_NNUE_BIN, false}};
    mem_ctx c = {in, 1, {0}, {0}, {0}, {0}};
    df_nnue_stream *s = mem_stream(&c, (df_nnue_stream_options){0});
    df_nnue_entry e;
    while (df_nnue_stream_next(s, &e, NULL, NULL) == DF_NNUE_ENTRY) {
    }
    df_nnue_stream_counts counts;
    df_nnue_stream_counts_of(&counts, s);
    assert_int_equal(0, counts.held_peak);
    assert_int_equal(0, counts.capacity);
    df_nnue_stream_free(s);
}

/* Spearman's rank correlation of the order entries come out in with their order in the file
 * (entry i of numbered_bin has score i). */
static double rank_correlation(size_t shuffle)
{
    const mem_input in[] = {{&numbered_bin, DF_NNUE_BIN, false}};
    mem_ctx c = {in, 1, {0}, {0}, {0}, {0}};
    df_nnue_stream_options o = {0};
    o.shuffle = shuffle;
    o.seed = 9;
    df_nnue_stream *s = mem_stream(&c, o);
    df_nnue_entry e;
    double d2 = 0;
    size_t i = 0;
    while (df_nnue_stream_next(s, &e, NULL, NULL) == DF_NNUE_ENTRY) {
        const double d = (double)e.score - (double)i++;
        d2 += d * d;
    }
    df_nnue_stream_free(s);
    assert_int_equal(numbered, i);
    const double n = (double)i;
    return 1 - 6 * d2 / (n * (n * n - 1));
}

static void test_order_unrelated_to_the_file(void **state)
{
    (void)state;
    /* A random order's rho has a standard deviation of 1 / sqrt(n - 1), 0.007 here. */
    const double bound = 0.05;
    const double file_order = rank_correlation(0);
    assert_true(fabs(file_order) >= bound); /* the file's own order fails the test */
    assert_true(file_order > 0.999);
    const double buffer_holds_all = rank_correlation(numbered);
    if (!(fabs(buffer_holds_all) < bound)) fail_msg("rho %.4f", buffer_holds_all);
    const double buffer_larger = rank_correlation(1u << 20);
    if (!(fabs(buffer_larger) < bound)) fail_msg("rho %.4f", buffer_larger);
}

/* A number below n from draws[*at] on, as nnue_stream.h says: the high half of draw * n, drawn
 * again while the low half is below 2^64 mod n. */
static uint64_t below(const uint64_t *draws, size_t *at, uint64_t n)
{
    for (;;) {
        const unsigned __int128 m = (unsigned __int128)draws[(*at)++] * n;
        if ((uint64_t)m >= (0 - n) % n) return (uint64_t)(m >> 64);
    }
}

/* The order the header documents, by the test's own reading of it: one input read as one
 * piece (one pick, then the buffer filled), the pick's and the shuffle's generator an
 * mt19937_64 seeded with SplitMix64's first output, Fisher-Yates from the last place down. */
static void test_order_is_the_documented_shuffle(void **state)
{
    (void)state;
    const uint64_t seed = 31;
    uint64_t x = seed + UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    const uint64_t derived = x ^ (x >> 31);
    const size_t n = numbered, ndraws = 2 * numbered;
    uint64_t *draws = malloc(ndraws * sizeof *draws);
    uint32_t *place = malloc(n * sizeof *place);
    assert_true(draws && place && numbered_bin.len < DF_NNUE_STREAM_PIECE);
    dft_mt19937_64_first(draws, ndraws, derived);
    for (size_t shuffle = n; shuffle <= n + 1; shuffle++) {
        size_t at = 0;
        below(draws, &at, numbered_bin.len); /* the pick: the one input, by its bytes */
        for (size_t i = 0; i < n; i++) place[i] = (uint32_t)i;
        for (size_t i = n; i-- > 1;) {
            const size_t j = (size_t)below(draws, &at, i + 1);
            const uint32_t t = place[i];
            place[i] = place[j];
            place[j] = t;
        }
        const mem_input in[] = {{&numbered_bin, DF_NNUE_BIN, false}};
        mem_ctx c = {in, 1, {0}, {0}, {0}, {0}};
        df_nnue_stream_options o = {0};
        o.shuffle = shuffle;
        o.seed = seed;
        df_nnue_stream *s = mem_stream(&c, o);
        df_nnue_entry e;
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(DF_NNUE_ENTRY, df_nnue_stream_next(s, &e, NULL, NULL));
            if ((uint16_t)e.score != place[i])
                fail_msg("shuffle %zu: entry %zu is %u, not %u", shuffle, i, (uint16_t)e.score,
                         place[i]);
        }
        assert_int_equal(DF_NNUE_END, df_nnue_stream_next(s, &e, NULL, NULL));
        df_nnue_stream_free(s);
    }
    free(draws);
    free(place);
}

/* ---- pieces and picks ---- */

static void test_pieces_are_chunks_or_a_mebibyte(void **state)
{
    (void)state;
    /* A buffer of one: entries as they are read, so each run of one input is a piece (or more
     * in a row). A's runs end at its chunks' ends; the .bin's at a mebibyte of records. */
    const mem_input in[] = {{&binpack_a, DF_NNUE_BINPACK, true}, {&all_bin, DF_NNUE_BIN, false}};
    const size_t per_piece = (DF_NNUE_STREAM_PIECE + 39) / 40;
    size_t switches = 0;
    for (uint64_t seed = 0; seed < 4; seed++) {
        mem_ctx c = {in, 2, {0}, {0}, {0}, {0}};
        df_nnue_stream_options o = {0};
        o.shuffle = 1;
        o.seed = seed;
        seen got = drain(mem_stream(&c, o), SIZE_MAX);
        assert_int_equal(a_end + games.n, got.n);
        size_t read[2] = {0, 0};
        for (size_t i = 0; i < got.n; i++) {
            const uint32_t k = got.input[i];
            /* each input's entries in its order */
            assert_int_equal(fingerprint(&games.e[read[k]]), got.print[i]);
            read[k]++;
            if (i + 1 == got.n || got.input[i + 1] == k) continue;
            switches++;
            bool at_end = k == 1 && (read[1] % per_piece == 0 || read[1] == games.n);
            for (size_t p = 0; p < PARTS && k == 0; p++) at_end = at_end || read[0] == part_end[p];
            if (!at_end)
                fail_msg("seed %llu: input %u left after %zu entries", (unsigned long long)seed, k,
                         read[k]);
        }
        seen_free(&got);
    }
    /* Equal weights (A's size is not told): 4 chunks and 2 pieces of records shuffled. */
    if (switches < 8) fail_msg("%zu switches", switches);
}

/* The input of the first entry of streams of seeds 0 to 399 over a small and a three times
 * larger input: how many came from the larger one. */
static unsigned first_from_larger(bool size_known)
{
    const size_t third = games.n / 4;
    dft_mem small = dft_nnue_write_all(DF_NNUE_BIN, games.e, third);
    dft_mem large = dft_nnue_write_all(DF_NNUE_BIN, games.e + third, 3 * third);
    const mem_input in[] = {{&small, DF_NNUE_BIN, !size_known}, {&large, DF_NNUE_BIN, false}};
    unsigned larger = 0;
    for (uint64_t seed = 0; seed < 400; seed++) {
        mem_ctx c = {in, 2, {0}, {0}, {0}, {0}};
        df_nnue_stream_options o = {0};
        o.shuffle = 1;
        o.seed = seed;
        df_nnue_stream *s = mem_stream(&c, o);
        df_nnue_entry e;
        size_t k;
        assert_int_equal(DF_NNUE_ENTRY, df_nnue_stream_next(s, &e, NULL, &k));
        larger += k == 1;
        df_nnue_stream_free(s);
        assert_int_equal(c.opened[k], c.cut[k]); /* freed while reading */
    }
    free(small.p);
    free(large.p);
    return larger;
}

static void test_picks_follow_the_bytes_left(void **state)
{
    (void)state;
    const unsigned by_size = first_from_larger(true), equal = first_from_larger(false);
    /* 300 of 400 expected (3/4), then 200 (1/2); the standard deviations are 8.7 and 10. */
    if (by_size < 265 || by_size > 335) fail_msg("%u of 400 from the larger input", by_size);
    if (equal < 165 || equal > 235) fail_msg("%u of 400 from the larger input", equal);
}

/* ---- cyclic ---- */

static void test_cyclic(void **state)
{
    (void)state;
    const mem_input in[] = {{&bin_b, DF_NNUE_BIN, false}, {&plain_c, DF_NNUE_PLAIN, false}};
    seen once = read_in_turn(in, 2, NULL, 0, 0, 1);
    /* In the inputs' order: the passes one after the other. */
    mem_ctx c = {in, 2, {0}, {0}, {0}, {0}};
    df_nnue_stream_options o = {0};
    o.cyclic = true;
    seen got = drain(mem_stream(&c, o), 3 * once.n);
    assert_int_equal(3 * once.n, got.n);
    for (size_t pass = 0; pass < 3; pass++) {
        assert_memory_equal(once.print, got.print + pass * once.n, once.n * sizeof *once.print);
        assert_memory_equal(once.input, got.input + pass * once.n, once.n * sizeof *once.input);
    }
    assert_int_equal(3, c.opened[0]);
    assert_int_equal(3, c.whole[0]);
    assert_int_equal(1, c.cut[1]);
    seen_free(&got);
    /* Shuffled: the passes go on, each input opened again and again. */
    unsigned opened[2] = {0, 0};
    for (uint64_t seed = 1; seed <= 4; seed++) {
        mem_ctx d = {in, 2, {0}, {0}, {0}, {0}};
        o.shuffle = 500;
        o.seed = seed;
        got = drain(mem_stream(&d, o), 5 * once.n);
        assert_int_equal(5 * once.n, got.n);
        opened[0] += d.opened[0];
        opened[1] += d.opened[1];
        seen_free(&got);
    }
    if (opened[0] < 8 || opened[1] < 8) fail_msg("opened %u and %u times", opened[0], opened[1]);
    /* An input whose share is empty is read once; with no other input the stream ends. */
    dft_mem one_chunk = dft_nnue_write_all(DF_NNUE_BINPACK, games.e, 100);
    const mem_input empty_share[] = {{&one_chunk, DF_NNUE_BINPACK, false},
                                     {&bin_b, DF_NNUE_BIN, false}};
    for (size_t shuffle = 0; shuffle <= 300; shuffle += 300) {
        mem_ctx e = {empty_share, 1, {0}, {0}, {0}, {0}};
        o.rank = 1;
        o.world = 2;
        o.shuffle = shuffle;
        seen none = drain(mem_stream(&e, o), SIZE_MAX);
        assert_int_equal(0, none.n);
        assert_int_equal(1, e.opened[0]);
        mem_ctx f = {empty_share, 2, {0}, {0}, {0}, {0}};
        seen some = drain(mem_stream(&f, o), 4 * (b_end - a_end));
        assert_int_equal(4 * (b_end - a_end), some.n);
        assert_true(f.opened[0] <= 1); /* picked by its bytes: it may not be by then */
        assert_true(f.opened[1] >= 4);
        seen_free(&some);
    }
    free(one_chunk.p);
    seen_free(&once);
}

/* ---- errors, paths, the interrupt, the arguments ---- */

static void test_errors_keep_their_input(void **state)
{
    (void)state;
    const mem_input in[] = {{&bin_b, DF_NNUE_BIN, false}, {&bad_a, DF_NNUE_BINPACK, false}};
    seen want = read_in_turn(in, 2, NULL, 0, 0, 1);
    assert_int_equal(1, want.errors);
    for (size_t shuffle = 1; shuffle <= 100000; shuffle *= 100) {
        mem_ctx c = {in, 2, {0}, {0}, {0}, {0}};
        df_nnue_stream_options o = {0};
        o.shuffle = shuffle;
        seen got = drain(mem_stream(&c, o), SIZE_MAX);
        assert_true(same_entries(&got, &want));
        assert_int_equal(1, got.errors);
        for (size_t i = 0; i < got.n; i++)
            if (!(got.print[i] & 1)) {
                assert_int_equal(1, got.input[i]);
                assert_int_equal(DF_NNUE_ERR_MAGIC, got.print[i] >> 1 & 0x7f);
            }
        seen_free(&got);
    }
    seen_free(&want);
}

static void write_file(char *path, size_t size, const char *ext, const dft_mem *m)
{
    snprintf(path, size, "/tmp/dirfill-stream-%d-XXXXXX", (int)getpid());
    close(mkstemp(path));
    unlink(path);
    strncat(path, ext, size - strlen(path) - 1);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(m->len, fwrite(m->p, 1, m->len, f));
    assert_int_equal(0, fclose(f));
}

static void test_paths(void **state)
{
    (void)state;
    char a[96], b[96];
    write_file(a, sizeof a, ".binpack", &binpack_a);
    write_file(b, sizeof b, ".bin", &bin_b);
    const df_nnue_stream_input spec[] = {
        {a, DF_NNUE_BINPACK, 0}, {"/nonexistent/dirfill.bin", DF_NNUE_BIN, 0}, {b, DF_NNUE_BIN, 0}};
    const mem_input in[] = {{&binpack_a, DF_NNUE_BINPACK, false}, {&bin_b, DF_NNUE_BIN, false}};
    seen want = read_in_turn(in, 2, NULL, 0, 0, 1);
    for (size_t shuffle = 0; shuffle <= 1000; shuffle += 1000) {
        df_nnue_stream_options o = {0};
        o.shuffle = shuffle;
        df_nnue_stream *s;
        assert_int_equal(DF_OK, df_nnue_stream_new(&s, spec, 3, &o));
        seen got = {0};
        df_nnue_entry e;
        df_nnue_error err;
        size_t k;
        for (df_nnue_next n; (n = df_nnue_stream_next(s, &e, &err, &k));) {
            if (n == DF_NNUE_ENTRY) {
                seen_add(&got, fingerprint(&e), k == 2 ? 1 : k);
                continue;
            }
            assert_int_equal(1, k);
            assert_int_equal(DF_NNUE_ERR_IO, err.kind);
            assert_non_null(strstr(err.message, "cannot open it"));
            got.errors++;
        }
        df_nnue_stream_counts counts;
        df_nnue_stream_counts_of(&counts, s);
        assert_int_equal(1, got.errors);
        assert_int_equal(1, counts.errors);
        assert_int_equal(2, counts.opened);
        df_nnue_stream_free(s);
        if (shuffle)
            assert_true(same_entries(&got, &want));
        else
            assert_true(same_order(&got, &want));
        seen_free(&got);
    }
    seen_free(&want);
    unlink(a);
    unlink(b);
}

static bool after_calls(void *ctx) { return --*(int *)ctx < 0; }

static void test_interrupt_and_free_midway(void **state)
{
    (void)state;
    for (size_t shuffle = 0; shuffle <= 100000; shuffle += 100000) {
        int calls = 2;
        const df_interrupt stop = {after_calls, &calls};
        mem_ctx c = {three, 3, {0}, {0}, {0}, {0}};
        df_nnue_stream_options o = {0};
        o.shuffle = shuffle;
        o.interrupt = &stop;
        seen got = drain(mem_stream(&c, o), SIZE_MAX);
        assert_true(got.n < 3 * 4096); /* asked every 4096 reads */
        assert_int_equal(c.opened[0] + c.opened[1] + c.opened[2],
                         c.whole[0] + c.whole[1] + c.whole[2] + c.cut[0] + c.cut[1] + c.cut[2]);
        seen_free(&got);
    }
    mem_ctx c = {three, 3, {0}, {0}, {0}, {0}};
    seen got = drain(mem_stream(&c, (df_nnue_stream_options){0}), 10);
    assert_int_equal(10, got.n);
    assert_int_equal(1, c.opened[0]);
    assert_int_equal(1, c.cut[0]);
    assert_int_equal(0, c.whole[0]);
    seen_free(&got);
}

static void test_arguments(void **state)
{
    (void)state;
    df_nnue_stream *s = (df_nnue_stream *)&s;
    const df_nnue_stream_input spec[] = {{"x.bin", DF_NNUE_BIN, 0}, {NULL, DF_NNUE_BIN, 0}};
    df_nnue_stream_options o = {0};
    assert_int_equal(DF_ERR_ARGUMENT, df_nnue_stream_new(NULL, spec, 1, &o));
    assert_int_equal(DF_ERR_ARGUMENT, df_nnue_stream_new(&s, spec, 1, NULL));
    assert_null(s);
    assert_int_equal(DF_ERR_ARGUMENT, df_nnue_stream_new(&s, NULL, 1, &o));
    assert_int_equal(DF_ERR_ARGUMENT, df_nnue_stream_new(&s, spec, 2, &o)); /* no path, no hook */
    const df_nnue_stream_input bad_format[] = {{"x.bin", DF_NNUE_FORMATS, 0}};
    assert_int_equal(DF_ERR_ARGUMENT, df_nnue_stream_new(&s, bad_format, 1, &o));
    o.rank = 2;
    o.world = 2;
    assert_int_equal(DF_ERR_ARGUMENT, df_nnue_stream_new(&s, spec, 1, &o));
    o.rank = 0;
    df_nnue_skip_options skip = df_nnue_skip_defaults();
    skip.soft_early_fen_skipping = 70000;
    o.skip = &skip;
    assert_int_equal(DF_ERR_ARGUMENT, df_nnue_stream_new(&s, spec, 1, &o));
    o.skip = NULL;
#if SIZE_MAX > UINT32_MAX
    o.shuffle = (size_t)UINT32_MAX + 1;
    assert_int_equal(DF_ERR_ARGUMENT, df_nnue_stream_new(&s, spec, 1, &o));
#endif
    o.shuffle = 0;
    assert_int_equal(DF_OK, df_nnue_stream_new(&s, NULL, 0, &o));
    df_nnue_entry e;
    assert_int_equal(DF_NNUE_END, df_nnue_stream_next(s, &e, NULL, NULL));
    assert_int_equal(DF_NNUE_END, df_nnue_stream_next(s, NULL, NULL, NULL));
    assert_int_equal(DF_NNUE_END, df_nnue_stream_next(NULL, &e, NULL, NULL));
    df_nnue_stream_free(s);
    df_nnue_stream_free(NULL);
    df_nnue_stream_counts counts;
    df_nnue_stream_counts_of(&counts, NULL);
    assert_int_equal(0, counts.entries);
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_in_order_is_reading_in_turn),
        cmocka_unit_test(test_shuffled_pass_gives_every_entry_once),
        cmocka_unit_test(test_same_seed_same_order),
        cmocka_unit_test(test_memory_bounded_by_the_shuffle),
        cmocka_unit_test(test_order_unrelated_to_the_file),
        cmocka_unit_test(test_order_is_the_documented_shuffle),
        cmocka_unit_test(test_pieces_are_chunks_or_a_mebibyte),
        cmocka_unit_test(test_picks_follow_the_bytes_left),
        cmocka_unit_test(test_cyclic),
        cmocka_unit_test(test_errors_keep_their_input),
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_interrupt_and_free_midway),
        cmocka_unit_test(test_arguments),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
