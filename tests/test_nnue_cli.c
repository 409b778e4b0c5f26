/* SPDX-License-Identifier: MIT */
/* dirfill nnue as scripts meet it: its interface (docs/cli.md), each JSON line against the entry it
 * was made from and the library's features, every input kind (.binpack, .plain, .bin, each
 * compressed, PGN with evaluations and mates, FEN lines), errors in input order, the same
 * output on 1, 2 and 4 threads, --write (never over an input, never a part of a file under its
 * name), and bad usage. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <zlib.h>

#include "cmdline.h"
#include "dft.h"
#include "json_check.h"
#include "nnue_games.h"
#include "pgngen.h"
#include "program.h"
#include "splitmix64.h"

/* ---- entries and their expected lines ---- */

typedef struct {
    char *p;
    size_t len;
} mem_bytes;

static int index_order(const void *a, const void *b)
{
    const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The line the program writes for e: its fields and the library's indices, ascending. */
static void expect_line(cmd_text *t, const df_nnue_entry *e, bool has_move, const char *set_name)
{
    df_nnue_set set;
    assert_int_equal(DF_OK, df_nnue_set_parse(&set, set_name, strlen(set_name)));
    char fen[DF_FEN_MAX], uci[DF_UCI_MAX] = "-";
    df_nnue_entry_fen(fen, sizeof fen, e);
    if (has_move) df_move_to_uci(uci, &e->pos, e->move);
    cmd_text_putf(t, "{\"fen\":\"%s\",\"move\":\"%s\",\"score\":%d,\"ply\":%u,\"result\":%d", fen,
                  uci, e->score, e->ply, e->result);
    for (int side = 0; side < 2; side++) {
        int32_t idx[1024];
        const size_t n = df_nnue_features(idx, 1024, &e->pos, (df_color)side, &set);
        qsort(idx, n, sizeof *idx, index_order);
        cmd_text_puts(t, side ? ",\"black\":[" : ",\"white\":[");
        for (size_t k = 0; k < n; k++) cmd_text_putf(t, "%s%d", k ? "," : "", idx[k]);
        cmd_text_puts(t, "]");
    }
    cmd_text_puts(t, "}\n");
}

static void expect_lines(cmd_text *t, const dft_entries *es, const char *set_name)
{
    for (size_t i = 0; i < es->n; i++) expect_line(t, &es->e[i], true, set_name);
}

static int16_t random_score(uint64_t *rng)
{
    return (int16_t)((int)(splitmix64_next(rng) % 601) - 300);
}

/* The positions of random games, one entry before each move, results from the games. */
static void game_entries(dft_entries *out, uint64_t *rng, int games)
{
    const dft_game_style style = {false, 40, 200, random_score, 0};
    dft_game_entries(out, rng, games, &style);
}

/* A temporary file named with the given extension, holding es in that format. */
static void write_entries(char *path, size_t size, const char *ext, const dft_entries *es)
{
    snprintf(path, size, "/tmp/dirfill-nnue-%d-XXXXXX", (int)getpid());
    close(mkstemp(path));
    unlink(path);
    strncat(path, ext, size - strlen(path) - 1);
    df_nnue_format f;
    assert_true(df_nnue_format_of(&f, path));
    df_nnue_writer *w;
    assert_int_equal(DF_OK, df_nnue_writer_open(&w, path, f));
    for (size_t i = 0; i < es->n; i++) assert_int_equal(DF_OK, df_nnue_write(w, &es->e[i], NULL));
    assert_int_equal(DF_OK, df_nnue_writer_close(w));
}

static dft_entries games;

static int setup(void **state)
{
    (void)state;
    uint64_t rng = dft_seed;
    game_entries(&games, &rng, 40);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    dft_entries_free(&games);
    return 0;
}

static void assert_output(const dft_result *r, const cmd_text *want)
{
    if (r->out_len != want->len || memcmp(r->out, want->text, want->len)) {
        size_t i = 0;
        while (i < r->out_len && i < want->len && r->out[i] == want->text[i]) i++;
        const size_t from = i > 300 ? i - 300 : 0;
        fail_msg("output differs at byte %zu: got '%.400s', expected '%.400s' (stderr: %s)", i,
                 r->out + from, want->text + from, r->err);
    }
}

/* ---- the tests ---- */

/* --json on .binpack, .plain, .bin and compressed .binpack: one line per entry, the entry's
 * fields and the library's indices of the default set and of each set alone, on 1, 2 and 4
 * threads; the summary line counts them. */
static void test_json_every_format(void **state)
{
    (void)state;
    static const char *const sets[] = {"Full_Threats+PP_3Wide+HalfKAv2_hm", "HalfKAv2_hm",
                                       "Full_Threats", "PP_3Wide", "PP_3Wide+HalfKAv2_hm"};
    assert_true(games.n > 2 * 1024); /* several batches on every thread */
    char bp[128], plain[128], bin[128], gz[160];
    write_entries(bp, sizeof bp, ".binpack", &games);
    write_entries(plain, sizeof plain, ".plain", &games);
    dft_entries bin_ok = {0};
    for (size_t i = 0; i < games.n; i++)
        if (games.e[i].pos.halfmove <= 127) dft_entries_add(&bin_ok, &games.e[i]);
    write_entries(bin, sizeof bin, ".bin", &bin_ok);
    snprintf(gz, sizeof gz, "%s.gz", bp);
    FILE *f = fopen(bp, "rb");
    gzFile g = gzopen(gz, "wb");
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) gzwrite(g, buf, (unsigned)n);
    fclose(f);
    gzclose(g);
    for (size_t s = 0; s < sizeof sets / sizeof *sets; s++) {
        cmd_text want = {0}, want_bin = {0};
        expect_lines(&want, &games, sets[s]);
        expect_lines(&want_bin, &bin_ok, sets[s]);
        const char *const threads[] = {"1", "2", "4"};
        for (int t = 0; t < 3; t++) {
            const char *files[] = {bp, plain, bin, gz};
            for (int k = 0; k < 4; k++) {
                /* every format on the default set, every set on one format and thread count */
                if (s && (k || t != 1)) continue;
                dft_result r =
                    dft_run(DFT_PROGRAM,
                            s ? DFT_ARGS("nnue", "--json", "--features", sets[s], "--threads",
                                         threads[t], files[k])
                              : DFT_ARGS("nnue", "--json", "--threads", threads[t], files[k]),
                            "", 0, NULL);
                assert_int_equal(0, r.status);
                assert_output(&r, k == 2 ? &want_bin : &want);
                dft_done(&r);
            }
        }
        cmd_text_free(&want);
        cmd_text_free(&want_bin);
    }
    /* Without --json: the summary. */
    dft_result r = dft_run(DFT_PROGRAM, DFT_ARGS("nnue", "--threads", "2", bp, plain), "", 0, NULL);
    assert_int_equal(0, r.status);
    char head[64];
    snprintf(head, sizeof head, "%zu entries, 0 errors, ", 2 * games.n);
    assert_memory_equal(head, r.out, strlen(head));
    assert_non_null(strstr(r.out, " entries/s\n"));
    dft_done(&r);
    unlink(bp);
    unlink(plain);
    unlink(bin);
    unlink(gz);
    dft_entries_free(&bin_ok);
}

/* A bad chunk between good ones: an error object in its place (file, offset, chunk), every
 * entry of the other chunks, the same on any number of threads, exit status 1; without
 * --json the error on standard error and in the summary's count. A missing file is an error
 * too, and the files after it are read. */
