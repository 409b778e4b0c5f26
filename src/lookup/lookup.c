/* SPDX-License-Identifier: MIT */
/* The one-square lookup methods: the rule that picks one for a CPU, the registry, and the
 * active-method pointer with its resolver (after the backend table, src/dispatch.c). */
#include <stdlib.h>
#include <string.h>

#include "lookup.h"

bool df__pext_is_fast(const df__cpu_desc *cpu)
{
    if (!cpu->bmi2) return false;
    if (cpu->vendor == DF__VENDOR_INTEL) return true;
    return cpu->vendor == DF__VENDOR_AMD && cpu->family >= 0x19;
}

/* Best first. */
static const df__lookup *const df__lookups[] = {
#ifdef DF_HAVE_PEXT
    &df__lookup_pext,
#endif
    &df__lookup_magic,
    &df__lookup_rays,
};
#define DF__LOOKUP_COUNT (sizeof df__lookups / sizeof df__lookups[0])

const df__lookup *const *df__lookup_registry(size_t *count)
{
    *count = DF__LOOKUP_COUNT;
    return df__lookups;
}

const df__lookup *df__lookup_for(const df__cpu_desc *cpu)
{
#ifdef DF_HAVE_PEXT
    if (df__pext_is_fast(cpu)) return &df__lookup_pext;
#else
    (void)cpu;
#endif
    return &df__lookup_magic;
}

static const df__lookup *df__lookup_find(const char *name)
{
    for (size_t i = 0; i < DF__LOOKUP_COUNT; i++)
        if (strcmp(df__lookups[i]->name, name) == 0) return df__lookups[i];
    return NULL;
}

static void df__lookup_install(const df__lookup *m)
{
    m->init();
    atomic_store_explicit(&df__lookup_active_ptr, m, memory_order_release);
}

#define DF__RETURN_void
#define DF__RETURN_df_bb return
#define DF__RETURN_bool  return
#define DF__RETURN_int   return
#define DF__RESOLVING_STUB(ret, fn, params, args)                                                  \
    static ret df__lookup_resolve_##fn params { DF__RETURN_##ret df__lookup_resolve()->fn args; }
DF__LOOKUP_ENTRIES(DF__RESOLVING_STUB)
#undef DF__RESOLVING_STUB

static void df__no_tables(void) {}
static const df__lookup df__lookup_resolver = {.name = "unresolved",
                                               .cpu_supports = df__cpu_always,
                                               .init = df__no_tables,
                                               .sliders = DF__SLIDERS_UNRESOLVED,
#define DF__RESOLVER_ENTRY(ret, fn, params, args) .fn = df__lookup_resolve_##fn,
                                               DF__LOOKUP_ENTRIES(DF__RESOLVER_ENTRY)
#undef DF__RESOLVER_ENTRY
};

_Atomic(const df__lookup *) df__lookup_active_ptr = &df__lookup_resolver;

/* DIRFILL_LOOKUP names a method (or auto), read once; a method this CPU cannot run or an
 * unknown name is ignored for the CPU's choice. Racing threads may each install a method:
 * they all install the same one. */
const df__lookup *df__lookup_resolve(void)
{
    const df__lookup *current = df__lookup_active();
    if (current != &df__lookup_resolver) return current;
    const df__cpu_desc cpu = df__cpu_describe();
    const df__lookup *want = df__lookup_for(&cpu);
    const char *env = getenv("DIRFILL_LOOKUP");
    if (env && *env && strcmp(env, "auto") != 0) {
        const df__lookup *named = df__lookup_find(env);
        if (named && named->cpu_supports()) want = named;
    }
    df__lookup_install(want);
    return want;
}

const char *df_lookup_name(void) { return df__lookup_resolve()->name; }

df_status df_lookup_select(const char *name)
{
    if (!name) return DF_ERR_UNKNOWN_BACKEND;
    const df__cpu_desc cpu = df__cpu_describe();
    const df__lookup *m = strcmp(name, "auto") == 0 ? df__lookup_for(&cpu) : df__lookup_find(name);
    if (!m) return DF_ERR_UNKNOWN_BACKEND;
    if (!m->cpu_supports()) return DF_ERR_UNSUPPORTED_BACKEND;
    df__lookup_install(m);
    return DF_OK;
}
