/* SPDX-License-Identifier: MIT */
/* Static exchange evaluation against a recursive reference (tests/support/reference.c) on
 * every legal move of many positions, and hand-made exchanges: batteries, x-rays behind
 * pawns, the king's rule, en passant, promotions, castling. */
#include <string.h>

#include "dft.h"
#include "reference.h"

static void test_against_reference(void **state)
{
    (void)state;
    long moves = 0, won = 0, lost = 0;
    for (long i = 0; i < DFT_ITERATIONS / 200; i++) {
        df_board b;
        if (!dft_rand_playable(&b, i)) continue;
        df_move_list list;
        df_generate_legal(&list, &b);
        for (uint32_t k = 0; k < list.count; k++) {
            const int want = ref_see(&b, list.moves[k]), got = df_see(&b, list.moves[k]);
            if (want != got) {
                char fen[DF_FEN_MAX], uci[DF_UCI_MAX];
                df_fen_format(fen, sizeof fen, &b, DF_FEN_STANDARD);
                df_move_to_uci(uci, &b, list.moves[k]);
                fail_msg("%s: SEE of %s is %d, the reference says %d", fen, uci, got, want);
            }
            assert_int_equal(true, df_see_ge(&b, list.moves[k], got));
            assert_int_equal(false, df_see_ge(&b, list.moves[k], got + 1));
            moves++;
            won += got > 0;
            lost += got < 0;
        }
    }
    print_message("%ld moves: %ld win material, %ld lose it\n", moves, won, lost);
    assert_true(won > 0 && lost > 0);
}

typedef struct {
    const char *fen, *uci;
    int see;
} see_case;

static void test_cases(void **state)
{
    (void)state;
    static const see_case cases[] = {
        /* A free pawn; a defended one. */
        {"4k3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5", 100},
        {"4k3/8/4p3/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5", 100 - 500},
        /* A battery: the queen behind the rook joins, the defender has one recapture. */
        {"3rk3/8/8/3p4/8/8/3R4/3QK3 w - - 0 1", "d2d5", 100},
        /* X-ray behind a pawn: the bishop behind the capturing pawn recaptures. */
        {"4k3/8/2p5/3n4/4P3/5B2/8/4K3 w - - 0 1", "e4d5", 320},
        {"4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 320 - 100},
        /* A quiet move onto an attacked square loses the piece. */
        {"4k3/8/8/3p4/8/8/8/1N2K3 w - - 0 1", "b1c3", 0},
        {"4k3/8/2p5/8/8/8/8/1N2K3 w - - 0 1", "b1a3", 0},
        {"4k3/8/8/2p5/8/8/8/1N2K3 w - - 0 1", "b1a3", 0},
        {"4k3/8/8/8/2p5/8/8/1N2K3 w - - 0 1", "b1d2", 0},
        {"4k3/8/8/8/2p5/8/8/1N2K3 w - - 0 1", "b1a3", 0},
        {"4k3/8/8/8/1p6/8/8/1N2K3 w - - 0 1", "b1c3", -320},
        /* The king takes only when nothing recaptures. */
        {"4k3/8/8/8/8/3r4/3P4/3RK3 b - - 0 1", "d3d2", 100 - 500},
        {"4k3/8/8/8/8/8/3r4/3QK3 w - - 0 1", "d1d2", 500},
        {"8/8/4k3/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100},
        {"8/8/4k3/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5", 100 - 500},
        /* En passant wins a pawn; a promotion is a pawn move in the exchange. */
        {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100},
        {"3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c7d8q", 500 - 100},
        {"2r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7c8q", 500},
        {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const see_case *c = &cases[i];
        df_board b = dft_fen(c->fen);
        df_move m;
        if (df_move_from_uci(&m, &b, c->uci, strlen(c->uci)) != DF_OK)
            fail_msg("%s: %s is not legal", c->fen, c->uci);
        if (df_see(&b, m) != c->see || ref_see(&b, m) != c->see)
            fail_msg("%s %s: SEE %d, reference %d, expected %d", c->fen, c->uci, df_see(&b, m),
                     ref_see(&b, m), c->see);
    }
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_reference),
        cmocka_unit_test(test_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
