/* SPDX-License-Identifier: MIT */
/**
 * @file game.h
 * @brief The rules of a whole game: how it ends — checkmate, stalemate, insufficient
 *        material, the fifty- and seventy-five-move rules, threefold and fivefold repetition —
 *        and a bounded history of positions that finds repetitions without allocating.
 *
 * Names follow python-chess's (outcome, termination, is_insufficient_material, claims). The
 * order of the checks is also python-chess's: checkmate, insufficient material, stalemate, the
 * seventy-five-move rule, fivefold repetition, and with claims the fifty-move rule and
 * threefold repetition. So a checkmate on the hundredth or hundred-and-fiftieth ply wins
 * (FIDE 9.6.2: mate takes precedence).
 *
 * Positions are "the same" as FIDE 9.2.3 says: the same pieces on the same squares, the same
 * side to move, the same castling rights and the same en-passant capture possible. dirfill
 * compares them by the Polyglot key, in which the en-passant file counts when a pawn could
 * capture there at all (the key's rule): for repetitions the history drops it again when no
 * legal en-passant capture exists, so a position where the capture is pinned equals the same
 * position reached without the double push. Thread-safety: reentrant; a df_history belongs
 * to one thread at a time.
 */
#ifndef DIRFILL_GAME_H
#define DIRFILL_GAME_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How a game ended (python-chess's Termination). */
typedef enum df_termination {
    DF_TERM_NONE = 0,      /**< the game goes on */
    DF_TERM_CHECKMATE = 1, /**< the side to move is mated */
    DF_TERM_STALEMATE = 2, /**< the side to move has no legal move and is not in check */
    DF_TERM_INSUFFICIENT_MATERIAL =
        3, /**< no sequence of legal moves can mate (df_insufficient_material) */
    DF_TERM_SEVENTYFIVE_MOVES = 4,   /**< 150 plies without a capture or pawn move: drawn at once */
    DF_TERM_FIVEFOLD_REPETITION = 5, /**< the position occurred a fifth time: drawn at once */
    DF_TERM_FIFTY_MOVES = 6,         /**< a draw a player may claim: 100 plies without a capture or
                                        pawn move, now or after the move they write down */
    DF_TERM_THREEFOLD_REPETITION = 7 /**< a draw a player may claim: the position occurred a third
                                          time, now or after the move they write down */
} df_termination;

/** The result of a game. */
typedef enum df_result {
    DF_RESULT_NONE = 0,       /**< not over ("*") */
    DF_RESULT_WHITE_WINS = 1, /**< "1-0" */
    DF_RESULT_BLACK_WINS = 2, /**< "0-1" */
    DF_RESULT_DRAW = 3        /**< "1/2-1/2" */
} df_result;

/** How a game stands: over or not, why, and who won. */
typedef struct df_outcome {
    df_termination termination; /**< DF_TERM_NONE while the game goes on */
    df_result result;           /**< DF_RESULT_NONE while the game goes on */
} df_outcome;

/** The name of a termination: "checkmate", "stalemate", "insufficient_material",
 *  "seventyfive_moves", "fivefold_repetition", "fifty_moves", "threefold_repetition", or
 *  "none" (python-chess's names, lower case). */
DF_API const char *df_termination_name(df_termination t);
/** A result as PGN writes it: "1-0", "0-1", "1/2-1/2" or "*". */
DF_API const char *df_result_string(df_result r);

/** Whether neither side can mate by any sequence of legal moves, judged on material alone —
 *  the rule FIDE 9.6.2 makes automatic, as python-chess and Stockfish apply it: no pawns,
 *  rooks or queens, and either at most one minor piece on the board (K v K, K+N v K, K+B v K)
 *  or only bishops, all on squares of one colour (K+B v K+B on the same colour, any number of
 *  such bishops). K+N v K+N, K+B v K+N and K+N+N v K are not insufficient: a mate exists,
 *  however unlikely. Positions dead for reasons of structure (blocked pawns) are not seen. */
DF_API bool df_insufficient_material(const df_board *b);

/** Positions a df_history holds: more than the 150 plies after which the seventy-five-move
 *  rule ends any game, so every repetition a game can still have is seen. */
#define DF_HISTORY_SIZE 256

/** The positions of a game before the current one, newest last, for repetitions: a ring of
 *  DF_HISTORY_SIZE keys (2 KB, no allocation). Push the board a move is made from; pop when
 *  the move is taken back. Initialise with df_history_init or `= {0}`. The ring sees the last
 *  DF_HISTORY_SIZE pushes: after popping back past them, the older positions are gone (push
 *  them again to see them: a game that keeps its boards can). */
typedef struct df_history {
    uint64_t keys[DF_HISTORY_SIZE]; /**< position keys, key of push i at keys[i % SIZE] */
    uint32_t count;                 /**< positions pushed and not popped */
    uint32_t floor;                 /**< pushes below this were overwritten by the ring */
} df_history;

/** An empty history. */
DF_API void df_history_init(df_history *h);
/** Records b, the position a move is about to be made from. */
DF_API void df_history_push(df_history *h, const df_board *b);
/** Forgets the newest position (the move made from it is taken back); nothing when empty. */
DF_API void df_history_pop(df_history *h);
/** How many times b's position has occurred in the game: 1 (b itself) plus its occurrences
 *  in h since the last capture or pawn move (b->halfmove plies back at most). */
DF_API int df_repetitions(const df_history *h, const df_board *b);
/** Whether b's position occurred before in h (df_repetitions(h, b) >= 2): what a search asks
 *  to score a repetition as a draw. */
DF_API bool df_is_repetition(const df_history *h, const df_board *b);

/** How the game stands at b after the positions in h (NULL: no history, so no repetitions).
 *  With claim, also the draws a player may claim (fifty moves, threefold repetition), now or
 *  with the next move, as python-chess's outcome(claim_draw=True). b must be playable. */
DF_API df_outcome df_outcome_of(const df_board *b, const df_history *h, bool claim);
/** The fifty-move rule (FIDE 9.3): 100 plies without a capture or pawn move, now, or after one
 *  of b's legal moves that is neither (the player writes it down and claims). b must be
 *  playable. */
DF_API bool df_can_claim_fifty_moves(const df_board *b);
/** Threefold repetition (FIDE 9.2): b's position occurred three times, or will after one of
 *  b's legal moves. h holds the positions before b (NULL: none). b must be playable. */
DF_API bool df_can_claim_threefold_repetition(const df_history *h, const df_board *b);

#ifdef __cplusplus
}
#endif
#endif
