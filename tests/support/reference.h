/* SPDX-License-Identifier: MIT */
/* The obvious reference: square-by-square walking and piece-by-piece loops. Slow on
 * purpose; every fast routine is compared with it. */
#ifndef DFT_REFERENCE_H
#define DFT_REFERENCE_H

#include "dirfill.h"

/* Square one step from sq in direction d, or -1 off the board. */
int ref_step(int sq, int d);
df_bb ref_shift(df_bb bb, int d);
df_bb ref_fill(df_bb gen, df_bb empty, int d);
/* Squares one slider on sq attacks in direction d: empties, then the first occupied. */
df_bb ref_ray(int sq, df_bb occ, int d);
df_bb ref_ray_attacks(df_bb sliders, df_bb empty, int d);
/* Squares behind the first occupied square from sq in direction d, up to the next one. */
df_bb ref_xray(int sq, df_bb occ, int d);
df_bb ref_knight(df_bb knights);
df_bb ref_king(df_bb kings);
df_bb ref_pawn(df_bb pawns, int color, int east);
df_bb ref_between(int a, int b);
df_bb ref_line(int a, int b);

/* Attack set of one piece of the given type/colour on sq. */
df_bb ref_piece_attacks(int type, int color, int sq, df_bb occ);
void ref_attack_map(df_attack_map *m, const df_board *b, int color);
void ref_king_safety(df_king_safety_sets *ks, const df_board *b);
df_bb ref_attackers_to(const df_board *b, int sq, df_bb occ);
/* ref_attackers_to of every square: each piece's attacks walked once, not once a square. */
void ref_attackers_to_all(df_bb out[64], const df_board *b, df_bb occ);

/* The engine layer: every legal move (returns how many; out holds DF_MAX_MOVES), a move
 * played on a copy (key from scratch), the Polyglot key square by square, SEE by recursion. */
int ref_legal_moves(const df_board *b, df_move *out);
void ref_make_move(df_board *out, const df_board *b, df_move m);
uint64_t ref_polyglot_key(const df_board *b);
int ref_see(const df_board *b, df_move m);
/* What the legal move m gives: DF_CHECK_DIRECT and DF_CHECK_DISCOVERED bits, from the position
 * after it. */
int ref_gives_check(const df_board *b, df_move m);
/* The legal moves a SAN text names: their number (the move in *out when one), -1 when the
 * text is no SAN. */
int ref_move_from_san(const df_board *b, const char *text, size_t len, df_move *out);

#endif
