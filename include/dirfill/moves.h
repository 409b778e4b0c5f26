/* SPDX-License-Identifier: MIT */
/**
 * @file moves.h
 * @brief The engine layer: a 16-bit move, legal move generation (all, captures, quiets),
 *        bulk counting and perft, copy-make, gives-check, and UCI and SAN notation.
 *
 * The generator is built on the library's own king safety and eight-direction fills and is
 * dispatched like them (one call per position). Every function here requires a board for
 * which df_board_playable() is true (the side not to move is not in check), except where it
 * says otherwise; the generator never produces a king capture, so even a board that breaks
 * this rule yields boards with both kings. Thread-safety: reentrant.
 *
 * Chess960: a board parsed with DF_FEN_CHESS960 castles by the Chess960 rules; in standard
 * chess the same code castles the usual way (king e1, rook h1 or a1).
 */
#ifndef DIRFILL_MOVES_H
#define DIRFILL_MOVES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A move in 16 bits: from (bits 0-5), to (6-11), promotion piece (12-13: knight, bishop,
 *  rook, queen), kind (14-15, df_move_kind). Castling is the king moving onto its own rook's
 *  square, in standard chess as in Chess960; en passant is the pawn's move onto the
 *  en-passant square. */
typedef uint16_t df_move;

/** No move (a1 to a1). */
#define DF_MOVE_NONE ((df_move)0)

/** What a move does besides moving a piece from one square to another. */
typedef enum df_move_kind {
    DF_MOVE_NORMAL = 0,     /**< a move or capture */
    DF_MOVE_PROMOTION = 1,  /**< a pawn reaching the last rank (capturing or not) */
    DF_MOVE_EN_PASSANT = 2, /**< a pawn capturing en passant */
    DF_MOVE_CASTLING = 3    /**< the king "capturing" its own rook: to is the rook's square */
} df_move_kind;

/** A move from its parts; promotion is DF_KNIGHT..DF_QUEEN for DF_MOVE_PROMOTION and ignored
 *  otherwise. */
static inline df_move df_move_make(df_square from, df_square to, df_move_kind kind,
                                   df_piece_type promotion)
{
    const unsigned promo = kind == DF_MOVE_PROMOTION ? (unsigned)(promotion - DF_KNIGHT) & 3 : 0;
    return (df_move)((unsigned)from | (unsigned)to << 6 | promo << 12 | (unsigned)kind << 14);
}
/** Origin square. */
static inline df_square df_move_from(df_move m) { return (df_square)(m & 63); }
/** Destination square (for castling: the rook's square). */
static inline df_square df_move_to(df_move m) { return (df_square)((m >> 6) & 63); }
/** The move's kind. */
static inline df_move_kind df_move_kind_of(df_move m) { return (df_move_kind)(m >> 14); }
/** The piece a promotion makes, or DF_PIECE_TYPES for any other move. */
static inline df_piece_type df_move_promotion(df_move m)
{
    return df_move_kind_of(m) == DF_MOVE_PROMOTION ? (df_piece_type)(DF_KNIGHT + ((m >> 12) & 3))
                                                   : DF_PIECE_TYPES;
}

/** Room for every legal move of any position the FEN rules accept. Bound: each move goes to
 *  a square not held by the mover, from one of at most 16 directions (8 rays, on which only
 *  the nearest piece can move, and 8 knight jumps), and a promotion counts 4, adding at most
 *  9 on each of the 8 last-rank squares; castling adds 2. With P own pieces (the king among
 *  them): moves <= min(16 (64 - P) + 74, 27 (P - 1) + 10), whose maximum over P is 682. */
#define DF_MAX_MOVES 704

/** A list of moves. */
typedef struct df_move_list {
    df_move moves[DF_MAX_MOVES]; /**< the moves, moves[0] to moves[count - 1] */
    uint32_t count;              /**< how many */
} df_move_list;

/** All legal moves of the side to move (dispatched). */
DF_API void df_generate_legal(df_move_list *out, const df_board *b);
/** The legal moves that capture a piece, en passant and capturing promotions included. */
DF_API void df_generate_captures(df_move_list *out, const df_board *b);
/** The other legal moves: non-captures, castling and non-capturing promotions included. */
DF_API void df_generate_quiets(df_move_list *out, const df_board *b);
/** The number of legal moves, without listing them (bulk counting; dispatched). */
DF_API uint64_t df_count_legal(const df_board *b);
/** The deepest df_perft counts. Its recursion takes about 1.6 KB of stack a ply, so the
 *  maximum fits in any thread's stack (about 100 KB); a position with one legal move a ply
 *  is counted to this depth at once, the start position never finishes (see
 *  df_perft_interruptible). */
