/* SPDX-License-Identifier: MIT */
/**
 * @file backend.h
 * @brief Run-time backend selection: which instruction set the dispatched calls use, and which
 *        lookup method the queries about one square use.
 *
 * Backends, best first: "avx512" (AVX-512 F and VL), "avx2", "scalar" (64-bit integer code;
 * on x86-64 built with POPCNT) and, on x86-64 only, "scalar-baseline" (the same without
 * POPCNT, for CPUs that lack it). Every backend computes identical results. The active one is
 * resolved on the first dispatched call from the environment variable DIRFILL_BACKEND (a
 * backend name or auto; read once); a value this CPU cannot run, or an unknown one (names are
 * exact: "AVX2" and "avx2 " are unknown), falls back to the best supported backend, so the
 * library never executes an instruction the CPU lacks; df_backend_env_status says whether
 * that happened.
 */
#ifndef DIRFILL_BACKEND_H
#define DIRFILL_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One compiled backend and whether this machine can run it. */
typedef struct df_backend_info {
    const char *name; /**< "avx512", "avx2", "scalar" or "scalar-baseline" (a constant
                           string) */
    bool supported;   /**< whether this CPU and OS can run it */
} df_backend_info;

/** Name of the backend that dispatched calls use (a constant string). Resolves it on first
 *  use as the file comment says. Thread-safe. */
DF_API const char *df_backend_name(void);
/** Number of backends compiled into the library. Thread-safe. */
DF_API size_t df_backend_count(void);
/** Fills *out for backend i (0 <= i < df_backend_count(), best first); false when i is out
 *  of range or out is NULL. Thread-safe. */
DF_API bool df_backend_info_at(size_t i, df_backend_info *out);
/** What became of DIRFILL_BACKEND: DF_OK when it was unset, empty, "auto" or a backend this
 *  CPU runs (and so is in use), DF_ERR_UNKNOWN_BACKEND or DF_ERR_UNSUPPORTED_BACKEND when it
 *  was ignored for the best supported backend. Resolves the backend first; when
 *  df_backend_select came before any dispatched call the variable was never read (DF_OK).
 *  Thread-safe. */
DF_API df_status df_backend_env_status(void);
/** Makes every later dispatched call use the named backend ("auto": the best supported).
 *  Returns DF_OK, DF_ERR_UNKNOWN_BACKEND (also for NULL or "") or DF_ERR_UNSUPPORTED_BACKEND;
 *  nothing changes on an error. Thread-safe, also while other threads compute: a call
 *  already running finishes on the backend it started with, and as every backend gives the
 *  same results, no caller can tell which one served it. */
DF_API df_status df_backend_select(const char *name);

/** Name of the method that queries about one square use (a constant string): df_attackers_to,
 *  df_attackers_to_all, df_is_attacked, df_see, df_gives_check and what calls them. "pext"
 *  (PEXT tables: chosen where PEXT is fast, Intel with BMI2 and AMD from Zen 3 on), "magic"
 *  (fancy magic tables: chosen everywhere else) or "rays" (no tables: the backend's eight-ray
 *  kernel and per-ray bit scans). Resolved on first use from the environment variable
 *  DIRFILL_LOOKUP (a method name or auto; read once; a name this CPU cannot run or an unknown
 *  one is ignored). The set-wise calls always use the backend's fills. Thread-safe. */
DF_API const char *df_lookup_name(void);
/** Makes later one-square queries use the named method ("auto": this CPU's choice), building
 *  its tables first (about 0.9 MB, once). Returns DF_OK, DF_ERR_UNKNOWN_BACKEND (also for
 *  NULL) or DF_ERR_UNSUPPORTED_BACKEND ("pext" without BMI2); nothing changes on an error.
 *  Thread-safe; every method gives the same results. */
DF_API df_status df_lookup_select(const char *name);

#ifdef __cplusplus
}
#endif
#endif
