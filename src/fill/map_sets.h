/* SPDX-License-Identifier: MIT */
/* Internal: the sets of an attack map in their listed order (df_attack_map_set): their names,
 * as one macro the feature planes prefix with a side, and their places in the struct. */
#ifndef DF_SRC_FILL_MAP_SETS_H
#define DF_SRC_FILL_MAP_SETS_H

#include <stddef.h>
#include <string.h>

#include "dirfill.h"

#define DF__DIR_NAME(prefix, d) prefix #d,
/* The names, each after the string literal P ("" or "white."). */
#define DF__MAP_SET_NAMES(P)                                                                       \
    P "pawn_east", P "pawn_west", P "knight", P "bishop", P "rook", P "queen", P "king",           \
        DF_DIRS_CLOCKWISE(DF__DIR_NAME, P "rays.") DF_DIRS_CLOCKWISE(DF__DIR_NAME, P "xrays.") P   \
        "all",                                                                                     \
        P "twice"

#define DF__DIR_FIELD(field, d) (uint16_t) offsetof(df_attack_map, field.r[DF_##d]),
static const uint16_t df__map_set_offsets[DF_ATTACK_MAP_SETS] = {
    offsetof(df_attack_map, pawn_east),
    offsetof(df_attack_map, pawn_west),
    offsetof(df_attack_map, by_type[DF_KNIGHT]),
    offsetof(df_attack_map, by_type[DF_BISHOP]),
    offsetof(df_attack_map, by_type[DF_ROOK]),
    offsetof(df_attack_map, by_type[DF_QUEEN]),
    offsetof(df_attack_map, by_type[DF_KING]),
    DF_DIRS_CLOCKWISE(DF__DIR_FIELD, rays) DF_DIRS_CLOCKWISE(DF__DIR_FIELD, xrays)
        offsetof(df_attack_map, all),
    offsetof(df_attack_map, twice)};

/* Set i of m (0 <= i < DF_ATTACK_MAP_SETS). */
static inline df_bb df__map_set(const df_attack_map *m, int i)
{
    df_bb set;
    memcpy(&set, (const char *)m + df__map_set_offsets[i], sizeof set);
    return set;
}

#endif
