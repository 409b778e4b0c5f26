/* SPDX-License-Identifier: MIT */
/* The PGN reader against what the games were: random playouts written as PGN in every style
 * (pgngen keeps each game's moves, evaluations, clocks and result), each replayed position
 * checked by a second route (its FEN parsed and its moves generated); the same results for
 * any piece sizes, on threads, from .zst and .gz files; every syntax rule and error kind by
 * hand; truncated and corrupt compressed input; bounded memory under a huge comment. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "dft.h"
#include "pgngen.h"

/* ---- a visitor that records what it saw ---- */

typedef struct {
    uint64_t digest;       /* of every callback's data, in order */
    uint64_t games_digest; /* of the begin and end callbacks' data only */
    bool without_plies;    /* a visitor with no ply callback */
    long games, plies, errors, skipped;
    const pgngen_truth *truth; /* when checking against written games */
    long ntruth;
    char last_error[192];
    uint64_t last_error_line;
    bool check_route;
} recorder;

static void mix_into(uint64_t *digest, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) *digest = (*digest ^ b[i]) * UINT64_C(0x100000001b3);
}

static void mix(recorder *r, const void *p, size_t n) { mix_into(&r->digest, p, n); }

/* A game's data, seen with or without plies. */
static void mix_game(recorder *r, const void *p, size_t n)
{
    mix(r, p, n);
    mix_into(&r->games_digest, p, n);
}

static df_pgn_action rec_begin(void *ctx, const df_pgn_game *g)
{
    recorder *r = ctx;
    mix_game(r, &g->line, sizeof g->line); /* not the index: a threaded read counts per run */
    for (uint32_t i = 0; i < g->ntags; i++) {
        mix_game(r, g->tags[i].name, g->tags[i].name_len);
        mix_game(r, g->tags[i].value, g->tags[i].value_len);
    }
    mix_game(r, &g->start.key, sizeof g->start.key);
    return DF_PGN_READ;
}

static void rec_ply(void *ctx, const df_pgn_game *g, const df_pgn_ply *p)
{
    recorder *r = ctx;
    r->plies++;
    mix(r, &p->move, sizeof p->move);
    mix(r, &p->ply, sizeof p->ply);
    mix(r, &p->eval_kind, sizeof p->eval_kind);
    if (p->eval_kind == DF_PGN_EVAL_MATE) mix(r, &p->mate, sizeof p->mate);
    if (p->eval_kind == DF_PGN_EVAL_PAWNS) mix(r, &p->pawns, sizeof p->pawns);
    mix(r, &p->has_clock, sizeof p->has_clock);
    if (p->has_clock) mix(r, &p->clock, sizeof p->clock);
    mix(r, &p->line, sizeof p->line);
    if (r->check_route) {
        /* The second route: the position's FEN parsed afresh; its move generator lists it. */
        char fen[DF_FEN_MAX];
        df_fen_format(fen, sizeof fen, p->before, DF_FEN_STANDARD);
        const df_board again = g->chess960 ? dft_fen960(fen) : dft_fen(fen);
        assert_int_equal(again.key, p->before->key);
        assert_int_equal(df_polyglot_key(p->before), p->before->key);
        df_move_list list;
        df_generate_legal(&list, &again);
        bool listed = false;
        for (uint32_t i = 0; i < list.count; i++) listed |= list.moves[i] == p->move;
        if (!listed) fail_msg("%s: the reader played %04x, not a legal move", fen, p->move);
    }
    if (r->truth && (long)g->index < r->ntruth) {
        const pgngen_truth *t = &r->truth[g->index];
        assert_true(p->ply < t->plies);
        assert_int_equal(t->moves[p->ply], p->move);
        assert_int_equal(t->eval_kind[p->ply], p->eval_kind);
        if (p->eval_kind == DF_PGN_EVAL_MATE) assert_int_equal(t->mate[p->ply], p->mate);
        if (p->eval_kind == DF_PGN_EVAL_PAWNS)
            assert_true(t->pawns[p->ply] - p->pawns < 1e-5 && p->pawns - t->pawns[p->ply] < 1e-5);
        assert_int_equal(t->clock[p->ply] >= 0, p->has_clock);
        if (p->has_clock) assert_true(t->clock[p->ply] == p->clock);
    }
}

static df_pgn_action rec_end(void *ctx, const df_pgn_game *g)
{
    recorder *r = ctx;
    r->games++;
    r->errors += g->error != NULL;
    r->skipped += g->skipped != NULL;
    mix_game(r, &g->plies, sizeof g->plies);
    mix_game(r, &g->result, sizeof g->result);
    mix_game(r, &g->end_offset, sizeof g->end_offset);
    mix_game(r, &g->board.key, sizeof g->board.key);
    if (g->error) {
        mix_game(r, g->error, strlen(g->error));
        mix_game(r, &g->error_line, sizeof g->error_line);
        snprintf(r->last_error, sizeof r->last_error, "%s", g->error);
        r->last_error_line = g->error_line;
    }
    if (r->truth && (long)g->index < r->ntruth) {
        const pgngen_truth *t = &r->truth[g->index];
        if (g->error)
            fail_msg("game %llu: %s (line %llu)", (unsigned long long)g->index, g->error,
                     (unsigned long long)g->error_line);
        assert_int_equal(t->plies, g->plies);
        assert_int_equal(t->result, g->result);
        assert_int_equal(t->start.key, g->start.key);
        assert_int_equal(t->chess960, g->chess960);
        uint32_t n;
        const char *white = df_pgn_tag_value(g, "White", &n);
        char want[32];
        snprintf(want, sizeof want, "W\\%llu", (unsigned long long)g->index);
        assert_non_null(white);
        assert_int_equal(strlen(want), n);
        assert_memory_equal(want, white, n);
        const char *event = df_pgn_tag_value(g, "Event", &n);
        assert_int_equal(strlen("dirfill generated \"playout\""), n);
        assert_memory_equal("dirfill generated \"playout\"", event, n);
    }
    return DF_PGN_READ;
}

