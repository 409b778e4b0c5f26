/* SPDX-License-Identifier: MIT */
/* The evaluation's weights: W(term, middlegame, endgame), centipawns per unit of the term's
 * count (eval.c says what each term counts). A tuner (examples/engine/tune/) writes this file:
 * one W() a line, in the order and with the names of eval.c's terms.
 * Source: tune.py --seed 1 --l2 0 --freeze pawn,knight,bishop,rook,queen on 2987 games of
 * selfplay.py (seeds 1, 2 and 3, 1000 games each, 2000 nodes a move, --random-plies 4), 193871
 * quiet positions, k 0.004141, 2000 iterations, lr 1.0; loss 0.445639 -> 0.433520, held-out (299
 * games) 0.502157 -> 0.482259. */
#ifndef DFENGINE_WEIGHTS_H
#define DFENGINE_WEIGHTS_H

#define DFENGINE_WEIGHTS(W)                                                                        \
    W(pawn, 100, 100)                                                                              \
    W(knight, 300, 305)                                                                            \
    W(bishop, 322, 322)                                                                            \
    W(rook, 500, 500)                                                                              \
    W(queen, 896, 892)                                                                             \
    W(pawn_rank, 7, 13)                                                                            \
    W(pawn_centre, 38, -37)                                                                        \
    W(knight_centre, 15, -4)                                                                       \
    W(bishop_centre, 6, 2)                                                                         \
    W(rook_seventh, 22, 8)                                                                         \
    W(queen_centre, 25, -55)                                                                       \
    W(king_home, 14, -15)                                                                          \
    W(king_rank, -3, -3)                                                                           \
    W(king_centre, -24, -16)                                                                       \
    W(mobility_orthogonal, 6, 9)                                                                   \
    W(mobility_diagonal, 8, 1)                                                                     \
    W(mobility_knight, 9, 8)                                                                       \
    W(king_danger, -3, 2)                                                                          \
    W(king_zone_attacks, 0, -2)                                                                    \
    W(shelter_pawn_1, 110, 15)                                                                     \
    W(shelter_pawn_2, 98, -11)                                                                     \
    W(shelter_pawn_far, 58, -9)                                                                    \
    W(shelter_no_pawn, 77, 29)                                                                     \
    W(shelter_open_file, 20, -29)                                                                  \
    W(loose, -37, -46)                                                                             \
    W(overloaded, -14, -56)                                                                        \
    W(hit_by_pawn, -128, -225)                                                                     \
    W(passed_rank_squared, 0, 7)                                                                   \
    W(doubled, -27, -37)                                                                           \
    W(isolated, -14, -5)                                                                           \
    W(pawn_can_capture, -49, -285)                                                                 \
    W(rook_open_file, 7, 39)                                                                       \
    W(rook_half_open_file, 4, 49)                                                                  \
    W(bishop_pair, 57, 57)                                                                         \
    W(pinned, -15, -64)                                                                            \
    W(discoverer, 71, -54)                                                                         \
    W(tempo, 23, 8)

#endif
