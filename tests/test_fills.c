/* SPDX-License-Identifier: MIT */
/* Shifts, Kogge-Stone fills and ray attacks against square-by-square walking. */
#include "dft.h"
#include "reference.h"

/* The lane layout the AVX2 backend and df_meet rely on. */
_Static_assert(DF_S == (DF_N ^ 4) && DF_SW == (DF_NE ^ 4) && DF_W == (DF_E ^ 4) &&
                   DF_SE == (DF_NW ^ 4),
               "a direction and its opposite sit in the same lane of the two halves");
_Static_assert(DF_N % 2 == 0 && DF_E % 2 == 0 && DF_NE % 2 == 1 && DF_NW % 2 == 1,
               "even directions are orthogonal, odd diagonal");

static void test_lane_layout(void **state)
{
    (void)state;
    static const unsigned counts[4] = {8, 9, 1, 7};
    for (int d = 0; d < 8; d++) {
        assert_int_equal(df_dir_shift(d), counts[d & 3]);
        assert_int_equal(df_opposite(d), d ^ 4);
        assert_int_equal(df_opposite(df_opposite(d)), d);
        /* One step one way then back returns every square that can make the round trip. */
        DFT_ASSERT_BB(ref_shift(ref_shift(DF_FULL, d), d ^ 4),
                      df_shift(df_shift(DF_FULL, d), d ^ 4), "round trip d=%d", d);
    }
    DFT_ASSERT_BB(df_square_bb(DF_B2), df_shift(df_square_bb(DF_A1), DF_NE), "a1 NE");
    DFT_ASSERT_BB(df_square_bb(DF_G7), df_shift(df_square_bb(DF_H8), DF_SW), "h8 SW");
}

static void test_shift_random(void **state)
{
    (void)state;
    for (int d = 0; d < 8; d++)
        for (long i = 0; i < DFT_ITERATIONS; i++) {
            df_bb bb = dft_rand_bb();
            DFT_ASSERT_BB(ref_shift(bb, d), df_shift(bb, d), "d=%d bb=0x%llx", d,
                          (unsigned long long)bb);
        }
}

static void test_fill_random(void **state)
{
    (void)state;
    for (int d = 0; d < 8; d++)
        for (long i = 0; i < DFT_ITERATIONS; i++) {
            df_bb gen = dft_rand_bb(), empty = dft_rand_bb();
            DFT_ASSERT_BB(ref_fill(gen, empty, d), df_fill(gen, empty, d),
                          "d=%d gen=0x%llx empty=0x%llx", d, (unsigned long long)gen,
                          (unsigned long long)empty);
        }
}

static void test_ray_attacks_random(void **state)
{
    (void)state;
    for (int d = 0; d < 8; d++)
        for (long i = 0; i < DFT_ITERATIONS; i++) {
            df_bb sliders = dft_rand_bb(), empty = dft_rand_bb() & ~sliders;
            DFT_ASSERT_BB(ref_ray_attacks(sliders, empty, d), df_ray_attacks(sliders, empty, d),
                          "d=%d sliders=0x%llx empty=0x%llx", d, (unsigned long long)sliders,
                          (unsigned long long)empty);
        }
}

static void test_slider_unions_random(void **state)
{
    (void)state;
    for (long i = 0; i < DFT_ITERATIONS; i++) {
        df_bb s = dft_rand_bb(), empty = dft_rand_bb() & ~s;
        df_bb rook = 0, bishop = 0;
        for (int d = 0; d < 8; d += 2) rook |= ref_ray_attacks(s, empty, d);
        for (int d = 1; d < 8; d += 2) bishop |= ref_ray_attacks(s, empty, d);
        DFT_ASSERT_BB(rook, df_rook_attacks(s, empty), "s=0x%llx", (unsigned long long)s);
        DFT_ASSERT_BB(bishop, df_bishop_attacks(s, empty), "s=0x%llx", (unsigned long long)s);
        DFT_ASSERT_BB(rook | bishop, df_queen_attacks(s, empty), "s=0x%llx", (unsigned long long)s);
    }
}

static void test_edges(void **state)
{
    (void)state;
    for (int d = 0; d < 8; d++) {
        DFT_ASSERT_BB(0, df_ray_attacks(0, DF_FULL, d), "no sliders d=%d", d);
        DFT_ASSERT_BB(DF_FULL, df_fill(DF_FULL, 0, d), "full generator d=%d", d);
        DFT_ASSERT_BB(0x24, df_fill(0x24, 0, d), "a full board blocks every fill d=%d", d);
    }
    /* Nothing wraps from file H to file A or back. */
    DFT_ASSERT_BB(0, df_shift(DF_FILE_H, DF_E), "H east");
    DFT_ASSERT_BB(0, df_shift(DF_FILE_A, DF_W), "A west");
    DFT_ASSERT_BB(0, df_shift(DF_RANK_8, DF_N), "8 north");
    DFT_ASSERT_BB(0, df_shift(DF_RANK_1, DF_S), "1 south");
    DFT_ASSERT_BB(0, df_ray_attacks(DF_FILE_H, DF_FULL, DF_NE), "H north-east");
    DFT_ASSERT_BB(0, df_ray_attacks(DF_FILE_A, DF_FULL, DF_SW), "A south-west");
    /* Corners on an empty board see their whole lines. */
    DFT_ASSERT_BB(DF_DIAG_A1H8 & ~1ull, df_ray_attacks(df_square_bb(DF_A1), ~1ull, DF_NE), "a1");
    DFT_ASSERT_BB(DF_RANK_8 & ~df_square_bb(DF_H8),
                  df_ray_attacks(df_square_bb(DF_H8), ~df_square_bb(DF_H8), DF_W), "h8 west");
    DFT_ASSERT_BB(DF_ANTI_H1A8 & ~df_square_bb(DF_H1),
                  df_ray_attacks(df_square_bb(DF_H1), DF_FULL, DF_NW), "h1 north-west");
    /* Full board: every ray stops at the neighbour. */
    DFT_ASSERT_BB(df_square_bb(DF_E5), df_ray_attacks(df_square_bb(DF_E4), 0, DF_N), "e4 blocked");
    /* The rook attack example: rook d4, pieces d6 and b4. */
    df_bb occ = df_square_bb(DF_D4) | df_square_bb(DF_D6) | df_square_bb(DF_B4);
    df_bb expect = df_square_bb(DF_D5) | df_square_bb(DF_D6) | df_square_bb(DF_C4) |
                   df_square_bb(DF_B4) | (DF_RANK_1 << 24 & ~0x0full << 24) |
                   (DF_FILE_A << 3 & (DF_RANK_1 | DF_RANK_1 << 8 | DF_RANK_1 << 16));
    DFT_ASSERT_BB(expect, df_rook_attacks(df_square_bb(DF_D4), ~occ), "rook d4");
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lane_layout),          cmocka_unit_test(test_shift_random),
        cmocka_unit_test(test_fill_random),          cmocka_unit_test(test_ray_attacks_random),
        cmocka_unit_test(test_slider_unions_random), cmocka_unit_test(test_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
