/* SPDX-License-Identifier: MIT */
/* Internal: the one-square lookups. A query about one square (its attackers, SEE's exchange,
 * gives-check) is answered by a method chosen at run time, independently of the backend: PEXT
 * tables where PEXT is fast, fancy magic elsewhere, or "rays" (the backend's eight-ray kernel
 * and per-ray bit scans). The set-wise calls stay the backends' fills. */
#ifndef DF_SRC_LOOKUP_H
#define DF_SRC_LOOKUP_H

#include <stdatomic.h>

#include "backend.h"

/* The entries, one line each: X(return type, name, parameters, arguments). */
#define DF__LOOKUP_ENTRIES(X)                                                                      \
    X(df_bb, attackers_to, (const df_board *b, df_square sq, df_bb occ), (b, sq, occ))             \
    X(bool, is_attacked, (const df_board *b, df_square sq, df_color by, df_bb occ),                \
      (b, sq, by, occ))                                                                            \
    X(void, attackers_to_all, (df_bb out[64], const df_board *b), (out, b))                        \
    X(int, see, (const df_board *b, df_move m), (b, m))                                            \
    X(int, gives_check, (const df_board *b, df_move m), (b, m))

/* The slider attacks the move generator inlines while a method is active (movegen_tpl.h):
 * its tables (tables.h), or, for "rays", no table (the backend's fills and per-ray scans). */
typedef enum {
    DF__SLIDERS_UNRESOLVED = -1,
    DF__SLIDERS_RAYS,
    DF__SLIDERS_MAGIC,
    DF__SLIDERS_PEXT
} df__sliders;

typedef struct df__lookup {
    const char *name;
    bool (*cpu_supports)(void);
    /* Builds the method's tables before its first use: thread-safe, and only the first call
     * does the work (pthread_once). */
    void (*init)(void);
    df__sliders sliders;
#define DF__FIELD(ret, fn, params, args) ret(*fn) params;
    DF__LOOKUP_ENTRIES(DF__FIELD)
#undef DF__FIELD
} df__lookup;

extern const df__lookup df__lookup_rays, df__lookup_magic;
#ifdef DF_HAVE_PEXT
extern const df__lookup df__lookup_pext;
#endif

/* What the rule needs to know of a CPU: its vendor, its family as cpuid displays it
 * (base family plus extended family), and whether it has BMI2. */
typedef enum { DF__VENDOR_OTHER, DF__VENDOR_INTEL, DF__VENDOR_AMD } df__cpu_vendor;
typedef struct df__cpu_desc {
    df__cpu_vendor vendor;
    unsigned family;
    bool bmi2;
} df__cpu_desc;

/* This CPU (cpu.c). */
df__cpu_desc df__cpu_describe(void);
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
