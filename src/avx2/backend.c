/* SPDX-License-Identifier: MIT */
/* The AVX2 backend, written with SIMDe. Two 256-bit vectors hold the eight directions:
 * lanes 0..3 are N NE E NW (left shifts by 8 9 1 7), lanes 4..7 are S SW W SE (right
 * shifts by the same counts), so one vpsllvq and one vpsrlvq advance all eight rays one
 * Kogge-Stone step, and each ray shares its lane with its opposite.
 *
 * Built with -mavx2 for the real backend. Built again without it (DF_AVX2_EMULATED) the
 * same source runs on any CPU through SIMDe's portable code, under another symbol, so the
 * tests exercise this algorithm everywhere. */
#include <simde/x86/avx2.h>

#include "dirfill.h"

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

/* {orth, diag, orth, diag}: lanes alternate orthogonal and diagonal in both halves. Built from
 * two 8-byte broadcasts and a blend, never one wide load: a caller that has just stored the
 * values (a df_sliders on its stack) would otherwise stall on store-to-load forwarding. */
static inline simde__m256i df__alternate(df_bb orth, df_bb diag)
{
    return simde_mm256_blend_epi32(simde_mm256_set1_epi64x((int64_t)orth),
                                   simde_mm256_set1_epi64x((int64_t)diag), 0xcc);
}

/* Shift counts of one, two and four steps, lane by lane: N NE E NW = S SW W SE = 8 9 1 7. */
#define DF__STEP1 df__v(8, 9, 1, 7)
#define DF__STEP2 df__v(16, 18, 2, 14)
#define DF__STEP4 df__v(32, 36, 4, 28)

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
    const simde__m256i s1 = DF__STEP1, s2 = DF__STEP2, s4 = DF__STEP4;
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

static inline void df__rays_of(df_rays *out, df_bb orth, df_bb diag, df_bb empty)
{
    const simde__m256i gen = df__alternate(orth, diag);
    df__fill_store(out, gen, gen, empty);
}

/* The counted fill: both halves masked and stored once to an aligned block, each popcount
 * reading its lane from memory (extracting lanes to registers costs two instructions each). */
#define DF__HAVE_RAYS_COUNT
static inline uint64_t df__rays_count(df_bb orth, df_bb diag, df_bb empty, df_bb target)
{
    _Alignas(64) df_rays rays;
    const simde__m256i gen = df__alternate(orth, diag);
    df__fill_store(&rays, gen, gen, empty);
    uint64_t n = 0;
    for (int d = 0; d < DF_DIRS; d++) n += (uint64_t)df_popcount(rays.r[d] & target);
    return n;
}

static inline void df__rays_from(df_rays *out, const df_rays *gen, df_bb mask, df_bb empty)
{
    const simde__m256i m = simde_mm256_set1_epi64x((int64_t)mask);
    df__fill_store(
        out, simde_mm256_and_si256(simde_mm256_loadu_si256((const simde__m256i *)&gen->r[0]), m),
        simde_mm256_and_si256(simde_mm256_loadu_si256((const simde__m256i *)&gen->r[4]), m), empty);
}

/* One square's eight rays without Kogge-Stone: the empty-board rays, their blockers
 * smeared onward along the ray (an unoccluded doubling shift: bits that wrap round the
 * board land on parallel lines and are masked off by the ray), and the ray kept up to its
 * first blocker. occ holds {orth, diag, orth, diag} occupancies. */
static inline void df__square_rays_v(simde__m256i *pos, simde__m256i *neg, simde__m256i occ)
{
    const simde__m256i s1 = DF__STEP1, s2 = DF__STEP2, s4 = DF__STEP4;
    simde__m256i bp = simde_mm256_and_si256(*pos, occ), bn = simde_mm256_and_si256(*neg, occ);
    bp = simde_mm256_or_si256(bp, simde_mm256_sllv_epi64(bp, s1));
    bn = simde_mm256_or_si256(bn, simde_mm256_srlv_epi64(bn, s1));
    bp = simde_mm256_or_si256(bp, simde_mm256_sllv_epi64(bp, s2));
    bn = simde_mm256_or_si256(bn, simde_mm256_srlv_epi64(bn, s2));
    bp = simde_mm256_or_si256(bp, simde_mm256_sllv_epi64(bp, s4));
    bn = simde_mm256_or_si256(bn, simde_mm256_srlv_epi64(bn, s4));
    *pos = simde_mm256_andnot_si256(simde_mm256_sllv_epi64(bp, s1), *pos);
    *neg = simde_mm256_andnot_si256(simde_mm256_srlv_epi64(bn, s1), *neg);
}

