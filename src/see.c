/* SPDX-License-Identifier: MIT */
/* Static exchange evaluation: the piece values; the exchange itself is each backend's
 * (see_tpl.h). */
#include <assert.h>

#include "backend.h"

const int df_see_value[DF_PIECE_TYPES] = {100, 320, 330, 500, 900, 0};

int df_see(const df_board *b, df_move m)
{
    assert(b);
    return df__backend_active()->see(b, m);
}

bool df_see_ge(const df_board *b, df_move m, int threshold) { return df_see(b, m) >= threshold; }
