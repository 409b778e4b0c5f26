/* The program's legal move generator, built on the library: pins, checkers and
 * check-block squares from df_checks_and_pins; in one df_slider_rays_both call the enemy
 * attack set (our king removed) and our slider moves per direction. Moves are produced as
 * groups of targets, so a leaf count is a sum of popcounts (bulk counting). */
#ifndef DIRFILL_APP_MOVEGEN_H
#define DIRFILL_APP_MOVEGEN_H

#include <stdint.h>

#include "dirfill.h"

/* from | to << 6 | promotion type << 12 | flag << 15 */
typedef uint32_t mg_move;
enum { MG_NORMAL = 0, MG_EN_PASSANT = 1, MG_CASTLE = 2 };
#define MG_MAX_MOVES 256

static inline int mg_from(mg_move m) { return (int)(m & 63); }
static inline int mg_to(mg_move m) { return (int)((m >> 6) & 63); }
/* DF_KNIGHT..DF_QUEEN, or 0 when the move is no promotion. */
static inline int mg_promotion(mg_move m) { return (int)((m >> 12) & 7); }
static inline int mg_flag(mg_move m) { return (int)(m >> 15); }

typedef struct mg_list {
    mg_move moves[MG_MAX_MOVES];
    int count;
} mg_list;

/* All legal moves of the side to move. */
void mg_generate(const df_board *b, mg_list *out);
/* The number of legal moves, without listing them. */
uint64_t mg_count(const df_board *b);
/* Plays a legal move on b. */
void mg_make(df_board *b, mg_move m);
/* Leaf nodes of the legal move tree to depth (depth 0: 1). */
uint64_t mg_perft(const df_board *b, int depth);
/* UCI notation: e2e4, e7e8q, e1g1. out holds 6 bytes. */
void mg_uci(mg_move m, char out[6]);

#endif