static inline simde__m256i df__ray_row(df_square sq, int half)
{
    return simde_mm256_loadu_si256((const simde__m256i *)&df_ray_table[sq][4 * half]);
}

/* The sliders attacking sq: its eight rays masked by the kind that moves along each, then
 * reduced in registers. */
#define DF__HAVE_SLIDER_ATTACKERS
static inline df_bb df__slider_attackers(df_square sq, df_bb occ, df_bb rq, df_bb bq)
{
    simde__m256i pos = df__ray_row(sq, 0), neg = df__ray_row(sq, 1);
    df__square_rays_v(&pos, &neg, simde_mm256_set1_epi64x((int64_t)occ));
    const simde__m256i hit =
        simde_mm256_and_si256(simde_mm256_or_si256(pos, neg), df__alternate(rq, bq));
    const simde__m128i q =
        simde_mm_or_si128(simde_mm256_castsi256_si128(hit), simde_mm256_extracti128_si256(hit, 1));
    return (df_bb)(simde_mm_cvtsi128_si64(q) | simde_mm_extract_epi64(q, 1));
}

static inline void df__square_rays2(df_rays *out, df_square sq, df_bb occ_orth, df_bb occ_diag)
{
    simde__m256i pos = df__ray_row(sq, 0), neg = df__ray_row(sq, 1);
    df__square_rays_v(&pos, &neg, df__alternate(occ_orth, occ_diag));
    simde_mm256_storeu_si256((simde__m256i *)&out->r[0], pos);
    simde_mm256_storeu_si256((simde__m256i *)&out->r[4], neg);
}

/* King scans in vector registers (king_scans_tpl.h runs the same logic lane by lane):
 * per-lane masks by compares, and one 4x4 OR reduction for the four outputs. */
#define DF__HAVE_KING_SCANS
#include "fill/king_scans_tpl.h"

static inline simde__m256i df__is_zero(simde__m256i x)
{
    return simde_mm256_cmpeq_epi64(x, simde_mm256_setzero_si256());
}
/* All ones in lanes holding exactly one square. */
static inline simde__m256i df__is_single(simde__m256i x)
{
    const simde__m256i below = simde_mm256_sub_epi64(x, simde_mm256_set1_epi64x(1));
    return simde_mm256_andnot_si256(df__is_zero(x), df__is_zero(simde_mm256_and_si256(x, below)));
}
/* Whether a & b is empty. Not simde_mm256_testz_si256: the portable fallback of Debian's
 * SIMDe 0.7.4~rc2 answers 1 when only the upper 128 bits intersect (seen on x86 without
 * -mavx2; the emulated-build tests caught it). */
static inline bool df__disjoint(simde__m256i a, simde__m256i b)
{
    return simde_mm256_movemask_epi8(df__is_zero(simde_mm256_and_si256(a, b))) == -1;
}
/* (OR of a's lanes, of b's, of c's, of d's). */
static inline simde__m256i df__or4(simde__m256i a, simde__m256i b, simde__m256i c, simde__m256i d)
{
    const simde__m256i ab =
        simde_mm256_or_si256(simde_mm256_unpacklo_epi64(a, b), simde_mm256_unpackhi_epi64(a, b));
    const simde__m256i cd =
        simde_mm256_or_si256(simde_mm256_unpacklo_epi64(c, d), simde_mm256_unpackhi_epi64(c, d));
    return simde_mm256_or_si256(simde_mm256_permute2x128_si256(ab, cd, 0x20),
                                simde_mm256_permute2x128_si256(ab, cd, 0x31));
}

