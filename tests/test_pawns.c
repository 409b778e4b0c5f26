/* SPDX-License-Identifier: MIT */
/* Set-wise pawn routines (seed "Pawn Attacks (Bitboards)") against per-pawn references. */
#include "dft.h"
#include "reference.h"

/* Per-square counts of pawn attacks, the obvious way. */
static void ref_counts(int n[64], df_bb pawns, int color)
{
    df_bb e = ref_pawn(pawns, color, 1), w = ref_pawn(pawns, color, 0);
    for (int sq = 0; sq < 64; sq++) n[sq] = (int)((e >> sq) & 1) + (int)((w >> sq) & 1);
}

static void test_attacks_random(void **state)
{
    (void)state;
    for (long i = 0; i < DFT_ITERATIONS; i++) {
        df_bb pawns = dft_rand_bb();
        for (int c = 0; c < 2; c++) {
            df_bb e = ref_pawn(pawns, c, 1), w = ref_pawn(pawns, c, 0);
            DFT_ASSERT_BB(e, df_pawn_east_attacks(pawns, c), "c=%d", c);
            DFT_ASSERT_BB(w, df_pawn_west_attacks(pawns, c), "c=%d", c);
            DFT_ASSERT_BB(e | w, df_pawn_any_attacks(pawns, c), "c=%d", c);
            DFT_ASSERT_BB(e & w, df_pawn_double_attacks(pawns, c), "c=%d", c);
            DFT_ASSERT_BB(e ^ w, df_pawn_single_attacks(pawns, c), "c=%d", c);
        }
    }
}

static void test_safe_squares_random(void **state)
{
    (void)state;
    for (long i = 0; i < DFT_ITERATIONS / 4; i++) {
        df_bb own = dft_rand_bb(), enemy = dft_rand_bb();
        for (int c = 0; c < 2; c++) {
            int mine[64], theirs[64];
            ref_counts(mine, own, c);
            ref_counts(theirs, enemy, c ^ 1);
            df_bb safe = 0;
            for (int sq = 0; sq < 64; sq++)
                if (mine[sq] >= theirs[sq]) safe |= df_square_bb(sq);
            DFT_ASSERT_BB(safe, df_pawn_safe_squares(own, enemy, c), "c=%d", c);
        }
    }
}

static void test_able_to_capture_random(void **state)
{
    (void)state;
    for (long i = 0; i < DFT_ITERATIONS / 4; i++) {
        df_bb pawns = dft_rand_bb(), targets = dft_rand_bb();
        for (int c = 0; c < 2; c++) {
            df_bb east = 0, west = 0;
            for (int sq = 0; sq < 64; sq++) {
                if (!((pawns >> sq) & 1)) continue;
                if (ref_pawn(df_square_bb(sq), c, 1) & targets) east |= df_square_bb(sq);
                if (ref_pawn(df_square_bb(sq), c, 0) & targets) west |= df_square_bb(sq);
            }
            DFT_ASSERT_BB(east, df_pawns_able_to_capture_east(pawns, targets, c), "c=%d", c);
            DFT_ASSERT_BB(west, df_pawns_able_to_capture_west(pawns, targets, c), "c=%d", c);
            DFT_ASSERT_BB(east | west, df_pawns_able_to_capture(pawns, targets, c), "c=%d", c);
        }
    }
}

/* The seed's diagram: white pawns a2 b2 c3 d2 f2 g2 h2; east attacks b3 c3 d4 e3 g3 h3. */
static void test_seed_diagram(void **state)
{
    (void)state;
    df_bb wp = df_square_bb(DF_A2) | df_square_bb(DF_B2) | df_square_bb(DF_C3) |
               df_square_bb(DF_D2) | df_square_bb(DF_F2) | df_square_bb(DF_G2) |
               df_square_bb(DF_H2);
    df_bb east = df_square_bb(DF_B3) | df_square_bb(DF_C3) | df_square_bb(DF_D4) |
                 df_square_bb(DF_E3) | df_square_bb(DF_G3) | df_square_bb(DF_H3);
    df_bb west = df_square_bb(DF_B4) | df_square_bb(DF_A3) | df_square_bb(DF_C3) |
                 df_square_bb(DF_E3) | df_square_bb(DF_F3) | df_square_bb(DF_G3);
    DFT_ASSERT_BB(east, df_pawn_east_attacks(wp, DF_WHITE), "seed east");
    DFT_ASSERT_BB(west, df_pawn_west_attacks(wp, DF_WHITE), "seed west");
    DFT_ASSERT_BB(east | west, df_pawn_any_attacks(wp, DF_WHITE), "seed any");
    /* Rook pawns attack one square only: nothing wraps across the board. */
    DFT_ASSERT_BB(df_square_bb(DF_B3), df_pawn_any_attacks(df_square_bb(DF_A2), DF_WHITE), "a2");
    DFT_ASSERT_BB(df_square_bb(DF_G6), df_pawn_any_attacks(df_square_bb(DF_H7), DF_BLACK), "h7");
    DFT_ASSERT_BB(0, df_pawn_any_attacks(DF_RANK_8, DF_WHITE), "rank 8 white");
    DFT_ASSERT_BB(0, df_pawn_any_attacks(DF_RANK_1, DF_BLACK), "rank 1 black");
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_attacks_random),
        cmocka_unit_test(test_safe_squares_random),
        cmocka_unit_test(test_able_to_capture_random),
        cmocka_unit_test(test_seed_diagram),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
