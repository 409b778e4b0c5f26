/* SPDX-License-Identifier: MIT */
/* libFuzzer target: bitboards and boards made from the input bytes go through every backend
 * this machine runs (scalar, avx2, avx512, and the SIMDe-emulated builds of the vector
 * sources where the build has them: the sanitizer presets do not) and the square-by-square
 * reference; any disagreement aborts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dft.h"
#include "fuzz_board.h"
#include "reference.h"

static uint64_t word(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

/* Field by field: the struct has no padding, but say what counts. */
static bool same_map(const df_attack_map *a, const df_attack_map *b)
{
    return !memcmp(&a->rays, &b->rays, sizeof a->rays) &&
           !memcmp(&a->xrays, &b->xrays, sizeof a->xrays) && a->pawn_east == b->pawn_east &&
           a->pawn_west == b->pawn_west && !memcmp(a->by_type, b->by_type, sizeof a->by_type) &&
           a->all == b->all && a->twice == b->twice && !memcmp(a->count, b->count, sizeof a->count);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const size_t backends = dft_backend_count();
    if (size >= 24) {
        const df_bb orth = word(data), diag = word(data + 8),
                    empty = word(data + 16) & ~(orth | diag);
        df_rays ref, got, xref, xgot;
        for (int d = 0; d < DF_DIRS; d++) ref.r[d] = ref_ray_attacks(d & 1 ? diag : orth, empty, d);
        dft_use("scalar");
        df_xrays(&xref, &ref, empty, ~empty);
        for (size_t i = 0; i < backends; i++) {
            dft_use(dft_backend_at(i));
            df_slider_rays(&got, orth, diag, empty);
            df_xrays(&xgot, &ref, empty, ~empty);
            if (memcmp(&ref, &got, sizeof ref) || memcmp(&xref, &xgot, sizeof xref)) abort();
        }
    }
    df_board b;
    if (fuzz_board(&b, data, size)) {
        df_attack_map want[2], got[2];
        df_king_safety_sets ks_want, ks_got;
        ref_attack_map(&want[0], &b, 0);
        ref_attack_map(&want[1], &b, 1);
        ref_king_safety(&ks_want, &b);
        for (size_t i = 0; i < backends; i++) {
            dft_use(dft_backend_at(i));
            df_attack_maps(got, &b);
            df_king_safety(&ks_got, &b);
            if (!same_map(&want[0], &got[0]) || !same_map(&want[1], &got[1]) ||
                memcmp(&ks_want, &ks_got, sizeof ks_want))
                abort();
        }
    }
    return 0;
}
