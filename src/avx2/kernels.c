/* The AVX2 backend, written with SIMDe. Two 256-bit vectors hold the eight directions:
 * lanes 0..3 are N NE E NW (left shifts by 8 9 1 7), lanes 4..7 are S SW W SE (right
 * shifts by the same counts), so one vpsllvq and one vpsrlvq advance all eight rays one
 * Kogge-Stone step, and each ray shares its lane with its opposite.
 *
 * Built with -mavx2 for the real backend. Built again without it (DF_AVX2_EMULATED) the
 * same source runs on any CPU through SIMDe's portable code, under another symbol, so the
 * tests exercise this algorithm everywhere. */
#include <simde/x86/avx2.h>

#include "dirfill/between.h"

#if defined(DF_AVX2_EMULATED)
#define DF__BACKEND_SYMBOL df__backend_avx2emu
#define DF__BACKEND_NAME   "avx2emu"
#define DF__CPU_SUPPORTS   df__cpu_always
#else
#if !defined(__AVX2__)
#error "src/avx2 must be compiled with -mavx2 (or with DF_AVX2_EMULATED)"
#endif
#define DF__BACKEND_SYMBOL df__backend_avx2
#define DF__BACKEND_NAME   "avx2"
#define DF__CPU_SUPPORTS   df__cpu_has_avx2
#endif

static inline simde__m256i df__v(df_bb a, df_bb b, df_bb c, df_bb d)
{
    return simde_mm256_setr_epi64x((int64_t)a, (int64_t)b, (int64_t)c, (int64_t)d);
}

/* One half's fill: three doubling steps, then the final one-step shift to the attacks. */
#define DF__KOGGE_STONE(SHIFT, gen, pro, s1, s2, s4, wrap)                                         \
    do {                                                                                           \
        gen = simde_mm256_or_si256(gen, simde_mm256_and_si256(pro, SHIFT(gen, s1)));               \
        pro = simde_mm256_and_si256(pro, SHIFT(pro, s1));                                          \
        gen = simde_mm256_or_si256(gen, simde_mm256_and_si256(pro, SHIFT(gen, s2)));               \
        pro = simde_mm256_and_si256(pro, SHIFT(pro, s2));                                          \
        gen = simde_mm256_or_si256(gen, simde_mm256_and_si256(pro, SHIFT(gen, s4)));               \
        gen = simde_mm256_and_si256(SHIFT(gen, s1), wrap);                                         \
    } while (0)

/* Both halves' fills, from generator vectors: lanes 0..3 shift left, lanes 4..7 right. */
static inline void df__fill_store(df_rays *out, simde__m256i pos, simde__m256i neg, df_bb empty)
{
    const simde__m256i s1 = df__v(8, 9, 1, 7), s2 = df__v(16, 18, 2, 14), s4 = df__v(32, 36, 4, 28);
    const simde__m256i wrap_pos = df__v(DF_FULL, DF_NOT_A, DF_NOT_A, DF_NOT_H);
    const simde__m256i wrap_neg = df__v(DF_FULL, DF_NOT_H, DF_NOT_H, DF_NOT_A);
    const simde__m256i e = simde_mm256_set1_epi64x((int64_t)empty);
    simde__m256i pro_pos = simde_mm256_and_si256(e, wrap_pos);
    simde__m256i pro_neg = simde_mm256_and_si256(e, wrap_neg);
    DF__KOGGE_STONE(simde_mm256_sllv_epi64, pos, pro_pos, s1, s2, s4, wrap_pos);
    DF__KOGGE_STONE(simde_mm256_srlv_epi64, neg, pro_neg, s1, s2, s4, wrap_neg);
    simde_mm256_storeu_si256((simde__m256i *)&out->r[0], pos);
    simde_mm256_storeu_si256((simde__m256i *)&out->r[4], neg);
}

/* Lanes alternate orthogonal and diagonal in both halves: {orth, diag, orth, diag}. */
static inline void df__rays_of(df_rays *out, df_bb orth, df_bb diag, df_bb empty)
{
    const simde__m256i gen = df__v(orth, diag, orth, diag);
    df__fill_store(out, gen, gen, empty);
}

static inline void df__rays_from(df_rays *out, const df_rays *gen, df_bb mask, df_bb empty)
{
    const simde__m256i m = simde_mm256_set1_epi64x((int64_t)mask);
    df__fill_store(
        out, simde_mm256_and_si256(simde_mm256_loadu_si256((const simde__m256i *)&gen->r[0]), m),
        simde_mm256_and_si256(simde_mm256_loadu_si256((const simde__m256i *)&gen->r[4]), m),
        empty);
}

/* One square's eight rays without Kogge-Stone: the empty-board rays (two loads), their
 * blockers smeared onward along the ray (an unoccluded doubling shift: bits that wrap
 * round the board land on parallel lines and are masked off by the ray), and the ray
 * kept up to its first blocker. */
static inline void df__square_rays2(df_rays *out, int sq, df_bb occ_orth, df_bb occ_diag)
{
    const simde__m256i s1 = df__v(8, 9, 1, 7), s2 = df__v(16, 18, 2, 14), s4 = df__v(32, 36, 4, 28);
    const simde__m256i occ = df__v(occ_orth, occ_diag, occ_orth, occ_diag);
    const simde__m256i pos = simde_mm256_load_si256((const simde__m256i *)&df_ray_table[sq][0]);
    const simde__m256i neg = simde_mm256_load_si256((const simde__m256i *)&df_ray_table[sq][4]);
    simde__m256i bp = simde_mm256_and_si256(pos, occ), bn = simde_mm256_and_si256(neg, occ);
    bp = simde_mm256_or_si256(bp, simde_mm256_sllv_epi64(bp, s1));
    bn = simde_mm256_or_si256(bn, simde_mm256_srlv_epi64(bn, s1));
    bp = simde_mm256_or_si256(bp, simde_mm256_sllv_epi64(bp, s2));
    bn = simde_mm256_or_si256(bn, simde_mm256_srlv_epi64(bn, s2));
    bp = simde_mm256_or_si256(bp, simde_mm256_sllv_epi64(bp, s4));
    bn = simde_mm256_or_si256(bn, simde_mm256_srlv_epi64(bn, s4));
    simde_mm256_storeu_si256((simde__m256i *)&out->r[0],
                             simde_mm256_andnot_si256(simde_mm256_sllv_epi64(bp, s1), pos));
    simde_mm256_storeu_si256((simde__m256i *)&out->r[4],
                             simde_mm256_andnot_si256(simde_mm256_srlv_epi64(bn, s1), neg));
}

#include "../kernels_impl.h"
