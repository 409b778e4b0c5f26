/* SPDX-License-Identifier: MIT */
/* FEN parsing and formatting: round trips, input rules, every bad-FEN kind (the corpus in
 * tests/data/bad-fens.txt) and arbitrary bytes (run it under ASan to catch over-reads). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dft.h"

static df_status parse(df_board *b, const char *s, df_fen_error *err)
{
    return df_fen_parse(b, s, strlen(s), DF_FEN_STANDARD, err);
}

static void assert_round_trip(const char *in, const char *normalized)
{
    df_board b;
    df_fen_error err;
    char out[DF_FEN_MAX];
    if (parse(&b, in, &err) != DF_OK) fail_msg("\"%s\": %s", in, err.message);
    size_t n = df_fen_format(out, sizeof out, &b, DF_FEN_STANDARD);
    assert_int_equal(strlen(out), n);
    assert_string_equal(normalized, out);
}

static void test_round_trips(void **state)
{
    (void)state;
    size_t n;
    dft_epd *cpw = dft_epd_load("cpw.epd", &n);
    assert_int_equal(6, n);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(cpw[i].fen);
        while (len && cpw[i].fen[len - 1] == ' ') cpw[i].fen[--len] = 0;
        assert_round_trip(cpw[i].fen, cpw[i].fen);
    }
    free(cpw);
    static const char *const fens[] = {
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
        "7k/8/8/8/8/8/8/K7 b - - 4294967295 4294967295",
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) assert_round_trip(fens[i], fens[i]);
}

static void test_input_rules(void **state)
{
    (void)state;
    const char *norm = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    assert_round_trip("4k3/8/8/8/8/8/8/4K3 w - -", norm);
    assert_round_trip("  \t4k3/8/8/8/8/8/8/4K3 \t w  -\t- 0   1 \t", norm);
    assert_round_trip("4k3/8/8/8/8/8/8/4K3 w - - 0 1\r", norm);
    assert_round_trip("4k3/8/8/8/8/8/8/4K3 w - - 0 1\r\n", norm);
    assert_round_trip("4k3/8/8/8/8/8/8/4K3 w - - 000 01", norm);
    assert_round_trip("4k3/8/8/8/8/8/8/4K3 w - - 7 42", "4k3/8/8/8/8/8/8/4K3 w - - 7 42");
    assert_round_trip("r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1",
                      "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_round_trip("4k3/8/8/8/8/8/8/4K3 w - - 0 0", "4k3/8/8/8/8/8/8/4K3 w - - 0 0");
    /* Unreachable but valid: analysed like any other. */
    assert_round_trip("k7/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1",
                      "k7/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1");
    df_board b = dft_fen("4k3/8/8/8/8/8/8/4K3 b - - 3 9");
    assert_int_equal(DF_BLACK, b.stm);
    assert_int_equal(3, b.halfmove);
    assert_int_equal(9, b.fullmove);
    assert_int_equal(DF_SQUARE_NONE, b.ep);
    b = dft_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    assert_int_equal(DF_E3, b.ep);
}

static df_fen_error_kind kind_named(const char *name)
{
    static const char *const names[] = {"OK",      "FIELD_COUNT", "RANK_COUNT", "RANK_WIDTH",
                                        "PIECE",   "SIDE",        "CASTLING",   "EN_PASSANT",
                                        "COUNTER", "KINGS",       "PAWN_RANK"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i], name) == 0) return (df_fen_error_kind)i;
    fail_msg("unknown kind %s in the corpus", name);
    return DF_FEN_OK;
}