static void test_errors_in_order(void **state)
{
    (void)state;
    dft_entries first = {0}, second = {0};
    for (size_t i = 0; i < games.n; i++)
        dft_entries_add(i < games.n / 2 ? &first : &second, &games.e[i]);
    char a[128], b[128], path[160];
    write_entries(a, sizeof a, ".binpack", &first);
    write_entries(b, sizeof b, ".binpack", &second);
    snprintf(path, sizeof path, "%s.joined.binpack", a);
    FILE *out = fopen(path, "wb");
    size_t offsets[3];
    for (int part = 0; part < 3; part++) {
        offsets[part] = (size_t)ftell(out);
        FILE *in = fopen(part == 1 ? b : a, "rb");
        char buf[4096];
        size_t n;
        bool first_block = true;
        while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
            if (part == 1 && first_block) buf[0] = 'X'; /* a wrong magic */
            first_block = false;
            fwrite(buf, 1, n, out);
        }
        fclose(in);
    }
    fclose(out);
    cmd_text want = {0};
    expect_lines(&want, &first, "Full_Threats+PP_3Wide+HalfKAv2_hm");
    const char *shown = path;
    cmd_text_puts(&want, "{\"error\": \"chunk 1 at byte ");
    cmd_text_putf(&want,
                  "%zu: no BINP magic (58 49 4e 50): %zu bytes skipped to the next BINP\", "
                  "\"file\": \"%s\", \"offset\": %zu, \"chunk\": 1}\n",
                  offsets[1], offsets[2] - offsets[1], shown, offsets[1]);
    expect_lines(&want, &first, "Full_Threats+PP_3Wide+HalfKAv2_hm");
    for (int t = 1; t <= 4; t *= 2) {
        char threads[4];
        snprintf(threads, sizeof threads, "%d", t);
        dft_result r = dft_run(DFT_PROGRAM, DFT_ARGS("nnue", "--json", "--threads", threads, path),
                               "", 0, NULL);
        assert_int_equal(1, r.status);
        assert_output(&r, &want);
        dft_done(&r);
    }
    dft_result r =
        dft_run(DFT_PROGRAM, DFT_ARGS("nnue", "--threads", "1", path, "/nonexistent/x.binpack", a),
                "", 0, NULL);
    assert_int_equal(1, r.status);
    char head[64];
    snprintf(head, sizeof head, "%zu entries, 2 errors, ", 3 * first.n);
    assert_memory_equal(head, r.out, strlen(head));
    assert_non_null(strstr(r.err, "no BINP magic"));
    assert_non_null(strstr(r.err, "cannot open /nonexistent/x.binpack"));
    dft_done(&r);
    cmd_text_free(&want);
    unlink(a);
    unlink(b);
    unlink(path);
    dft_entries_free(&first);
    dft_entries_free(&second);
}

/* The score of the position before the move of ply i of game t, as docs/cli.md defines it,
 * computed here on its own: centipawns from the side to move's view, or a mate's 32000 minus
 * the plies to it from that position. */
/* Stockfish's internal value that its UCI output prints as cp in b, written from its
 * src/uci.cpp (to_cp: round(100 v / a), a a cubic in the material, square by square here):
 * of the values v whose round(100 v / a) is cp, the one nearest cp a / 100. */
static int stockfish_value(int cp, const df_board *b)
{
    static const int worth[DF_PIECE_TYPES] = {1, 3, 3, 5, 9, 0};
    int material = 0;
    for (int sq = 0; sq < 64; sq++)
        for (int t = 0; t < DF_PIECE_TYPES; t++)
            if (b->piece[t] >> sq & 1) material += worth[t];
    const double m = (material < 17 ? 17 : material > 78 ? 78 : material) / 58.0;
    const double a =
        -72.32565836 * m * m * m + 185.93832038 * m * m - 144.58862193 * m + 416.44950446;
    int best = 0;
    double best_distance = 1e9;
    for (int v = (int)(cp * a / 100) - 8; v <= (int)(cp * a / 100) + 8; v++)
        if (lround(100.0 * v / a) == cp && fabs(v - cp * a / 100) < best_distance) {
            best = v;
            best_distance = fabs(v - cp * a / 100);
        }
    return best;
}

static int16_t expected_score(const pgngen_truth *t, uint32_t i, const df_board *b)
{
    const int sign = df_board_stm(b) == DF_WHITE ? 1 : -1;
    const df_color stm = df_board_stm(b);
    if (t->eval_kind[i] == DF_PGN_EVAL_PAWNS) {
        const double cp = t->pawns[i] * 100.0;
        const int v = stockfish_value(sign * (int)(cp < 0 ? cp - 0.5 : cp + 0.5), b);
        return (int16_t)(v > 30000 ? 30000 : v < -30000 ? -30000 : v);
    }
    if (t->mate[i] == 0) return 32000 - 1; /* #0: the move mates */
    const int n = t->mate[i] < 0 ? -t->mate[i] : t->mate[i];
    const bool white_mates = t->mate[i] > 0;
    if (white_mates == (stm == DF_WHITE)) return (int16_t)(32000 - (2 * n + 1));
    return (int16_t)(-(32000 - 2 * n));
}

/* PGN: each position before a move of a game with a result, scored by that move's [%eval]
 * (pawns and mates, the side to move's view), skipped without one unless --no-eval-ok; a game
 * without a dft_result gives none; a bad game is an error in its place; the same output on 1, 2
 * and 4 threads, plain and gzipped. */
static void test_pgn(void **state)
{
    (void)state;
    uint64_t rng = dft_seed ^ 0x9e37;
    pgngen_text text = {0};
    cmd_text want = {0}, want_all = {0};
    bool mates = false, skipped = false;
    for (int g = 0; g < 60; g++) {
        const df_board start = dft_fen(DF_FEN_START);
        pgngen_truth t;
        assert_true(
            pgngen_game(&text, &rng, &start, false, 30 + (uint32_t)(splitmix64_next(&rng) % 120),
                        g % 3 ? PGNGEN_EVALS | PGNGEN_CLOCKS : PGNGEN_ALL, (uint64_t)g, &t));
        df_board b = start;
        const int white = t.result == DF_RESULT_WHITE_WINS   ? 1
                          : t.result == DF_RESULT_BLACK_WINS ? -1
                                                             : 0;
        for (uint32_t i = 0; i < t.plies && t.result != DF_RESULT_NONE; i++) {
            df_nnue_entry e = {.pos = b,
                               .move = t.moves[i],
                               .score = DF_NNUE_SCORE_NONE,
                               .ply = (uint16_t)i,
                               .result = (int8_t)(b.stm ? -white : white)};
            if (t.eval_kind[i] != DF_PGN_EVAL_NONE) {
                e.score = expected_score(&t, i, &b);
                mates |= t.eval_kind[i] == DF_PGN_EVAL_MATE;
                expect_line(&want, &e, true, "HalfKAv2_hm");
            } else {
                skipped = true;
            }
            expect_line(&want_all, &e, true, "HalfKAv2_hm");
            df_make_move(&b, &b, t.moves[i]);
        }
        pgngen_truth_free(&t);
    }
    assert_true(mates && skipped);
    /* A game with an illegal move: an error object after the others' entries. */
    cmd_text_puts(&text, "[Event \"bad\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n");
    char path[128], gz[160];
    snprintf(path, sizeof path, "/tmp/dirfill-nnue-pgn-XXXXXX");
    close(mkstemp(path));
    unlink(path);
    strcat(path, ".pgn");
    dft_write_file(path, text.text, text.len);
    snprintf(gz, sizeof gz, "%s.gz", path);
    gzFile g = gzopen(gz, "wb");
    gzwrite(g, text.text, (unsigned)text.len);
    gzclose(g);
    for (int t = 1; t <= 4; t *= 2)
        for (int k = 0; k < 4; k++) {
            char threads[4];
            snprintf(threads, sizeof threads, "%d", t);
            const char *file = k % 2 ? gz : path;
            dft_result r = k < 2 ? dft_run(DFT_PROGRAM,
                                           DFT_ARGS("nnue", "--json", "--features", "HalfKAv2_hm",
                                                    "--threads", threads, file),
                                           "", 0, NULL)
                                 : dft_run(DFT_PROGRAM,
                                           DFT_ARGS("nnue", "--json", "--no-eval-ok", "--features",
                                                    "HalfKAv2_hm", "--threads", threads, file),
                                           "", 0, NULL);
            assert_int_equal(1, r.status);
            const cmd_text *w = k < 2 ? &want : &want_all;
            assert_true(r.out_len > w->len);
            dft_result head = r;
            head.out_len = w->len;
            assert_output(&head, w);
            /* the bad game's error, then the trailer that counts the positions dropped */
            const char *err = r.out + w->len, *trailer = strchr(err, '\n') + 1;
            assert_true(json_valid(err, (size_t)(trailer - 1 - err)));
            assert_non_null(strstr(err, "\"error\": \"game 60 at line "));
            assert_non_null(strstr(err, "Ke3"));
            assert_non_null(strstr(err, "\"game\": 60}"));
            assert_true(json_valid(trailer, strlen(trailer) - 1));
            assert_non_null(strstr(trailer, "\"pgn_positions_dropped\": {\"no_eval\": "));
            dft_done(&r);
        }
    unlink(path);
    unlink(gz);
    pgngen_text_free(&text);
    cmd_text_free(&want);
    cmd_text_free(&want_all);
}