static df_pgn_visitor visitor_of(recorder *r)
{
    return (df_pgn_visitor){rec_begin, r->without_plies ? NULL : rec_ply, rec_end, r};
}

/* Reads text in pieces of random sizes up to max_piece (0: all at once). */
static void read_text(recorder *r, const char *text, size_t len, unsigned flags, size_t max_piece)
{
    df_pgn_reader *reader = df_pgn_reader_new();
    assert_non_null(reader);
    df_pgn_reader_reset(reader, flags, 0, 1, 0);
    const df_pgn_visitor v = visitor_of(r);
    for (size_t at = 0; at < len;) {
        size_t n = max_piece ? 1 + dft_rand() % max_piece : len;
        if (n > len - at) n = len - at;
        assert_int_equal(DF_OK, df_pgn_feed(reader, text + at, n, &v));
        at += n;
    }
    assert_int_equal(DF_OK, df_pgn_finish(reader, &v));
    const df_pgn_stats s = df_pgn_reader_stats(reader);
    assert_int_equal(r->games, (long)s.games);
    assert_int_equal(len, s.bytes);
    df_pgn_reader_free(reader);
}

/* A visitor without a ply callback (the reader then keeps no ply and reads no comment's
 * commands) sees the games `with` saw: read in pieces up to max_piece (0: whole). */
static void assert_same_games_without_plies(const recorder *with, const char *text, size_t len,
                                            size_t max_piece)
{
    recorder r = {0};
    r.without_plies = true;
    read_text(&r, text, len, DF_PGN_STANDARD, max_piece);
    assert_int_equal(0, r.plies);
    assert_int_equal(with->games, r.games);
    assert_int_equal(with->games_digest, r.games_digest);
}

/* ---- generated games ---- */

enum { GAMES = 400 };
static pgngen_text text;
static pgngen_truth truth[GAMES];

static const char *const starts960[] = {
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 1",
    "rkr5/8/8/8/8/8/8/RKR5 w ACac - 0 1", "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"};

static int make_games(void **state)
{
    (void)state;
    uint64_t rng = dft_seed;
    for (int i = 0; i < GAMES; i++) {
        const bool c960 = i % 7 == 3;
        df_board start;
        if (c960)
            start = dft_fen960(starts960[i % 3]);
        else if (i % 11 == 5) {
            /* A played position as the [FEN] start; rights of a Chess960 start are dropped. */
            dft_rand_game_position(&start);
            if (start.chess960) {
                start.chess960 = 0;
                start.castling = 0;
                start.key = df_polyglot_key(&start);
            }
        } else {
            start = dft_fen(DF_FEN_START);
        }
        const unsigned style = i % 4 == 0 ? 0 : (unsigned)(dft_rand() % (PGNGEN_ALL + 1));
        if (!pgngen_game(&text, &rng, &start, c960, 1 + (uint32_t)(dft_rand() % 150), style,
                         (uint64_t)i, &truth[i]))
            return -1;
    }
    return 0;
}

static int free_games(void **state)
{
    (void)state;
    for (int i = 0; i < GAMES; i++) pgngen_truth_free(&truth[i]);
    pgngen_text_free(&text);
    return 0;
}

static void test_generated_games(void **state)
{
    (void)state;
    recorder r = {0};
    r.truth = truth;
    r.ntruth = GAMES;
    r.check_route = true;
    read_text(&r, text.text, text.len, DF_PGN_STANDARD, 0);
    print_message("%ld games, %ld plies, %zu bytes\n", r.games, r.plies, text.len);
    assert_int_equal(GAMES, r.games);
    assert_int_equal(0, r.errors);
    assert_same_games_without_plies(&r, text.text, text.len, 0);
    assert_same_games_without_plies(&r, text.text, text.len, 4096);
}

static void test_any_piece_sizes(void **state)
{
    (void)state;
    recorder whole = {0}, pieces = {0}, bytes = {0};
    read_text(&whole, text.text, text.len, DF_PGN_STANDARD, 0);
    read_text(&pieces, text.text, text.len, DF_PGN_STANDARD, 4096);
    read_text(&bytes, text.text, text.len < 200000 ? text.len : 200000, DF_PGN_STANDARD, 3);
    recorder prefix = {0};
    read_text(&prefix, text.text, text.len < 200000 ? text.len : 200000, DF_PGN_STANDARD, 0);
    assert_int_equal(whole.digest, pieces.digest);
    assert_int_equal(prefix.digest, bytes.digest);
}

/* ---- files: threads, compression ---- */

static char *temp_path(const char *suffix)
{
    static int n;
    char *path = malloc(128);
    snprintf(path, 128, "/tmp/dirfill-pgn-%d-%d%s", (int)getpid(), n++, suffix);
    return path;
}

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(len, fwrite(data, 1, len, f));
    assert_int_equal(0, fclose(f));
}

typedef struct {
    recorder *r;
} sinks_ctx;

static void *open_sink(void *ctx)
{
    (void)ctx;
    return calloc(1, sizeof(recorder));
}
static int deliver_sink(void *ctx, void *sink, uint64_t first_game)
{
    recorder *all = ctx, *part = sink;
    assert_int_equal(all->games, first_game);
    /* The digests of runs of games chain like one digest: each part starts where all stands. */
    all->games += part->games;
    all->errors += part->errors;
    all->plies += part->plies;
    all->digest = all->digest * 31 + part->digest;
    return 0;
}
static void drop_sink(void *ctx, void *sink)
{
    (void)ctx;
    free(sink);
}

/* The threads a read may use: one where there are none (the aarch64 preset's qemu-user, where
 * pthread_create never returns; DFT_NO_THREADS, as in test_dispatch). */
