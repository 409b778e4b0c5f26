/* SPDX-License-Identifier: MIT */
/* Internal: bits to bytes without vector instructions, for the scalar backend's planes. */
#ifndef DF_SRC_SCALAR_EXPAND_H
#define DF_SRC_SCALAR_EXPAND_H

#include <string.h>

#include "dirfill.h"

/* Byte j of df__spread[x] is bit j of x: eight squares of a rank as eight 0/1 bytes. A table
 * built at compile time (2 KiB); no multiply trick is exact for all 256 values. */
#define DF__BIT_TO_BYTE(x, j) ((((uint64_t)(x)) >> (j)&1) << (8 * (j)))
#define DF__SPREAD(x)                                                                              \
    (DF__BIT_TO_BYTE(x, 0) | DF__BIT_TO_BYTE(x, 1) | DF__BIT_TO_BYTE(x, 2) |                       \
     DF__BIT_TO_BYTE(x, 3) | DF__BIT_TO_BYTE(x, 4) | DF__BIT_TO_BYTE(x, 5) |                       \
     DF__BIT_TO_BYTE(x, 6) | DF__BIT_TO_BYTE(x, 7))
#define DF__SPREAD4(x)  DF__SPREAD(x), DF__SPREAD(x + 1), DF__SPREAD(x + 2), DF__SPREAD(x + 3)
#define DF__SPREAD16(x) DF__SPREAD4(x), DF__SPREAD4(x + 4), DF__SPREAD4(x + 8), DF__SPREAD4(x + 12)
#define DF__SPREAD64(x)                                                                            \
    DF__SPREAD16(x), DF__SPREAD16(x + 16), DF__SPREAD16(x + 32), DF__SPREAD16(x + 48)
static const uint64_t df__spread[256] = {DF__SPREAD64(0), DF__SPREAD64(64), DF__SPREAD64(128),
                                         DF__SPREAD64(192)};

static inline void df__expand(uint8_t out[64], df_bb set)
{
    for (int r = 0; r < 8; r++) {
        const uint64_t w = df__spread[(set >> (8 * r)) & 0xff];
        memcpy(out + 8 * r, &w, 8);
    }
}

static inline void df__expand_count(uint8_t out[64], const df_bb planes[DF_COUNT_BITS])
{
    for (int r = 0; r < 8; r++) {
        uint64_t w = 0;
        for (int k = 0; k < DF_COUNT_BITS; k++) w |= df__spread[(planes[k] >> (8 * r)) & 0xff] << k;
        memcpy(out + 8 * r, &w, 8);
    }
}

#endif
