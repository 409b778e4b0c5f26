/* SPDX-License-Identifier: MIT */
/* Internal: what the threaded PGN driver reads of a reader besides the public calls. */
#ifndef DF_SRC_PGN_INTERNAL_H
#define DF_SRC_PGN_INTERNAL_H

#include "dirfill.h"

/* The index the reader's next game will get. */
uint64_t df__pgn_next_game(const df_pgn_reader *r);

#endif
