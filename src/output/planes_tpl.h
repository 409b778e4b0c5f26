/* SPDX-License-Identifier: MIT */
/* Internal template: the feature planes of a batch (planes.h), instantiated per backend after
 * kernels_tpl.h, whose attack map and king safety it uses. Contract: the including file
 * defines
 *   static inline void df__expand(uint8_t out[64], df_bb set);
 *       out[sq] = 1 for the squares of set, 0 elsewhere
 *   static inline void df__expand_count(uint8_t out[64], const df_bb planes[DF_COUNT_BITS]);
 *       out[sq] = the number the bit planes hold for sq */
#include <string.h>

#include "fill/map_sets.h"

/* A side's planes are the attack map's sets in their listed order, then the count. */
_Static_assert(DF_SIDE_COUNT == DF_ATTACK_MAP_SETS && DF_SIDE_RAYS == 7 && DF_SIDE_XRAYS == 15,
               "the side planes follow df_attack_map_set");

static inline void df__side_planes(uint8_t *o, const df_attack_map *m)
{
    for (int i = 0; i < DF_ATTACK_MAP_SETS; i++) df__expand(o + 64 * i, df__map_set(m, i));
    df__expand_count(o + 64 * DF_SIDE_COUNT, m->count);
}

static inline void df__planes_of(uint8_t *o, const df_board *b)
{
    for (int c = 0; c < DF_COLORS; c++)
        for (int t = 0; t < DF_PIECE_TYPES; t++)
            df__expand(o + 64 * (DF_PLANE_PIECES + df_piece_index((df_color)c, (df_piece_type)t)),
                       b->color[c] & b->piece[t]);
    memset(o + 64 * DF_PLANE_WHITE_TO_MOVE, b->stm == DF_WHITE, 64);
    for (int r = 0; r < DF_CASTLE_RIGHTS; r++)
        df__expand(o + 64 * (DF_PLANE_CASTLING + r),
                   (b->castling >> r) & 1 ? df_square_bb((df_square)b->castle_rook[r]) : 0);
    df__expand(o + 64 * DF_PLANE_EN_PASSANT, b->ep < 64 ? df_square_bb((df_square)b->ep) : 0);
    df_attack_map m;
    df__attack_map(&m, b, DF_WHITE);
    df__side_planes(o + 64 * DF_PLANE_WHITE, &m);
    df__attack_map(&m, b, DF_BLACK);
    df__side_planes(o + 64 * DF_PLANE_BLACK, &m);
    df_king_safety_sets ks;
    df__king_safety(&ks, b, df_board_stm(b), true);
    const df_bb sets[5] = {ks.checkers, ks.pinned, ks.pinners, ks.check_block, ks.discoverers};
    for (int k = 0; k < 5; k++) df__expand(o + 64 * (DF_PLANE_KING_SAFETY + k), sets[k]);
}

static void k_attack_planes(uint8_t *out, const df_board *boards, size_t n)
{
    for (size_t i = 0; i < n; i++) df__planes_of(out + i * DF_PLANE_BYTES, &boards[i]);
}