/* Mates as docs/cli.md counts them, by hand: #N after the side to move's move is 2N + 1 plies
 * away, after the other side's 2N; #0 is the move's own mate; pawns round to centipawns, which
 * --score-units cp keeps and the default turns into Stockfish's units. */
static void test_pgn_scores(void **state)
{
    (void)state;
    static const char pgn[] =
        "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 { [%eval 0.31] } e5 { [%eval -0.2] } 2. Nf3 Nc6 "
        "{ [%eval #3] } 3. Bb5 { [%eval #-2] } 1-0\n\n"
        "[Event \"b\"]\n[Result \"0-1\"]\n\n1. d4 { [%eval #1] } d5 { [%eval #0] } 0-1\n\n"
        "[Event \"c\"]\n[Result \"*\"]\n\n1. c4 { [%eval 1.0] } *\n";
    char path[128];
    snprintf(path, sizeof path, "/tmp/dirfill-nnue-scores-XXXXXX");
    close(mkstemp(path));
    unlink(path);
    strcat(path, ".pgn");
    dft_write_file(path, pgn, sizeof pgn - 1);
    static const struct {
        int score, ply, result;
        const char *move;
    } want[] = {{31, 0, 1, "e2e4"},      {20, 1, -1, "e7e5"},    {32002, 2, 1, "g1f3"},
                {-31994, 3, -1, "b8c6"}, {-31996, 4, 1, "f1b5"}, {31997, 0, -1, "d2d4"},
                {31999, 1, 1, "d7d5"}};
    for (int cp = 0; cp < 2; cp++) {
        dft_result r =
            dft_run(DFT_PROGRAM,
                    cp ? DFT_ARGS("nnue", "--json", "--no-eval-ok", "--score-units", "cp", path)
                       : DFT_ARGS("nnue", "--json", "--no-eval-ok", path),
                    "", 0, NULL);
        assert_int_equal(0, r.status);
        char *save, *line = strtok_r(r.out, "\n", &save);
        for (size_t i = 0; i < sizeof want / sizeof *want;
             i++, line = strtok_r(NULL, "\n", &save)) {
            assert_non_null(line);
            char move[8], fen[DF_FEN_MAX];
            assert_true(json_valid(line, strlen(line)));
            assert_true(json_string_at(line, strlen(line), "move", move, sizeof move));
            assert_string_equal(want[i].move, move);
            assert_true(json_string_at(line, strlen(line), "fen", fen, sizeof fen));
            const df_board b = dft_fen(fen);
            const bool mate = want[i].score > 30000 || want[i].score < -30000;
            size_t n;
            assert_int_equal(cp || mate ? want[i].score : stockfish_value(want[i].score, &b),
                             atoi(json_find(line, strlen(line), "score", &n)));
            assert_int_equal(want[i].ply, atoi(json_find(line, strlen(line), "ply", &n)));
            assert_int_equal(want[i].result, atoi(json_find(line, strlen(line), "result", &n)));
        }
        /* the game without a result gives none; the trailer counts its position */
        assert_non_null(line);
        assert_non_null(strstr(line, "\"no_result\": 1,"));
        assert_null(strtok_r(NULL, "\n", &save));
        dft_done(&r);
    }
    unlink(path);
}

/* A PGN file that gives no entry says why and exits 1: games without evaluations (a TWIC-like
 * file), games without results, no games; the summary counts what was dropped. */
static void test_pgn_no_entries(void **state)
{
    (void)state;
    static const struct {
        const char *pgn, *why;
    } cases[] = {
        {"[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Event \"b\"]\n[Result "
         "\"0-1\"]\n\n"
         "1. d4 {book} 0-1\n",
         "no entries: no [%eval] or engine comment in 2 games"},
        {"[Event \"a\"]\n[Result \"*\"]\n\n1. e4 { [%eval 0.2] } *\n", "no game of 1 has a result"},
        {"", "no game in it"},
    };
    char path[128];
    snprintf(path, sizeof path, "/tmp/dirfill-nnue-none-XXXXXX");
    close(mkstemp(path));
    unlink(path);
    strcat(path, ".pgn");
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        dft_write_file(path, cases[c].pgn, strlen(cases[c].pgn));
        dft_result r = dft_run(DFT_PROGRAM, DFT_ARGS("nnue", path), "", 0, NULL);
        if (r.status != 1 || !strstr(r.err, cases[c].why) || !strstr(r.err, path))
            fail_msg("case %zu: status %d, stderr %s", c, r.status, r.err);
        assert_non_null(strstr(r.out, "0 entries, 1 errors, "));
        if (c == 0)
            assert_non_null(strstr(r.out, "; PGN positions dropped: 4 without an evaluation, 0 in "
                                          "games without a result, 0 null moves, 0 in games "
                                          "with an error\n"));
        dft_done(&r);
        /* --no-eval-ok keeps the unscored positions of the first file */
        r = dft_run(DFT_PROGRAM, DFT_ARGS("nnue", "--no-eval-ok", path), "", 0, NULL);
        assert_int_equal(c == 0 ? 0 : 1, r.status);
        dft_done(&r);
    }
    unlink(path);
}

/* A game whose start holds more pieces than the formats do is an error of that game, its
 * positions no entries; the game after it is read. */
