/* SPDX-License-Identifier: MIT */
/**
 * @file dirfill.h
 * @brief dirfill — SIMD direction-wise fills for chess bitboards. One include for everything.
 *
 * | header | what |
 * |---|---|
 * | dirfill/source.h, dirfill/file_out.h, dirfill/threads.h | bytes in (files, pipes, .zst, .gz, functions), files written whole or not at all; what 0 threads means |
 * | dirfill/types.h | df_bb, df_square, df_color, df_piece_type, df_dir |
 * | dirfill/bitboard.h | masks, square and direction helpers, shift, Kogge-Stone fill, ray attacks (inline) |
 * | dirfill/leapers.h, dirfill/pawns.h | knight, king and pawn attacks, set-wise and per square (inline) |
 * | dirfill/lines.h, dirfill/square_attacks.h | in-between, lines, empty-board rays; one slider's attacks and x-rays (inline) |
 * | dirfill/kernels.h | dispatched eight-direction kernels |
 * | dirfill/board.h | df_board, FEN |
 * | dirfill/attack_map.h, dirfill/king_safety.h, dirfill/queries.h | attack maps, checks and pins, square queries |
 * | dirfill/moves.h, dirfill/hash.h, dirfill/see.h | move generation, make-move, notation, Polyglot keys, SEE |
 * | dirfill/game.h | the rules of a whole game: outcome, draws by rule and by claim, repetition history |
 * | dirfill/pgn.h | PGN reader: games from text or a source, on threads |
 * | dirfill/binpack.h | NNUE training data: .binpack, .plain and .bin read and written |
 * | dirfill/svg.h | SVG pictures of positions with attack information |
 * | dirfill/planes.h | feature planes for batches of positions, threaded |
 * | dirfill/nnue.h | NNUE sparse inputs: HalfKAv2_hm, Full_Threats, PP_3Wide, as nnue-pytorch indexes them |
 * | dirfill/nnue_skip.h | nnue-pytorch's skip options over training entries |
 * | dirfill/backend.h, dirfill/status.h, dirfill/version.h | backend selection, status codes, version |
 */
#ifndef DIRFILL_H
#define DIRFILL_H

#include "dirfill/attack_map.h"
#include "dirfill/backend.h"
#include "dirfill/binpack.h"
#include "dirfill/bitboard.h"
#include "dirfill/board.h"
#include "dirfill/file_out.h"
#include "dirfill/game.h"
#include "dirfill/hash.h"
#include "dirfill/kernels.h"
#include "dirfill/king_safety.h"
#include "dirfill/leapers.h"
#include "dirfill/lines.h"
#include "dirfill/moves.h"
#include "dirfill/nnue.h"
#include "dirfill/nnue_skip.h"
#include "dirfill/nnue_stream.h"
#include "dirfill/pawns.h"
#include "dirfill/pgn.h"
#include "dirfill/planes.h"
#include "dirfill/queries.h"
#include "dirfill/see.h"
#include "dirfill/source.h"
#include "dirfill/square_attacks.h"
#include "dirfill/status.h"
#include "dirfill/svg.h"
#include "dirfill/threads.h"
#include "dirfill/types.h"
#include "dirfill/version.h"

#endif
