/* SPDX-License-Identifier: MIT */
/* The AVX-512 backend (F and VL), written with SIMDe. One 512-bit vector holds the eight
 * directions in df_dir order. vprolvq rotates every lane by its own count (a rotation left by
 * 64 - s is a shift right by s), so one instruction advances all eight rays; the squares a
 * rotation wraps around onto are kept out of the propagator (the generalized rays of the
 * Chess Programming Wiki's Kogge-Stone page), so nothing wraps. vpternlogq fuses
 * gen |= pro & rotate(gen) into one instruction.
 *
 * Built with -mavx512f -mavx512vl for the real backend (no BW or DQ: with those GCC keeps
 * bitboards of the scalar move generator in mask registers); built again
 * without them (DF_AVX512_EMULATED) the same source runs anywhere through SIMDe's portable
 * code, under another symbol, so the tests exercise this algorithm everywhere. Constants are
 * loaded from static arrays: SIMDe's set_epi64 has no native path. */
#include <simde/x86/avx512.h>

#include "backend.h"
#include "dirfill.h"

#if defined(DF_AVX512_EMULATED)
#define DF__BACKEND_SYMBOL df__backend_avx512emu
#define DF__BACKEND_NAME   "avx512emu"
#define DF__CPU_SUPPORTS   df__cpu_always
#else
#if !defined(__AVX512F__) || !defined(__AVX512VL__)
#error "src/avx512 must be compiled with -mavx512f -mavx512vl (or DF_AVX512_EMULATED)"
#endif
#define DF__BACKEND_SYMBOL df__backend_avx512
#define DF__BACKEND_NAME   "avx512"
#define DF__CPU_SUPPORTS   df__cpu_has_avx512
#endif

typedef simde__m512i v8;

/* Rotation counts of one, two and four steps per direction, and the squares a one-step
 * rotation may land on: the shift's wrap mask, less the rank the rotation wraps into. */
static const int64_t df__rot1[8] __attribute__((aligned(64))) = {8, 9, 1, 7, 56, 55, 63, 57};
static const int64_t df__rot2[8] __attribute__((aligned(64))) = {16, 18, 2, 14, 48, 46, 62, 50};
static const int64_t df__rot4[8] __attribute__((aligned(64))) = {32, 36, 4, 28, 32, 28, 60, 36};
#define DF__NOT_R1   (~DF_RANK_1)
#define DF__NOT_R8   (~DF_RANK_8)
#define DF__AVOID_N  DF__NOT_R1
#define DF__AVOID_NE (DF__NOT_R1 & DF_NOT_A)
#define DF__AVOID_E  DF_NOT_A
#define DF__AVOID_NW (DF__NOT_R1 & DF_NOT_H)
#define DF__AVOID_S  DF__NOT_R8
#define DF__AVOID_SW (DF__NOT_R8 & DF_NOT_H)
#define DF__AVOID_W  DF_NOT_H
#define DF__AVOID_SE (DF__NOT_R8 & DF_NOT_A)
static const df_bb df__avoid[8]
    __attribute__((aligned(64))) = {DF__AVOID_N, DF__AVOID_NE, DF__AVOID_E, DF__AVOID_NW,
                                    DF__AVOID_S, DF__AVOID_SW, DF__AVOID_W, DF__AVOID_SE};

static inline v8 df__load(const void *p) { return simde_mm512_loadu_si512(p); }
static inline v8 df__rot(v8 x, const int64_t *counts)
{
    return simde_mm512_rolv_epi64(x, df__load(counts));
}
/* a | (b & c): 0xf0 | (0xcc & 0xaa) = 0xf8 */
static inline v8 df__or_and(v8 a, v8 b, v8 c)
{
    return simde_mm512_ternarylogic_epi64(a, b, c, 0xf8);
}

/* The eight occluded fills of gen through pro (already masked by df__avoid), then the final
 * step onto the attacked squares. */
static inline v8 df__fill(v8 gen, v8 pro)
{
    gen = df__or_and(gen, pro, df__rot(gen, df__rot1));
    pro = simde_mm512_and_si512(pro, df__rot(pro, df__rot1));
    gen = df__or_and(gen, pro, df__rot(gen, df__rot2));
    pro = simde_mm512_and_si512(pro, df__rot(pro, df__rot2));
    gen = df__or_and(gen, pro, df__rot(gen, df__rot4));
    return simde_mm512_and_si512(df__rot(gen, df__rot1), df__load(df__avoid));
}

