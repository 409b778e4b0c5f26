/* SPDX-License-Identifier: MIT */
/* The example engine's evaluation (examples/engine/eval.c) as a tuner sees it: the feature
 * export is the evaluation, weights . features / divisor == evaluate exactly (C division), on
 * positions of random games, the test suites' positions and draw-ish endings; every term is
 * counted somewhere; the phase and divisor take their extreme values; and the evaluation and
 * its features are the same for a position and its colour mirror. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dft.h"
#include "engine.h"

/* What the test saw, to show it covered what it claims. */
typedef struct {
    long positions, drawish, white, black;
    long phase0, phase24;
    long term_seen[EVAL_TERMS];
} coverage;

static long long dot(const int32_t f[EVAL_FEATURES])
{
    long long s = 0;
    for (int i = 0; i < EVAL_FEATURES; i++) s += (long long)eval_weights[i] * f[i];
    return s;
}

/* b with colours swapped and the board turned over (castling and en passant dropped, which
 * the evaluation does not read). */
static df_board mirrored(const df_board *b, bool mirror)
{
    df_board_parts p;
    df_board_to_parts(&p, b);
    uint64_t pieces[12];
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < DF_PIECE_TYPES; t++) {
            const uint64_t bb = p.pieces[df_piece_index((df_color)c, (df_piece_type)t)];
            pieces[df_piece_index((df_color)(c ^ mirror), (df_piece_type)t)] =
                mirror ? __builtin_bswap64(bb) : bb;
        }
    df_board out;
    assert_int_equal(df_board_from_pieces(&out, pieces, (df_color)(p.stm ^ mirror)), DF_OK);
    return out;
}

static void check(const df_board *b, coverage *cov)
{
    int32_t f[EVAL_FEATURES];
    const int divisor = eval_features(b, f);
    const int v = evaluate(b);
    const long long d = dot(f);
    if (d / divisor != v) {
        char fen[DF_FEN_MAX];
        df_fen_format(fen, sizeof fen, b, DF_FEN_STANDARD);
        fail_msg("%s: evaluate %d, weights . features %lld / %d = %lld", fen, v, d, divisor,
                 d / divisor);
    }
    /* The colour mirror: same value, same features. */
    const df_board plain = mirrored(b, false), mirror = mirrored(b, true);
    int32_t g[EVAL_FEATURES], h[EVAL_FEATURES];
    assert_int_equal(eval_features(&plain, g), eval_features(&mirror, h));
    assert_memory_equal(g, h, sizeof g);
    assert_int_equal(evaluate(&plain), evaluate(&mirror));

    cov->positions++;
    cov->drawish += divisor != PHASE_MAX;
    cov->white += df_board_stm(b) == DF_WHITE;
    cov->black += df_board_stm(b) == DF_BLACK;
    /* Term t's features are its count times the phase and times 24 - phase: the tempo's
     * count is 1, so its two give the phase. */
    const int phase = abs(f[2 * TERM_tempo]);
    assert_int_equal(phase + abs(f[2 * TERM_tempo + 1]), PHASE_MAX);
    cov->phase0 += phase == 0;
    cov->phase24 += phase == PHASE_MAX;
    for (int t = 0; t < EVAL_TERMS; t++) cov->term_seen[t] += f[2 * t] || f[2 * t + 1];
}

static void test_features_are_the_evaluation(void **state)
{
    (void)state;
    eval_init();
    coverage cov = {0};
    dft_srand(dft_seed);
    /* Random games from the start position to their end (or 300 plies), every position. */
    for (int game = 0; game < 400; game++) {
        df_board b = dft_fen(DF_FEN_START);
        for (int ply = 0; ply < 300; ply++) {
            check(&b, &cov);
            df_move_list list;
            df_generate_legal(&list, &b);
            if (list.count == 0) break;
            df_make_move(&b, &b, list.moves[dft_rand() % list.count]);
        }
    }
    /* Random positions of play from the test suites' starts (Chess960 included). */
    for (int i = 0; i < 20000; i++) {
        df_board b;
        dft_rand_game_position(&b);
        check(&b, &cov);
    }
    /* The perft suite's positions, and endings without pawns on either side of the divisor. */
    size_t n;
    dft_epd *suite = dft_epd_load("cpw.epd", &n);
    for (size_t i = 0; i < n; i++) {
        const df_board b = dft_fen(suite[i].fen);
        check(&b, &cov);
    }
    free(suite);
    const char *endings[] = {
        "8/8/4k3/8/8/3BK3/8/8 w - - 0 1",   /* a bishop up: draw-ish */
        "8/8/4k3/8/8/3NK3/8/8 b - - 0 1",   /* a knight up: draw-ish */
        "8/3r4/4k3/8/8/3BK3/8/8 w - - 0 1", /* rook against bishop: draw-ish */
        "8/3r4/4k3/8/8/4K3/8/8 w - - 0 1",  /* a rook up: not */
        "8/8/4k3/8/8/3BK3/4P3/8 w - - 0 1", /* a pawn: not */
        "3qk3/8/8/8/8/8/8/3QK3 w - - 0 1",  /* queens only */
        "4k3/8/8/8/8/8/8/4K3 b - - 0 1",    /* bare kings, phase 0 */
    };
    for (size_t i = 0; i < sizeof endings / sizeof endings[0]; i++) {
        const df_board b = dft_fen(endings[i]);
        check(&b, &cov);
    }

    print_message("%ld positions (%ld white to move, %ld black; %ld draw-ish, %ld at phase 24, "
                  "%ld at phase 0), %d terms\n",
                  cov.positions, cov.white, cov.black, cov.drawish, cov.phase24, cov.phase0,
                  EVAL_TERMS);
    assert_true(cov.positions > 50000);
    assert_true(cov.white > 1000 && cov.black > 1000);
    assert_true(cov.drawish > 100 && cov.phase24 > 100 && cov.phase0 > 100);
    for (int t = 0; t < EVAL_TERMS; t++)
        if (cov.term_seen[t] < 10)
            fail_msg("term %s counted in %ld positions", eval_term_names[t], cov.term_seen[t]);
}

/* The names are the weights.h names, distinct (a tuner writes the file back by them). */
static void test_names(void **state)
{
    (void)state;
    assert_int_equal(EVAL_FEATURES, 2 * EVAL_TERMS);
    for (int t = 0; t < EVAL_TERMS; t++) {
        assert_true(strlen(eval_term_names[t]) > 0);
        for (int u = 0; u < t; u++) assert_string_not_equal(eval_term_names[t], eval_term_names[u]);
    }
    assert_string_equal(eval_term_names[TERM_pawn], "pawn");
    assert_string_equal(eval_term_names[EVAL_TERMS - 1], "tempo");
    assert_int_equal(eval_weights[2 * TERM_pawn], 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_features_are_the_evaluation),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
