/* SPDX-License-Identifier: MIT */
/* Static exchange evaluation: the piece values; the exchange itself is the lookup method's
 * (see_tpl.h over its lookups, or over the backend's kernel: src/lookup/). */
#include <assert.h>

#include "lookup/lookup.h"

const int df_see_value[DF_PIECE_TYPES] = {100, 320, 330, 500, 900, 0};

int df_see(const df_board *b, df_move m)
{
    assert(b);
    return df__lookup_active()->see(b, m);
}

bool df_see_ge(const df_board *b, df_move m, int threshold) { return df_see(b, m) >= threshold; }