static inline v8 df__pro(df_bb empty)
{
    return simde_mm512_and_si512(simde_mm512_set1_epi64((int64_t)empty), df__load(df__avoid));
}

/* {orth, diag, orth, diag, ...}: even lanes orthogonal, odd lanes diagonal. */
static inline v8 df__alternate(df_bb orth, df_bb diag)
{
    return simde_mm512_mask_blend_epi64((simde__mmask8)0xaa, simde_mm512_set1_epi64((int64_t)orth),
                                        simde_mm512_set1_epi64((int64_t)diag));
}

/* Eight sets into a df_rays as two 256-bit stores: a df_rays need only be 8-byte aligned, and
 * a 512-bit store that straddles a cache line is split, after which the narrow loads that read
 * the sets back are not forwarded from it (measured: slider_union much slower). */
static inline void df__store8(df_bb *out, v8 x)
{
    simde_mm256_storeu_si256((simde__m256i *)out, simde_mm512_castsi512_si256(x));
    simde_mm256_storeu_si256((simde__m256i *)(out + 4), simde_mm512_extracti64x4_epi64(x, 1));
}

/* ...and read back the same way: a 512-bit load over two narrower stores is not forwarded
 * either (measured: xrays after slider_rays much slower with one wide load). */
static inline v8 df__load8(const df_bb *in)
{
    return simde_mm512_inserti64x4(
        simde_mm512_castsi256_si512(simde_mm256_loadu_si256((const simde__m256i *)in)),
        simde_mm256_loadu_si256((const simde__m256i *)(in + 4)), 1);
}

static inline void df__rays_of(df_rays *out, df_bb orth, df_bb diag, df_bb empty)
{
    df__store8(out->r, df__fill(df__alternate(orth, diag), df__pro(empty)));
}

static inline void df__rays_from(df_rays *out, const df_rays *gen, df_bb mask, df_bb empty)
{
    const v8 g = simde_mm512_and_si512(df__load8(gen->r), simde_mm512_set1_epi64((int64_t)mask));
    df__store8(out->r, df__fill(g, df__pro(empty)));
}

/* The counted fill: the eight lanes masked, then counted by vpopcntq and summed in registers
 * where the CPU has VPOPCNTDQ (df__vpopcnt: a flag read once a count, the same branch every
 * time). Elsewhere they are stored once to an aligned block (a 512-bit store inside one cache
 * line forwards to the narrow loads), each popcount reading its lane from memory: extracting
 * the lanes to registers first costs two instructions a lane. vpopcntq is written as
 * assembly, which needs no -mavx512vpopcntdq for the whole file (with it, GCC would be free
 * to use the instruction anywhere, on CPUs without it too). */
#define DF__HAVE_RAYS_COUNT
static inline uint64_t df__rays_count(df_bb orth, df_bb diag, df_bb empty, df_bb target)
{
    const v8 moves = simde_mm512_and_si512(df__fill(df__alternate(orth, diag), df__pro(empty)),
                                           simde_mm512_set1_epi64((int64_t)target));
#if !defined(DF_AVX512_EMULATED)
    if (df__vpopcnt()) {
        v8 counts;
        __asm__("vpopcntq %1, %0" : "=v"(counts) : "v"(moves));
        const simde__m256i h = simde_mm256_add_epi64(simde_mm512_castsi512_si256(counts),
                                                     simde_mm512_extracti64x4_epi64(counts, 1));
        const simde__m128i q =
            simde_mm_add_epi64(simde_mm256_castsi256_si128(h), simde_mm256_extracti128_si256(h, 1));
        return (uint64_t)simde_mm_cvtsi128_si64(
            simde_mm_add_epi64(q, simde_mm_unpackhi_epi64(q, q)));
    }
#endif
    _Alignas(64) df_bb lanes[DF_DIRS];
    simde_mm512_store_si512(lanes, moves);
    uint64_t n = 0;
    for (int d = 0; d < DF_DIRS; d++) n += (uint64_t)df_popcount(lanes[d]);
    return n;
}

