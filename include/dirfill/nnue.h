/* SPDX-License-Identifier: MIT */
/**
 * @file nnue.h
 * @brief NNUE sparse inputs: the feature sets Stockfish's networks are trained on
 *        (HalfKAv2_hm, Full_Threats, PP_3Wide and their compositions), with the index layout
 *        of nnue-pytorch's data loader, computed from the library's attack sets.
 *
 * A feature set maps a position and a perspective (the side whose accumulator it feeds) to a
 * set of active input indices; every active input is worth 1. The three sets:
 *
 * - **HalfKAv2_hm** (24,576 inputs, at most 32 active): every piece, kings included, relative
 *   to the perspective's king bucket. Squares are seen from the perspective (flipped
 *   vertically for black) and mirrored left to right when its king stands on files a-d, so
 *   that king is on files e-h. With `o(sq)` that square, the piece's plane `2 * type +
 *   (colour != perspective)` (own pawn 0, enemy pawn 1, ..., own king 10, enemy king 11) and
 *   the king's bucket `(7 - rank) * 4 + (7 - file)` of `o(king)`, the index is
 *   `o(sq) + 64 * plane + 768 * bucket`.
 * - **Full_Threats** (59,808 inputs, at most 128 active in nnue-pytorch's row): one input per
 *   (attacker, from, to, attacked) where the piece on `from` attacks the piece on `to` through
 *   the occupancy. Kings neither attack nor are attacked; a pawn's targets count only when
 *   they are knights or rooks; a bishop or rook attacking a queen is not an input; two pieces
 *   of the same type count once, from the one on the higher square. Squares are seen from the
 *   perspective (flipped vertically for black) and mirrored when its king stands on files
 *   e-h, the opposite of HalfKAv2_hm, so that king is on files a-d; colours are relative
 *   (own 0, enemy 1). The index is a block per attacker (own pawn, knight, bishop, rook,
 *   queen, then the enemy's), within it a block per attacked colour and type (own first, in
 *   type order, only the types the attacker keeps), within that an offset per `from` (the
 *   sum of the empty-board attack counts of the squares below it) plus the rank of `to` among
 *   the squares the attacker reaches from `from` on an empty board.
 * - **PP_3Wide** (4,560 inputs, at most 128 active): every pair of pawns, of any colours, on
 *   the same or adjacent files. Each pawn gets `id = 48 * relative colour + square - 8` (the
 *   square seen as for Full_Threats, so 0..95); the pair's index is `hi * (hi - 1) / 2 + lo`
 *   of its two ids.
 *
 * A composition such as "Full_Threats+PP_3Wide+HalfKAv2_hm" (the default, the set Stockfish's
 * current networks read) lists the parts in order; each part's indices are offset by the
 * inputs of the parts before it (here threats + 0, pawn pairs + 59,808, HalfKAv2_hm +
 * 64,368: 88,944 inputs) and its row width is the sum of the parts' (288).
 *
 * Output: each perspective's indices in nnue-pytorch's order, the order its extractors write
 * them (a composition's parts in turn), so that a batch is byte for byte the SparseBatch its
 * loader builds. Batches are that layout: one row of `width` int32 per position and
 * perspective, the indices first and the rest -1. The order (nnue-pytorch's SPEC, squares
 * raw, a1 = 0):
 * - HalfKAv2_hm: every piece by square;
 * - Full_Threats: the perspective's pieces, then the other side's: the pawns' captures by
 *   target, those toward the h-file first for white (the a-file for black), then the other
 *   diagonal's; then knights, bishops, rooks and queens, each by square with its targets by
 *   square;
 * - PP_3Wide: the perspective's pawns, then the other side's, each by square with the pawns on
 *   its file or a neighbouring one below it, by square.
 *
 * The maximum counts are nnue-pytorch's row widths, enough for any position of a game; a
 * constructed one (many queens, more than 32 pieces) can have more features than a row holds.
 * Nothing is then written past the row: df_nnue_features says how many there are, and the
 * batch calls count the positions whose rows were cut.
 *
 * Thread-safety: every function is reentrant; the _mt call starts and joins its own threads
 * within the call and writes disjoint rows. Every backend and lookup method gives identical
 * results.
 */
#ifndef DIRFILL_NNUE_H
#define DIRFILL_NNUE_H

#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "status.h"
#include "threads.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The three feature sets a set is composed of. */
typedef enum df_nnue_part {
    DF_NNUE_HALFKAV2_HM = 0,  /**< HalfKAv2_hm: 24,576 inputs, 32 active at most */
    DF_NNUE_FULL_THREATS = 1, /**< Full_Threats: 59,808 inputs, a row of 128 */
    DF_NNUE_PP_3WIDE = 2,     /**< PP_3Wide: 4,560 inputs, a row of 128 */
    DF_NNUE_PARTS = 3         /**< number of parts */
} df_nnue_part;

