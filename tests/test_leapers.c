/* SPDX-License-Identifier: MIT */
/* Knight and king set-wise attacks against per-square offsets. */
#include "dft.h"
#include "reference.h"

static void test_knights_random(void **state)
{
    (void)state;
    for (long i = 0; i < DFT_ITERATIONS; i++) {
        df_bb n = dft_rand_bb();
        DFT_ASSERT_BB(ref_knight(n), df_knight_attacks(n), "n=0x%llx", (unsigned long long)n);
    }
}

/* The eight jumps partition the attacks: their union is the attack set and no jump has a
 * target with two sources. */
static void test_knight_jumps_random(void **state)
{
    (void)state;
    for (long i = 0; i < DFT_ITERATIONS / 8; i++) {
        df_bb n = dft_rand_bb(), all = 0;
        for (int k = 0; k < DF_KNIGHT_JUMPS; k++) {
            df_bb j = df_knight_jump(n, k);
            all |= j;
            for (int sq = 0; sq < 64; sq++) {
                if (!((j >> sq) & 1)) continue;
                int sources = df_popcount(ref_knight(df_square_bb(sq)) & n);
                assert_true(sources >= 1);
            }
        }
        DFT_ASSERT_BB(ref_knight(n), all, "union of jumps");
        for (int k = 0; k < DF_KNIGHT_JUMPS; k++) {
            df_bb t = df_knight_jump(n, k);
            while (t) {
                const int to = df_pop_lsb(&t);
                assert_true((n >> (to - df_knight_jump_delta(k))) & 1); /* the source */
            }
        }
        int total = 0, expect = 0;
        for (int k = 0; k < DF_KNIGHT_JUMPS; k++) total += df_popcount(df_knight_jump(n, k));
        for (int sq = 0; sq < 64; sq++)
            if ((n >> sq) & 1) expect += df_popcount(ref_knight(df_square_bb(sq)));
        assert_int_equal(expect, total);
    }
}

static void test_kings_random(void **state)
{
    (void)state;
    for (long i = 0; i < DFT_ITERATIONS; i++) {
        df_bb k = dft_rand_bb();
        DFT_ASSERT_BB(ref_king(k), df_king_attacks(k), "k=0x%llx", (unsigned long long)k);
    }
}

static void test_tables(void **state)
{
    (void)state;
    for (int sq = 0; sq < 64; sq++) {
        DFT_ASSERT_BB(ref_knight(df_square_bb(sq)), df_knight_table[sq], "knight sq=%d", sq);
        DFT_ASSERT_BB(ref_king(df_square_bb(sq)), df_king_table[sq], "king sq=%d", sq);
        for (int c = 0; c < 2; c++)
            DFT_ASSERT_BB(ref_pawn(df_square_bb(sq), c, 0) | ref_pawn(df_square_bb(sq), c, 1),
                          df_pawn_table[c][sq], "pawn c=%d sq=%d", c, sq);
    }
}

static void test_corners(void **state)
{
    (void)state;
    DFT_ASSERT_BB(df_square_bb(DF_B3) | df_square_bb(DF_C2), df_knight_attacks(1), "Na1");
    DFT_ASSERT_BB(df_square_bb(DF_G6) | df_square_bb(DF_F7), df_knight_attacks(df_square_bb(DF_H8)),
                  "Nh8");
    DFT_ASSERT_BB(df_square_bb(DF_G1) | df_square_bb(DF_G2) | df_square_bb(DF_H2),
                  df_king_attacks(df_square_bb(DF_H1)), "Kh1");
    DFT_ASSERT_BB(DF_FULL, df_king_attacks(DF_FULL), "full");
    DFT_ASSERT_BB(0, df_knight_attacks(0), "none");
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_knights_random), cmocka_unit_test(test_knight_jumps_random),
        cmocka_unit_test(test_kings_random),   cmocka_unit_test(test_corners),
        cmocka_unit_test(test_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