static void test_pgn_too_many_pieces(void **state)
{
    (void)state;
    static const char pgn[] =
        "[Event \"a\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/QQQQQQQQ/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n"
        "[Result \"1-0\"]\n\n1. Qa3a4 { [%eval 0.2] } e5 { [%eval 0.3] } 1-0\n\n"
        "[Event \"b\"]\n[Result \"1-0\"]\n\n1. e4 { [%eval 0.31] } 1-0\n";
    char path[128];
    snprintf(path, sizeof path, "/tmp/dirfill-nnue-pieces-XXXXXX");
    close(mkstemp(path));
    unlink(path);
    strcat(path, ".pgn");
    dft_write_file(path, pgn, sizeof pgn - 1);
    dft_result r = dft_run(DFT_PROGRAM, DFT_ARGS("nnue", "--json", path), "", 0, NULL);
    assert_int_equal(1, r.status);
    const char *second = strchr(r.out, '\n');
    assert_non_null(second);
    assert_true(json_valid(r.out, (size_t)(second - r.out)));
    assert_non_null(strstr(r.out, "\"error\": \"game 0 at line 1: its start holds 40 pieces"));
    assert_non_null(strstr(second, "\"move\":\"e2e4\""));
    size_t lines = 0;
    for (const char *c = r.out; (c = strchr(c, '\n')); c++) lines++;
    assert_int_equal(3, lines); /* the error, game b's one entry, the trailer */
    dft_done(&r);
    unlink(path);
}

/* --fens: fen<TAB>score<TAB>ply<TAB>result lines answered in order, move "-"; a bad line is an
 * error object quoting it, and the lines after it are read. */
static void test_fens(void **state)
{
    (void)state;
    cmd_text in = {0}, want = {0};
    for (size_t i = 0; i < 3000; i += 7) {
        const df_nnue_entry *e = &games.e[i];
        char fen[DF_FEN_MAX];
        df_fen_format(fen, sizeof fen, &e->pos, DF_FEN_STANDARD);
        cmd_text_putf(&in, "%s\t%d\t%u\t%d\n", fen, e->score, e->ply, e->result);
        expect_line(&want, e, false, "Full_Threats+PP_3Wide+HalfKAv2_hm");
        if (i == 700) {
            cmd_text_puts(&in, "8/8/8/8/8/8/8/8 w - - 0 1\t0\t0\t0\n\n");
            cmd_text_puts(&want, "{\"error\": \"bad FEN: ");
        }
    }
    dft_result r = dft_run(DFT_PROGRAM, DFT_ARGS("nnue", "--fens", "--json", "--threads", "2"),
                           in.text, in.len, NULL);
    assert_int_equal(1, r.status);
    const char *bad = strstr(r.out, "{\"error\": \"bad FEN: ");
    assert_non_null(bad);
    const size_t at = (size_t)(bad - r.out);
    assert_memory_equal(want.text, r.out, at);
    const char *after = strchr(bad, '\n') + 1;
    assert_true(json_valid(bad, (size_t)(after - bad - 1)));
    assert_non_null(strstr(bad, "\"input\": \"8/8/8/8/8/8/8/8 w - - 0 1\\u0009"));
    const char *rest =
        strstr(want.text, "{\"error\": \"bad FEN: ") + strlen("{\"error\": \"bad FEN: ");
    assert_int_equal(strlen(rest), strlen(after));
    assert_memory_equal(rest, after, strlen(rest));
    dft_done(&r);
#define LINE(text)                                                                                 \
    {                                                                                              \
        text, sizeof text - 1                                                                      \
    }
    static const struct {
        const char *text;
        size_t len;
    } bad_lines[] = {
        LINE("4k3/8/8/8/8/8/8/4K3 w - - 0 1\t0\t0\n"),        /* three fields */
        LINE("4k3/8/8/8/8/8/8/4K3 w - - 0 1\t40000\t0\t0\n"), /* score out of range */
        LINE("4k3/8/8/8/8/8/8/4K3 w - - 0 1\t0\t0\t2\n"),     /* result */
        LINE("4k3/8/8/8/8/8/8/4K3 w - - 0 1\t0\t0\t0\t0\n"),  /* five fields */
        LINE("4k3/8/8/8/8/8/8/4K3 w - - 0 1\t1\0"
             "0\t0\t0\n"), /* a NUL cuts no number */
        LINE("4k3/8/8/8/8/8/8/4K3 w - - 0 1\0junk\t0\t0\t0\n"),
        /* more pieces than the formats hold: a row of each perspective has room for 32 */
        LINE("rnbqkbnr/pppppppp/8/8/8/QQQQQQQQ/PPPPPPPP/RNBQKBNR w KQkq - 0 1\t0\t0\t0\n"),
    };
#undef LINE
    for (size_t i = 0; i < sizeof bad_lines / sizeof *bad_lines; i++) {
        r = dft_run(DFT_PROGRAM, DFT_ARGS("nnue", "--fens", "--json"), bad_lines[i].text,
                    bad_lines[i].len, NULL);
        if (r.status != 1 || !json_valid(r.out, r.out_len) ||
            !json_find(r.out, r.out_len, "error", &(size_t){0}))
            fail_msg("line %zu: status %d, %s", i, r.status, r.out);
        dft_done(&r);
    }
    cmd_text_free(&in);
    cmd_text_free(&want);
}

/* --write: any input to .binpack, .plain or .bin, read back entry for entry; entries the
 * format cannot hold (a Chess960 castling right) are errors naming them, the rest written. */
static void test_write(void **state)
{
    (void)state;
    char src[128], dst[3][160];
    write_entries(src, sizeof src, ".plain", &games);
    static const char *const ext[3] = {".binpack", ".plain", ".bin"};
    for (int f = 0; f < 3; f++) {
        snprintf(dst[f], sizeof dst[f], "%s.out%s", src, ext[f]);
        dft_result r = dft_run(DFT_PROGRAM, DFT_ARGS("nnue", "--write", dst[f], src), "", 0, NULL);
        size_t written = 0;
        for (size_t i = 0; i < games.n; i++) written += f != 2 || games.e[i].pos.halfmove <= 127;
        assert_int_equal(written == games.n ? 0 : 1, r.status);
        char head[64];
        snprintf(head, sizeof head, "%zu entries, %zu errors, ", written, games.n - written);
        assert_memory_equal(head, r.out, strlen(head));
        dft_done(&r);
        df_nnue_reader *rd;
        assert_int_equal(DF_OK, df_nnue_reader_open(&rd, dst[f], (df_nnue_format)f));
        df_nnue_entry e;
        size_t k = 0;
        for (size_t i = 0; i < games.n; i++) {
            if (f == 2 && games.e[i].pos.halfmove > 127) continue;
            assert_int_equal(DF_NNUE_ENTRY, df_nnue_read_next(rd, &e, NULL));
            assert_int_equal(games.e[i].move, e.move);
            assert_int_equal(games.e[i].score, e.score);
            assert_int_equal(games.e[i].pos.key, e.pos.key);
            k++;
        }
        assert_int_equal(DF_NNUE_END, df_nnue_read_next(rd, &e, NULL));
        df_nnue_reader_free(rd);
        unlink(dst[f]);
    }
    /* A Chess960 game: the positions with a castling right standard chess cannot have are
     * refused by name, the others written. */
    char pgn[160];
    snprintf(pgn, sizeof pgn, "%s.960.pgn", src);
    static const char game960[] = "[Variant \"Chess960\"]\n[Result \"1-0\"]\n"
                                  "[FEN \"rkr5/pppppppp/8/8/8/8/PPPPPPPP/RKR5 w ACac - 0 1\"]\n\n"
                                  "1. a3 {[%eval 0.1]} a6 {[%eval 0.2]} 1-0\n\n"
                                  "[Result \"0-1\"]\n\n1. e4 {[%eval 0.3]} e5 {[%eval 0.4]} 0-1\n";
    dft_write_file(pgn, game960, sizeof game960 - 1);
    dft_result r = dft_run(
        DFT_PROGRAM, DFT_ARGS("nnue", "--write", dst[0], "--score-units", "cp", pgn), "", 0, NULL);
    assert_int_equal(1, r.status);
    assert_memory_equal("2 entries, 2 errors, ", r.out, strlen("2 entries, 2 errors, "));
    assert_non_null(strstr(r.err, "not written to"));
    assert_non_null(strstr(r.err, "Chess960"));
    dft_done(&r);
    r = dft_run(DFT_PROGRAM, DFT_ARGS("nnue", "--json", dst[0]), "", 0, NULL);
    assert_int_equal(0, r.status);
    assert_non_null(strstr(r.out, "\"move\":\"e2e4\",\"score\":30,\"ply\":0,\"result\":-1"));
    assert_non_null(strstr(r.out, "\"move\":\"e7e5\",\"score\":-40,\"ply\":1,\"result\":1"));
    dft_done(&r);
    unlink(dst[0]);
    unlink(pgn);
    unlink(src);
}

