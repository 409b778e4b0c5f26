/* SPDX-License-Identifier: MIT */
/* The dirfill program against CLI-CONTRACT.md: JSON keys and hex format, stdin order, every
 * bad-input class, backends and exit statuses, perft output, outputs that are inputs and files
 * renamed into place, the benchmark's smoke run. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dft.h"
#include "json_check.h"
#include "program.h"

#include <zlib.h>
#include <zstd.h>

/* The program as a child (support/program.c), under the names this file uses. */
typedef dft_result result;
typedef dft_run_setup run_setup;
#define ARGS DFT_ARGS

static result run_with(const char *const *args, const char *in, size_t in_len,
                       const run_setup *setup)
{
    return dft_run_with(DFT_PROGRAM, args, in, in_len, setup);
}

/* Runs the program with args (NULL-terminated), stdin bytes and DIRFILL_BACKEND (NULL:
 * unset). */
static result run(const char *const *args, const char *in, size_t in_len, const char *backend)
{
    return dft_run(DFT_PROGRAM, args, in, in_len, backend);
}

static void done(result *r) { dft_done(r); }

static int temp_file(void) { return dft_temp_file(); }

static bool is_hex_set(const char *v, size_t n)
{
    if (n != 20 || v[0] != '"' || v[1] != '0' || v[2] != 'x' || v[19] != '"') return false;
    for (int i = 3; i < 19; i++)
        if (!strchr("0123456789abcdef", v[i]) || !v[i]) return false;
    return true;
}

static df_bb hex_at(const char *line, size_t len, const char *path)
{
    size_t n;
    const char *v = json_find(line, len, path, &n);
    if (!v) fail_msg("missing key %s in %.*s", path, (int)len, line);
    if (!is_hex_set(v, n))
        fail_msg("%s is not \"0x\" + 16 lowercase hex digits: %.*s", path, (int)n, v);
    return strtoull(v + 1, NULL, 16);
}

static const char *const set_keys[] = {"checkers", "pinned", "pinners", "check_block",
                                       "discoverers"};
static const char *const side_keys[] = {"pawn_east", "pawn_west", "knight", "bishop", "rook",
                                        "queen",     "king",      "all",    "twice"};
/* The attack map's set for side_keys[k]. */
static df_bb side_set(const df_attack_map *m, int k)
{
    switch (k) {
    case 0:
        return m->pawn_east;
    case 1:
        return m->pawn_west;
    case 7:
        return m->all;
    case 8:
        return m->twice;
    default:
        return m->by_type[DF_KNIGHT + k - 2];
    }
}
static const char *const dirs[] = {"N", "NE", "E", "SE", "S", "SW", "W", "NW"};
static const int dir_of[] = {DF_N, DF_NE, DF_E, DF_SE, DF_S, DF_SW, DF_W, DF_NW};

/* Every contract key present, every set well-formed and equal to the library's answer. */
static void check_analysis(const char *line, size_t len, const char *fen)
{
    if (!json_valid(line, len)) fail_msg("not JSON: %.*s", (int)len, line);
    df_board b = dft_fen(fen);
    df_attack_map m[2];
    df_king_safety_sets ks;
    df_attack_maps(m, &b);
    df_king_safety(&ks, &b);
    char s[128];
    assert_true(json_string_at(line, len, "fen", s, sizeof s));
    char norm[DF_FEN_MAX];
    df_fen_format(norm, sizeof norm, &b, DF_FEN_STANDARD);
    assert_string_equal(norm, s);
    assert_true(json_string_at(line, len, "stm", s, sizeof s));
    assert_string_equal(b.stm ? "b" : "w", s);
    assert_true(json_string_at(line, len, "backend", s, sizeof s));
    const df_bb expect_sets[5] = {ks.checkers, ks.pinned, ks.pinners, ks.check_block,
                                  ks.discoverers};
    for (int k = 0; k < 5; k++) assert_true(hex_at(line, len, set_keys[k]) == expect_sets[k]);
    for (int c = 0; c < 2; c++) {
        char path[64];
        const char *side = c ? "black" : "white";
        for (int k = 0; k < 9; k++) {
            snprintf(path, sizeof path, "%s.%s", side, side_keys[k]);
            assert_true(hex_at(line, len, path) == side_set(&m[c], k));
        }
        for (int d = 0; d < 8; d++) {
            snprintf(path, sizeof path, "%s.rays.%s", side, dirs[d]);
            assert_true(hex_at(line, len, path) == m[c].rays.r[dir_of[d]]);
            snprintf(path, sizeof path, "%s.xrays.%s", side, dirs[d]);
            assert_true(hex_at(line, len, path) == m[c].xrays.r[dir_of[d]]);
        }
    }
}

static void test_analyze_json(void **state)
{
    (void)state;
    const char *fens[] = {
        DF_FEN_START, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "k2r4/6b1/1b6/2PNP3/q1RKB2r/2QRN3/1b3q2/3r4 w - - 0 1", "4r2k/8/8/8/8/5n2/8/4K3 b - - 0 1"};
    for (size_t i = 0; i < 4; i++) {
        result r = run(ARGS("analyze", "--json", "--fen", fens[i]), "", 0, NULL);
        assert_int_equal(0, r.status);
        assert_int_equal('\n', r.out[r.out_len - 1]);
        assert_null(memchr(r.out, '\n', r.out_len - 1)); /* one line */
        check_analysis(r.out, r.out_len - 1, fens[i]);
        done(&r);
    }
    /* The start position's white pawns attack the whole third rank. */
    result r =
        run(ARGS("--backend", "scalar", "analyze", "--json", "--fen", DF_FEN_START), "", 0, NULL);
    assert_true(hex_at(r.out, r.out_len - 1, "white.pawn_east") == 0x0000000000fe0000ull);
    char s[32];
    assert_true(json_string_at(r.out, r.out_len - 1, "backend", s, sizeof s));
    assert_string_equal("scalar", s);
    done(&r);
}

/* Lines in, lines out, in order; blank and comment lines skipped; bad lines reported in
 * place; exit status 1 at the end. */