static unsigned usable_threads(unsigned threads)
{
    if (!getenv("DFT_NO_THREADS")) return threads;
    if (threads != 1) print_message("threads %u read as 1: DFT_NO_THREADS is set\n", threads);
    return 1;
}

/* Reads path on threads; the digest is of runs, so compare runs with runs. */
static df_status read_file(const char *path, unsigned threads, recorder *all)
{
    threads = usable_threads(threads);
    df_source *src;
    assert_int_equal(DF_OK, df_source_open(&src, path));
    const df_pgn_sinks sinks = {
        open_sink, {rec_begin, rec_ply, rec_end, NULL}, deliver_sink, drop_sink, all};
    df_pgn_stats stats;
    const df_status s = df_pgn_read_threaded(src, DF_PGN_STANDARD, NULL, threads, &sinks, &stats);
    assert_int_equal(all->games, (long)stats.games);
    df_source_close(src);
    return s;
}

/* Games per run differ with threads, so what is compared is the list of games: a recorder per
 * game, chained. */
typedef struct {
    uint64_t *digests;
    size_t n, cap;
    recorder current;
} game_list;

static df_pgn_action list_end(void *ctx, const df_pgn_game *g)
{
    game_list *l = ctx;
    rec_end(&l->current, g);
    if (l->n == l->cap) l->digests = realloc(l->digests, (l->cap = l->cap ? 2 * l->cap : 64) * 8);
    l->digests[l->n++] = l->current.digest;
    l->current.digest = 0;
    return DF_PGN_READ;
}
static df_pgn_action list_begin(void *ctx, const df_pgn_game *g)
{
    return rec_begin(&((game_list *)ctx)->current, g);
}
static void list_ply(void *ctx, const df_pgn_game *g, const df_pgn_ply *p)
{
    rec_ply(&((game_list *)ctx)->current, g, p);
}
static void *list_open(void *ctx)
{
    (void)ctx;
    return calloc(1, sizeof(game_list));
}
static int list_deliver(void *ctx, void *sink, uint64_t first_game)
{
    game_list *all = ctx, *part = sink;
    assert_int_equal(all->n, first_game);
    for (size_t i = 0; i < part->n; i++) {
        if (all->n == all->cap)
            all->digests = realloc(all->digests, (all->cap = all->cap ? 2 * all->cap : 64) * 8);
        all->digests[all->n++] = part->digests[i];
    }
    return 0;
}
static void list_drop(void *ctx, void *sink)
{
    (void)ctx;
    free(((game_list *)sink)->digests);
    free(sink);
}

static df_status list_file(const char *path, unsigned threads, game_list *out, const char **error)
{
    threads = usable_threads(threads);
    memset(out, 0, sizeof *out);
    df_source *src;
    assert_int_equal(DF_OK, df_source_open(&src, path));
    const df_pgn_sinks sinks = {
        list_open, {list_begin, list_ply, list_end, NULL}, list_deliver, list_drop, out};
    const df_status s = df_pgn_read_threaded(src, DF_PGN_STANDARD, NULL, threads, &sinks, NULL);
    static char why[160];
    snprintf(why, sizeof why, "%s", df_source_error(src) ? df_source_error(src) : "");
    if (error) *error = why;
    df_source_close(src);
    return s;
}

static void zstd_file(const char *path, const char *data, size_t len)
{
    const size_t cap = ZSTD_compressBound(len);
    char *z = malloc(cap);
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1); /* a corrupt frame is then seen */
    const size_t n = ZSTD_compress2(cctx, z, cap, data, len);
    ZSTD_freeCCtx(cctx);
    assert_false(ZSTD_isError(n));
    write_file(path, z, n);
    free(z);
}

static void gzip_file(const char *path, const char *data, size_t len, int members)
{
    gzFile f = gzopen(path, "wb");
    assert_non_null(f);
    assert_int_equal((int)len / members, gzwrite(f, data, (unsigned)(len / members)));
    gzclose(f);
    if (members == 2) { /* a second member appended: concatenated gzip */
        gzFile g = gzopen(path, "ab");
        gzwrite(g, data + len / 2, (unsigned)(len - len / 2));
        gzclose(g);
    }
}

static void truncate_file(const char *path, long keep)
{
    assert_int_equal(0, truncate(path, keep));
}

