/* SPDX-License-Identifier: MIT */
/* The sets of an attack map one at a time (attack_map.h). */
#include <string.h>

#include "map_sets.h"

static const char *const df__map_set_names[DF_ATTACK_MAP_SETS] = {DF__MAP_SET_NAMES("")};

const char *df_attack_map_set_name(int i)
{
    return i >= 0 && i < DF_ATTACK_MAP_SETS ? df__map_set_names[i] : NULL;
}

df_bb df_attack_map_set(const df_attack_map *m, int i)
{
    assert(m && i >= 0 && i < DF_ATTACK_MAP_SETS);
    return df__map_set(m, i);
}
