/* CPU feature detection, compiled with baseline flags only. */
#include "backend.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* AVX2 needs the CPU (CPUID.7.0:EBX bit 5) and the OS: OSXSAVE set and XCR0 showing that
 * the OS saves SSE and AVX state (bits 1 and 2), or YMM registers would be clobbered. */
bool df__cpu_has_avx2(void)
{
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
    const unsigned osxsave = 1u << 27, avx = 1u << 28;
    if ((ecx & (osxsave | avx)) != (osxsave | avx)) return false;
    unsigned xcr0_lo, xcr0_hi;
    __asm__ volatile("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
    (void)xcr0_hi;
    if ((xcr0_lo & 6) != 6) return false;
    if (__get_cpuid_max(0, 0) < 7) return false;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    return (ebx & (1u << 5)) != 0;
}
#else
bool df__cpu_has_avx2(void) { return false; }
#endif

bool df__cpu_always(void) { return true; }