/* The propagators of a fill through the whole board after two and four steps: constants,
 * derived from df__avoid and the rotation counts at compile time. */
#define DF__ROTL(x, s)          ((df_bb)(x) << ((s)&63) | (df_bb)(x) >> ((64 - (s)) & 63))
#define DF__PRO2(avoid, r1)     ((avoid)&DF__ROTL(avoid, r1))
#define DF__PRO4(avoid, r1, r2) (DF__PRO2(avoid, r1) & DF__ROTL(DF__PRO2(avoid, r1), r2))
static const df_bb df__full_pro2[8] __attribute__((aligned(64))) = {
    DF__PRO2(DF__AVOID_N, 8),  DF__PRO2(DF__AVOID_NE, 9), DF__PRO2(DF__AVOID_E, 1),
    DF__PRO2(DF__AVOID_NW, 7), DF__PRO2(DF__AVOID_S, 56), DF__PRO2(DF__AVOID_SW, 55),
    DF__PRO2(DF__AVOID_W, 63), DF__PRO2(DF__AVOID_SE, 57)};
static const df_bb df__full_pro4[8] __attribute__((aligned(64))) = {
    DF__PRO4(DF__AVOID_N, 8, 16),  DF__PRO4(DF__AVOID_NE, 9, 18), DF__PRO4(DF__AVOID_E, 1, 2),
    DF__PRO4(DF__AVOID_NW, 7, 14), DF__PRO4(DF__AVOID_S, 56, 48), DF__PRO4(DF__AVOID_SW, 55, 46),
    DF__PRO4(DF__AVOID_W, 63, 62), DF__PRO4(DF__AVOID_SE, 57, 50)};

/* One square's eight rays: the empty-board rays, cut behind their first blocker. The blockers
 * are smeared onward by a fill through the whole board, so that no rotation wraps a blocker
 * back onto the ray. */
static inline v8 df__square_rays_v(df_square sq, v8 occ)
{
    const v8 ray = df__load(df_ray_table[sq]), pro1 = df__load(df__avoid);
    v8 smear = simde_mm512_and_si512(ray, occ);
    smear = df__or_and(smear, pro1, df__rot(smear, df__rot1));
    smear = df__or_and(smear, df__load(df__full_pro2), df__rot(smear, df__rot2));
    smear = df__or_and(smear, df__load(df__full_pro4), df__rot(smear, df__rot4));
    /* ray & ~(rotate(smear) & avoid): 0xf0 & ~(0xcc & 0xaa) = 0x70 */
    return simde_mm512_ternarylogic_epi64(ray, df__rot(smear, df__rot1), pro1, 0x70);
}

static inline void df__square_rays2(df_rays *out, df_square sq, df_bb occ_orth, df_bb occ_diag)
{
    df__store8(out->r, df__square_rays_v(sq, df__alternate(occ_orth, occ_diag)));
}

/* King scans on k-registers (king_scans_tpl.h runs the same logic lane by lane): lane
 * decisions are test masks, each output a zero-masked move, and one 8x4 OR reduction gives
 * the four sets of the first pass. */
#define DF__HAVE_KING_SCANS
#include "fill/king_scans_tpl.h"

static inline simde__mmask8 df__nonzero(v8 x) { return simde_mm512_test_epi64_mask(x, x); }
/* Lanes holding exactly one square: x & (x - 1) is zero, x is not. */
static inline simde__mmask8 df__single_mask(v8 x)
{
    const v8 below = simde_mm512_sub_epi64(x, simde_mm512_set1_epi64(1));
    return (simde__mmask8)(simde_mm512_testn_epi64_mask(x, below) & df__nonzero(x));
}

