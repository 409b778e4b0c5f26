/* SPDX-License-Identifier: MIT */
/**
 * @file attack_map.h
 * @brief Everything one side attacks: per direction, x-rays, per piece type, all, twice, and
 *        exact attacker counts per square by bit-sliced counters (Chess Programming Wiki, "Attack
 *        and Defend
 *        Maps").
 *
 * "Attack" means the square a piece could capture on if an enemy piece stood there, own
 * pieces included (defence counts as attack). Thread-safety: reentrant.
 */
#ifndef DIRFILL_ATTACK_MAP_H
#define DIRFILL_ATTACK_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "board.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bit planes of the attacker count: one side has at most 19 attackers of a square
 *  (8 ray directions, 8 knight jumps, 2 pawn directions, the king). */
#define DF_COUNT_BITS 5

/** Everything one side attacks. Each piece's attack on a square counts once; x-rays do not
 *  count. Any 8-byte aligned memory holds one. */
typedef struct df_attack_map {
    df_rays rays;    /**< per direction: rooks and queens on N E S W, bishops and queens on
                          the diagonals */
    df_rays xrays;   /**< per direction: behind each slider's first blocker (any colour), up
                          to and including the next piece or the edge */
    df_bb pawn_east; /**< pawn attacks toward the h-file */
    df_bb pawn_west; /**< pawn attacks toward the a-file */
    df_bb by_type[DF_PIECE_TYPES]; /**< union per piece type, indexed by df_piece_type
                                        (by_type[DF_PAWN] = pawn_east | pawn_west) */
    df_bb all;                     /**< union of every attack */
    df_bb twice;                   /**< squares attacked by at least two pieces */
    df_bb count[DF_COUNT_BITS];    /**< bit-sliced counters: bit k of square s's attacker count is
                                        bit s of count[k] */
} df_attack_map;

/** The attack map of one side (dispatched: 32 fills and a carry-save count). Any board with
 *  one king per side, legal or not. */
DF_API void df_attack_map_side(df_attack_map *out, const df_board *b, df_color color);
/** Both sides' maps, out[DF_WHITE] and out[DF_BLACK]. */
DF_API void df_attack_maps(df_attack_map out[2], const df_board *b);
/** df_attack_maps over n boards: out[2 * i + color] for boards[i]. n may be 0. */
DF_API void df_attack_maps_batch(df_attack_map *out, const df_board *boards, size_t n);

/** Number of the side's pieces attacking square sq (0..19). */
static inline int df_attack_count(const df_attack_map *m, df_square sq)
{
    int n = 0;
    for (int k = 0; k < DF_COUNT_BITS; k++) n |= (int)df_has(m->count[k], sq) << k;
    return n;
}
/** Squares attacked by at least n of the side's pieces (bit-sliced comparison). */
static inline df_bb df_attacked_at_least(const df_attack_map *m, int n)
{
    if (n <= 0) return DF_FULL;
    if (n >= 1 << DF_COUNT_BITS) return DF_EMPTY;
    df_bb greater = 0, equal = DF_FULL;
    for (int k = DF_COUNT_BITS - 1; k >= 0; k--) {
        if ((n >> k) & 1)
            equal &= m->count[k];
        else {
            greater |= equal & m->count[k];
            equal &= ~m->count[k];
        }
    }
    return greater | equal;
}

/** The number of sets df_attack_map_set lists. */
#define DF_ATTACK_MAP_SETS 25
/** The name of set i (0 <= i < DF_ATTACK_MAP_SETS) of an attack map, in the order the
 *  program's JSON, the Python dicts and the feature planes list them: "pawn_east",
 *  "pawn_west", "knight", "bishop", "rook", "queen", "king", "rays.N" ... "rays.NW"
 *  (clockwise), "xrays.N" ... "xrays.NW", "all", "twice"; NULL out of range. */
DF_API const char *df_attack_map_set_name(int i);
/** Set i of m, named by df_attack_map_set_name(i). */
DF_API df_bb df_attack_map_set(const df_attack_map *m, int i);

/** Bits of the per-square attack bytes (df_attack_bytes), the layout Ed Schröder's engine
 *  REBEL used (Chess Programming Wiki, "Attack and Defend Maps", attack count bytes): one byte
 *  per square and side saying how many pieces attack it and which kinds, so an evaluation or
 *  a SEE estimate reads a square's whole story from one byte. */
typedef enum df_attack_byte {
    DF_ATTACK_BYTE_COUNT = 7,  /**< bits 0-2: the attacker count, saturated at 7 */
    DF_ATTACK_BYTE_PAWN = 8,   /**< attacked by a pawn */
    DF_ATTACK_BYTE_MINOR = 16, /**< attacked by a knight or bishop */
    DF_ATTACK_BYTE_ROOK = 32,  /**< attacked by a rook */
    DF_ATTACK_BYTE_QUEEN = 64, /**< attacked by a queen */
    DF_ATTACK_BYTE_KING = 128  /**< attacked by the king */
} df_attack_byte;
/** Fills out[sq] with the REBEL attack byte of each square for one side's map. */
DF_API void df_attack_bytes(uint8_t out[64], const df_attack_map *m);

#ifdef __cplusplus
}
#endif
#endif