static void test_analyze_stdin(void **state)
{
    (void)state;
    const char in[] = "# a comment\n"
                      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\r\n"
                      "\n"
                      "   \t \r\n"
                      "nonsense \x01\xff\"\\\n"
                      "8/8/8/8/8/8/8/8 w - - 0 1\n"
                      "4k3/8/8/8/8/8/8/4K3 b - -";
    result r = run(ARGS("analyze", "--json"), in, sizeof in - 1, NULL);
    assert_int_equal(1, r.status);
    char *save, *line = strtok_r(r.out, "\n", &save);
    assert_non_null(line);
    check_analysis(line, strlen(line), DF_FEN_START);
    line = strtok_r(NULL, "\n", &save);
    assert_non_null(line);
    assert_true(json_valid(line, strlen(line)));
    char s[256];
    assert_true(json_string_at(line, strlen(line), "input", s, sizeof s));
    assert_string_equal("nonsense \\u0001\\u00ff\\\"\\\\", s);
    assert_true(json_string_at(line, strlen(line), "error", s, sizeof s));
    assert_true(strlen(s) > 5);
    line = strtok_r(NULL, "\n", &save);
    assert_true(json_string_at(line, strlen(line), "error", s, sizeof s));
    assert_non_null(strstr(s, "king"));
    line = strtok_r(NULL, "\n", &save);
    check_analysis(line, strlen(line), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert_null(strtok_r(NULL, "\n", &save));
    assert_non_null(strstr(r.err, "line 5"));
    done(&r);

    r = run(ARGS("analyze", "--json"), "", 0, NULL); /* empty input */
    assert_int_equal(0, r.status);
    assert_int_equal(0, r.out_len);
    done(&r);
}

static void test_analyze_hostile_input(void **state)
{
    (void)state;
    size_t big = 10 * 1024 + 3;
    char *in = malloc(big);
    for (size_t i = 0; i < big; i++) in[i] = (char)(dft_rand() & 0xff);
    in[big - 1] = '\n';
    result r = run(ARGS("analyze", "--json"), in, big, NULL);
    assert_true(r.status == 0 || r.status == 1);
    for (char *p = r.out; *p;) {
        char *nl = strchr(p, '\n');
        assert_non_null(nl);
        assert_true(json_valid(p, (size_t)(nl - p)));
        p = nl + 1;
    }
    done(&r);
    memset(in, '8', big);
    r = run(ARGS("analyze"), in, big, NULL);
    assert_int_equal(1, r.status);
    done(&r);
    free(in);
}

static void test_analyze_errors(void **state)
{
    (void)state;
    result r =
        run(ARGS("analyze", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1"),
            "", 0, NULL);
    assert_int_equal(1, r.status);
    assert_non_null(strstr(r.err, "unknown piece letter 'X'"));
    assert_int_equal(0, r.out_len);
    done(&r);
    r = run(ARGS("analyze", "--json", "--fen", "8/8 w"), "", 0, NULL);
    assert_int_equal(1, r.status);
    assert_true(json_valid(r.out, r.out_len));
    assert_non_null(json_find(r.out, r.out_len, "error", &(size_t){0}));
    assert_non_null(json_find(r.out, r.out_len, "input", &(size_t){0}));
    done(&r);
    r = run(ARGS("analyze", "--frobnicate"), "", 0, NULL);
    assert_int_equal(2, r.status);
    done(&r);
    r = run(ARGS("analyze", "--fen"), "", 0, NULL);
    assert_int_equal(2, r.status);
    done(&r);
}

static void test_analyze_people(void **state)
{
    (void)state;
    result r = run(ARGS("analyze", "--fen", "4r2k/8/8/8/8/5n2/8/4K3 w - - 0 1"), "", 0, NULL);
    assert_int_equal(0, r.status);
    assert_non_null(strstr(r.out, "checkers"));
    assert_non_null(strstr(r.out, "a b c d e f g h"));
    assert_non_null(strstr(r.out, "2 checker(s)"));
    done(&r);
}

static void test_backends(void **state)
{
    (void)state;
    const char *fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    result r = run(ARGS("--backend", "bogus", "analyze", "--fen", fen), "", 0, NULL);
    assert_int_equal(2, r.status);
    assert_non_null(strstr(r.err, "unknown backend 'bogus'"));
    done(&r);
    r = run(ARGS("analyze", "--fen", fen), "", 0, "bogus");
    assert_int_equal(2, r.status);
    assert_non_null(strstr(r.err, "DIRFILL_BACKEND"));
    done(&r);
    /* The option wins over the environment; the option may follow the command. */
    r = run(ARGS("analyze", "--json", "--fen", fen, "--backend", "scalar"), "", 0, "bogus");
    assert_int_equal(0, r.status);
    char s[32];
    assert_true(json_string_at(r.out, r.out_len - 1, "backend", s, sizeof s));
    assert_string_equal("scalar", s);
    done(&r);
    df_backend_info info;
    for (size_t i = 0; df_backend_info_at(i, &info); i++) {
        r = run(ARGS("--backend", info.name, "analyze", "--json", "--fen", fen), "", 0, NULL);
        if (info.supported) {
            assert_int_equal(0, r.status);
            assert_true(json_string_at(r.out, r.out_len - 1, "backend", s, sizeof s));
            assert_string_equal(info.name, s);
        } else {
            assert_int_equal(2, r.status);
            assert_non_null(strstr(r.err, "cannot run"));
        }
        done(&r);
    }
}

static void test_help_and_usage(void **state)
{
    (void)state;
    const char *const *helps[] = {ARGS("--help"),
                                  ARGS("analyze", "--help"),
                                  ARGS("perft", "--help"),
                                  ARGS("bench", "--help"),
                                  ARGS("moves", "--help"),
                                  ARGS("pgn", "--help"),
                                  ARGS("help"),
                                  ARGS("help", "pgn"),
                                  ARGS("help", "help")};
    for (size_t i = 0; i < sizeof helps / sizeof helps[0]; i++) {
        result r = run(helps[i], "", 0, NULL);
        assert_int_equal(0, r.status);
        assert_non_null(strstr(r.out, "usage: dirfill"));
        done(&r);
    }
    result r = run(ARGS("--version"), "", 0, NULL);
    assert_int_equal(0, r.status);
    assert_non_null(strstr(r.out, DIRFILL_VERSION_STRING));
    done(&r);
    const char *const *bad[] = {ARGS("frobnicate"), ARGS("--frobnicate"), ARGS("--backend"),
                                ARGS("help", "frobnicate")};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r = run(bad[i], "", 0, NULL);
        assert_int_equal(2, r.status);
        assert_true(r.err_len > 0);
        done(&r);
    }
    r = run((const char *const[]){NULL}, "", 0, NULL);
    assert_int_equal(2, r.status);
    done(&r);
}

static void test_perft(void **state)
{
    (void)state;
    result r = run(ARGS("perft", "--depth", "3"), "", 0, NULL);
    assert_int_equal(0, r.status);
    assert_string_equal("8902\n", r.out);
    done(&r);
    r = run(ARGS("perft", "--divide", "--depth", "2", "--fen",
                 "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
            "", 0, NULL);
    assert_int_equal(0, r.status);
    assert_non_null(strstr(r.out, "e1g1: 43\n"));
    assert_non_null(strstr(r.out, "e1c1: 43\n"));
    int lines = 0;
    for (char *p = r.out; (p = strchr(p, '\n')); p++) lines++;
    assert_int_equal(48 + 2, lines);
    assert_non_null(strstr(r.out, "\n2039\n"));
    done(&r);
    r = run(ARGS("perft", "--divide", "--depth", "1", "--fen", "8/1P6/8/8/8/8/8/k6K w - - 0 1"), "",
            0, NULL);
    assert_non_null(strstr(r.out, "b7b8q: 1\n"));
    assert_non_null(strstr(r.out, "b7b8n: 1\n"));
    done(&r);
    r = run(ARGS("perft", "--json", "--depth", "2"), "", 0, NULL);
    assert_int_equal(0, r.status);
    assert_true(json_valid(r.out, r.out_len));
    size_t n;
    const char *v = json_find(r.out, r.out_len, "nodes", &n);
    assert_non_null(v);
    assert_int_equal(400, strtol(v, NULL, 10));
    assert_non_null(json_find(r.out, r.out_len, "seconds", &n));
    assert_non_null(json_find(r.out, r.out_len, "nps", &n));
    assert_non_null(json_find(r.out, r.out_len, "depth", &n));
    assert_non_null(json_find(r.out, r.out_len, "fen", &n));
    done(&r);
    const char *const *bad[] = {ARGS("perft"),
                                ARGS("perft", "--depth", "x"),
                                ARGS("perft", "--depth", "-1"),
                                ARGS("perft", "--depth", "65"),
                                ARGS("perft", "--depth"),
                                ARGS("perft", "--depth", " 3"),
                                ARGS("perft", "--depth", "+3"),
                                ARGS("perft", "--depth", "3 "),
                                ARGS("perft", "--depth", ""),
                                ARGS("perft", "--depth=x"),
                                ARGS("perft", "--epd")};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r = run(bad[i], "", 0, NULL);
        assert_int_equal(2, r.status);
        done(&r);
    }
    r = run(ARGS("perft", "--depth", "1", "--fen", "bad"), "", 0, NULL);
    assert_int_equal(1, r.status);
    done(&r);
    /* Every depth up to the library's maximum: a published entry has one legal move a ply. */
    r = run(
        ARGS("perft", "--depth", "32", "--fen", "2b5/kpPp4/1p1P4/1P6/6p1/4p1P1/4PpPK/5B2 w - -"),
        "", 0, NULL);
    assert_int_equal(0, r.status);
    assert_string_equal("1\n", r.out);
    done(&r);
    r = run(ARGS("perft", "--depth", "64", "--fen", "k7/8/1Q6/8/8/8/8/7K b - - 0 1"), "", 0, NULL);
    assert_int_equal(0, r.status);
    assert_string_equal("0\n", r.out);
    done(&r);
}

/* The contract's moves: sorted by UCI, SAN, SEE, check, the Polyglot key; Chess960. */
static void test_moves(void **state)
{
    (void)state;
    result r = run(ARGS("moves", "--json", "--fen", DF_FEN_START), "", 0, NULL);
    assert_int_equal(0, r.status);
    assert_true(json_valid(r.out, r.out_len - 1));
    char s[64];
    assert_true(json_string_at(r.out, r.out_len - 1, "hash", s, sizeof s));
    assert_string_equal("0x463b96181691fc9c", s);
    assert_non_null(
        strstr(r.out, "{\"uci\": \"a2a3\", \"san\": \"a3\", \"see\": 0, \"check\": false}"));
    /* Sorted by uci: a2a3 a2a4 b1a3 ... */
    const char *a3 = strstr(r.out, "a2a3"), *a4 = strstr(r.out, "a2a4"),
               *na3 = strstr(r.out, "b1a3");
    assert_true(a3 && a4 && na3 && a3 < a4 && a4 < na3);
    done(&r);
    /* SEE, checks and SAN in one position: Qxf7# wins a pawn and mates. */
    r = run(ARGS("moves", "--json", "--fen",
                 "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"),
            "", 0, NULL);
    assert_int_equal(0, r.status);
    assert_non_null(
        strstr(r.out, "{\"uci\": \"h5f7\", \"san\": \"Qxf7#\", \"see\": 100, \"check\": true}"));
    assert_non_null(strstr(r.out, "\"san\": \"Qxh7\", \"see\": -800"));
    done(&r);
    r = run(ARGS("moves", "--fen", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"), "", 0, NULL);
    assert_int_equal(0, r.status);
    assert_non_null(strstr(r.out, "O-O-O"));
    assert_non_null(strstr(r.out, " O-O "));
    assert_int_equal('\n', r.out[r.out_len - 1]);
    done(&r);
    /* Chess960: castling as the king taking its rook, Shredder-FEN out, no hash. */
    r = run(ARGS("moves", "--json", "--chess960", "--fen", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"), "",
            0, NULL);
    assert_int_equal(0, r.status);
    assert_non_null(strstr(r.out, "\"uci\": \"e1h1\", \"san\": \"O-O\""));
    assert_non_null(strstr(r.out, "\"uci\": \"e1a1\", \"san\": \"O-O-O\""));
    assert_null(strstr(r.out, "\"hash\""));
    assert_non_null(strstr(r.out, "w HA - 0 1"));
    done(&r);
    /* Bad input: a bad FEN and an unplayable position are errors; the other lines go on. */
    const char in[] = "nonsense\n4k3/8/8/8/8/8/8/4RK2 w - - 0 1\n" DF_FEN_START "\n";
    r = run(ARGS("moves", "--json"), in, sizeof in - 1, NULL);
    assert_int_equal(1, r.status);
    char *save, *line = strtok_r(r.out, "\n", &save);
    assert_non_null(json_find(line, strlen(line), "error", &(size_t){0}));
    line = strtok_r(NULL, "\n", &save);
    assert_true(json_string_at(line, strlen(line), "error", s, sizeof s));
    assert_non_null(strstr(s, "in check"));
    line = strtok_r(NULL, "\n", &save);
    assert_non_null(json_find(line, strlen(line), "moves", &(size_t){0}));
    done(&r);
}

/* perft on positions without a legal move tree, with more than 256 moves, in Chess960. */
static void test_perft_positions(void **state)
{
    (void)state;
    result r =
        run(ARGS("perft", "--depth", "2", "--fen", "4k3/8/8/8/8/8/8/4RK2 w - - 0 1"), "", 0, NULL);
    assert_int_equal(1, r.status);
    assert_int_equal(0, r.out_len);
    assert_non_null(strstr(r.err, "in check"));
    done(&r);
    r = run(ARGS("perft", "--json", "--depth", "1", "--fen", "8/8/8/8/8/8/8/2kK4 w - - 0 1"), "", 0,
            NULL);
    assert_int_equal(1, r.status);
    assert_true(json_valid(r.out, r.out_len));
    assert_non_null(json_find(r.out, r.out_len, "error", &(size_t){0}));
    done(&r);
    r = run(ARGS("perft", "--depth", "2", "--divide", "--fen",
                 "knQQQQQQ/pp5Q/QQ5Q/Q6Q/Q6Q/Q6Q/Q5QQ/QQQQQQK1 w - - 0 1"),
            "", 0, NULL);
    assert_int_equal(0, r.status);
    int lines = 0;
    for (char *p = r.out; (p = strchr(p, '\n')); p++) lines++;
    assert_int_equal(259 + 2, lines);
    assert_non_null(strstr(r.out, "\n21\n"));
    done(&r);
    r = run(ARGS("perft", "--chess960", "--depth", "3", "--fen",
                 "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 1"),
            "", 0, NULL);
    assert_int_equal(0, r.status);
    assert_string_equal("12189\n", r.out);
    done(&r);
}

static void test_perft_epd(void **state)
{
    (void)state;
    result r = run(ARGS("perft", "--epd", DFT_DATA_DIR "/cpw.epd", "--depth", "3"), "", 0, NULL);
    assert_int_equal(0, r.status);
    assert_non_null(strstr(r.out, "6 positions: 6 ok, 0 failed"));
    done(&r);
    r = run(ARGS("perft", "--chess960", "--json", "--epd", DFT_DATA_DIR "/chess960.epd", "--depth",
                 "2"),
            "", 0, NULL);
    assert_int_equal(0, r.status);
    for (char *save, *line = strtok_r(r.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        assert_true(json_valid(line, strlen(line)));
    done(&r);
    /* A wrong count, and a line that is no entry: both fail, the rest is still counted. */
    char path[] = "/tmp/dirfill-epd-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char suite[] = "# comment\n" DF_FEN_START " ;D1 20 ;D2 401\n"
                         "8/8/8/8/8/8/8/2kK4 w - - 0 1 ;D1 5\n"
                         "nonsense ;D1 3\n" DF_FEN_START " ;D1 20 ;D2 400\n";
    assert_int_equal((ssize_t)sizeof suite - 1, write(fd, suite, sizeof suite - 1));
    close(fd);
    r = run(ARGS("perft", "--epd", path), "", 0, NULL);
    unlink(path);
    assert_int_equal(1, r.status);
    assert_non_null(strstr(r.out, "FAIL rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 "
                                  "depth 2 expected 401 counted 400"));
    assert_non_null(strstr(r.out, "4 positions: 1 ok, 3 failed"));
    done(&r);
    /* A depth beyond the maximum fails its entry, said so, while the entry's other depths are
     * counted; the largest count a 64-bit number holds is read; an entry with nothing up to
     * --depth is not checked (and says so) without failing. */
    fd = mkstemp(strcpy(path, "/tmp/dirfill-epd-XXXXXX"));
    const char deep[] = "2b5/kpPp4/1p1P4/1P6/6p1/4p1P1/4PpPK/5B2 w - - ;D1 1 ;D32 1 ;D100 1\n"
                        "8/8/8/8/8/8/8/K1k5 w - - ;D1 18446744073709551615\n"
                        "8/8/8/8/8/8/8/K1k5 w - - ;D1 18446744073709551616\n";
    assert_int_equal((ssize_t)sizeof deep - 1, write(fd, deep, sizeof deep - 1));
    close(fd);
    r = run(ARGS("perft", "--epd", path), "", 0, NULL);
    assert_int_equal(1, r.status);
    assert_non_null(
        strstr(r.out, "depth 100 is beyond the maximum depth 64 (the other depths match)"));
    assert_non_null(strstr(r.out, "depth 1 expected 18446744073709551615 counted 1"));
    assert_non_null(strstr(r.out, "FAIL line 3: expected ;D<depth> <nodes> with nodes a whole"));
    assert_non_null(strstr(r.out, "3 positions: 0 ok, 3 failed, 0 not checked"));
    done(&r);
    r = run(ARGS("perft", "--json", "--epd", path), "", 0, NULL);
    assert_non_null(strstr(r.out,
                           "{\"depth\": 32, \"expected\": 1, \"nodes\": 1}, {\"depth\": 100, "
                           "\"expected\": 1, \"error\": \"beyond the maximum depth 64\"}"));
    done(&r);
    fd = open(path, O_WRONLY | O_TRUNC);
    const char shallow[] = DF_FEN_START " ;D5 4865609\n";
    assert_int_equal((ssize_t)sizeof shallow - 1, write(fd, shallow, sizeof shallow - 1));
    close(fd);
    r = run(ARGS("perft", "--epd", path, "--depth", "3"), "", 0, NULL);
    assert_int_equal(0, r.status);
    assert_non_null(strstr(r.out, "skip " DF_FEN_START ": no listed depth up to 3"));
    assert_non_null(strstr(r.out, "1 positions: 0 ok, 0 failed, 1 not checked"));
    done(&r);
    r = run(ARGS("perft", "--json", "--epd", path, "--depth", "3"), "", 0, NULL);
    assert_non_null(strstr(r.out, "\"results\": [], \"ok\": null, \"checked\": false"));
    done(&r);
    /* --depth 0 is a depth like any other (nothing listed up to it), not "every depth". */
    r = run(ARGS("perft", "--epd", path, "--depth", "0"), "", 0, NULL);
    assert_non_null(strstr(r.out, "skip " DF_FEN_START ": no listed depth up to 0"));
    done(&r);
    unlink(path);
    r = run(ARGS("perft", "--epd", "/nonexistent/suite.epd"), "", 0, NULL);
    assert_int_equal(1, r.status);
    done(&r);
}

/* Output that cannot be written and input that cannot be read are errors, never exit 0. */
static void test_output_errors(void **state)
{
    (void)state;
    const char *const *cmds[] = {ARGS("analyze", "--json", "--fen", DF_FEN_START),
                                 ARGS("analyze", "--fen", DF_FEN_START),
                                 ARGS("perft", "--depth", "2"),
                                 ARGS("moves", "--fen", DF_FEN_START),
                                 ARGS("perft", "--epd", DFT_DATA_DIR "/cpw.epd", "--depth", "1"),
                                 ARGS("--help"),
                                 ARGS("--version")};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        const run_setup full = {NULL, NULL, "/dev/full", 0, -1, 0};
        result r = run_with(cmds[i], "", 0, &full);
        assert_int_equal(1, r.status);
        assert_non_null(strstr(r.err, "cannot write"));
        done(&r);
    }
    const run_setup dir = {NULL, "/", NULL, 0, -1, 0};
    result r = run_with(ARGS("analyze", "--json"), "", 0, &dir);
    assert_int_equal(1, r.status);
    assert_non_null(strstr(r.err, "cannot read"));
    done(&r);
    r = run_with(ARGS("moves"), "", 0, &dir);
    assert_int_equal(1, r.status);
    done(&r);
}

/* The bytes of a file, NUL-terminated; its length in *len. */
static char *slurp_path(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t cap = 1 << 16;
    char *buf = malloc(cap + 1);
    *len = fread(buf, 1, cap, f);
    assert_true(*len < cap);
    buf[*len] = 0;
    fclose(f);
    return buf;
}

/* Standard output that is an input (perft --epd's suite, analyze's and moves' standard input):
 * refused before anything is read or written, exit 2, the file as it was (opened here without
 * truncation, so that a write would show). */
static void test_output_is_input(void **state)
{
    (void)state;
    static const char suite[] = DF_FEN_START " ;D1 20 ;D2 400\n";
    char path[] = "/tmp/dirfill-cli-same-XXXXXX";
    close(mkstemp(path));
    dft_write_file(path, suite, sizeof suite - 1);
    const run_setup to_path = {NULL, NULL, path, 0, -1, 0};
    const run_setup in_and_out = {NULL, path, path, 0, -1, 0};
    const struct {
        const char *const *args;
        const run_setup *setup;
        const char *message;
    } cases[] = {
        {ARGS("perft", "--epd", path), &to_path, "dirfill perft: standard output is the input "},
        {ARGS("perft", "--epd", path, "--json"), &to_path, "dirfill perft: standard output is "},
        {ARGS("analyze", "--json"), &in_and_out,
         "dirfill analyze: standard output is standard input (the same file): refusing to write "
         "to it\n"},
        {ARGS("analyze"), &in_and_out, "dirfill analyze: standard output is standard input"},
        {ARGS("moves", "--json"), &in_and_out,
         "dirfill moves: standard output is standard input (the same file): refusing to write "
         "to it\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        result r = run_with(cases[i].args, "", 0, cases[i].setup);
        if (r.status != 2 || strncmp(r.err, cases[i].message, strlen(cases[i].message)))
            fail_msg("case %zu: status %d, stderr '%s'", i, r.status, r.err);
        done(&r);
        size_t len;
        char *now = slurp_path(path, &len);
        if (len != sizeof suite - 1 || memcmp(now, suite, len))
            fail_msg("case %zu: the input changed: '%s'", i, now);
        free(now);
    }
    /* --fen reads no file: its output may go anywhere. */
    result r = run_with(ARGS("analyze", "--json", "--fen", DF_FEN_START), "", 0, &in_and_out);
    assert_int_equal(0, r.status);
    done(&r);
    unlink(path);
}

/* analyze --svg writes a temporary file beside FILE and renames it into place: the folder then
 * holds FILE alone, with the mode fopen gives (an old file's); a write that fails on the way (a
 * file size limit) leaves the old picture whole and says so (exit 1); a symbolic link is
 * written through; /dev/stdout is written directly. */
static void test_analyze_svg(void **state)
{
    (void)state;
    char folder[] = "/tmp/dirfill-cli-svg-XXXXXX";
    assert_non_null(mkdtemp(folder));
    char svg[128], link[128], listing[256];
    snprintf(svg, sizeof svg, "%s/board.svg", folder);
    snprintf(link, sizeof link, "%s/link.svg", folder);
    static const char fen[] = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    result r = run(ARGS("analyze", "--svg", svg, "--show", "counts", "--fen", fen), "", 0, NULL);
    assert_int_equal(0, r.status);
    done(&r);
    dft_folder_names(folder, listing, sizeof listing);
    assert_string_equal("board.svg", listing);
    size_t len;
    char *whole = slurp_path(svg, &len);
    assert_non_null(strstr(whole, "</svg>"));
    assert_int_equal(0, chmod(svg, 0640));
    const run_setup small = {NULL, NULL, "/dev/null", 0, -1, 2};
    r = run_with(ARGS("analyze", "--svg", svg, "--fen", DF_FEN_START), "", 0, &small);
    char want[192];
    snprintf(want, sizeof want, "dirfill analyze: cannot write %s", svg);
    if (r.status != 1 || strncmp(r.err, want, strlen(want)))
        fail_msg("status %d, stderr '%s'", r.status, r.err);
    done(&r);
    size_t now_len;
    char *now = slurp_path(svg, &now_len);
    assert_int_equal(len, now_len);
    assert_memory_equal(whole, now, len);
    free(now);
    dft_folder_names(folder, listing, sizeof listing);
    assert_string_equal("board.svg", listing);
    assert_int_equal(0, symlink("board.svg", link));
    r = run(ARGS("analyze", "--svg", link, "--fen", DF_FEN_START), "", 0, NULL);
    assert_int_equal(0, r.status);
    done(&r);
    dft_folder_names(folder, listing, sizeof listing);
    assert_string_equal("board.svg link.svg", listing);
    char target[64] = "";
    assert_true(readlink(link, target, sizeof target - 1) > 0);
    assert_string_equal("board.svg", target);
    struct stat st;
    assert_int_equal(0, stat(svg, &st));
    assert_int_equal(0640, st.st_mode & 0777);
    now = slurp_path(svg, &now_len);
    assert_true(now_len != len || memcmp(whole, now, len)); /* the start position now */
    free(now);
    free(whole);
    r = run(ARGS("analyze", "--svg", "/dev/stdout", "--fen", DF_FEN_START), "", 0, NULL);
    assert_int_equal(0, r.status);
    assert_non_null(strstr(r.out, "</svg>"));
    done(&r);
    unlink(link);
    unlink(svg);
    rmdir(folder);
}

/* A line far longer than a FEN: an error for that line, read in bounded memory (an address
 * space smaller than the line where the build allows a limit), the lines after it analysed. */
static void test_long_line(void **state)
{
    (void)state;
#ifdef DFT_SANITIZED
    const size_t big = (size_t)8 << 20; /* the sanitizers reserve too much for a limit */
    const long limit = 0;
#else
    const size_t big = (size_t)96 << 20;
    const long limit = 64;
#endif
    int fd = temp_file();
    char *chunk = malloc(1 << 20);
    memset(chunk, 'r', 1 << 20);
    for (size_t done_bytes = 0; done_bytes < big; done_bytes += 1 << 20)
        assert_int_equal(1 << 20, write(fd, chunk, 1 << 20));
    free(chunk);
    const char tail[] = "\n" DF_FEN_START "\n";
    assert_int_equal((ssize_t)sizeof tail - 1, write(fd, tail, sizeof tail - 1));
    lseek(fd, 0, SEEK_SET);
    const run_setup setup = {NULL, NULL, NULL, limit, fd, 0};
    result r = run_with(ARGS("analyze", "--json"), "", 0, &setup);
    assert_int_equal(1, r.status);
    char *nl = memchr(r.out, '\n', r.out_len);
    assert_non_null(nl);
    assert_true(json_valid(r.out, (size_t)(nl - r.out)));
    size_t n;
    const char *input = json_find(r.out, (size_t)(nl - r.out), "input", &n);
    assert_non_null(input);
    assert_int_equal(big + 2, n); /* the whole line, quoted */
    check_analysis(nl + 1, r.out_len - (size_t)(nl + 1 - r.out) - 1, DF_FEN_START);
    assert_non_null(strstr(r.err, "line 1"));
    done(&r);
}

/* Options are strict and uniform: an empty backend is an error; a forced backend runs. */
static void test_strict_options(void **state)
{
    (void)state;
    result r = run(ARGS("--backend", "", "analyze", "--fen", DF_FEN_START), "", 0, NULL);
    assert_int_equal(2, r.status);
    assert_non_null(strstr(r.err, "unknown backend ''"));
    done(&r);
    r = run(ARGS("--backend=scalar", "perft", "--depth", "3"), "", 0, NULL);
    assert_int_equal(0, r.status);
    assert_string_equal("8902\n", r.out);
    done(&r);
    r = run(ARGS("perft", "--depth=2", "--fen=" DF_FEN_START), "", 0, NULL);
    assert_int_equal(0, r.status);
    assert_string_equal("400\n", r.out);
    done(&r);
    r = run(ARGS("analyze", "--fen", "8/8 w"), "", 0, NULL);
    assert_non_null(strstr(r.err, "2 fields;"));
    done(&r);
    r = run(ARGS("analyze", "--fen", "8/8/8/8/8/8/8/8"), "", 0, NULL);
    assert_non_null(strstr(r.err, "1 field;"));
    done(&r);
    r = run(ARGS("bench", "--positions", "16x"), "", 0, NULL);
    assert_int_equal(2, r.status);
    done(&r);
}

/* The benchmark with tiny counts: it must run, verify and print the contract's JSON. */
static void test_bench_smoke(void **state)
{
    (void)state;
    result r = run(ARGS("bench", "--quick", "--json"), "", 0, NULL);
    if (r.status) fail_msg("bench failed: %s", r.err);
    assert_true(json_valid(r.out, r.out_len));
    size_t n;
    assert_non_null(json_find(r.out, r.out_len, "cpu", &n));
    const char *v = json_find(r.out, r.out_len, "backends", &n);
    assert_non_null(v);
    assert_non_null(strstr(v, "\"scalar\""));
    v = json_find(r.out, r.out_len, "results", &n);
    assert_non_null(v);
    static const char *const ops[] = {"slider_rays",
                                      "slider_rays_batch",
                                      "slider_rays_both",
                                      "slider_union",
                                      "xrays",
                                      "attack_map",
                                      "attack_maps_both",
                                      "king_safety",
                                      "attackers_to",
                                      "perft",
                                      "make_move",
                                      "see"};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        char key[64];
        snprintf(key, sizeof key, "\"op\": \"%s\"", ops[i]);
        assert_non_null(strstr(v, key));
    }
    assert_non_null(strstr(v, "\"method\": \"sniper\""));
    assert_non_null(strstr(v, "\"mode\": \"latency\""));
    assert_non_null(strstr(v, "\"suspect\": "));
    done(&r);
    /* --svg: the chart renamed into place, alone in its folder. */
    char folder[] = "/tmp/dirfill-cli-bench-XXXXXX", chart[64], listing[128];
    assert_non_null(mkdtemp(folder));
    snprintf(chart, sizeof chart, "%s/chart.svg", folder);
    r = run(ARGS("bench", "--quick", "--svg", chart), "", 0, NULL);
    assert_int_equal(0, r.status);
    assert_non_null(strstr(r.out, "vs best classic"));
    assert_non_null(strstr(r.out, "Summary"));
    done(&r);
    dft_folder_names(folder, listing, sizeof listing);
    assert_string_equal("chart.svg", listing);
    size_t len;
    char *text = slurp_path(chart, &len);
    assert_non_null(strstr(text, "</svg>"));
    free(text);
    unlink(chart);
    rmdir(folder);
    r = run(ARGS("bench", "--positions", "3"), "", 0, NULL);
    assert_int_equal(2, r.status);
    done(&r);
}

/* dirfill pgn: the contract's objects, numbering across files, errors and skipped games, the
 * summary, compressed files, positions, threads giving the same output, bad usage. */
static void write_path(const char *path, const char *data, size_t len)
{
    dft_write_file(path, data, len);
}

/* Two temporary files (mkstemp templates a and b) holding the same text. */
static void two_files(char *a, char *b, const char *text, size_t len)
{
    close(mkstemp(a));
    close(mkstemp(b));
    write_path(a, text, len);
    write_path(b, text, len);
}

static void test_pgn(void **state)
{
    (void)state;
    static const char games[] =
        "[Event \"One\"]\n[White \"M\u00fcller \\\"A\\\"\"]\n[Result \"1-0\"]\n\n"
        "1. e4 { [%eval 0.31] [%clk 0:03:00] } e5 {[%eval #-2]} 2. Nf3 (2. f4) Nc6 1-0\n\n"
        "[Event \"Two\"]\n\n1. e4 e5 2. Ke3 *\n\n"
        "[Event \"Three\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 *\n\n"
        "[Event \"Four\"]\n[Variant \"Chess960\"]\n"
        "[FEN \"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1\"]\n\n1. O-O 0-1\n";
    char a[] = "/tmp/dirfill-cli-pgn-a-XXXXXX", b[] = "/tmp/dirfill-cli-pgn-b-XXXXXX";
    two_files(a, b, games, sizeof games - 1);
    result r = run(ARGS("pgn", "--json", a), "", 0, NULL);
    assert_int_equal(1, r.status); /* a game had an error */
    int lines = 0;
    for (char *save, *line = strtok_r(r.out, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        const size_t len = strlen(line);
        assert_true(json_valid(line, len));
        size_t n;
        const char *game = json_find(line, len, "game", &n);
        assert_non_null(game);
        assert_int_equal(lines, strtol(game, NULL, 10));
        assert_null(json_find(line, len, "file", &n)); /* one file: no "file" */
        if (lines == 0) {
            static const char *const keys[] = {"headers", "start", "uci",    "san",
                                               "eval",    "clock", "result", "end"};
            for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
                assert_non_null(json_find(line, len, keys[k], &n));
            assert_non_null(strstr(line, "\"uci\": [\"e2e4\", \"e7e5\", \"g1f3\", \"b8c6\"]"));
            assert_non_null(strstr(line, "\"san\": [\"e4\", \"e5\", \"Nf3\", \"Nc6\"]"));
            assert_non_null(strstr(line, "\"eval\": [0.31, \"#-2\", null, null]"));
            assert_non_null(strstr(line, "\"clock\": [180, null, null, null]"));
            assert_non_null(strstr(line, "\"White\": \"M\u00fcller \\\"A\\\"\""));
            assert_non_null(strstr(line, "\"result\": \"1-0\""));
        }
        if (lines == 1) {
            assert_non_null(strstr(line, "\"error\": \"ply 3 \\\"Ke3\\\": illegal move\""));
            assert_non_null(strstr(line, "\"line\": 9"));
            assert_non_null(json_find(line, len, "headers", &n));
        }
        if (lines == 2) assert_non_null(strstr(line, "\"skipped\": \"variant Crazyhouse\""));
        if (lines == 3) {
            assert_non_null(strstr(line, "\"uci\": [\"e1g1\"]")); /* king takes rook in 960 */
            assert_non_null(strstr(
                line, "\"start\": \"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1\""));
            assert_null(json_find(line, len, "eval", &n)); /* no move has one */
        }
        lines++;
    }
    assert_int_equal(4, lines);
    done(&r);
    /* Two files: numbering goes on, each object names its file; threads change nothing. */
    r = run(ARGS("pgn", "--json", "--threads", "1", a, b), "", 0, NULL);
    assert_non_null(strstr(r.out, "{\"game\": 4, \"file\": "));
    assert_non_null(strstr(r.out, b));
    result r2 = run(ARGS("pgn", "--json", "--threads", "3", a, b), "", 0, NULL);
    assert_string_equal(r.out, r2.out);
    done(&r2);
    done(&r);
    /* Positions: one object per position before each move, only for games without errors. */
    r = run(ARGS("pgn", "--json", "--positions", a), "", 0, NULL);
    assert_non_null(strstr(r.out, "{\"game\": 0, \"ply\": 0, \"fen\": \"rnbqkbnr/pppppppp/8/8/8/8/"
                                  "PPPPPPPP/RNBQKBNR w KQkq - 0 1\", \"uci\": \"e2e4\", \"san\": "
                                  "\"e4\", \"result\": \"1-0\", \"eval\": 0.31, \"clock\": 180}"));
    assert_non_null(strstr(r.out, "{\"game\": 0, \"ply\": 3, "));
    assert_null(strstr(r.out, "\"game\": 1, \"ply\""));
    assert_non_null(strstr(r.out, "{\"game\": 1, \"error\""));
    done(&r);
    /* The summary for people; standard input; compressed files. */
    r = run(ARGS("pgn", a), "", 0, NULL);
    assert_non_null(
        strstr(r.out, ": 4 games, 2 kept, 0 filtered, 1 errors, 1 skipped, 5 positions,"));
    assert_non_null(strstr(r.out, "MB/s\n"));
    done(&r);
    r = run(ARGS("pgn", "--json"), games, sizeof games - 1, NULL);
    assert_int_equal(1, r.status);
    assert_non_null(strstr(r.out, "{\"game\": 3, "));
    done(&r);
    char zst[64], gz[64];
    snprintf(zst, sizeof zst, "%s.pgn.zst", a);
    snprintf(gz, sizeof gz, "%s.pgn.gz", a);
    char packed[1024];
    const size_t zn = ZSTD_compress(packed, sizeof packed, games, sizeof games - 1, 3);
    write_path(zst, packed, zn);
    gzFile g = gzopen(gz, "wb");
    gzwrite(g, games, sizeof games - 1);
    gzclose(g);
    r = run(ARGS("pgn", "--json", a), "", 0, NULL);
    for (int k = 0; k < 2; k++) {
        r2 = run(ARGS("pgn", "--json", k ? gz : zst), "", 0, NULL);
        assert_string_equal(r.out, r2.out);
        done(&r2);
    }
    done(&r);
    /* A truncated .zst: an error on stderr and exit 1, the games before it still written. */
    write_path(zst, packed, zn - 20);
    r = run(ARGS("pgn", "--json", zst), "", 0, NULL);
    assert_int_equal(1, r.status);
    assert_non_null(strstr(r.err, "truncated zstd"));
    done(&r);
    /* Bad usage and missing files. */
    r = run(ARGS("pgn", "--positions", a), "", 0, NULL);
    assert_int_equal(2, r.status);
    done(&r);
    r = run(ARGS("pgn", "--threads", "x", a), "", 0, NULL);
    assert_int_equal(2, r.status);
    done(&r);
    r = run(ARGS("pgn", "/nonexistent/file.pgn"), "", 0, NULL);
    assert_int_equal(1, r.status);
    assert_non_null(strstr(r.err, "cannot open /nonexistent/file.pgn"));
    done(&r);
    const run_setup full = {NULL, NULL, "/dev/full", 0, -1, 0};
    r = run_with(ARGS("pgn", "--json", a), "", 0, &full);
    assert_int_equal(1, r.status);
    assert_non_null(strstr(r.err, "cannot write"));
    done(&r);
    unlink(a);
    unlink(b);
    unlink(zst);
    unlink(gz);
}

/* dirfill pgn --where: the filter on the tag section (every operator is in test_pgn_real),
 * numbering over the whole input, the summary's filtered count, files written by other tools
 * (a byte order mark in each of two files, a game of tags only, a repeated tag's warning), and
 * a malformed expression: exit 2, named, nothing read. */
static void test_pgn_where(void **state)
{
    (void)state;
    static const char games[] = "\xef\xbb\xbf[Event \"a\"]\n[WhiteElo \"2100\"]\n[Result \"*\"]\n\n"
                                "[Event \"b\"]\n[WhiteElo \"1500\"]\n\n1. e4 e5 2. Ke3 *\n\n"
                                "[Event \"c\"]\n[WhiteElo \"2200\"]\n[White \"x\"]\n"
                                "[White \"y\"]\n\n1. d4 1-0\n";
    char a[] = "/tmp/dirfill-cli-where-a-XXXXXX", b[] = "/tmp/dirfill-cli-where-b-XXXXXX";
    two_files(a, b, games, sizeof games - 1);
    result r = run(ARGS("pgn", "--json", "--where", "WhiteElo>=2000", a, b), "", 0, NULL);
    assert_int_equal(0, r.status); /* b's illegal move is never read */
    assert_non_null(strstr(r.out, "{\"game\": 0, \"file\": "));
    assert_non_null(strstr(r.out, "\"Event\": \"a\", \"WhiteElo\": \"2100\", \"Result\": \"*\"}, "
                                  "\"start\""));
    assert_non_null(strstr(r.out, "{\"game\": 2, \"file\": "));
    assert_non_null(strstr(r.out, "{\"game\": 3, \"file\": ")); /* the second file's BOM too */
    assert_non_null(strstr(r.out, "{\"game\": 5, \"file\": "));
    assert_null(strstr(r.out, "\"game\": 1,"));
    assert_null(strstr(r.out, "\"game\": 4,"));
    assert_non_null(strstr(r.out,
                           "\"White\": \"x\"}, \"warning\": \"tag White repeated at line 13: "
                           "the first value is kept\""));
    int lines = 0;
    for (char *save, *line = strtok_r(r.out, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save), lines++)
        assert_true(json_valid(line, strlen(line)));
    assert_int_equal(4, lines);
    done(&r);
    r = run(ARGS("pgn", "--where=WhiteElo>=2000", "--where", "Event != c", a), "", 0, NULL);
    assert_int_equal(0, r.status);
    assert_non_null(
        strstr(r.out, ": 3 games, 1 kept, 2 filtered, 0 errors, 0 skipped, 0 positions,"));
    done(&r);
    r = run(ARGS("pgn", a), "", 0, NULL);
    assert_int_equal(1, r.status);
    assert_non_null(
        strstr(r.out, ": 3 games, 2 kept, 0 filtered, 1 errors, 0 skipped, 1 positions,"));
    done(&r);
    /* --headers: the tags and result of every game, its movetext not read (b's illegal move
     * is no error), in the same places. */
    r = run(ARGS("pgn", "--json", "--headers", a), "", 0, NULL);
    assert_int_equal(0, r.status);
    assert_non_null(strstr(r.out, "{\"game\": 1, \"headers\": {\"Event\": \"b\", \"WhiteElo\": "
                                  "\"1500\"}, \"result\": \"*\"}\n"));
    assert_non_null(strstr(r.out, "{\"game\": 2, \"headers\": {\"Event\": \"c\", \"WhiteElo\": "
                                  "\"2200\", \"White\": \"x\"}, \"warning\": "));
    assert_non_null(strstr(r.out, "\"result\": \"1-0\"}\n"));
    done(&r);
    r = run(ARGS("pgn", "--headers", "--where", "WhiteElo<2000", a), "", 0, NULL);
    assert_non_null(
        strstr(r.out, ": 3 games, 1 kept, 2 filtered, 0 errors, 0 skipped, 0 positions,"));
    done(&r);
    r = run(ARGS("pgn", "--json", "--headers", "--positions", a), "", 0, NULL);
    assert_int_equal(2, r.status);
    done(&r);
    static const char *const bad[] = {"WhiteElo", ">=2000", "White Elo>=1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r = run(ARGS("pgn", "--where", bad[i], "/nonexistent/file.pgn"), "", 0, NULL);
        assert_int_equal(2, r.status);
        assert_non_null(strstr(r.err, bad[i]));
        assert_null(strstr(r.err, "cannot open")); /* nothing read */
        assert_int_equal(0, strlen(r.out));
        done(&r);
    }
    r = run(ARGS("pgn", a, "--where"), "", 0, NULL);
    assert_int_equal(2, r.status);
    done(&r);
    unlink(a);
    unlink(b);
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_analyze_json),
        cmocka_unit_test(test_analyze_stdin),
        cmocka_unit_test(test_analyze_hostile_input),
        cmocka_unit_test(test_analyze_errors),
        cmocka_unit_test(test_analyze_people),
        cmocka_unit_test(test_backends),
        cmocka_unit_test(test_help_and_usage),
        cmocka_unit_test(test_perft),
        cmocka_unit_test(test_bench_smoke),
        cmocka_unit_test(test_moves),
        cmocka_unit_test(test_perft_positions),
        cmocka_unit_test(test_perft_epd),
        cmocka_unit_test(test_output_errors),
        cmocka_unit_test(test_output_is_input),
        cmocka_unit_test(test_analyze_svg),
        cmocka_unit_test(test_long_line),
        cmocka_unit_test(test_strict_options),
        cmocka_unit_test(test_pgn),
        cmocka_unit_test(test_pgn_where),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