/* (OR of a's lanes, of b's, of c's, of d's) as four words. */
static inline simde__m256i df__or8x4(v8 a, v8 b, v8 c, v8 d)
{
    /* 128-bit block k of ab: a(2k) | a(2k+1), b(2k) | b(2k+1); likewise cd. */
    const v8 ab =
        simde_mm512_or_si512(simde_mm512_unpacklo_epi64(a, b), simde_mm512_unpackhi_epi64(a, b));
    const v8 cd =
        simde_mm512_or_si512(simde_mm512_unpacklo_epi64(c, d), simde_mm512_unpackhi_epi64(c, d));
    /* Blocks: ab0|ab2, ab1|ab3, cd0|cd2, cd1|cd3; then each pair of blocks folded. */
    const v8 x = simde_mm512_or_si512(simde_mm512_shuffle_i64x2(ab, cd, 0x44),
                                      simde_mm512_shuffle_i64x2(ab, cd, 0xee));
    const v8 y = simde_mm512_or_si512(x, simde_mm512_shuffle_i64x2(x, x, 0xb1));
    return simde_mm512_castsi512_si256(simde_mm512_shuffle_i64x2(y, y, 0x08));
}

/* The OR of x's eight lanes. */
static inline df_bb df__or8(v8 x)
{
    const simde__m256i h =
        simde_mm256_or_si256(simde_mm512_castsi512_si256(x), simde_mm512_extracti64x4_epi64(x, 1));
    const simde__m128i q =
        simde_mm_or_si128(simde_mm256_castsi256_si128(h), simde_mm256_extracti128_si256(h, 1));
    return (df_bb)(simde_mm_extract_epi64(q, 0) | simde_mm_extract_epi64(q, 1));
}

/* The sliders attacking sq: its eight rays masked by the kind that moves along each, then
 * reduced in registers. */
#define DF__HAVE_SLIDER_ATTACKERS
static inline df_bb df__slider_attackers(df_square sq, df_bb occ, df_bb rq, df_bb bq)
{
    return df__or8(simde_mm512_and_si512(
        df__square_rays_v(sq, simde_mm512_set1_epi64((int64_t)occ)), df__alternate(rq, bq)));
}

static inline void df__pin_scan(df_king_safety_sets *o, df_square ksq, df_bb own, df_bb enemy,
                                df_bb e_orth, df_bb e_diag)
{
    const v8 sl = df__alternate(e_orth, e_diag);
    if (!simde_mm512_test_epi64_mask(df__load(df_ray_table[ksq]), sl)) {
        simde_mm256_storeu_si256((simde__m256i *)&o->checkers, simde_mm256_setzero_si256());
        return;
    }
    const v8 a = df__square_rays_v(ksq, simde_mm512_set1_epi64((int64_t)enemy));
    const v8 hit = simde_mm512_and_si512(a, sl);
    const v8 passed = simde_mm512_and_si512(a, simde_mm512_set1_epi64((int64_t)own));
    const simde__mmask8 hits = df__nonzero(hit), none = (simde__mmask8)~df__nonzero(passed);
    const simde__mmask8 one = df__single_mask(passed);
    const v8 checkers = simde_mm512_maskz_mov_epi64(none, hit);
    const v8 pinned = simde_mm512_maskz_mov_epi64(hits & one, passed);
    const v8 pinners = simde_mm512_maskz_mov_epi64(one, hit);
    const v8 block = simde_mm512_maskz_mov_epi64(hits & none, simde_mm512_andnot_si512(hit, a));
    /* checkers, pinned, pinners, check_block: the first four fields, in this order. */
    simde__m256i *fields = (simde__m256i *)&o->checkers;
    simde_mm256_storeu_si256(fields, df__or8x4(checkers, pinned, pinners, block));
}

static inline df_bb df__discover_scan(df_square eksq, df_bb own, df_bb enemy, df_bb u_orth,
                                      df_bb u_diag, df_bb empty)
{
    const v8 sl = df__alternate(u_orth, u_diag);
    if (!simde_mm512_test_epi64_mask(df__load(df_ray_table[eksq]), sl)) return 0;
    const v8 a =
        df__square_rays_v(eksq, simde_mm512_or_si512(simde_mm512_set1_epi64((int64_t)enemy), sl));
    const v8 hit = simde_mm512_and_si512(a, sl);
    /* a & own & ~hit: 0xf0 & 0xcc & ~0xaa = 0x40 */
    const v8 passed =
        simde_mm512_ternarylogic_epi64(a, simde_mm512_set1_epi64((int64_t)own), hit, 0x40);
    const simde__mmask8 hits = df__nonzero(hit);
    df_bb found = df__or8(simde_mm512_maskz_mov_epi64(hits & df__single_mask(passed), passed));
    const simde__mmask8 direct = hits & (simde__mmask8)~df__nonzero(passed);
    if (direct) {
        df_rays d;
        df__store8(d.r, simde_mm512_maskz_mov_epi64(direct, hit));
        found |= df__discoverers_behind(&d, u_orth, u_diag, empty);
    }
    return found;
}

