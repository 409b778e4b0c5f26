/* SPDX-License-Identifier: MIT */
/* Internal: the one-square lookups. A query about one square (its attackers, SEE's exchange,
 * gives-check) is answered by a method chosen at run time, independently of the backend: PEXT
 * tables where PEXT is fast, fancy magic elsewhere, or "rays" (the backend's eight-ray kernel
 * and per-ray bit scans). The set-wise calls stay the backends' fills. This header is the
 * choice (lookup.c): the methods, the rule and the active one; what a method is, method.h. */
#ifndef DF_SRC_LOOKUP_H
#define DF_SRC_LOOKUP_H

#include <stdatomic.h>

#include "lookup/method.h"

extern const df__lookup df__lookup_rays, df__lookup_magic;
#ifdef DF_HAVE_PEXT
extern const df__lookup df__lookup_pext;
#endif

/* Whether PEXT is fast on cpu: BMI2 on Intel (Haswell and later: 3 cycles) or on AMD from
 * Zen 3 (family 0x19) on. Zen 1 and 2 (family 0x17) run it in microcode, tens to hundreds of
 * cycles depending on the mask; other vendors are not assumed. A pure function. */
bool df__pext_is_fast(const df__cpu_desc *cpu);
/* The method "auto" picks for cpu among the compiled ones: pext where it is fast, else magic
 * (measured faster than the rays on every one-square query). A pure function. */
const df__lookup *df__lookup_for(const df__cpu_desc *cpu);

/* The active method: starts as a resolver (like the backend table) that picks the method
 * from DIRFILL_LOOKUP, builds its tables and installs it. Acquire: the tables are built at
 * run time, before the release store that installs their method (on x86 a plain load). */
extern _Atomic(const df__lookup *) df__lookup_active_ptr;
static inline const df__lookup *df__lookup_active(void)
{
    return atomic_load_explicit(&df__lookup_active_ptr, memory_order_acquire);
}
const df__lookup *df__lookup_resolve(void);
/* The active method's slider tables, resolving it first: built, and visible to this thread
 * (the acquire load above), when this returns. */
static inline df__sliders df__sliders_active(void)
{
    const df__sliders s = df__lookup_active()->sliders;
    return s != DF__SLIDERS_UNRESOLVED ? s : df__lookup_resolve()->sliders;
}
/* Every compiled method, best first, each name once. */
const df__lookup *const *df__lookup_registry(size_t *count);

#endif