static mem_bytes file_bytes(const char *path);

/* bullet's formats: --write OUT.bf, .marlin, .vf, .txt from a .binpack, the summary naming what
 * OUT's format dropped (moves, and ChessBoard's side, castling, en passant, counters); --json
 * of each: the library's entries, "move":"-" where the format stores none (a .vf's entries are
 * the .binpack's, moves and all); a bad record or game an error naming it. */
static void test_write_bullet(void **state)
{
    (void)state;
    char bp[128], out[160];
    write_entries(bp, sizeof bp, ".binpack", &games);
    static const char *const ext[4] = {".bf", ".marlin", ".vf", ".txt"};
    static const char *const lost[4] = {" sides to move, ", NULL, NULL, NULL};
    for (int k = 0; k < 4; k++) {
        snprintf(out, sizeof out, "%s%s", bp, ext[k]);
        dft_result r = dft_run(DFT_PROGRAM, DFT_ARGS("nnue", "--write", out, bp), "", 0, NULL);
        assert_int_equal(0, r.status);
        char head[256];
        snprintf(head, sizeof head, "%zu entries, 0 errors, ", games.n);
        assert_memory_equal(head, r.out, strlen(head));
        /* a .vf keeps the moves; the others say they dropped them */
        snprintf(head, sizeof head, "; not kept by %s: %zu entries lost %zu moves", out, games.n,
                 games.n);
        if (k == 2)
            assert_null(strstr(r.out, "not kept by"));
        else
            assert_non_null(strstr(r.out, head));
        if (lost[k]) assert_non_null(strstr(r.out, lost[k]));
        dft_done(&r);
        df_nnue_format f;
        assert_true(df_nnue_format_of(&f, out));
        df_nnue_reader *rd;
        assert_int_equal(DF_OK, df_nnue_reader_open(&rd, out, f));
        cmd_text want = {0};
        df_nnue_entry e;
        size_t n = 0;
        while (df_nnue_read_next(rd, &e, NULL) == DF_NNUE_ENTRY) {
            const df_nnue_entry *g = &games.e[n++];
            assert_int_equal(g->score, e.score);
            assert_int_equal(g->result, e.result);
            if (k) assert_int_equal(g->pos.key, e.pos.key);
            if (k == 2) assert_int_equal(g->move, e.move);
            expect_line(&want, &e, k == 2, "HalfKAv2_hm");
        }
        df_nnue_reader_free(rd);
        assert_int_equal(games.n, n);
        r = dft_run(DFT_PROGRAM, DFT_ARGS("nnue", "--json", "--features", "HalfKAv2_hm", out), "",
                    0, NULL);
        assert_int_equal(0, r.status);
        assert_output(&r, &want);
        if (k != 2) assert_non_null(strstr(r.out, "\"move\":\"-\""));
        dft_done(&r);
        cmd_text_free(&want);
        /* A bad record or game: an error naming it, the rest read. */
        mem_bytes bytes = file_bytes(out);
        if (k == 2)
            bytes.p[32] ^= 0x3f; /* the first game's first move made another, not legal */
        else if (k == 3)
            memcpy(bytes.p, "8/8", 3);
        else
            bytes.p[8] |= 7; /* a piece code 7 (or 15): no piece */
        FILE *fp = fopen(out, "wb");
        fwrite(bytes.p, 1, bytes.len, fp);
        fclose(fp);
        free(bytes.p);
        r = dft_run(DFT_PROGRAM, DFT_ARGS("nnue", "--json", "--features", "none", out), "", 0,
                    NULL);
        assert_int_equal(1, r.status);
        static const char *const key[4] = {"\"record\": 0}", "\"record\": 0}", "\"game\": 0}",
                                           "\"line\": 1}"};
        assert_non_null(strstr(r.out, key[k]));
        assert_non_null(strstr(r.out, "{\"error\": "));
        dft_done(&r);
        unlink(out);
    }
    unlink(bp);
}

/* The bytes of the file at path. */
static mem_bytes file_bytes(const char *path)
{
    mem_bytes m = {0};
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0; m.len += n) {
        m.p = realloc(m.p, m.len + n);
        memcpy(m.p + m.len, buf, n);
    }
    fclose(f);
    return m;
}

/* .binpack stems that store an en-passant square no pawn can take (none next to the pushed
 * pawn; the only one pinned), which nnue-pytorch's reader keeps: --json prints the square as
 * theirs does, on one thread and on two, and --write gives the file back byte for byte. */
static void test_stem_ep_as_stored(void **state)
{
    (void)state;
    static const char *const fens[2] = {"4k3/8/8/3p4/8/8/8/4K3 w - - 0 31",
                                        "4r2k/8/8/3pP3/8/8/8/4K3 w - - 0 31"};
    dft_entries es = {0};
    for (int i = 0; i < 2; i++) {
        df_nnue_entry e = {.pos = dft_fen(fens[i]), .ply = 60, .result = 1};
        e.pos.ep = DF_D6;
        e.ep_as_stored = 1;
        assert_true(df_board_is_valid(&e.pos));
        assert_int_equal(DF_OK, df_move_from_uci(&e.move, &e.pos, "e1d1", 4));
        dft_entries_add(&es, &e);
    }
    char bp[128], out[160];
    write_entries(bp, sizeof bp, ".binpack", &es);
    cmd_text want = {0};
    expect_lines(&want, &es, "Full_Threats+PP_3Wide+HalfKAv2_hm");
    assert_non_null(strstr(want.text, "\"fen\":\"4k3/8/8/3p4/8/8/8/4K3 w - d6 0 31\""));
    assert_non_null(strstr(want.text, "\"fen\":\"4r2k/8/8/3pP3/8/8/8/4K3 w - d6 0 31\""));
    for (int t = 1; t <= 2; t++) {
        dft_result r =
            dft_run(DFT_PROGRAM, DFT_ARGS("nnue", "--json", "--threads", t == 1 ? "1" : "2", bp),
                    "", 0, NULL);
        assert_int_equal(0, r.status);
        assert_output(&r, &want);
        dft_done(&r);
    }
    snprintf(out, sizeof out, "%s.out.binpack", bp);
    dft_result r = dft_run(DFT_PROGRAM, DFT_ARGS("nnue", "--write", out, bp), "", 0, NULL);
    assert_int_equal(0, r.status);
    dft_done(&r);
    mem_bytes a = file_bytes(bp), b = file_bytes(out);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.p, b.p, a.len);
    free(a.p);
    free(b.p);
    cmd_text_free(&want);
    unlink(out);
    unlink(bp);
    dft_entries_free(&es);
}