/* The attack map with the counting in vector registers. In one direction each square has at
 * most one attacker, so the eight ray lanes, the eight knight-jump lanes and the lanes of the
 * pawn directions and the king are disjoint per source: a first layer of eight full adders
 * (two vpternlogq: sum 0x96, carry 0xe8) adds them lane by lane, then the lanes are halved
 * 8 -> 4 -> 2 -> 1 with a full adder per weight at each step. */
#define DF__HAVE_ATTACK_MAP

/* Knight jumps as rotations, in df_knight_jump's order: the landing files of the jump, less
 * the squares a rotation (unlike a shift) would wrap onto. */
#define DF__JUMP_LAND(land, delta)                                                                 \
    ((land) & ((delta) > 0 ? DF_FULL << ((delta)&63) : DF_FULL >> (-(delta)&63)))
static const int64_t df__knight_rot[8]
    __attribute__((aligned(64))) = {17, 10, 58, 49, 47, 54, 6, 15};
static const df_bb df__knight_land[8] __attribute__((aligned(64))) = {
    DF__JUMP_LAND(DF_NOT_A, 17),  DF__JUMP_LAND(DF_NOT_AB, 10), DF__JUMP_LAND(DF_NOT_AB, -6),
    DF__JUMP_LAND(DF_NOT_A, -15), DF__JUMP_LAND(DF_NOT_H, -17), DF__JUMP_LAND(DF_NOT_GH, -10),
    DF__JUMP_LAND(DF_NOT_GH, 6),  DF__JUMP_LAND(DF_NOT_H, 15)};

typedef simde__m256i v4;
typedef simde__m128i v2;
#define DF__XOR3 0x96 /* a ^ b ^ c */
#define DF__MAJ  0xe8 /* at least two of a, b, c */

/* The count planes of 24 one-bit inputs: three vectors of eight lanes. */
static inline void df__count_lanes(df_bb planes[DF_COUNT_BITS], v8 a, v8 b, v8 c)
{
    const v8 s = simde_mm512_ternarylogic_epi64(a, b, c, DF__XOR3);
    const v8 k = simde_mm512_ternarylogic_epi64(a, b, c, DF__MAJ);
    /* 8 -> 4 lanes: weights 1 and 2. */
    const v4 sl = simde_mm512_castsi512_si256(s), sh = simde_mm512_extracti64x4_epi64(s, 1);
    const v4 kl = simde_mm512_castsi512_si256(k), kh = simde_mm512_extracti64x4_epi64(k, 1);
    const v4 a1 = simde_mm256_xor_si256(sl, sh), a2 = simde_mm256_and_si256(sl, sh);
    const v4 b1 = simde_mm256_ternarylogic_epi64(kl, kh, a2, DF__XOR3);
    const v4 b2 = simde_mm256_ternarylogic_epi64(kl, kh, a2, DF__MAJ);
    /* 4 -> 2 lanes: weights 1, 2, 4 and 8. */
    const v2 a1l = simde_mm256_castsi256_si128(a1), a1h = simde_mm256_extracti128_si256(a1, 1);
    const v2 b1l = simde_mm256_castsi256_si128(b1), b1h = simde_mm256_extracti128_si256(b1, 1);
    const v2 b2l = simde_mm256_castsi256_si128(b2), b2h = simde_mm256_extracti128_si256(b2, 1);
    const v2 d1 = simde_mm_xor_si128(a1l, a1h), d2 = simde_mm_and_si128(a1l, a1h);
    const v2 e1 = simde_mm_ternarylogic_epi64(b1l, b1h, d2, DF__XOR3);
    const v2 e2 = simde_mm_ternarylogic_epi64(b1l, b1h, d2, DF__MAJ);
    const v2 f1 = simde_mm_ternarylogic_epi64(b2l, b2h, e2, DF__XOR3);
    const v2 f2 = simde_mm_ternarylogic_epi64(b2l, b2h, e2, DF__MAJ);
    /* 2 -> 1 lane: the planes, each weight's carry into the next. */
    const v2 g = simde_mm_and_si128(d1, simde_mm_unpackhi_epi64(d1, d1));
    const v2 p0 = simde_mm_xor_si128(d1, simde_mm_unpackhi_epi64(d1, d1));
    const v2 e1h = simde_mm_unpackhi_epi64(e1, e1), f1h = simde_mm_unpackhi_epi64(f1, f1);
    const v2 f2h = simde_mm_unpackhi_epi64(f2, f2);
    const v2 p1 = simde_mm_ternarylogic_epi64(e1, e1h, g, DF__XOR3);
    const v2 h = simde_mm_ternarylogic_epi64(e1, e1h, g, DF__MAJ);
    const v2 p2 = simde_mm_ternarylogic_epi64(f1, f1h, h, DF__XOR3);
    const v2 i = simde_mm_ternarylogic_epi64(f1, f1h, h, DF__MAJ);
    const v2 p3 = simde_mm_ternarylogic_epi64(f2, f2h, i, DF__XOR3);
    const v2 p4 = simde_mm_ternarylogic_epi64(f2, f2h, i, DF__MAJ);
    planes[0] = (df_bb)simde_mm_cvtsi128_si64(p0);
    planes[1] = (df_bb)simde_mm_cvtsi128_si64(p1);
    planes[2] = (df_bb)simde_mm_cvtsi128_si64(p2);
    planes[3] = (df_bb)simde_mm_cvtsi128_si64(p3);
    planes[4] = (df_bb)simde_mm_cvtsi128_si64(p4);
}

