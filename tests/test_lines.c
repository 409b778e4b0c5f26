/* SPDX-License-Identifier: MIT */
/* In-between and line sets: table, pure calculation and the walking reference agree on
 * all 4096 pairs. */
#include "dft.h"
#include "reference.h"

static void test_between_all_pairs(void **state)
{
    (void)state;
    for (int a = 0; a < 64; a++)
        for (int b = 0; b < 64; b++) {
            DFT_ASSERT_BB(ref_between(a, b), df_between(a, b), "table a=%d b=%d", a, b);
            DFT_ASSERT_BB(ref_between(a, b), df_between_calc(a, b), "calc a=%d b=%d", a, b);
        }
}

static void test_line_all_pairs(void **state)
{
    (void)state;
    for (int a = 0; a < 64; a++)
        for (int b = 0; b < 64; b++) {
            DFT_ASSERT_BB(ref_line(a, b), df_line(a, b), "a=%d b=%d", a, b);
            if (a != b && df_line(a, b)) {
                assert_true(df_aligned(a, b, a) && df_aligned(a, b, b));
                DFT_ASSERT_BB(df_between(a, b), df_between(a, b) & df_line(a, b), "inside");
            }
        }
}

static void test_lines_through_square(void **state)
{
    (void)state;
    for (int sq = 0; sq < 64; sq++) {
        df_bb orth = df_square_bb(sq), diag = df_square_bb(sq);
        for (int d = 0; d < 8; d++) {
            if (d & 1)
                diag |= ref_ray(sq, 0, d);
            else
                orth |= ref_ray(sq, 0, d);
        }
        DFT_ASSERT_BB(orth, df_orthogonal_lines(sq), "sq=%d", sq);
        DFT_ASSERT_BB(diag, df_diagonal_lines(sq), "sq=%d", sq);
    }
}

static void test_ray_table(void **state)
{
    (void)state;
    for (int sq = 0; sq < 64; sq++)
        for (int d = 0; d < 8; d++)
            DFT_ASSERT_BB(ref_ray(sq, 0, d), df_ray_mask(sq, d), "sq=%d d=%d", sq, d);
    /* One cache line per square (a speed property; the vector loads need no alignment). */
    assert_int_equal(0, (uintptr_t)&df_ray_table[0][0] % 64);
}

static void test_square_rays_random(void **state)
{
    (void)state;
    for (long i = 0; i < DFT_ITERATIONS; i++) {
        const int sq = (int)(dft_rand() & 63);
        const df_bb occ = dft_rand_bb();
        df_bb rook = 0, bishop = 0;
        for (int d = 0; d < 8; d++) {
            const df_bb want = ref_ray(sq, occ, d);
            DFT_ASSERT_BB(want, df_square_ray(sq, occ, d), "sq=%d d=%d", sq, d);
            if (d & 1)
                bishop |= want;
            else
                rook |= want;
        }
        DFT_ASSERT_BB(rook, df_square_rook_attacks(sq, occ), "rook sq=%d", sq);
        DFT_ASSERT_BB(bishop, df_square_bishop_attacks(sq, occ), "bishop sq=%d", sq);
    }
}

/* The seed's example: between f6 and c3 are d4 and e5; c1-a3 is Dustin's fix. */
static void test_seed_examples(void **state)
{
    (void)state;
    DFT_ASSERT_BB(df_square_bb(DF_D4) | df_square_bb(DF_E5), df_between_calc(DF_F6, DF_C3), "f6c3");
    DFT_ASSERT_BB(df_square_bb(DF_B2), df_between_calc(DF_C1, DF_A3), "c1a3");
    DFT_ASSERT_BB(0, df_between(DF_A1, DF_B3), "knight distance");
    DFT_ASSERT_BB(0, df_between(DF_E4, DF_E5), "adjacent");
    DFT_ASSERT_BB(DF_FILE_A << 4, df_line(DF_E2, DF_E7), "e-file");
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_between_all_pairs),
        cmocka_unit_test(test_line_all_pairs),
        cmocka_unit_test(test_lines_through_square),
        cmocka_unit_test(test_seed_examples),
        cmocka_unit_test(test_ray_table),
        cmocka_unit_test(test_square_rays_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