static void test_threads_and_compression(void **state)
{
    (void)state;
    /* Many copies of the games: enough input for several segments a thread. */
    pgngen_text big = {0};
    for (int copy = 0; copy < 8; copy++) {
        big.text = realloc(big.text, big.len + text.len + 1);
        memcpy(big.text + big.len, text.text, text.len + 1);
        big.len += text.len;
    }
    char *plain = temp_path(".pgn"), *zst = temp_path(".pgn.zst"), *gz = temp_path(".pgn.gz");
    write_file(plain, big.text, big.len);
    zstd_file(zst, big.text, big.len);
    gzip_file(gz, big.text, big.len, 2);
    game_list want, got;
    assert_int_equal(DF_OK, list_file(plain, 1, &want, NULL));
    assert_int_equal(8 * GAMES, (int)want.n);
    const unsigned threads[] = {2, 3, 0};
    for (size_t i = 0; i < 3; i++) {
        const char *paths[] = {plain, zst, gz};
        for (int k = 0; k < 3; k++) {
            assert_int_equal(DF_OK, list_file(paths[k], threads[i], &got, NULL));
            assert_int_equal(want.n, got.n);
            assert_memory_equal(want.digests, got.digests, want.n * 8);
            free(got.digests);
        }
    }
    /* Cut short: an error (the input source says why); what came before is delivered, and the
     * game cut in two is reported as truncated, not read as complete. */
    const char *why;
    truncate_file(zst, 150000); /* zstd emits whole blocks: cut well into the frame */
    assert_int_equal(DF_ERR_IO, list_file(zst, 2, &got, &why));
    print_message("truncated .zst: %s; %zu games before\n", why, got.n);
    assert_non_null(strstr(why, "truncated zstd"));
    assert_true(got.n > 0 && got.n < want.n);
    free(got.digests);
    truncate_file(gz, 40000);
    assert_int_equal(DF_ERR_IO, list_file(gz, 1, &got, &why));
    assert_non_null(strstr(why, "truncated gzip"));
    assert_true(got.n > 0 && got.n < want.n);
    free(got.digests);
    /* Corrupt: bytes changed in the middle of the compressed stream. */
    zstd_file(zst, big.text, big.len);
    FILE *f = fopen(zst, "r+b");
    fseek(f, 30000, SEEK_SET);
    fwrite("garbage!", 1, 8, f);
    fclose(f);
    assert_int_equal(DF_ERR_IO, list_file(zst, 3, &got, &why));
    assert_non_null(strstr(why, "corrupt zstd"));
    free(got.digests);
    /* Blank lines inside every tag section: cuts there are wrong (the reader stands in a tag
     * section), found so, and read again as one with the next run: the same games. */
    pgngen_text odd = {0};
    odd.text = malloc(2 * big.len);
    for (size_t i = 0; i < big.len; i++) {
        odd.text[odd.len++] = big.text[i];
        if (big.text[i] == '\n' && i + 5 < big.len && !memcmp(big.text + i + 1, "[Site", 5))
            odd.text[odd.len++] = '\n';
    }
    write_file(plain, odd.text, odd.len);
    free(want.digests);
    assert_int_equal(DF_OK, list_file(plain, 1, &want, NULL));
    assert_int_equal(8 * GAMES, (int)want.n);
    assert_int_equal(DF_OK, list_file(plain, 2, &got, NULL));
    assert_int_equal(want.n, got.n);
    assert_memory_equal(want.digests, got.digests, want.n * 8);
    free(got.digests);
    pgngen_text_free(&odd);

    /* A game too big for a segment (a 20 MB comment) among others: the rest of the input is
     * read on the calling thread, with the same games. A blank line inside its tag section
     * makes the last cut before it a wrong one: that segment is read again with the rest. */
    pgngen_text huge = {0};
    huge.text = malloc(2 * text.len + (21 << 20));
    memcpy(huge.text, text.text, text.len);
    huge.len = text.len;
    const char open_comment[] = "[Event \"huge\"]\n\n[Site \"?\"]\n\n1. e4 {";
    memcpy(huge.text + huge.len, open_comment, sizeof open_comment - 1);
    huge.len += sizeof open_comment - 1;
    memset(huge.text + huge.len, 'z', 20 << 20);
    huge.len += 20 << 20;
    const char close_comment[] = "} e5 1-0\n\n";
    memcpy(huge.text + huge.len, close_comment, sizeof close_comment - 1);
    huge.len += sizeof close_comment - 1;
    memcpy(huge.text + huge.len, text.text, text.len);
    huge.len += text.len;
    write_file(plain, huge.text, huge.len);
    free(want.digests);
    assert_int_equal(DF_OK, list_file(plain, 1, &want, NULL));
    assert_int_equal(2 * GAMES + 1, (int)want.n);
    assert_int_equal(DF_OK, list_file(plain, 2, &got, NULL));
    assert_int_equal(want.n, got.n);
    assert_memory_equal(want.digests, got.digests, want.n * 8);
    free(got.digests);
    free(want.digests);
    pgngen_text_free(&huge);

    /* A plain file cut mid-game: that game is an error saying so. */
    write_file(plain, big.text, big.len / 2 + 17);
    recorder cut = {0};
    assert_int_equal(DF_OK, read_file(plain, 2, &cut));
    assert_true(cut.errors >= 1);
    unlink(plain);
    unlink(zst);
    unlink(gz);
    free(plain);
    free(zst);
    free(gz);
    pgngen_text_free(&big);
}

/* ---- hand-written rules and errors ---- */

typedef struct {
    const char *pgn;
    long games, errors, skipped, plies; /* plies of games without errors */
    const char *error;                  /* in the last error, or NULL */
    uint64_t error_line;
} pgn_case;

