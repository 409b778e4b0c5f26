/* SPDX-License-Identifier: MIT */
/* Internal: what a one-square lookup method is (rays.c, magic.c, the PEXT method in
 * src/scalar/): its entries and the slider tables the move generator inlines while it is
 * active. Which one is active: lookup.h. */
#ifndef DF_SRC_LOOKUP_METHOD_H
#define DF_SRC_LOOKUP_METHOD_H

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

#endif
