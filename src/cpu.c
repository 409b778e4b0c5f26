/* SPDX-License-Identifier: MIT */
/* CPU feature detection, compiled with baseline flags so that it never runs an instruction
 * it tests for. A backend needs the CPU's features *and* the OS saving the registers. */
#include "backend.h"
#include "lookup/lookup.h"

/* XCR0: which register states the OS saves on a context switch. */
#define XCR0_SSE       (1u << 1)
#define XCR0_AVX       (1u << 2)
#define XCR0_OPMASK    (1u << 5)
#define XCR0_ZMM_HI256 (1u << 6)
#define XCR0_HI16_ZMM  (1u << 7)
/* CPUID.1:ECX and CPUID.(7,0):EBX bits (macros: bit 31 does not fit an enumerator's int). */
#define ECX1_PCLMULQDQ (1u << 1)
#define ECX1_POPCNT    (1u << 23)
#define ECX1_OSXSAVE   (1u << 27)
#define ECX1_AVX       (1u << 28)
#define EBX7_BMI1      (1u << 3)
#define EBX7_AVX2      (1u << 5)
#define EBX7_BMI2      (1u << 8)
#define EBX7_AVX512F   (1u << 16)
#define EBX7_AVX512BW  (1u << 30)
#define EBX7_AVX512VL  (1u << 31)
#define ECX7_VPOPCNTDQ (1u << 14)

/* The rule, on the registers' values (tested on CPUs described by hand): the CPU has every
 * bit of ebx7 and the OS saves every state of xcr0. Also required: POPCNT (the backends'
 * -mavx2 implies it for the compiler), PCLMULQDQ (the PGN skim's comment parity in one
 * instruction; every x86 CPU since 2010 has it) and BMI1 and BMI2, which the vector backends are
 * compiled with (blsr, andn, tzcnt, shlx in the move generator: every CPU with AVX2 from Intel
 * and AMD has them; one without gets the scalar backend, not an illegal instruction). */
bool df__cpu_rule(unsigned ecx1, unsigned ebx7, unsigned xcr0, df__vector_isa isa)
{
    /* The AVX-512 backend is compiled with F and VL only: with BW or DQ enabled, GCC keeps
     * 64-bit bitboards in mask registers (kmovq, kandq), which slows the scalar move generator.
     * Its PGN skimmer, a file of its own (avx512/pgn_skim.c), needs BW: every CPU with VL has it
     * (Skylake-X onward, Zen 4 onward; Xeon Phi has neither), so requiring it loses none. */
    static const struct {
        unsigned ebx7, xcr0;
    } need[DF__VECTOR_ISAS] = {
        [DF__ISA_AVX2] = {EBX7_AVX2, XCR0_SSE | XCR0_AVX},
        [DF__ISA_AVX512] = {EBX7_AVX2 | EBX7_AVX512F | EBX7_AVX512VL | EBX7_AVX512BW,
                            XCR0_SSE | XCR0_AVX | XCR0_OPMASK | XCR0_ZMM_HI256 | XCR0_HI16_ZMM},
    };
    const unsigned need1 = ECX1_PCLMULQDQ | ECX1_POPCNT | ECX1_OSXSAVE | ECX1_AVX;
    const unsigned want_ebx7 = need[isa].ebx7 | EBX7_BMI1 | EBX7_BMI2, want_xcr0 = need[isa].xcr0;
    return (ecx1 & need1) == need1 && (xcr0 & want_xcr0) == want_xcr0 &&
           (ebx7 & want_ebx7) == want_ebx7;
}

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* df__cpu_rule on this CPU (xgetbv only where OSXSAVE says it may run). */
static bool df__cpu_has(df__vector_isa isa)
{
    unsigned eax, ebx, ecx, edx, ecx1, ebx7 = 0, xcr0 = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx1, &edx)) return false;
    if (ecx1 & ECX1_OSXSAVE) {
        unsigned hi;
        __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(hi) : "c"(0));
        (void)hi;
    }
    if (__get_cpuid_max(0, 0) >= 7) __cpuid_count(7, 0, eax, ebx7, ecx, edx);
    return df__cpu_rule(ecx1, ebx7, xcr0, isa);
}

bool df__cpu_has_popcnt(void)
{
    unsigned eax, ebx, ecx, edx;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & ECX1_POPCNT);
}
bool df__cpu_has_avx2(void) { return df__cpu_has(DF__ISA_AVX2); }
bool df__cpu_has_avx512(void) { return df__cpu_has(DF__ISA_AVX512); }
static bool df__cpu_has_vpopcntdq(void)
{
    unsigned eax, ebx, ecx, edx;
    if (__get_cpuid_max(0, 0) < 7) return false;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    return (ecx & ECX7_VPOPCNTDQ) != 0;
}
#else
bool df__cpu_has_popcnt(void) { return false; }
bool df__cpu_has_avx2(void) { return false; }
bool df__cpu_has_avx512(void) { return false; }
static bool df__cpu_has_vpopcntdq(void) { return false; }
#endif

bool df__vpopcnt_rule(bool avx512, bool vpopcntdq) { return avx512 && vpopcntdq; }

_Atomic int df__vpopcnt_state = -1;

/* Racing threads find the same answer. */
bool df__vpopcnt_resolve(void)
{
    const bool on = df__vpopcnt_rule(df__cpu_has_avx512(), df__cpu_has_vpopcntdq());
    atomic_store_explicit(&df__vpopcnt_state, on, memory_order_relaxed);
    return on;
}

void df__vpopcnt_force(bool on)
{
    atomic_store_explicit(&df__vpopcnt_state, on, memory_order_relaxed);
}

bool df__cpu_always(void) { return true; }

#if defined(__x86_64__) || defined(__i386__)
df__cpu_desc df__cpu_describe(void)
{
    df__cpu_desc d = {DF__VENDOR_OTHER, 0, false};
    unsigned max, ebx, ecx, edx, eax;
    __cpuid(0, max, ebx, ecx, edx);
    /* The vendor string is EBX, EDX, ECX: "GenuineIntel", "AuthenticAMD". */
    if (ebx == 0x756e6547 && edx == 0x49656e69 && ecx == 0x6c65746e) d.vendor = DF__VENDOR_INTEL;
    if (ebx == 0x68747541 && edx == 0x69746e65 && ecx == 0x444d4163) d.vendor = DF__VENDOR_AMD;
    if (max < 1) return d;
    __cpuid(1, eax, ebx, ecx, edx);
    /* The displayed family: the base family, plus the extended family when the base is 15. */
    d.family = (eax >> 8) & 15;
    if (d.family == 15) d.family += (eax >> 20) & 255;
    if (max >= 7) {
        __cpuid_count(7, 0, eax, ebx, ecx, edx);
        d.bmi2 = (ebx & EBX7_BMI2) != 0;
    }
    return d;
}
#else
df__cpu_desc df__cpu_describe(void) { return (df__cpu_desc){DF__VENDOR_OTHER, 0, false}; }
#endif