static void test_rules_and_errors(void **state)
{
    (void)state;
    static const pgn_case cases[] = {
        /* Move numbers every way, suffixes, NAGs, comments, variations, escapes, result. */
        {"1.e4 e5 2. Nf3 Nc6 3.Bb5!? a6?! $2 4.Ba4 Nf6", 1, 1, 0, 0,
         "ends before the game's result", 1},
        {"1.e4 e5 2. Nf3 Nc6 3.Bb5!? a6?! $2 4...Nf6 *", 1, 1, 0, 0, "ply 7 \"Nf6\": illegal", 1},
        {"1. e4 1... e5 2.Nf3 {c} (2. f4 (2. d4 exd4) exf4) 2...Nc6 ; rest\n%esc\n3.Bb5 *", 1, 0, 0,
         5, NULL, 0},
        {"[Event \"a\\\"b\\\\c\"]\n\n1. e4 e5 1-0\n[Event \"x\"]\n1. d4 0-1", 2, 0, 0, 3, NULL, 0},
        /* Castling both ways of writing; promotions with and without '='; null moves. */
        {"[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n1. 0-0 O-O-O 2. Rf2 Rd2 *", 1, 0, 0, 4,
         NULL, 0},
        {"[FEN \"8/1P4k1/8/8/8/8/6K1/8 w - - 0 1\"]\n1. b8=Q Kf7 2. Qb3+ *", 1, 0, 0, 3, NULL, 0},
        {"[FEN \"8/1P4k1/8/8/8/8/6K1/8 w - - 0 1\"]\n1. b8N Kf7 *", 1, 0, 0, 2, NULL, 0},
        {"1. e4 -- 2. d4 Z0 3. c4 *", 1, 0, 0, 5, NULL, 0},
        /* Errors, each stopping its game only, with the line of the token. */
        {"1. e4 e5\n2. Ke3 Nc6 *\n\n1. d4 *", 2, 1, 0, 1, "ply 3 \"Ke3\": illegal move", 2},
        {"[FEN \"4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1\"]\n1. Nd2 *", 1, 1, 0, 0, "ambiguous move", 2},
        {"1. e4 xyz *", 1, 1, 0, 0, "ply 2 \"xyz\": not SAN move", 1},
        {"1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# Ke7 *", 1, 1, 0, 0, "ply 8 \"Ke7\": illegal move",
         1},
        {"[FEN \"not a fen\"]\n1. e4 *", 1, 1, 0, 0, "bad FEN tag", 1},
        {"[FEN \"4k3/8/8/8/8/8/8/4RK2 w - - 0 1\"]\n*", 1, 1, 0, 0, "side not to move is in check",
         1},
        {"[Event \"x\" junk]\n1. e4 *", 1, 1, 0, 0, "no ']' after the value", 1},
        {"[Event x]\n1. e4 *", 1, 1, 0, 0, "no quoted value", 1},
        {"1. e4 e5 2. Nf3aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa *", 1, 1, 0, 0,
         "longer than 32", 1},
        {"1. e4 ) e5 *", 1, 1, 0, 0, "')' without '('", 1},
        {"[FEN \"4k3/8/8/8/8/8/8/4K2r w - - 0 1\"]\n1. -- *", 1, 1, 0, 0,
         "null move while in check", 2},
        /* Variants: skipped, said so; Chess960 by its tag. */
        {"[Variant \"Crazyhouse\"]\n1. e4 e5 *\n\n1. d4 *", 2, 0, 1, 1, NULL, 0},
        {"[Variant \"chess 960\"]\n[FEN \"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 "
         "1\"]\n1. O-O *",
         1, 0, 0, 1, NULL, 0},
        /* Truncated everywhere: each an error naming where it ends. */
        {"[Event \"cut", 1, 1, 0, 0, "inside a tag", 1},
        {"1. e4 { a comment", 1, 1, 0, 0, "inside a comment", 1},
        {"1. e4 ( 1. d4", 1, 1, 0, 0, "inside a variation", 1},
        /* Its last token a move number on a line of its own: that line, in pieces or whole. */
        {"1. e4 e5\n2. ; a line comment\n", 1, 1, 0, 0, "ends before the game's result", 2},
        /* An unclosed comment or variation does not swallow the next game. */
        {"1. e4 { open\n[Event \"next\"]\n1. d4 *", 2, 1, 0, 1, "unclosed comment", 1},
        {"1. e4 (1. d4\n[Event \"next\"]\n1. c4 *", 2, 1, 0, 1, "unclosed variation", 1},
        {"1. e4 { a comment\n[%clk 0:01:00] } e5 *", 1, 0, 0, 2, NULL, 0},
        /* Junk: NUL bytes and binary, between and inside games. */
        {"\x01\x02\xff junk\n\n[Event \"ok\"]\n1. e4 *", 2, 1, 0, 1, "not PGN text", 1},
        {"1. e4 \xc3\xa9 *", 1, 1, 0, 0, "not SAN", 1},
        {"", 0, 0, 0, 0, NULL, 0},
        {"   \n\n  ", 0, 0, 0, 0, NULL, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const pgn_case *c = &cases[i];
        recorder r = {0};
        read_text(&r, c->pgn, strlen(c->pgn), DF_PGN_STANDARD, 0);
        if (r.games != c->games || r.errors != c->errors || r.skipped != c->skipped ||
            (!c->errors && r.plies != c->plies) ||
            (c->error && (!strstr(r.last_error, c->error) || r.last_error_line != c->error_line)))
            fail_msg("case %zu: %ld games, %ld errors, %ld skipped, %ld plies; error '%s' line "
                     "%llu\n%s",
                     i, r.games, r.errors, r.skipped, r.plies, r.last_error,
                     (unsigned long long)r.last_error_line, c->pgn);
        /* Byte by byte, the same. */
        recorder bytes = {0};
        read_text(&bytes, c->pgn, strlen(c->pgn), DF_PGN_STANDARD, 2);
        assert_int_equal(r.digest, bytes.digest);
        assert_same_games_without_plies(&r, c->pgn, strlen(c->pgn), 0);
        assert_same_games_without_plies(&r, c->pgn, strlen(c->pgn), 2);
    }
    /* A NUL byte in the middle of a token. */
    static const char nul[] = "1. e4 e\0005 *";
    recorder r = {0};
    read_text(&r, nul, sizeof nul - 1, DF_PGN_STANDARD, 0);
    assert_int_equal(1, r.errors);
}

/* ---- evaluations and clocks ---- */

typedef struct {
    int n;
    df_pgn_ply plies[8];
} ply_list;

static void keep_ply(void *ctx, const df_pgn_game *g, const df_pgn_ply *p)
{
    (void)g;
    ply_list *l = ctx;
    if (l->n < 8) l->plies[l->n++] = *p;
}

static void test_evals_and_clocks(void **state)
{
    (void)state;
    static const char pgn[] =
        "1. e4 { [%eval 0.31] [%clk 0:03:00] } e5 {[%eval #-3]} 2. Nf3 {[%clk 1:02:03.5]} "
        "(2. d4 {[%eval 9.9]}) Nc6 {[%eval -1.25,20]} 3. Bb5 {[%eval junk] [%clk 3:xx]} "
        "a6 {[%eval #-310000000000]} *";
    ply_list l = {0};
    const df_pgn_visitor v = {NULL, keep_ply, NULL, &l};
    df_pgn_reader *r = df_pgn_reader_new();
    assert_int_equal(DF_OK, df_pgn_feed(r, pgn, sizeof pgn - 1, &v));
    assert_int_equal(DF_OK, df_pgn_finish(r, &v));
    df_pgn_reader_free(r);
    assert_int_equal(6, l.n);
    assert_int_equal(DF_PGN_EVAL_PAWNS, l.plies[0].eval_kind);
    assert_true(l.plies[0].pawns > 0.3099f && l.plies[0].pawns < 0.3101f);
    assert_true(l.plies[0].has_clock && l.plies[0].clock == 180);
    assert_int_equal(DF_PGN_EVAL_MATE, l.plies[1].eval_kind);
    assert_int_equal(-3, l.plies[1].mate);
    assert_false(l.plies[1].has_clock);
    assert_true(l.plies[2].has_clock && l.plies[2].clock == 3723.5);
    assert_int_equal(DF_PGN_EVAL_NONE, l.plies[2].eval_kind); /* 9.9 was the variation's */
    assert_true(l.plies[3].pawns == -1.25);
    assert_int_equal(DF_PGN_EVAL_NONE, l.plies[4].eval_kind); /* junk is no evaluation */
    assert_false(l.plies[4].has_clock);
    /* A mate count no int32_t holds is no evaluation (and, under UBSan, no conversion of an
     * out-of-range double: the fuzzer's find). */
    assert_int_equal(DF_PGN_EVAL_NONE, l.plies[5].eval_kind);
}

/* A match referee's evaluation at a comment's start (cutechess-cli, fastchess), from the
 * mover's view, as White's view after the move; mates counted in plies from before the move
 * (+M(2N - 1) the mover mates in N, -M(2N) it is mated in N) as mates in moves after it. After
 * White's move and after Black's, read whole and a byte at a time; every other text is no
 * evaluation, and a [%eval] of the same comment wins. */
static void test_referee_evaluations(void **state)
{
    (void)state;
    static const struct {
        const char *comment;
        df_pgn_eval_kind kind;
        double pawns; /* the mover's view */
        int mate;     /* moves, + when the mover mates */
    } cases[] = {
        {"+0.71/23 6.157s", DF_PGN_EVAL_PAWNS, 0.71, 0},
        {"-0.33/5 0.001s", DF_PGN_EVAL_PAWNS, -0.33, 0},
        {"0.00/0 0s, Draw by 3-fold repetition", DF_PGN_EVAL_PAWNS, 0, 0},
        {"+15.31/8 0.027s", DF_PGN_EVAL_PAWNS, 15.31, 0},
        {"+0.34 0.1s", DF_PGN_EVAL_PAWNS, 0.34, 0},                  /* cutechess, depth 0 */
        {"-1.20/12 1.2s, n=1234 sd=20", DF_PGN_EVAL_PAWNS, -1.2, 0}, /* fastchess's extras */
        {"+M1/4 0s, White mates", DF_PGN_EVAL_MATE, 0, 0},           /* the move mates */
        {"+M7/10 0.005s", DF_PGN_EVAL_MATE, 0, 3},  /* mate in 4: 3 after the move */
        {"-M8/18 0.015s", DF_PGN_EVAL_MATE, 0, -4}, /* mated in 4 */
        {"-M2/30 0.5s", DF_PGN_EVAL_MATE, 0, -1},
        /* a [%eval] (White's view) of the same comment wins: -0.20 for White moving */
        {"+0.71/23 6.157s, [%eval -0.20]", DF_PGN_EVAL_PAWNS, -0.2, 0},
        {"+0.71/23 6.157s, [%eval 0.20]", DF_PGN_EVAL_PAWNS, -0.2, 0}, /* and for Black */
        {"book", DF_PGN_EVAL_NONE, 0, 0},
        {"/0 0.669s", DF_PGN_EVAL_NONE, 0, 0},
        {"/15 0.67s", DF_PGN_EVAL_NONE, 0, 0},
        {"1.2s", DF_PGN_EVAL_NONE, 0, 0},
        {"+0.7x/23", DF_PGN_EVAL_NONE, 0, 0},
        {"M/5", DF_PGN_EVAL_NONE, 0, 0},
        {"+M/5 1s", DF_PGN_EVAL_NONE, 0, 0},
        {"-M0/5 1s", DF_PGN_EVAL_NONE, 0, 0},
        {"0.5", DF_PGN_EVAL_NONE, 0, 0},
        {"12/3 1s", DF_PGN_EVAL_NONE, 0, 0},
        {"+0.71/23 6.157s junk", DF_PGN_EVAL_NONE, 0, 0},
        {"+0.71/ 1s", DF_PGN_EVAL_NONE, 0, 0},
        {" +0.71/23 6.157s", DF_PGN_EVAL_NONE, 0, 0},
        {"3.5 pawns up, White is winning", DF_PGN_EVAL_NONE, 0, 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        for (int black = 0; black < 2; black++)
            for (size_t piece = 0; piece < 2; piece++) {
                if (strstr(cases[c].comment, "[%eval") &&
                    (black != (strstr(cases[c].comment, "[%eval 0.20]") != NULL)))
                    continue; /* each [%eval] case is for one mover */
                char pgn[160];
                const int n =
                    snprintf(pgn, sizeof pgn, "1. e4 %s%s%s e5 %s%s%s *\n", black ? "" : "{",
                             black ? "" : cases[c].comment, black ? "" : "}", black ? "{" : "",
                             black ? cases[c].comment : "", black ? "}" : "");
                ply_list l = {0};
                const df_pgn_visitor v = {NULL, keep_ply, NULL, &l};
                df_pgn_reader *r = df_pgn_reader_new();
                /* The [%eval] case: the command is read from the comment state too. */
                for (int at = 0; at < n; at += piece ? 1 : n)
                    assert_int_equal(DF_OK, df_pgn_feed(r, pgn + at, piece ? 1 : (size_t)n, &v));
                assert_int_equal(DF_OK, df_pgn_finish(r, &v));
                df_pgn_reader_free(r);
                assert_int_equal(2, l.n);
                const df_pgn_ply *p = &l.plies[black];
                const df_pgn_ply *other = &l.plies[!black];
                const int white_view = black ? -1 : 1;
                bool ok = p->eval_kind == cases[c].kind && other->eval_kind == DF_PGN_EVAL_NONE;
                if (ok && p->eval_kind == DF_PGN_EVAL_PAWNS)
                    ok = p->pawns == white_view * cases[c].pawns;
                if (ok && p->eval_kind == DF_PGN_EVAL_MATE)
                    ok = p->mate == white_view * cases[c].mate;
                if (!ok)
                    fail_msg("{%s} after %s's move, %s: kind %d, pawns %g, mate %d",
                             cases[c].comment, black ? "Black" : "White",
                             piece ? "a byte at a time" : "whole", p->eval_kind, p->pawns, p->mate);
            }
}

/* A command whose name and value a newline, a CRLF or a tab part (a comment wrapped at 80
 * columns puts the line break anywhere), read whole and a byte at a time: the same values as
 * with a space. */
static void test_commands_over_lines(void **state)
{
    (void)state;
    static const char pgn[] = "1. e4 {[%eval\n0.25] [%clk\n0:03:00]} e5 {[%eval\t-0.30] "
                              "[%clk\r\n0:02:58\n]} 2. Nf3 {[%eval #-2\n] [%clk\t1:00\t]} *";
    for (size_t piece = 0; piece <= 1; piece++) {
        ply_list l = {0};
        const df_pgn_visitor v = {NULL, keep_ply, NULL, &l};
        df_pgn_reader *r = df_pgn_reader_new();
        const size_t len = sizeof pgn - 1;
        for (size_t at = 0; at < len; at += piece ? piece : len)
            assert_int_equal(DF_OK, df_pgn_feed(r, pgn + at, piece ? piece : len, &v));
        assert_int_equal(DF_OK, df_pgn_finish(r, &v));
        df_pgn_reader_free(r);
        assert_int_equal(3, l.n);
        assert_int_equal(DF_PGN_EVAL_PAWNS, l.plies[0].eval_kind);
        assert_true(l.plies[0].pawns == 0.25 && l.plies[0].has_clock && l.plies[0].clock == 180);
        assert_int_equal(DF_PGN_EVAL_PAWNS, l.plies[1].eval_kind);
        assert_true(l.plies[1].pawns == -0.30 && l.plies[1].has_clock && l.plies[1].clock == 178);
        assert_int_equal(DF_PGN_EVAL_MATE, l.plies[2].eval_kind);
        assert_int_equal(-2, l.plies[2].mate);
        assert_true(l.plies[2].has_clock && l.plies[2].clock == 60);
    }
}

/* Every evaluation lichess writes ([-]D.DD) and a clock H:MM:SS in every comment, as read
 * inline from a comment's 64-byte block and as read a byte at a time: each value exactly what
 * strtod and the clock's arithmetic give. */
typedef struct {
    int n;
    double pawns[2000], clock[2000];
} value_list;

static void keep_values(void *ctx, const df_pgn_game *g, const df_pgn_ply *p)
{
    (void)g;
    value_list *l = ctx;
    assert_int_equal(DF_PGN_EVAL_PAWNS, p->eval_kind);
    assert_true(p->has_clock);
    assert_true(l->n < 2000);
    l->pawns[l->n] = p->pawns;
    l->clock[l->n++] = p->clock;
}

static void test_lichess_values_exact(void **state)
{
    (void)state;
    static const char *const shuffle[4] = {"Nf3", "Nf6", "Ng1", "Ng8"};
    enum { PLIES = 2000 };
    static char pgn[PLIES * 64];
    static double want_pawns[PLIES], want_clock[PLIES];
    size_t n = 0;
    for (int i = 0; i < PLIES; i++) {
        const int k = i % 1000, h = i % 10, m = i * 7 % 60, sec = i * 13 % 60;
        char value[16];
        snprintf(value, sizeof value, "%s%d.%02d", i < 1000 ? "" : "-", k / 100, k % 100);
        want_pawns[i] = strtod(value, NULL);
        want_clock[i] = h * 3600 + m * 60 + sec;
        n += (size_t)snprintf(pgn + n, sizeof pgn - n, "%s%s { [%%eval %s] [%%clk %d:%02d:%02d] } ",
                              i % 2 ? "" : "1. ", shuffle[i % 4], value, h, m, sec);
    }
    n += (size_t)snprintf(pgn + n, sizeof pgn - n, "*\n");
    for (size_t piece = 1; piece <= sizeof pgn; piece = piece == 1 ? sizeof pgn : piece + 1) {
        value_list *l = calloc(1, sizeof *l);
        assert_non_null(l);
        const df_pgn_visitor v = {NULL, keep_values, NULL, l};
        df_pgn_reader *r = df_pgn_reader_new();
        for (size_t at = 0; at < n; at += piece)
            assert_int_equal(DF_OK, df_pgn_feed(r, pgn + at, n - at < piece ? n - at : piece, &v));
        assert_int_equal(DF_OK, df_pgn_finish(r, &v));
        df_pgn_reader_free(r);
        assert_int_equal(PLIES, l->n);
        for (int i = 0; i < PLIES; i++) {
            /* -0.00 (ply 1000) read as strtod reads it: a negative zero. */
            if (l->pawns[i] != want_pawns[i] || !signbit(l->pawns[i]) != !signbit(want_pawns[i]) ||
                l->clock[i] != want_clock[i])
                fail_msg("ply %d (pieces of %zu): %.17g and %.17g, not %.17g and %.17g", i, piece,
                         l->pawns[i], l->clock[i], want_pawns[i], want_clock[i]);
        }
        free(l);
    }
}

/* Comments around the reach of the reader's 64-byte comment block — ending just inside it or
 * just past it, with a newline, with a command the '}' cuts, a '[' that starts none, a command
 * longer than the reader keeps, near the input's end — read the same whole as a byte at a
 * time, and each kept command's value where the byte-wise reading puts it. */
static void test_comments_at_the_block_edge(void **state)
{
    (void)state;
    static const char *const bodies[] = {"[%eval 0.25] [%clk 0:01:00]",
                                         "[%eval 1.5,20]",
                                         "[%eval #-2] [x] [%clk 1:00]",
                                         "[%eval 0.25",
                                         "[ [%eval 2.00]",
                                         "[%clk 0:00:01.5] [%eval",
                                         "[%eval 0.25                                          ]",
                                         "[%eval\n0.5]",
                                         "text\nmore [%eval 0.30]",
                                         "[%eval 0.40] ] [%clk 0:00:09]",
                                         "+0.71/23 6.157s",
                                         "-M4/30 0.5s, Black mates [%clk 0:00:09]",
                                         "0.00/0 0s, Draw by 3-fold repetition and more text"};
    char pgn[512];
    for (size_t b = 0; b < sizeof bodies / sizeof bodies[0]; b++)
        for (int pad = 0; pad < 72; pad++)
            for (int tail = 0; tail < 80; tail += 7) {
                int n = snprintf(pgn, sizeof pgn, "1. e4 {%*s%s} e5 {%s%*s} 2. Nf3 ", pad, "",
                                 bodies[b], bodies[b], pad, "");
                n += snprintf(pgn + n, sizeof pgn - (size_t)n, "%*s*\n", tail, "");
                recorder whole = {0}, bytes = {0};
                read_text(&whole, pgn, (size_t)n, DF_PGN_STANDARD, 0);
                read_text(&bytes, pgn, (size_t)n, DF_PGN_STANDARD, 1);
                if (whole.digest != bytes.digest || whole.plies != 3)
                    fail_msg("%ld plies, digests %llx and %llx:\n%s", whole.plies,
                             (unsigned long long)whole.digest, (unsigned long long)bytes.digest,
                             pgn);
                assert_same_games_without_plies(&whole, pgn, (size_t)n, 0);
                assert_same_games_without_plies(&whole, pgn, (size_t)n, 1);
            }
}

/* ---- header-only reading and stopping ---- */

static df_pgn_action skip_all(void *ctx, const df_pgn_game *g)
{
    (void)ctx;
    (void)g;
    return DF_PGN_SKIP;
}

static df_pgn_action stop_second(void *ctx, const df_pgn_game *g)
{
    (void)ctx;
    return g->index == 1 ? DF_PGN_STOP : DF_PGN_READ;
}

static void test_skip_and_stop(void **state)
{
    (void)state;
    recorder r = {0};
    df_pgn_visitor v = visitor_of(&r);
    v.begin = skip_all;
    df_pgn_reader *reader = df_pgn_reader_new();
    assert_int_equal(DF_OK, df_pgn_feed(reader, text.text, text.len, &v));
    assert_int_equal(DF_OK, df_pgn_finish(reader, &v));
    assert_int_equal(GAMES, r.games);
    assert_int_equal(0, r.plies); /* no ply replayed */
    df_pgn_reader_reset(reader, DF_PGN_STANDARD, 0, 1, 0);
    v.begin = NULL;
    v.end = stop_second;
    assert_int_equal(DF_ERR_INTERRUPTED, df_pgn_feed(reader, text.text, text.len, &v));
    assert_int_equal(2, (int)df_pgn_reader_stats(reader).games);
    assert_int_equal(DF_ERR_INTERRUPTED, df_pgn_finish(reader, &v));
    df_pgn_reader_free(reader);
}

/* ---- memory ---- */

static long max_rss_kb(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

static void test_huge_comment_bounded(void **state)
{
    (void)state;
    /* A comment of 256 MB and a tag value of 64 MB, streamed: nothing of them is kept. */
    enum { PIECE = 1 << 20 };
    char *piece = malloc(PIECE);
    memset(piece, 'x', PIECE);
    const long before = max_rss_kb();
    recorder r = {0};
    const df_pgn_visitor v = visitor_of(&r);
    df_pgn_reader *reader = df_pgn_reader_new();
    const char open_tag[] = "[Event \"";
    assert_int_equal(DF_OK, df_pgn_feed(reader, open_tag, sizeof open_tag - 1, &v));
    for (int i = 0; i < 64; i++) df_pgn_feed(reader, piece, PIECE, &v);
    const char rest[] = "\"]\n1. e4 e5 *\n\n1. e4 {";
    df_pgn_feed(reader, rest, sizeof rest - 1, &v);
    for (int i = 0; i < 256; i++) df_pgn_feed(reader, piece, PIECE, &v);
    const char end[] = "} e5 1-0";
    df_pgn_feed(reader, end, sizeof end - 1, &v);
    df_pgn_finish(reader, &v);
    df_pgn_reader_free(reader);
    free(piece);
    print_message("max RSS %ld KB before, %ld KB after 320 MB of comment and tag\n", before,
                  max_rss_kb());
    assert_true(max_rss_kb() - before < 16 * 1024);
    assert_int_equal(2, r.games);
    assert_int_equal(1, r.errors); /* the tag was too long */
    assert_int_equal(2, r.plies);
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generated_games),
        cmocka_unit_test(test_any_piece_sizes),
        cmocka_unit_test(test_threads_and_compression),
        cmocka_unit_test(test_rules_and_errors),
        cmocka_unit_test(test_evals_and_clocks),
        cmocka_unit_test(test_commands_over_lines),
        cmocka_unit_test(test_referee_evaluations),
        cmocka_unit_test(test_lichess_values_exact),
        cmocka_unit_test(test_comments_at_the_block_edge),
        cmocka_unit_test(test_skip_and_stop),
        cmocka_unit_test(test_huge_comment_bounded),
    };
    return cmocka_run_group_tests(tests, make_games, free_games);
}
