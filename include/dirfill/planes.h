/* SPDX-License-Identifier: MIT */
/**
 * @file planes.h
 * @brief Feature planes for batches of positions: bytes per square, as evaluation networks
 *        and training pipelines take them, computed from the attack maps and king safety;
 *        threaded batch calls over caller-owned buffers.
 *
 * For n positions the output is `uint8_t out[n][DF_PLANES][8][8]` (plane, rank, file; rank 1
 * and file a first, so square sq of plane c is `out[i][c][sq / 8][sq % 8]`), any alignment.
 * Each plane is 0/1 per square but the count planes (attackers, 0..19). The channels, in order
 * (df_plane_name gives the names):
 *
 * | planes | name | why a network wants it |
 * |---|---|---|
 * | 0-11 | `piece.P` ... `piece.K`, `piece.p` ... `piece.k` | the position itself |
 * | 12 | `white_to_move` (all ones when white moves) | whose turn it is |
 * | 13-16 | `castling.K` `castling.Q` `castling.k` `castling.q` (the rook of each right held) | the rest of the position's state: with these, the planes alone describe the position |
 * | 17 | `en_passant` (the target square) | likewise |
 * | 18-43 | `white.*`, 26 planes, below | what white controls |
 * | 44-69 | `black.*`, 26 planes | what black controls |
 * | 70-74 | `checkers` `pinned` `pinners` `check_block` `discoverers` (side to move) | the tactics around both kings: checks, pins, discovered checks |
 *
 * Per side (offsets of df_side_plane): `pawn_east` `pawn_west` `knight` `bishop` `rook`
 * `queen` `king` (attacks by piece type: which kind of piece controls a square decides an
 * exchange); `rays.N` ... `rays.NW` (attacks per direction, clockwise from north, N NE E SE
 * S SW W NW (df_dir_clockwise): line control, batteries, where pins and skewers come from);
 * `xrays.N` ...
 * `xrays.NW` (behind the first blocker: batteries and discovered attacks); `all` (control);
 * `twice` (squares attacked at least twice: contested squares); `count` (the exact number of
 * attackers, for exchange estimates). Names match the keys of `dirfill analyze --json`.
 *
 * Thread-safety: every function is reentrant; the _mt calls start and join their own threads
 * within the call and write disjoint parts of the output.
 */
#ifndef DIRFILL_PLANES_H
#define DIRFILL_PLANES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "threads.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Where each group of planes starts. */
typedef enum df_plane {
    DF_PLANE_PIECES = 0,         /**< 12 planes: white P N B R Q K, then black */
    DF_PLANE_WHITE_TO_MOVE = 12, /**< all ones when white is to move */
    DF_PLANE_CASTLING = 13,      /**< 4 planes: the rook of each right held, by df_castling bit */
    DF_PLANE_EN_PASSANT = 17,    /**< the en-passant target square */
    DF_PLANE_WHITE = 18,         /**< DF_SIDE_PLANES planes of white's attacks */
    DF_PLANE_BLACK = 44,         /**< DF_SIDE_PLANES planes of black's attacks */
    DF_PLANE_KING_SAFETY = 70,   /**< checkers, pinned, pinners, check_block, discoverers */
    DF_PLANES = 75               /**< number of planes */
} df_plane;

/** The planes of one side, as offsets from DF_PLANE_WHITE or DF_PLANE_BLACK. */
typedef enum df_side_plane {
    DF_SIDE_PAWN_EAST = 0, /**< pawn attacks toward the h-file */
    DF_SIDE_PAWN_WEST = 1, /**< pawn attacks toward the a-file */
    DF_SIDE_KNIGHT = 2,    /**< knight attacks (then bishop, rook, queen, king) */
    DF_SIDE_RAYS = 7,      /**< 8 planes: per direction, N NE E SE S SW W NW */
    DF_SIDE_XRAYS = 15,    /**< 8 planes: x-rays per direction, same order */
    DF_SIDE_ALL = 23,      /**< every attack */
    DF_SIDE_TWICE = 24,    /**< squares attacked at least twice */
    DF_SIDE_COUNT = 25,    /**< the number of attackers, 0..19 */
    DF_SIDE_PLANES = 26    /**< planes per side */
} df_side_plane;

/** Bytes of one position's planes. */
#define DF_PLANE_BYTES (DF_PLANES * 64)

/** The name of plane c (0 <= c < DF_PLANES), e.g. "white.count", or NULL out of range. */
DF_API const char *df_plane_name(int c);

/** The planes of n boards (any boards with one king per side) into out[n * DF_PLANE_BYTES]
 *  (dispatched). */
DF_API void df_attack_planes_batch(uint8_t *out, const df_board *boards, size_t n);
/** The same on threads: 0 for one per CPU this process may run on (df_hardware_threads).
 *  Returns DF_OK; when a thread cannot be started its share is done by the calling thread. */
DF_API df_status df_attack_planes_batch_mt(uint8_t *out, const df_board *boards, size_t n,
                                           unsigned threads);
/** Planes from n FEN texts (fens[i], lens[i] bytes; the rules of df_fen_parse with flags) on
 *  threads. ok[i] tells whether text i was a valid FEN; the planes of an invalid one are all
 *  zero. Returns the number of valid texts. */
DF_API size_t df_attack_planes_from_fens_mt(uint8_t *out, bool *ok, const char *const *fens,
                                            const size_t *lens, size_t n, df_fen_flags flags,
                                            unsigned threads);
/** Positions as columns, the way a data pipeline holds them: row i is pieces[12 * i + k] (k
 *  by df_piece_index), stm[i] and, when given, castling_rooks[i] and ep[i]. */
typedef struct df_position_rows {
    const uint64_t *pieces;         /**< twelve bitboards a row */
    const uint8_t *stm;             /**< the side to move a row: 0 white, 1 black */
    const uint64_t *castling_rooks; /**< NULL (no castling rights), or the rooks that may still
                                         castle a row (df_board_parts.castling_rooks) */
    const int8_t *ep;               /**< NULL (no en passant), or the en-passant square a row,
                                         -1 for none */
    bool chess960;                  /**< the rows are Chess960 positions */
} df_position_rows;
/** Planes from n rows on threads, each read as df_board_from_parts reads it (ok[i] false and
 *  zero planes for a row it refuses). Returns the number accepted. */
DF_API size_t df_attack_planes_from_rows_mt(uint8_t *out, bool *ok, const df_position_rows *rows,
                                            size_t n, unsigned threads);

#ifdef __cplusplus
}
#endif
#endif