/* Usage errors: exit 2, a message, nothing read or written. */
static void test_usage(void **state)
{
    (void)state;
    const char *const *bad[] = {
        DFT_ARGS("nnue"),
        DFT_ARGS("nnue", "--bogus", "x.binpack"),
        DFT_ARGS("nnue", "--features", "HalfKA", "x.binpack"),
        DFT_ARGS("nnue", "--features", "HalfKAv2_hm+HalfKAv2_hm", "x.binpack"),
        DFT_ARGS("nnue", "--threads", "x", "x.binpack"),
        DFT_ARGS("nnue", "--threads", "257", "x.binpack"),
        DFT_ARGS("nnue", "x.csv"),
        DFT_ARGS("nnue", "--fens", "x.binpack"),
        DFT_ARGS("nnue", "--write", "out.binpack", "--json", "x.binpack"),
        DFT_ARGS("nnue", "--write", "out.csv", "x.binpack"),
        DFT_ARGS("nnue", "--write", "out.pgn", "x.binpack"),
        DFT_ARGS("nnue", "--write", "out.vf.gz", "x.binpack"),
        DFT_ARGS("nnue", "--write", "out.binpack.zst", "x.binpack"),
        DFT_ARGS("nnue", "--features"),
        DFT_ARGS("nnue", "--skip", "bogus=1", "x.binpack"),
        DFT_ARGS("nnue", "--skip", "filtered=2", "x.binpack"),
        DFT_ARGS("nnue", "--skip", "random_fen_skipping=x", "x.binpack"),
        DFT_ARGS("nnue", "--skip", "pc_y0=nan", "x.binpack"),
        DFT_ARGS("nnue", "--skip", "filtered=1,none", "x.binpack"),
        DFT_ARGS("nnue", "--skip", "default,", "x.binpack"),
        DFT_ARGS("nnue", "--skip", "none,soft_early_fen_skipping=70000", "x.binpack"),
        DFT_ARGS("nnue", "--seed", "1", "x.binpack"),
        DFT_ARGS("nnue", "--skip", "default", "--seed", "-1", "x.binpack"),
        DFT_ARGS("nnue", "--skip", "default", "--seed", "18446744073709551616", "x.binpack"),
        DFT_ARGS("nnue", "--fens", "--json", "--skip", "default"),
        DFT_ARGS("nnue", "--fens", "--json", "--shuffle", "10"),
        DFT_ARGS("nnue", "--shuffle", "-1", "x.binpack"),
        DFT_ARGS("nnue", "--shuffle", "x", "x.binpack"),
        DFT_ARGS("nnue", "--shuffle", "4294967296", "x.binpack"),
        DFT_ARGS("nnue", "--shuffle", "0", "--seed", "1", "x.binpack"),
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        dft_result r = dft_run(DFT_PROGRAM, bad[i], "", 0, NULL);
        if (r.status != 2 || r.out_len || !r.err_len || strstr(r.err, "cannot open"))
            fail_msg("usage %zu: status %d, stdout '%s', stderr '%s'", i, r.status, r.out, r.err);
        dft_done(&r);
    }
    dft_result r = dft_run(DFT_PROGRAM, DFT_ARGS("nnue", "--help"), "", 0, NULL);
    assert_int_equal(0, r.status);
    assert_non_null(strstr(r.out, "dirfill nnue [--features SET] [--threads N] [--json]"));
    assert_non_null(strstr(r.out, "dirfill nnue --fens [--features SET]"));
    assert_non_null(strstr(r.out, "dirfill nnue --write OUT"));
    dft_done(&r);
    r = dft_run(DFT_PROGRAM, DFT_ARGS("--help"), "", 0, NULL);
    assert_non_null(strstr(r.out, "nnue [--features SET]"));
    dft_done(&r);
}

/* --skip: the entries the library's predicate keeps, in order, for the same options and seed
 * (the program parses what the library does); the summary counts both; --write writes the
 * kept ones; the same seed keeps the same entries, another seed others. */
static void test_skip(void **state)
{
    (void)state;
    char bp[128], out[160];
    write_entries(bp, sizeof bp, ".binpack", &games);
    df_nnue_skip_options o = df_nnue_skip_defaults();
    assert_int_equal(DF_OK, df_nnue_skip_option_set(&o, "random_fen_skipping", "3"));
    assert_int_equal(DF_OK, df_nnue_skip_option_set(&o, "filtered", "false"));
    df_nnue_skip *s = df_nnue_skip_new(&o, 7);
    dft_entries kept = {0};
    for (size_t i = 0; i < games.n; i++) {
        const df_nnue_entry *e = &games.e[i];
        if (!df_nnue_skip_entry(s, &e->pos, e->move, e->score, e->ply, e->result))
            dft_entries_add(&kept, e);
    }
    df_nnue_skip_free(s);
    assert_true(kept.n > 0 && kept.n < games.n / 2);
    cmd_text want = {0};
    expect_lines(&want, &kept, "HalfKAv2_hm");
    const char *spec = "default,random_fen_skipping=3,filtered=false";
    for (int run = 0; run < 2; run++) {
        dft_result r = dft_run(DFT_PROGRAM,
                               DFT_ARGS("nnue", "--json", "--features", "HalfKAv2_hm", "--skip",
                                        spec, "--seed", "7", bp),
                               "", 0, NULL);
        assert_int_equal(0, r.status);
        assert_output(&r, &want);
        dft_done(&r);
    }
    dft_result r = dft_run(
        DFT_PROGRAM,
        DFT_ARGS("nnue", "--json", "--features", "HalfKAv2_hm", "--skip", spec, "--seed", "8", bp),
        "", 0, NULL);
    assert_true(r.status == 0 && (r.out_len != want.len || memcmp(r.out, want.text, want.len)));
    dft_done(&r);
    char summary[128];
    snprintf(summary, sizeof summary, "%zu entries, %zu skipped, 0 errors, ", kept.n,
             games.n - kept.n);
    r = dft_run(DFT_PROGRAM, DFT_ARGS("nnue", "--skip", spec, "--seed", "7", bp), "", 0, NULL);
    assert_int_equal(0, r.status);
    if (strncmp(r.out, summary, strlen(summary))) fail_msg("'%s', not '%s'", r.out, summary);
    dft_done(&r);
    /* Every option off: nothing is skipped, not even by the summary's words. */
    r = dft_run(DFT_PROGRAM, DFT_ARGS("nnue", "--skip", "none", bp), "", 0, NULL);
    snprintf(summary, sizeof summary, "%zu entries, 0 skipped, 0 errors, ", games.n);
    if (strncmp(r.out, summary, strlen(summary))) fail_msg("'%s', not '%s'", r.out, summary);
    dft_done(&r);
    snprintf(out, sizeof out, "%s.kept.binpack", bp);
    r = dft_run(DFT_PROGRAM, DFT_ARGS("nnue", "--write", out, "--skip", spec, "--seed", "7", bp),
                "", 0, NULL);
    assert_int_equal(0, r.status);
    dft_done(&r);
    r = dft_run(DFT_PROGRAM, DFT_ARGS("nnue", "--json", "--features", "HalfKAv2_hm", out), "", 0,
                NULL);
    assert_output(&r, &want);
    dft_done(&r);
    cmd_text_free(&want);
    dft_entries_free(&kept);
    unlink(out);
    unlink(bp);
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines of text, sorted, joined again. */
static char *sorted_lines(const char *text, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) n += text[i] == '\n';
    char *copy = malloc(len + 1), **line = malloc((n + 1) * sizeof *line), *out = malloc(len + 1);
    assert_true(copy && line && out);
    memcpy(copy, text, len);
    copy[len] = 0;
    size_t k = 0;
    for (char *p = copy, *nl; k < n && (nl = strchr(p, '\n')); p = nl + 1) {
        *nl = 0;
        line[k++] = p;
    }
    qsort(line, k, sizeof *line, by_text);
    size_t at = 0;
    for (size_t i = 0; i < k; i++) {
        const size_t l = strlen(line[i]);
        memcpy(out + at, line[i], l);
        out[at + l] = '\n';
        at += l + 1;
    }
    out[at] = 0;
    free(copy);
    free(line);
    return out;
}

