/* dirfill — run-time backend selection (scalar, AVX2). */
#ifndef DIRFILL_BACKEND_H
#define DIRFILL_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Status codes of the library's fallible calls. */
typedef enum df_status {
    DF_OK = 0,
    DF_ERR_UNKNOWN_BACKEND = -1,     /* no backend of that name was compiled in */
    DF_ERR_UNSUPPORTED_BACKEND = -2, /* compiled in, but this CPU or OS cannot run it */
    DF_ERR_FEN = -3                  /* df_fen_parse: see the df_fen_error it filled */
} df_status;

/** One compiled backend and whether this machine can run it. */
typedef struct df_backend_info {
    const char *name;
    bool supported;
} df_backend_info;

/** Name of the backend that dispatched calls use ("scalar" or "avx2"); resolves it on first
 *  use from DIRFILL_BACKEND (scalar|avx2|auto), falling back to the best supported one. */
DF_API const char *df_backend_name(void);
/** Number of backends compiled into the library, best first. */
DF_API size_t df_backend_count(void);
/** Fills *out for backend i (0 <= i < df_backend_count()); false when i is out of range. */
DF_API bool df_backend_info_at(size_t i, df_backend_info *out);
/** Makes every later dispatched call use the named backend ("auto": the best supported).
 *  Returns DF_OK, DF_ERR_UNKNOWN_BACKEND or DF_ERR_UNSUPPORTED_BACKEND (nothing changes). */
DF_API df_status df_backend_select(const char *name);

#ifdef __cplusplus
}
#endif
#endif
