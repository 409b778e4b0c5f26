/* libFuzzer target: bitboards and boards made from the input bytes go through every
 * backend compiled in (scalar, the SIMDe-emulated AVX2 build, native AVX2 when the CPU has
 * it) and the square-by-square reference; any disagreement aborts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/backend.h"
#include "reference.h"

extern const df__backend df__backend_avx2emu;

static uint64_t word(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

static const df__backend *backends[3];
static int nbackends;

static void setup(void)
{
    if (nbackends) return;
    backends[nbackends++] = &df__backend_scalar;
    backends[nbackends++] = &df__backend_avx2emu;
#ifdef DF_HAVE_AVX2
    if (df__backend_avx2.cpu_supports()) backends[nbackends++] = &df__backend_avx2;
#endif
}

/* A board from 34 bytes: two king squares, then a nibble per square (0..9 empty, else a
 * piece); pawns that would stand on the first or last rank become rooks. */
static bool make_board(df_board *b, const uint8_t *p)
{
    memset(b, 0, sizeof *b);
    b->ep = DF_SQUARE_NONE;
    const int wk = p[0] & 63, bk = p[1] & 63;
    if (wk == bk) return false;
    b->color[0] = df_square_bb(wk);
    b->color[1] = df_square_bb(bk);
    b->piece[DF_KING] = b->color[0] | b->color[1];
    b->stm = p[0] >> 7;
    for (int sq = 0; sq < 64; sq++) {
        const int nib = (p[2 + sq / 2] >> (4 * (sq & 1))) & 15;
        if (nib < 6 || sq == wk || sq == bk) continue;
        int type = (nib - 6) % 5, color = nib >= 11;
        if (type == DF_PAWN && (sq < 8 || sq >= 56)) type = DF_ROOK;
        b->color[color] |= df_square_bb(sq);
        b->piece[type] |= df_square_bb(sq);
    }
    return true;
}

/* Field by field: the struct's tail padding is not part of the answer. */
static bool same_map(const df_attack_map *a, const df_attack_map *b)
{
    return !memcmp(&a->rays, &b->rays, sizeof a->rays) &&
           !memcmp(&a->xrays, &b->xrays, sizeof a->xrays) &&
           !memcmp(a->by_type, b->by_type, sizeof a->by_type) && a->all == b->all &&
           a->twice == b->twice && !memcmp(a->count, b->count, sizeof a->count);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    if (size >= 24) {
        const df_bb orth = word(data), diag = word(data + 8),
                    empty = word(data + 16) & ~(orth | diag);
        df_rays ref, got, xref, xgot;
        for (int d = 0; d < 8; d++) ref.r[d] = ref_ray_attacks(d & 1 ? diag : orth, empty, d);
        df__backend_scalar.xrays(&xref, &ref, empty, ~empty);
        for (int i = 0; i < nbackends; i++) {
            backends[i]->slider_rays(&got, orth, diag, empty);
            backends[i]->xrays(&xgot, &ref, empty, ~empty);
            if (memcmp(&ref, &got, sizeof ref) || memcmp(&xref, &xgot, sizeof xref)) abort();
        }
    }
    df_board b;
    if (size >= 34 && make_board(&b, data)) {
        df_attack_map want[2], got[2];
        df_pins_checks ks_want, ks_got;
        ref_attack_map(&want[0], &b, 0);
        ref_attack_map(&want[1], &b, 1);
        ref_king_safety(&ks_want, &b);
        for (int i = 0; i < nbackends; i++) {
            backends[i]->attack_maps(got, &b);
            backends[i]->king_safety(&ks_got, &b);
            if (!same_map(&want[0], &got[0]) || !same_map(&want[1], &got[1]) ||
                memcmp(&ks_want, &ks_got, sizeof ks_want))
                abort();
        }
    }
    return 0;
}