/* --shuffle: the same lines as the files' order, in another order; the same for a seed and
 * any --threads, another for another seed; --write makes a copy in that order; the summary
 * counts every entry. */
static void test_shuffle(void **state)
{
    (void)state;
    char bp[128], bin[128], out[160];
    write_entries(bp, sizeof bp, ".binpack", &games);
    write_entries(bin, sizeof bin, ".bin", &games);
    dft_result plain = dft_run(
        DFT_PROGRAM, DFT_ARGS("nnue", "--json", "--features", "HalfKAv2_hm", bp, bin), "", 0, NULL);
    assert_int_equal(0, plain.status);
    char *want = sorted_lines(plain.out, plain.out_len);
    dft_result first = dft_run(DFT_PROGRAM,
                               DFT_ARGS("nnue", "--json", "--features", "HalfKAv2_hm", "--shuffle",
                                        "700", "--seed", "3", "--threads", "1", bp, bin),
                               "", 0, NULL);
    assert_int_equal(0, first.status);
    char *got = sorted_lines(first.out, first.out_len);
    assert_string_equal(want, got);
    assert_int_equal(plain.out_len, first.out_len);
    assert_true(memcmp(plain.out, first.out, plain.out_len) != 0);
    static const char *const threads[] = {"1", "3"};
    for (int t = 0; t < 2; t++) {
        dft_result again =
            dft_run(DFT_PROGRAM,
                    DFT_ARGS("nnue", "--json", "--features", "HalfKAv2_hm", "--shuffle", "700",
                             "--seed", "3", "--threads", threads[t], bp, bin),
                    "", 0, NULL);
        assert_int_equal(first.out_len, again.out_len);
        assert_memory_equal(first.out, again.out, first.out_len);
        dft_done(&again);
    }
    dft_result other = dft_run(DFT_PROGRAM,
                               DFT_ARGS("nnue", "--json", "--features", "HalfKAv2_hm", "--shuffle",
                                        "700", "--seed", "4", bp, bin),
                               "", 0, NULL);
    assert_true(other.out_len == first.out_len && memcmp(other.out, first.out, first.out_len));
    dft_done(&other);
    /* A shuffled copy holds the entries in the order the shuffle gave them. */
    snprintf(out, sizeof out, "%s.shuffled.binpack", bp);
    dft_result r = dft_run(
        DFT_PROGRAM, DFT_ARGS("nnue", "--write", out, "--shuffle", "700", "--seed", "3", bp, bin),
        "", 0, NULL);
    assert_int_equal(0, r.status);
    char head[64];
    snprintf(head, sizeof head, "%zu entries, 0 errors, ", 2 * games.n);
    assert_memory_equal(head, r.out, strlen(head));
    dft_done(&r);
    r = dft_run(DFT_PROGRAM, DFT_ARGS("nnue", "--json", "--features", "HalfKAv2_hm", out), "", 0,
                NULL);
    assert_int_equal(first.out_len, r.out_len);
    assert_memory_equal(first.out, r.out, first.out_len);
    dft_done(&r);
    free(want);
    free(got);
    dft_done(&plain);
    dft_done(&first);
    unlink(out);
    unlink(bp);
    unlink(bin);
}

/* Standard output that cannot be written: exit status 1 and a message. */
static void test_output_error(void **state)
{
    (void)state;
    char bp[128];
    write_entries(bp, sizeof bp, ".binpack", &games);
    const dft_run_setup full = {NULL, NULL, "/dev/full", 0, -1, 0};
    dft_result r =
        dft_run_with(DFT_PROGRAM, DFT_ARGS("nnue", "--json", "--threads", "2", bp), "", 0, &full);
    assert_int_equal(1, r.status);
    assert_true(r.err_len > 0);
    dft_done(&r);
    unlink(bp);
}

/* ---- outputs that are inputs, files renamed into place ---- */

/* The bytes of a file. */
static cmd_text file_text(const char *path)
{
    cmd_text t = {0};
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) cmd_text_put(&t, buf, n);
    fclose(f);
    return t;
}

static void assert_unchanged(const char *path, const cmd_text *was)
{
    cmd_text now = file_text(path);
    if (now.len != was->len || memcmp(now.text, was->text, was->len))
        fail_msg("%s changed: %zu bytes, was %zu", path, now.len, was->len);
    cmd_text_free(&now);
}

/* --write to a file that is an input, by its name, a symbolic link or a hard link (either side),
 * and standard output that is an input: refused before anything is written (exit 2, a message
 * naming both), the input byte for byte as it was. A good --write leaves its file alone in the
 * folder; one that fails on the way (a file size limit) leaves the old file. */