static void test_bad_corpus(void **state)
{
    (void)state;
    FILE *f = fopen(DFT_DATA_DIR "/bad-fens.txt", "r");
    assert_non_null(f);
    char line[512];
    int cases = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        line[strcspn(line, "\n")] = 0;
        char *tab = strchr(line, '\t');
        assert_non_null(tab);
        *tab = 0;
        df_board b, before;
        memset(&b, 0x5a, sizeof b);
        before = b;
        df_fen_error err;
        df_status s = parse(&b, tab + 1, &err);
        if (s != DF_ERR_FEN) fail_msg("accepted bad FEN \"%s\"", tab + 1);
        if (err.kind != kind_named(line))
            fail_msg("\"%s\": kind %d, expected %s (%s)", tab + 1, err.kind, line, err.message);
        assert_true(strlen(err.message) > 10);
        assert_memory_equal(&before, &b, sizeof b); /* untouched on error */
        assert_true(err.offset <= strlen(tab + 1));
        cases++;
    }
    fclose(f);
    assert_true(cases >= 30);
    /* A NULL error pointer is allowed. */
    df_board b;
    assert_int_equal(DF_ERR_FEN, parse(&b, "nonsense", NULL));
}

static void test_messages(void **state)
{
    (void)state;
    df_board b;
    df_fen_error err;
    parse(&b, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", &err);
    assert_non_null(strstr(err.message, "'X'"));
    assert_int_equal(DF_FEN_PLACEMENT, err.field);
    assert_int_equal(42, err.offset);
    parse(&b, "4k3/8/8/8/8/8/8/4K3 w - - 0 4294967296", &err);
    assert_int_equal(DF_FEN_FULLMOVE, err.field);
    assert_non_null(strstr(err.message, "32 bits"));
    const char bin[] = "4k3/8/8/8/\x01/8/8/4K3 w - - 0 1";
    parse(&b, bin, &err);
    assert_int_equal(DF_FEN_PIECE, err.kind);
    assert_non_null(strstr(err.message, "\\x01"));
}

/* Exactly-sized heap copies: any read past len is an ASan error. */
static void test_arbitrary_bytes(void **state)
{
    (void)state;
    const char *seed = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    size_t seed_len = strlen(seed);
    int accepted = 0;
    for (long i = 0; i < DFT_ITERATIONS / 10; i++) {
        size_t len = dft_rand() % 4 ? seed_len - dft_rand() % 8 : dft_rand() % 100;
        char *buf = malloc(len ? len : 1);
        assert_non_null(buf);
        for (size_t k = 0; k < len; k++) {
            uint64_t r = dft_rand();
            /* Mostly mutations of a real FEN, sometimes pure noise. */
            buf[k] = (r & 63) && k < seed_len ? seed[k] : (char)(r >> 8);
        }
        df_board b;
        df_fen_error err;
        if (df_fen_parse(&b, buf, len, (df_fen_flags)(i & 1), &err) == DF_OK) {
            accepted++;
            char out[DF_FEN_MAX];
            assert_true(df_fen_format(out, sizeof out, &b, DF_FEN_STANDARD) < DF_FEN_MAX);
            df_board again;
            assert_int_equal(DF_OK,
                             df_fen_parse(&again, out, strlen(out), (df_fen_flags)(i & 1), &err));
            assert_memory_equal(&b, &again, sizeof b);
            assert_true(b.key == df_polyglot_key(&b));
        } else {
            assert_true(err.kind != DF_FEN_OK && err.offset <= len);
        }
        free(buf);
    }
    print_message("%d mutated inputs were valid FENs\n", accepted);
    /* Very long lines. */
    size_t big = 10 * 1024;
    char *buf = malloc(big);
    memset(buf, '8', big);
    df_board b;
    df_fen_error err;
    assert_int_equal(DF_ERR_FEN, df_fen_parse(&b, buf, big, DF_FEN_STANDARD, &err));
    memset(buf, ' ', big);
    assert_int_equal(DF_ERR_FEN, df_fen_parse(&b, buf, big, DF_FEN_STANDARD, &err));
    assert_int_equal(DF_FEN_FIELD_COUNT, err.kind);
    free(buf);
    assert_int_equal(DF_ERR_FEN, df_fen_parse(&b, NULL, 0, DF_FEN_STANDARD, &err));
}

static df_status parse960(df_board *b, const char *s, df_fen_error *err)
{
    return df_fen_parse(b, s, strlen(s), DF_FEN_CHESS960, err);
}

/* Chess960: rook files (Shredder-FEN) and KQkq for the outermost rooks (X-FEN) in; always
 * Shredder-FEN out; the castling rooks recorded. */
static void test_chess960_castling(void **state)
{
    (void)state;
    static const struct {
        const char *in, *out;
        df_square rooks[4];
    } cases[] = {
        {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 1",
         "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 1",
         {DF_H1, DF_F1, DF_H8, DF_F8}},
        {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 0 1",
         "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 1",
         {DF_H1, DF_F1, DF_H8, DF_F8}},
        /* Two rooks on one side: K is the outermost, a file names the inner one. */
        {"4k3/8/8/8/8/8/8/4KRR1 w K - 0 1",
         "4k3/8/8/8/8/8/8/4KRR1 w G - 0 1",
         {DF_G1, DF_A1, DF_A1, DF_A1}},
        {"4k3/8/8/8/8/8/8/4KRR1 w F - 0 1",
         "4k3/8/8/8/8/8/8/4KRR1 w F - 0 1",
         {DF_F1, DF_A1, DF_A1, DF_A1}},
        {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
         "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
         {DF_H1, DF_A1, DF_H8, DF_A8}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        df_board b;
        df_fen_error err;
        if (parse960(&b, cases[i].in, &err) != DF_OK) fail_msg("%s: %s", cases[i].in, err.message);
        char out[DF_FEN_MAX];
        df_fen_format(out, sizeof out, &b, DF_FEN_STANDARD);
        assert_string_equal(cases[i].out, out);
        assert_true(b.chess960);
        for (int r = 0; r < DF_CASTLE_RIGHTS; r++)
            if ((b.castling >> r) & 1) assert_int_equal(cases[i].rooks[r], b.castle_rook[r]);
    }
    static const char *const bad[] = {
        "4k3/8/8/8/8/8/8/4KRR1 w A - 0 1",  /* no rook on a1 */
        "4k3/8/8/8/8/8/8/4KRR1 w Q - 0 1",  /* no rook on the queen side */
        "4k3/8/8/8/8/8/4K3/5RR1 w K - 0 1", /* king not on its first rank */
        "4k3/8/8/8/8/8/8/4KRR1 w GK - 0 1", /* the same right twice */
        "4k3/8/8/8/8/8/8/4KRR1 w X - 0 1",  /* not a file */
        "4k3/8/8/8/8/8/8/4KRR1 w g - 0 1",  /* a black right without a black rook */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        df_board b;
        df_fen_error err;
        if (parse960(&b, bad[i], &err) == DF_OK) fail_msg("accepted %s", bad[i]);
        assert_int_equal(DF_FEN_CASTLING, err.kind);
    }
    /* Standard chess reads none of the Chess960 forms. */
    df_board b;
    assert_int_equal(DF_ERR_FEN, parse(&b, "4k3/8/8/8/8/8/8/4KRR1 w G - 0 1", NULL));
}

static void test_format_small_buffer(void **state)
{
    (void)state;
    df_board b = dft_fen(DF_FEN_START);
    char small[8];
    size_t n = df_fen_format(small, sizeof small, &b, DF_FEN_STANDARD);
    assert_int_equal(strlen(DF_FEN_START), n);
    assert_int_equal(7, strlen(small));
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trips),       cmocka_unit_test(test_input_rules),
        cmocka_unit_test(test_bad_corpus),        cmocka_unit_test(test_messages),
        cmocka_unit_test(test_arbitrary_bytes),   cmocka_unit_test(test_format_small_buffer),
        cmocka_unit_test(test_chess960_castling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
