/* SPDX-License-Identifier: MIT */
/* The evaluation's weights: W(term, middlegame, endgame), centipawns per unit of the term's
 * count (eval.c says what each term counts). A tuner (examples/engine/tune/) writes this file:
 * one W() a line, in the order and with the names of eval.c's terms.
 * Source: the hand weights. */
#ifndef DFENGINE_WEIGHTS_H
#define DFENGINE_WEIGHTS_H

#define DFENGINE_WEIGHTS(W)                                                                        \
    W(pawn, 100, 100)                                                                              \
    W(knight, 300, 305)                                                                            \
    W(bishop, 322, 322)                                                                            \
    W(rook, 500, 500)                                                                              \
    W(queen, 896, 892)                                                                             \
    W(pawn_rank, 4, 10)                                                                            \
    W(pawn_centre, 12, 0)                                                                          \
    W(knight_centre, 8, 6)                                                                         \
    W(bishop_centre, 4, 4)                                                                         \
    W(rook_seventh, 15, 0)                                                                         \
    W(queen_centre, 2, 4)                                                                          \
    W(king_home, 15, 0)                                                                            \
    W(king_rank, -25, 0)                                                                           \
    W(king_centre, 0, 8)                                                                           \
    W(mobility_orthogonal, 2, 4)                                                                   \
    W(mobility_diagonal, 3, 3)                                                                     \
    W(mobility_knight, 4, 4)                                                                       \
    W(king_danger, -1, 0)                                                                          \
    W(king_zone_attacks, 0, -1)                                                                    \
    W(shelter_pawn_1, 20, 0)                                                                       \
    W(shelter_pawn_2, 12, 0)                                                                       \
    W(shelter_pawn_far, 4, 0)                                                                      \
    W(shelter_no_pawn, -18, 0)                                                                     \
    W(shelter_open_file, -12, 0)                                                                   \
    W(loose, -20, -20)                                                                             \
    W(loose_waiting, -20, -20)                                                                     \
    W(overloaded, -10, -10)                                                                        \
    W(overloaded_waiting, -10, -10)                                                                \
    W(hit_by_pawn, -30, -30)                                                                       \
    W(hit_by_pawn_waiting, -30, -30)                                                               \
    W(passed_rank_squared, 4, 9)                                                                   \
    W(doubled, -12, -20)                                                                           \
    W(isolated, -10, -12)                                                                          \
    W(pawn_can_capture, 10, 10)                                                                    \
    W(pawn_can_capture_waiting, 10, 10)                                                            \
    W(rook_open_file, 20, 5)                                                                       \
    W(rook_half_open_file, 10, 5)                                                                  \
    W(bishop_pair, 30, 50)                                                                         \
    W(pinned, -15, -10)                                                                            \
    W(discoverer, 10, 5)                                                                           \
    W(tempo, 10, 10)

#endif