/** A feature set: parts[0 .. count) in order, each part at most once, count 1 to 3. */
typedef struct df_nnue_set {
    uint8_t count;                /**< number of parts (1..DF_NNUE_PARTS) */
    uint8_t parts[DF_NNUE_PARTS]; /**< the parts in order, df_nnue_part values */
} df_nnue_set;

/** Room for any set's name with its terminating NUL (df_nnue_set_name). */
#define DF_NNUE_SET_NAME_MAX 40

/** Parses a set's name: "HalfKAv2_hm", "Full_Threats", "PP_3Wide", or several of them joined
 *  by '+' ("Full_Threats+PP_3Wide+HalfKAv2_hm"), each at most once, spelt exactly as
 *  nnue-pytorch spells them; "HalfKAv2_hm^", its trainer's name of the factorised set, is
 *  HalfKAv2_hm, the inputs its Python hands its loader (nnue-pytorch's default
 *  "Full_Threats+PP_3Wide+HalfKAv2_hm^" parses). name need not be NUL-terminated (len bytes). Returns DF_OK, or
 *  DF_ERR_ARGUMENT for an unknown or repeated name, an empty part (a leading, trailing or
 *  doubled '+', an empty name) or a NULL pointer; *out is unchanged on an error. */
DF_API df_status df_nnue_set_parse(df_nnue_set *out, const char *name, size_t len);
/** Writes the set's name as nnue-pytorch spells it ("Full_Threats+PP_3Wide+HalfKAv2_hm") into
 *  out (size bytes, NUL-terminated, cut to fit as snprintf does; out may be NULL when size is
 *  0) and returns its length. An invalid set (count 0 or over 3, an unknown or repeated part)
 *  has the empty name: 0. */
DF_API size_t df_nnue_set_name(char *out, size_t size, const df_nnue_set *set);
/** The number of inputs of the set: the sum of its parts' (HalfKAv2_hm 24,576, Full_Threats
 *  59,808, PP_3Wide 4,560); 0 for an invalid set. Every index is below it. */
DF_API uint32_t df_nnue_set_inputs(const df_nnue_set *set);
/** The set's row width, nnue-pytorch's max_active_features: the sum of its parts' (32, 128,
 *  128); 0 for an invalid set. */
DF_API uint32_t df_nnue_set_max_active(const df_nnue_set *set);
/** The default set, "Full_Threats+PP_3Wide+HalfKAv2_hm": what Stockfish's current networks
 *  and nnue-pytorch's benchmark read. */
DF_API df_nnue_set df_nnue_set_default(void);

/** The active indices of b for one perspective, in nnue-pytorch's order, into out (room
 *  int32s); returns how many the position has. When that is more than room only the first
 *  room are written (as snprintf does): room df_nnue_set_max_active(set) holds every position of
 *  a game. Its side to move, castling rights and en passant play no part. A board
 *  whose piece or colour sets overlap, or without one king a side (which df_board_is_valid
 *  refuses), has no features: 0. Also 0, with nothing written, for a NULL board, a NULL out
 *  with room, a perspective other than DF_WHITE or DF_BLACK, or an invalid set. Dispatched. */
DF_API size_t df_nnue_features(int32_t *out, size_t room, const df_board *b, df_color perspective,
                               const df_nnue_set *set);

/** The features of n boards as nnue-pytorch's SparseBatch holds them: row i of white
 *  (white[i * width ...]) holds position i's indices for the white perspective, row i of black
 *  those for black, each in nnue-pytorch's order and padded with -1 to width entries (width
 *  df_nnue_set_max_active(set) is nnue-pytorch's). Returns the number of positions a row of
 *  which was cut (more features than width: the row then holds the first width, and
 *  df_nnue_features with more room gives them all); 0 in any game's positions at the set's
 *  width. A board df_nnue_features gives no features has rows of -1. With a NULL pointer
 *  nothing is written (0); with an invalid set every row is -1 (0). Dispatched. */
DF_API size_t df_nnue_batch(int32_t *white, int32_t *black, size_t width, const df_board *boards,
                            size_t n, const df_nnue_set *set);
/** df_nnue_batch on threads: 0 for one per CPU this process may run on
 *  (df_hardware_threads). The same rows and the same return; a thread that cannot be
 *  started leaves its share to the calling thread. */
DF_API size_t df_nnue_batch_mt(int32_t *white, int32_t *black, size_t width, const df_board *boards,
                               size_t n, const df_nnue_set *set, unsigned threads);

#ifdef __cplusplus
}
#endif
#endif