static void test_write_not_over_input(void **state)
{
    (void)state;
    char folder[] = "/tmp/dirfill-nnue-same-XXXXXX";
    assert_non_null(mkdtemp(folder));
    static const char *const ext[] = {".binpack", ".plain"};
    for (size_t f = 0; f < sizeof ext / sizeof *ext; f++) {
        char in[128], soft[128], hard[128], out[128], listing[256];
        snprintf(in, sizeof in, "%s/in%s", folder, ext[f]);
        snprintf(soft, sizeof soft, "%s/link%s", folder, ext[f]);
        snprintf(hard, sizeof hard, "%s/hard%s", folder, ext[f]);
        snprintf(out, sizeof out, "%s/out%s", folder, ext[f]);
        df_nnue_format format;
        assert_true(df_nnue_format_of(&format, in));
        df_nnue_writer *w;
        assert_int_equal(DF_OK, df_nnue_writer_open(&w, in, format));
        for (size_t i = 0; i < 2000; i++)
            assert_int_equal(DF_OK, df_nnue_write(w, &games.e[i], NULL));
        assert_int_equal(DF_OK, df_nnue_writer_close(w));
        assert_int_equal(0, symlink(in, soft));
        assert_int_equal(0, link(in, hard));
        snprintf(listing, sizeof listing, "hard%s in%s link%s", ext[f], ext[f], ext[f]);
        cmd_text was = file_text(in);
        const struct {
            const char *const *args;
            const char *output, *input;
        } cases[] = {
            {DFT_ARGS("nnue", "--write", in, in), in, in},
            {DFT_ARGS("nnue", "--write", soft, in), soft, in},
            {DFT_ARGS("nnue", "--write", in, soft), in, soft},
            {DFT_ARGS("nnue", "--write", hard, in), hard, in},
            {DFT_ARGS("nnue", "--write", in, "--threads", "2", hard), in, hard},
        };
        for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
            dft_result r = dft_run(DFT_PROGRAM, cases[c].args, "", 0, NULL);
            char want[512];
            snprintf(want, sizeof want,
                     "dirfill nnue: --write %s is the input %s (the same file): refusing to "
                     "overwrite it\n",
                     cases[c].output, cases[c].input);
            if (r.status != 2 || r.out_len || strcmp(r.err, want))
                fail_msg("case %zu: status %d, stdout '%s', stderr '%s'", c, r.status, r.out,
                         r.err);
            dft_done(&r);
            assert_unchanged(in, &was);
            dft_assert_folder(folder, listing);
        }
        /* Standard output that is an input (the shell has emptied it; here it is opened
         * without truncation, so that a write would show). */
        const dft_run_setup to_in = {NULL, NULL, in, 0, -1, 0};
        const char *const *to_stdout[] = {DFT_ARGS("nnue", "--json", in), DFT_ARGS("nnue", soft),
                                          DFT_ARGS("nnue", "--write", out, hard)};
        for (size_t c = 0; c < sizeof to_stdout / sizeof *to_stdout; c++) {
            dft_result r = dft_run_with(DFT_PROGRAM, to_stdout[c], "", 0, &to_in);
            if (r.status != 2 || !strstr(r.err, "standard output is the input ") ||
                !strstr(r.err, "(the same file): refusing to write to it"))
                fail_msg("stdout case %zu: status %d, stderr '%s'", c, r.status, r.err);
            dft_done(&r);
            assert_unchanged(in, &was);
            dft_assert_folder(folder, listing);
        }
        /* A good write: the file alone beside the inputs, no temporary file. */
        dft_result r = dft_run(DFT_PROGRAM, DFT_ARGS("nnue", "--write", out, in), "", 0, NULL);
        assert_int_equal(0, r.status);
        dft_done(&r);
        snprintf(listing, sizeof listing, "hard%s in%s link%s out%s", ext[f], ext[f], ext[f],
                 ext[f]);
        dft_assert_folder(folder, listing);
        assert_unchanged(out, &was);
        /* A write that fails on the way (files end at 2 KB): the old file stays whole. */
        cmd_text old = file_text(out);
        const dft_run_setup small = {NULL, NULL, NULL, 0, -1, 2};
        r = dft_run_with(DFT_PROGRAM, DFT_ARGS("nnue", "--write", out, in, in), "", 0, &small);
        assert_int_equal(1, r.status);
        assert_non_null(strstr(r.err, "cannot write"));
        dft_done(&r);
        assert_unchanged(out, &old);
        dft_assert_folder(folder, listing);
        cmd_text_free(&old);
        cmd_text_free(&was);
        unlink(in);
        unlink(soft);
        unlink(hard);
        unlink(out);
    }
    /* --fens reads standard input: standard output that is the same file is refused. */
    char fens[128];
    snprintf(fens, sizeof fens, "%s/fens.txt", folder);
    static const char line[] = DF_FEN_START "\t0\t0\t0\n";
    dft_write_file(fens, line, sizeof line - 1);
    const dft_run_setup same = {NULL, fens, fens, 0, -1, 0};
    dft_result r = dft_run_with(DFT_PROGRAM, DFT_ARGS("nnue", "--fens", "--json"), "", 0, &same);
    assert_int_equal(2, r.status);
    assert_non_null(strstr(r.err, "standard output is standard input (the same file)"));
    dft_done(&r);
    cmd_text want = {0};
    cmd_text_put(&want, line, sizeof line - 1);
    assert_unchanged(fens, &want);
    cmd_text_free(&want);
    unlink(fens);
    rmdir(folder);
}

/* Whether a file of folder whose name starts with prefix or .prefix has bytes. */
static bool output_started(const char *folder, const char *prefix)
{
    struct dirent **list;
    const int n = scandir(folder, &list, NULL, alphasort);
    bool started = false;
    for (int i = 0; i < n; i++) {
        const char *name = list[i]->d_name;
        if (!strncmp(name + (name[0] == '.'), prefix, strlen(prefix))) {
            char path[512];
            struct stat st;
            snprintf(path, sizeof path, "%s/%s", folder, name);
            started |= stat(path, &st) == 0 && st.st_size > 0;
        }
        free(list[i]);
    }
    free(list);
    return started;
}

/* Ctrl-C (or kill) while --write writes: out.binpack does not exist and no temporary file of it
 * remains. The input is a FIFO fed PGN games again and again until the output has bytes, so the
 * program is surely writing when the signal comes. */
static void test_write_interrupted(void **state)
{
    (void)state;
    uint64_t rng = dft_seed ^ 0x51c7;
    pgngen_text text = {0};
    const df_board start = dft_fen(DF_FEN_START);
    for (int g = 0; g < 300; g++)
        assert_true(pgngen_game(&text, &rng, &start, false, 60 + (uint32_t)(g % 60),
                                PGNGEN_EVALS | PGNGEN_CLOCKS, (uint64_t)g, NULL));
    char folder[] = "/tmp/dirfill-nnue-stop-XXXXXX";
    assert_non_null(mkdtemp(folder));
    char fifo[128], out[128];
    snprintf(fifo, sizeof fifo, "%s/in.pgn", folder);
    snprintf(out, sizeof out, "%s/out.binpack", folder);
    assert_int_equal(0, mkfifo(fifo, 0600));
    void (*pipe_was)(int) = signal(SIGPIPE, SIG_IGN);
    static const int sigs[] = {SIGINT, SIGTERM};
    for (size_t k = 0; k < sizeof sigs / sizeof *sigs; k++) {
        const pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            /* A suite started in the background has SIGINT ignored, which the child would
             * inherit (and rightly keep). */
            signal(SIGINT, SIG_DFL);
            signal(SIGTERM, SIG_DFL);
            signal(SIGPIPE, SIG_DFL);
            const int null = open("/dev/null", O_WRONLY);
            dup2(null, 1);
            dup2(null, 2);
            execl(DFT_PROGRAM, DFT_PROGRAM, "nnue", "--write", out, "--no-eval-ok", fifo,
                  (char *)NULL);
            _exit(127);
        }
        const time_t deadline = time(NULL) + 120;
        int fd = -1;
        while (fd < 0 && time(NULL) < deadline) {
            fd = open(fifo, O_WRONLY | O_NONBLOCK); /* ENXIO until the program opens it */
            if (fd < 0) {
                assert_int_equal(0, waitpid(pid, &(int){0}, WNOHANG));
                usleep(10000);
            }
        }
        assert_true(fd >= 0);
        size_t fed = 0, at = 0;
        while (!output_started(folder, "out.binpack") && time(NULL) < deadline) {
            struct pollfd p = {fd, POLLOUT, 0};
            if (poll(&p, 1, 100) <= 0) continue;
            const ssize_t n = write(fd, text.text + at, text.len - at);
            if (n < 0 && errno == EAGAIN) continue;
            if (n <= 0) fail_msg("the program stopped reading: %s", strerror(errno));
            fed += (size_t)n;
            at = (at + (size_t)n) % text.len;
        }
        if (!output_started(folder, "out.binpack"))
            fail_msg("no output after %zu bytes of PGN", fed);
        assert_int_equal(0, kill(pid, sigs[k]));
        int st;
        assert_int_equal(pid, waitpid(pid, &st, 0));
        close(fd);
        if (!WIFSIGNALED(st) || WTERMSIG(st) != sigs[k])
            fail_msg("signal %d: the program ended with status 0x%x", sigs[k], st);
        dft_assert_folder(folder, "in.pgn");
    }
    signal(SIGPIPE, pipe_was);
    unlink(fifo);
    rmdir(folder);
    pgngen_text_free(&text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_every_format),
        cmocka_unit_test(test_errors_in_order),
        cmocka_unit_test(test_pgn),
        cmocka_unit_test(test_pgn_scores),
        cmocka_unit_test(test_pgn_no_entries),
        cmocka_unit_test(test_pgn_too_many_pieces),
        cmocka_unit_test(test_fens),
        cmocka_unit_test(test_write),
        cmocka_unit_test(test_write_bullet),
        cmocka_unit_test(test_stem_ep_as_stored),
        cmocka_unit_test(test_usage),
        cmocka_unit_test(test_skip),
        cmocka_unit_test(test_shuffle),
        cmocka_unit_test(test_output_error),
        cmocka_unit_test(test_write_not_over_input),
        cmocka_unit_test(test_write_interrupted),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