static inline void df__attack_map(df_attack_map *m, const df_board *b, df_color color)
{
    const df_bb occ = df_board_occupied(b), own = b->color[color];
    const df_bb queens = own & b->piece[DF_QUEEN], pawns = own & b->piece[DF_PAWN];
    const v8 pro = df__pro(~occ);
    const v8 rb = df__fill(df__alternate(own & b->piece[DF_ROOK], own & b->piece[DF_BISHOP]), pro);
    const v8 q = queens ? df__fill(simde_mm512_set1_epi64((int64_t)queens), pro)
                        : simde_mm512_setzero_si512();
    const v8 rays = simde_mm512_or_si512(rb, q);
    df__store8(m->rays.r, rays);
    df__store8(m->xrays.r,
               df__fill(simde_mm512_and_si512(rays, simde_mm512_set1_epi64((int64_t)occ)), pro));
    const v8 jumps = simde_mm512_and_si512(
        df__rot(simde_mm512_set1_epi64((int64_t)(own & b->piece[DF_KNIGHT])), df__knight_rot),
        df__load(df__knight_land));
    const df_bb east = df_pawn_east_attacks(pawns, color),
                west = df_pawn_west_attacks(pawns, color);
    const df_bb king = df_king_table[df_lsb(own & b->piece[DF_KING])];
    const v8 rest = simde_mm512_mask_set1_epi64(
        simde_mm512_mask_set1_epi64(simde_mm512_maskz_set1_epi64(1, (int64_t)east), 2,
                                    (int64_t)west),
        4, (int64_t)king);
    m->pawn_east = east;
    m->pawn_west = west;
    m->by_type[DF_PAWN] = east | west;
    m->by_type[DF_KING] = king;
    /* by_type[DF_KNIGHT .. DF_QUEEN]: knight, bishop, rook, queen, contiguous. */
    simde_mm256_storeu_si256((v4 *)&m->by_type[DF_KNIGHT],
                             df__or8x4(jumps, simde_mm512_maskz_mov_epi64(0xaa, rb),
                                       simde_mm512_maskz_mov_epi64(0x55, rb), q));
    m->all = df__or8(simde_mm512_ternarylogic_epi64(rays, jumps, rest, 0xfe));
    df__count_lanes(m->count, rays, jumps, rest);
    m->twice = m->count[1] | m->count[2] | m->count[3] | m->count[4];
}

#include "avx2/expand.h"
/* The PGN skimmer classifies its blocks with AVX-512BW, in a file of its own (pgn_skim.h). */
#include "pgn_skim.h"
#define DF__PGN_SKIM DF__PGN_SKIM_BW
#include "backend_tpl.h"