static inline void df__pin_scan(df_king_safety_sets *o, df_square ksq, df_bb own, df_bb enemy,
                                df_bb e_orth, df_bb e_diag)
{
    simde__m256i pos = df__ray_row(ksq, 0), neg = df__ray_row(ksq, 1);
    const simde__m256i sl = df__alternate(e_orth, e_diag);
    if (df__disjoint(simde_mm256_or_si256(pos, neg), sl)) {
        simde_mm256_storeu_si256((simde__m256i *)&o->checkers, simde_mm256_setzero_si256());
        return;
    }
    df__square_rays_v(&pos, &neg, simde_mm256_set1_epi64x((int64_t)enemy));
    const simde__m256i ownv = simde_mm256_set1_epi64x((int64_t)own);
    simde__m256i checkers = simde_mm256_setzero_si256(), pinned = checkers, pinners = checkers,
                 block = checkers;
    const simde__m256i half[2] = {pos, neg};
    for (int h = 0; h < 2; h++) {
        const simde__m256i a = half[h], hit = simde_mm256_and_si256(a, sl);
        const simde__m256i passed = simde_mm256_and_si256(a, ownv);
        const simde__m256i none = df__is_zero(passed), one = df__is_single(passed);
        const simde__m256i no_hit = df__is_zero(hit);
        checkers = simde_mm256_or_si256(checkers, simde_mm256_and_si256(hit, none));
        block = simde_mm256_or_si256(
            block, simde_mm256_andnot_si256(
                       no_hit, simde_mm256_andnot_si256(hit, simde_mm256_and_si256(a, none))));
        pinned = simde_mm256_or_si256(
            pinned, simde_mm256_andnot_si256(no_hit, simde_mm256_and_si256(passed, one)));
        pinners = simde_mm256_or_si256(pinners, simde_mm256_and_si256(hit, one));
    }
    /* checkers, pinned, pinners, check_block: the first four fields, in this order. */
    simde__m256i *fields = (simde__m256i *)&o->checkers;
    simde_mm256_storeu_si256(fields, df__or4(checkers, pinned, pinners, block));
}

static inline df_bb df__discover_scan(df_square eksq, df_bb own, df_bb enemy, df_bb u_orth,
                                      df_bb u_diag, df_bb empty)
{
    simde__m256i pos = df__ray_row(eksq, 0), neg = df__ray_row(eksq, 1);
    const simde__m256i sl = df__alternate(u_orth, u_diag);
    if (df__disjoint(simde_mm256_or_si256(pos, neg), sl)) return 0;
    df__square_rays_v(&pos, &neg,
                      simde_mm256_or_si256(simde_mm256_set1_epi64x((int64_t)enemy), sl));
    const simde__m256i ownv = simde_mm256_set1_epi64x((int64_t)own);
    simde__m256i found = simde_mm256_setzero_si256(), direct[2];
    const simde__m256i half[2] = {pos, neg};
    for (int h = 0; h < 2; h++) {
        const simde__m256i a = half[h], hit = simde_mm256_and_si256(a, sl);
        const simde__m256i passed = simde_mm256_andnot_si256(hit, simde_mm256_and_si256(a, ownv));
        found = simde_mm256_or_si256(
            found, simde_mm256_andnot_si256(df__is_zero(hit),
                                            simde_mm256_and_si256(passed, df__is_single(passed))));
        direct[h] = simde_mm256_and_si256(hit, df__is_zero(passed));
    }
    df_bb result = (df_bb)simde_mm256_extract_epi64(df__or4(found, found, found, found), 0);
    const simde__m256i any_direct = simde_mm256_or_si256(direct[0], direct[1]);
    if (!df__disjoint(any_direct, any_direct)) {
        df_rays hit;
        simde_mm256_storeu_si256((simde__m256i *)&hit.r[0], direct[0]);
        simde_mm256_storeu_si256((simde__m256i *)&hit.r[4], direct[1]);
        result |= df__discoverers_behind(&hit, u_orth, u_diag, empty);
    }
    return result;
}

#include "expand.h"
#include "pgn_skim.h"
#include "backend_tpl.h"
