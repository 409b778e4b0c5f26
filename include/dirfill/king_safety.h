/* SPDX-License-Identifier: MIT */
/**
 * @file king_safety.h
 * @brief Checks, pins and discovered-check candidates of the side to move, by opposite rays
 *        (Chess Programming Wiki, "Checks and Pinned Pieces"). Thread-safety: reentrant.
 */
#ifndef DIRFILL_KING_SAFETY_H
#define DIRFILL_KING_SAFETY_H

#include "board.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The king-safety sets of the side to move (checks, pins, block squares, discoverers). */
typedef struct df_king_safety_sets {
    df_bb checkers;    /**< enemy pieces attacking the side-to-move king (an adjacent enemy
                            king too) */
    df_bb pinned;      /**< own pieces alone between the own king and an enemy slider moving
                            along that line */
    df_bb pinners;     /**< the enemy sliders of those pins */
    df_bb check_block; /**< empty squares strictly between the king and each sliding checker */
    df_bb discoverers; /**< own pieces (the king included) alone between an own slider and the
                            enemy king, on a line that slider moves along */
} df_king_safety_sets;

/** King safety of the side to move by opposite rays (dispatched). Any board with one king
 *  per side, legal or not. */
DF_API void df_king_safety(df_king_safety_sets *out, const df_board *b);
/** The same without the discoverers (left empty): what a legal move generator needs. */
DF_API void df_checks_and_pins(df_king_safety_sets *out, const df_board *b);

#ifdef __cplusplus
}
#endif
#endif
