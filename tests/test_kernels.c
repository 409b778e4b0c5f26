/* SPDX-License-Identifier: MIT */
/* The dispatched eight-direction kernels of the backend under test, against the walking
 * reference and against the scalar backend. */
#include "dft.h"
#include "reference.h"

/* What the scalar backend answers. */
static void scalar_slider_rays(df_rays *out, df_bb orth, df_bb diag, df_bb empty)
{
    dft_use("scalar");
    df_slider_rays(out, orth, diag, empty);
    dft_use(dft_backend());
}

static df_rays ref_slider_rays(df_bb orth, df_bb diag, df_bb empty)
{
    df_rays r;
    for (int d = 0; d < 8; d++) r.r[d] = ref_ray_attacks(d & 1 ? diag : orth, empty, d);
    return r;
}

static void assert_rays(const df_rays *expected, const df_rays *actual, const char *what, long i)
{
    for (int d = 0; d < 8; d++)
        DFT_ASSERT_BB(expected->r[d], actual->r[d], "%s, input %ld, direction %d", what, i, d);
}

static void random_sliders(df_bb *orth, df_bb *diag, df_bb *empty)
{
    *orth = dft_rand_bb();
    *diag = dft_rand_bb();
    *empty = dft_rand_bb() & ~(*orth | *diag);
}

static void test_slider_rays(void **state)
{
    (void)state;
    for (long i = 0; i < DFT_ITERATIONS; i++) {
        df_bb orth, diag, empty;
        random_sliders(&orth, &diag, &empty);
        df_rays got, scalar;
        df_slider_rays(&got, orth, diag, empty);
        scalar_slider_rays(&scalar, orth, diag, empty);
        assert_rays(&scalar, &got, "vs scalar", i);
        if (i % 4 == 0) {
            df_rays ref = ref_slider_rays(orth, diag, empty);
            assert_rays(&ref, &got, "vs reference", i);
        }
    }
}

static void test_slider_rays_both(void **state)
{
    (void)state;
    for (long i = 0; i < DFT_ITERATIONS / 4; i++) {
        df_sliders in[2];
        random_sliders(&in[0].orth, &in[0].diag, &in[0].empty);
        random_sliders(&in[1].orth, &in[1].diag, &in[1].empty);
        if (i & 1) in[1].empty = in[0].empty & ~(in[1].orth | in[1].diag); /* one board */
        df_rays got[2];
        df_slider_rays_both(got, in);
        for (int s = 0; s < 2; s++) {
            df_rays ref = ref_slider_rays(in[s].orth, in[s].diag, in[s].empty);
            assert_rays(&ref, &got[s], "both", i);
        }
    }
}

/* blockers: a random subset of the occupied squares. */
static void test_xrays(void **state)
{
    (void)state;
    for (long i = 0; i < DFT_ITERATIONS / 2; i++) {
        df_bb orth, diag, empty;
        random_sliders(&orth, &diag, &empty);
        df_bb occ = ~empty, blockers = occ & dft_rand_bb();
        df_rays rays, got, scalar, ref;
        df_slider_rays(&rays, orth, diag, empty);
        df_xrays(&got, &rays, empty, blockers);
        dft_use("scalar");
        df_xrays(&scalar, &rays, empty, blockers);
        dft_use(dft_backend());
        assert_rays(&scalar, &got, "xrays vs scalar", i);
        for (int d = 0; d < 8; d++) {
            ref.r[d] = 0;
            df_bb s = d & 1 ? diag : orth;
            while (s) {
                int sq = df_pop_lsb(&s), b = ref_step(sq, d);
                while (b >= 0 && !((occ >> b) & 1)) b = ref_step(b, d);
                if (b >= 0 && ((blockers >> b) & 1)) ref.r[d] |= ref_ray(b, occ, d);
            }
        }
        assert_rays(&ref, &got, "xrays vs reference", i);
    }
}

static void test_between_sliders_and_targets(void **state)
{
    (void)state;
    for (long i = 0; i < DFT_ITERATIONS / 4; i++) {
        df_bb orth, diag, empty;
        random_sliders(&orth, &diag, &empty);
        df_bb targets = ~empty & dft_rand_bb();
        df_rays got, ref;
        df_between_sliders_and_targets(&got, orth, diag, targets, empty);
        for (int d = 0; d < 8; d++)
            ref.r[d] = ref_ray_attacks(d & 1 ? diag : orth, empty, d) &
                       ref_ray_attacks(targets, empty, d ^ 4);
        assert_rays(&ref, &got, "between sliders and targets", i);
    }
}

/* Hand-made: the seed's rook/king rank with zero, one and two pieces between. */
static void test_opposite_rays_seed(void **state)
{
    (void)state;
    const df_bb rook = df_square_bb(DF_B8), king = df_square_bb(DF_G8);
    const df_bb x1 = df_square_bb(DF_E8), x2 = df_square_bb(DF_D8);
    const df_bb between = df_between(DF_B8, DF_G8);
    df_bb occs[3] = {rook | king, rook | king | x1, rook | king | x1 | x2};
    df_bb expect[3] = {between, x1, 0};
    for (int k = 0; k < 3; k++) {
        df_rays r, kr, m;
        df_slider_rays(&r, rook, 0, ~occs[k]);
        df_slider_rays(&kr, king, king, ~occs[k]);
        df_meet(&m, &r, &kr);
        DFT_ASSERT_BB(expect[k], m.r[DF_E], "%d pieces between", k);
        for (int d = 0; d < 8; d++)
            if (d != DF_E) DFT_ASSERT_BB(0, m.r[d], "other direction %d", d);
    }
}

static void test_batch(void **state)
{
    (void)state;
    enum { N = 257 };
    static df_sliders in[N];
    static df_rays out[N];
    for (int i = 0; i < N; i++) random_sliders(&in[i].orth, &in[i].diag, &in[i].empty);
    df_slider_rays_batch(out, in, N);
    for (int i = 0; i < N; i++) {
        df_rays one;
        df_slider_rays(&one, in[i].orth, in[i].diag, in[i].empty);
        assert_rays(&one, &out[i], "batch", i);
    }
    df_slider_rays_batch(out, in, 0);
}

static void test_edges(void **state)
{
    (void)state;
    df_rays r;
    df_slider_rays(&r, 0, 0, DF_FULL);
    for (int d = 0; d < 8; d++) DFT_ASSERT_BB(0, r.r[d], "no sliders d=%d", d);
    df_slider_rays(&r, DF_FULL, DF_FULL, 0);
    for (int d = 0; d < 8; d++) DFT_ASSERT_BB(df_shift(DF_FULL, d), r.r[d], "full board d=%d", d);
    const df_bb corners = 0x8100000000000081ull;
    df_slider_rays(&r, corners, corners, ~corners);
    df_rays ref = ref_slider_rays(corners, corners, ~corners);
    assert_rays(&ref, &r, "corners", 0);
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slider_rays),
        cmocka_unit_test(test_slider_rays_both),
        cmocka_unit_test(test_xrays),
        cmocka_unit_test(test_between_sliders_and_targets),
        cmocka_unit_test(test_opposite_rays_seed),
        cmocka_unit_test(test_batch),
        cmocka_unit_test(test_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
