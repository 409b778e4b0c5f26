/* SPDX-License-Identifier: MIT */
/* The evaluation's weights: W(term, middlegame, endgame), centipawns per unit of the term's
 * count (eval.c says what each term counts). A tuner (examples/engine/tune/) writes this file:
 * one W() a line, in the order and with the names of eval.c's terms.
 * Source: tune.py, seed 1, 8947 games of sp-1.pgn, sp-2.pgn, sp-3.pgn, sp-4.pgn, sp-5.pgn,
 * sp-6.pgn, sp-7.pgn, sp-8.pgn, sp-9.pgn, 583802 quiet positions, k 0.003979, 2000 iterations, lr
 * 1.0, l2 0.0, eval blend 0.75, frozen pawn,knight,bishop,rook,queen; loss 0.446039 -> 0.444680. */
#ifndef DFENGINE_WEIGHTS_H
#define DFENGINE_WEIGHTS_H

#define DFENGINE_WEIGHTS(W)                                                                        \
    W(pawn, 100, 100)                                                                              \
    W(knight, 300, 305)                                                                            \
    W(bishop, 322, 322)                                                                            \
    W(rook, 500, 500)                                                                              \
    W(queen, 896, 892)                                                                             \
    W(pawn_rank, 2, 12)                                                                            \
    W(pawn_centre, 19, -9)                                                                         \
    W(knight_centre, 11, 4)                                                                        \
    W(bishop_centre, 5, 6)                                                                         \
    W(rook_seventh, 22, 4)                                                                         \
    W(queen_centre, 8, -12)                                                                        \
    W(king_home, 4, -3)                                                                            \
    W(king_rank, -20, 2)                                                                           \
    W(king_centre, -13, -1)                                                                        \
    W(mobility_orthogonal, 3, 9)                                                                   \
    W(mobility_diagonal, 5, 3)                                                                     \
    W(mobility_knight, 6, 6)                                                                       \
    W(king_danger, -1, 1)                                                                          \
    W(king_zone_attacks, 2, 0)                                                                     \
    W(shelter_pawn_1, 43, 13)                                                                      \
    W(shelter_pawn_2, 36, 7)                                                                       \
    W(shelter_pawn_far, 23, 5)                                                                     \
    W(shelter_no_pawn, 3, 27)                                                                      \
    W(shelter_open_file, -1, -18)                                                                  \
    W(loose, -23, -52)                                                                             \
    W(loose_waiting, 8, -23)                                                                       \
    W(overloaded, -10, -78)                                                                        \
    W(overloaded_waiting, 6, -39)                                                                  \
    W(hit_by_pawn, -90, -89)                                                                       \
    W(hit_by_pawn_waiting, -38, -20)                                                               \
    W(passed_rank_squared, 3, 8)                                                                   \
    W(doubled, -10, -35)                                                                           \
    W(isolated, -11, -10)                                                                          \
    W(pawn_can_capture, -23, 2)                                                                    \
    W(pawn_can_capture_waiting, -38, -99)                                                          \
    W(rook_open_file, 24, 10)                                                                      \
    W(rook_half_open_file, 5, 26)                                                                  \
    W(bishop_pair, 42, 47)                                                                         \
    W(pinned, -18, -48)                                                                            \
    W(discoverer, 36, -23)                                                                         \
    W(tempo, 22, 20)

#endif
