/* SPDX-License-Identifier: MIT */
/* The backend registry and the active-backend pointer (after BLAKE3's blake3_dispatch.c and
 * zlib-ng's self-resolving function table). */
#include <stdlib.h>
#include <string.h>

#include "backend.h"

/* Best first: the first supported entry is what "auto" picks. */
static const df__backend *const df__registry[] = {
#ifdef DF_HAVE_AVX512
    &df__backend_avx512,
#endif
#ifdef DF_HAVE_AVX2
    &df__backend_avx2,
#endif
#ifdef DF_HAVE_SCALAR_POPCNT
    &df__backend_scalar_popcnt,
#endif
    &df__backend_scalar,
};
#define DF__REGISTRY_SIZE (sizeof df__registry / sizeof df__registry[0])

const df__backend *const *df__backend_registry(size_t *count)
{
    *count = DF__REGISTRY_SIZE;
    return df__registry;
}

static const df__backend *df__best(void)
{
    for (size_t i = 0; i < DF__REGISTRY_SIZE; i++)
        if (df__registry[i]->cpu_supports()) return df__registry[i];
    return &df__backend_scalar;
}

/* The registry entry of that name, or NULL. */
static const df__backend *df__find(const char *name)
{
    for (size_t i = 0; i < DF__REGISTRY_SIZE; i++)
        if (strcmp(df__registry[i]->name, name) == 0) return df__registry[i];
    return NULL;
}

/* The resolver table: each entry resolves, then forwards its call. */
#define DF__RETURN_void
#define DF__RETURN_uint64_t return
#define DF__RETURN_int      return
#define DF__RETURN_size_t   return
#define DF__RESOLVING_STUB(ret, fn, params, args)                                                  \
    static ret df__resolve_##fn params { DF__RETURN_##ret df__backend_resolve()->fn args; }
DF__BACKEND_ENTRIES(DF__RESOLVING_STUB)
#undef DF__RESOLVING_STUB

static const df__backend df__resolver = {.name = "unresolved",
                                         .cpu_supports = df__cpu_always,
#define DF__RESOLVER_ENTRY(ret, fn, params, args) .fn = df__resolve_##fn,
                                         DF__BACKEND_ENTRIES(DF__RESOLVER_ENTRY)
#undef DF__RESOLVER_ENTRY
};

_Atomic(const df__backend *) df__active = &df__resolver;

/* What became of DIRFILL_BACKEND at resolution (df_backend_env_status). */
static _Atomic int df__env_status = DF_OK;

/* Every racing thread computes the same answer; the first store wins and the others adopt
 * it, so all see one backend. An unknown or unsupported DIRFILL_BACKEND falls back to the
 * best supported backend: the library never runs an instruction the CPU lacks, and
 * df_backend_env_status tells that the variable was ignored. */
const df__backend *df__backend_resolve(void)
{
    const df__backend *current = df__backend_active();
    if (current != &df__resolver) return current;
    const df__backend *want = df__best();
    const char *env = getenv("DIRFILL_BACKEND");
    if (env && *env && strcmp(env, "auto") != 0) {
        const df__backend *named = df__find(env);
        if (named && named->cpu_supports())
            want = named;
        else
            atomic_store_explicit(&df__env_status,
                                  named ? DF_ERR_UNSUPPORTED_BACKEND : DF_ERR_UNKNOWN_BACKEND,
                                  memory_order_relaxed);
    }
    if (atomic_compare_exchange_strong_explicit(&df__active, &current, want, memory_order_relaxed,
                                                memory_order_relaxed))
        return want;
    return current;
}

df_status df_backend_env_status(void)
{
    df__backend_resolve();
    return (df_status)atomic_load_explicit(&df__env_status, memory_order_relaxed);
}

void df__backend_force(const df__backend *b)
{
    atomic_store_explicit(&df__active, b, memory_order_relaxed);
}

const char *df_backend_name(void) { return df__backend_resolve()->name; }

size_t df_backend_count(void) { return DF__REGISTRY_SIZE; }

bool df_backend_info_at(size_t i, df_backend_info *out)
{
    if (!out || i >= DF__REGISTRY_SIZE) return false;
    out->name = df__registry[i]->name;
    out->supported = df__registry[i]->cpu_supports();
    return true;
}

df_status df_backend_select(const char *name)
{
    if (!name) return DF_ERR_UNKNOWN_BACKEND;
    const df__backend *b = strcmp(name, "auto") == 0 ? df__best() : df__find(name);
    if (!b) return DF_ERR_UNKNOWN_BACKEND;
    if (!b->cpu_supports()) return DF_ERR_UNSUPPORTED_BACKEND;
    df__backend_force(b);
    return DF_OK;
}
