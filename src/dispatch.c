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

/* The entry a name stands for: its first supported build, else its first (NULL: no such
 * name). */
static const df__backend *df__find(const char *name)
{
    const df__backend *first = NULL;
    for (size_t i = 0; i < DF__REGISTRY_SIZE; i++)
        if (strcmp(df__registry[i]->name, name) == 0) {
            if (df__registry[i]->cpu_supports()) return df__registry[i];
            if (!first) first = df__registry[i];
        }
    return first;
}

/* The public list names each backend once: registry entries whose name came earlier are
 * left out. */
static bool df__first_of_name(size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (strcmp(df__registry[j]->name, df__registry[i]->name) == 0) return false;
    return true;
}

/* The resolver table: each entry resolves, then forwards its call. */
#define DF__RETURN_void
#define DF__RETURN_uint64_t return
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

/* Every racing thread computes the same answer; the first store wins and the others adopt
 * it, so all see one backend. An unknown or unsupported DIRFILL_BACKEND falls back to the
 * best supported backend: the library never runs an instruction the CPU lacks. */
const df__backend *df__backend_resolve(void)
{
    const df__backend *current = df__backend_active();
    if (current != &df__resolver) return current;
    const df__backend *want = df__best();
    const char *env = getenv("DIRFILL_BACKEND");
    if (env && strcmp(env, "auto") != 0) {
        const df__backend *named = df__find(env);
        if (named && named->cpu_supports()) want = named;
    }
    if (atomic_compare_exchange_strong_explicit(&df__active, &current, want, memory_order_relaxed,
                                                memory_order_relaxed))
        return want;
    return current;
}

void df__backend_force(const df__backend *b)
{
    atomic_store_explicit(&df__active, b, memory_order_relaxed);
}

const char *df_backend_name(void) { return df__backend_resolve()->name; }

size_t df_backend_count(void)
{
    size_t n = 0;
    for (size_t i = 0; i < DF__REGISTRY_SIZE; i++) n += df__first_of_name(i);
    return n;
}

bool df_backend_info_at(size_t i, df_backend_info *out)
{
    if (!out) return false;
    for (size_t k = 0; k < DF__REGISTRY_SIZE; k++)
        if (df__first_of_name(k) && i-- == 0) {
            out->name = df__registry[k]->name;
            out->supported = df__find(out->name)->cpu_supports();
            return true;
        }
    return false;
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