#define DF_PERFT_MAX_DEPTH 64

/** Leaf nodes of the legal move tree to depth (depth 0: 1) in *nodes. Returns DF_ERR_BOARD
 *  when the board is not playable (df_board_playable), DF_ERR_ARGUMENT when depth is not
 *  0..DF_PERFT_MAX_DEPTH or a pointer is NULL. Dispatched: bulk counting at the last ply. */
DF_API df_status df_perft(uint64_t *nodes, const df_board *b, int depth);
/** df_perft that asks interrupt (may be NULL) now and then whether to stop, and then returns
 *  DF_ERR_INTERRUPTED with *nodes unchanged. Subtrees of up to 3 plies are counted between
 *  two questions: a few milliseconds each (tens with hundreds of moves a ply). */
DF_API df_status df_perft_interruptible(uint64_t *nodes, const df_board *b, int depth,
                                        const df_interrupt *interrupt);

/** Copy-make: *out = b after the legal move m, castling rights, en passant, counters and the
 *  Polyglot key updated incrementally. out may be b. The en-passant square is set as
 *  df_board.ep says. m must be legal (asserted in debug builds; an illegal move corrupts the
 *  board): for moves from outside (a user, a file, a hash table) use df_make_move_checked. */
DF_API void df_make_move(df_board *out, const df_board *b, df_move m);
/** df_make_move for a move that may be anything: DF_OK, DF_ERR_BOARD when b is not playable,
 *  DF_ERR_MOVE when m is not one of its legal moves (then *out is unchanged). It costs one
 *  move generation more. */
DF_API df_status df_make_move_checked(df_board *out, const df_board *b, df_move m);
/** *out = b with the side to move passed (a null move, for search); en passant cleared. */
DF_API void df_make_null_move(df_board *out, const df_board *b);
/** Whether m is a legal move of b (any 16-bit value may be asked about). */
DF_API bool df_move_is_legal(const df_board *b, df_move m);
/** Whether the legal move m captures a piece (en passant included). */
DF_API bool df_move_is_capture(const df_board *b, df_move m);
/** Enemy pieces giving check to the side to move. Any board with one king per side. */
DF_API df_bb df_checkers(const df_board *b);

/** What a move gives: direct check, discovered check, both or neither (bits). */
typedef enum df_check_kind {
    DF_CHECK_NONE = 0,      /**< no check */
    DF_CHECK_DIRECT = 1,    /**< the moved piece (the rook when castling) gives check */
    DF_CHECK_DISCOVERED = 2 /**< a piece that did not move gives check */
} df_check_kind;
/** Whether the legal move m checks the enemy king, and how (df_check_kind bits). */
DF_API int df_gives_check(const df_board *b, df_move m);

/** Room for a move in UCI notation: "e7e8q" and the NUL. */
#define DF_UCI_MAX 6
/** Room for a move in SAN: "Nb1xd2+" or "exd8=Q#" and the NUL. */
#define DF_SAN_MAX 8
/** Writes m in UCI notation (e2e4, e7e8q; castling as e1g1 in standard chess, as the king
 *  taking its own rook, e1h1, on a Chess960 board). Returns the length. Any board. */
DF_API size_t df_move_to_uci(char out[DF_UCI_MAX], const df_board *b, df_move m);
/** Reads a legal move in UCI notation (len bytes). Castling is accepted in both forms
 *  (e1g1 and e1h1) on a standard board. Returns DF_OK or DF_ERR_MOVE (*out unchanged). */
DF_API df_status df_move_from_uci(df_move *out, const df_board *b, const char *text, size_t len);
/** Writes the legal move m in Standard Algebraic Notation, with disambiguation, x, =Q,
 *  O-O / O-O-O and + or #. Returns the length. */
DF_API size_t df_move_to_san(char out[DF_SAN_MAX], const df_board *b, df_move m);
/** Reads a legal move in SAN (len bytes): annotations (+ # ! ?) and redundant disambiguation
 *  are accepted, as are 0-0, a missing or surplus 'x' and promotions without '='; a pawn
 *  capture names its file (exd5: "d5" is the push). No move generation: the named piece's
 *  candidates are checked with df_move_is_legal. Returns DF_OK, or DF_ERR_MOVE for text
 *  that is malformed, matches no legal move or more than one (*out unchanged). */
DF_API df_status df_move_from_san(df_move *out, const df_board *b, const char *text, size_t len);
/** Why df_move_from_san refused text: "not SAN" (malformed), "illegal" (no legal move matches)
 *  or "ambiguous" (more than one does); NULL when it is accepted. A constant string. */
DF_API const char *df_move_from_san_error(const df_board *b, const char *text, size_t len);

#ifdef __cplusplus
}
#endif
#endif
