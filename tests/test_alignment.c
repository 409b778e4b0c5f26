/* SPDX-License-Identifier: MIT */
/* Every entry point that takes memory, on heap buffers at each 8-byte step of misalignment
 * (addresses 8, 16, 24, ..., 56 bytes past a multiple of 64), as malloc, numpy, ctypes or
 * cffi give them: results equal those written to ordinary variables. Once per backend. */
#include <stdlib.h>
#include <string.h>

#include "dft.h"

/* Even: df_slider_rays_both reads the inputs two at a time. */
enum { N = 38 };

static void test_kernels_misaligned(void **state)
{
    (void)state;
    df_sliders in[N];
    for (int i = 0; i < N; i++) {
        in[i].orth = dft_rand_bb();
        in[i].diag = dft_rand_bb();
        in[i].empty = dft_rand_bb() & ~(in[i].orth | in[i].diag);
    }
    for (size_t offset = 8; offset < 64; offset += 8) {
        void *base_out, *base_in;
        df_rays *out = dft_alloc_at(N * sizeof *out, offset, &base_out);
        df_sliders *sin = dft_alloc_at(N * sizeof *sin, offset, &base_in);
        memcpy(sin, in, sizeof in);
        df_slider_rays_batch(out, sin, N);
        for (int i = 0; i < N; i++) {
            df_rays want;
            df_slider_rays(&want, in[i].orth, in[i].diag, in[i].empty);
            assert_memory_equal(&want, &out[i], sizeof want);
        }
        /* Each single call writes a misaligned out[0..4]. */
        for (int i = 0; i < N; i++) {
            df_rays want, got;
            df_slider_rays(&want, in[i].orth, in[i].diag, in[i].empty);
            df_slider_rays(&out[0], in[i].orth, in[i].diag, in[i].empty);
            assert_memory_equal(&want, &out[0], sizeof want);
            df_slider_rays_both(&out[1], &sin[i & ~1]);
            df_rays both[2];
            df_slider_rays_both(both, &in[i & ~1]);
            assert_memory_equal(both, &out[1], sizeof both);
            df_xrays(&out[3], &out[0], in[i].empty, ~in[i].empty);
            df_xrays(&got, &want, in[i].empty, ~in[i].empty);
            assert_memory_equal(&got, &out[3], sizeof got);
            df_between_sliders_and_targets(&out[4], in[i].orth, in[i].diag, ~in[i].empty,
                                           in[i].empty);
            df_between_sliders_and_targets(&got, in[i].orth, in[i].diag, ~in[i].empty, in[i].empty);
            assert_memory_equal(&got, &out[4], sizeof got);
        }
        free(base_out);
        free(base_in);
    }
}

static void test_board_calls_misaligned(void **state)
{
    (void)state;
    df_board boards[N];
    for (int i = 0; i < N; i++) dft_rand_game_position(&boards[i]);
    for (size_t offset = 8; offset < 64; offset += 8) {
        void *bm, *bb, *bs, *ba, *bl;
        df_attack_map *maps = dft_alloc_at(2 * N * sizeof *maps, offset, &bm);
        df_board *b = dft_alloc_at(N * sizeof *b, offset, &bb);
        df_king_safety_sets *ks = dft_alloc_at(2 * sizeof *ks, offset, &bs);
        df_bb *all = dft_alloc_at(64 * sizeof *all, offset, &ba);
        df_move_list *list = dft_alloc_at(sizeof *list, offset, &bl);
        memcpy(b, boards, sizeof boards);
        df_attack_maps_batch(maps, b, N);
        for (int i = 0; i < N; i++) {
            df_attack_map want[2];
            df_attack_maps(want, &boards[i]);
            assert_memory_equal(want, &maps[2 * i], sizeof want);
            df_attack_maps(maps, &b[i]);
            assert_memory_equal(want, maps, sizeof want);
            df_attack_map_side(&maps[1], &b[i], DF_BLACK);
            assert_memory_equal(&want[1], &maps[1], sizeof want[1]);
            df_king_safety_sets want_ks;
            df_king_safety(&want_ks, &boards[i]);
            df_king_safety(&ks[0], &b[i]);
            df_checks_and_pins(&ks[1], &b[i]);
            assert_memory_equal(&want_ks, &ks[0], sizeof want_ks);
            want_ks.discoverers = 0;
            assert_memory_equal(&want_ks, &ks[1], sizeof want_ks);
            df_bb want_all[64];
            df_attackers_to_all(want_all, &boards[i]);
            df_attackers_to_all(all, &b[i]);
            assert_memory_equal(want_all, all, sizeof want_all);
            df_move_list want_list;
            df_generate_legal(&want_list, &boards[i]);
            df_generate_legal(list, &b[i]);
            assert_int_equal(want_list.count, list->count);
            assert_memory_equal(want_list.moves, list->moves, list->count * sizeof(df_move));
            uint64_t want_nodes, nodes;
            df_perft(&want_nodes, &boards[i], 2);
            df_perft(&nodes, &b[i], 2);
            assert_int_equal(want_nodes, nodes);
            if (list->count) {
                df_board want_child;
                df_make_move(&want_child, &boards[i], list->moves[0]);
                df_make_move(&b[i], &b[i], list->moves[0]);
                assert_memory_equal(&want_child, &b[i], sizeof want_child);
            }
        }
        free(bm);
        free(bb);
        free(bs);
        free(ba);
        free(bl);
    }
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernels_misaligned),
        cmocka_unit_test(test_board_calls_misaligned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
