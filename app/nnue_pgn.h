/* SPDX-License-Identifier: MIT */
/* dirfill nnue's PGN input (nnue_pgn.c). */
#ifndef DIRFILL_APP_NNUE_PGN_H
#define DIRFILL_APP_NNUE_PGN_H

#include "nnue_run.h"

/* The entries of a PGN file: each position before a move of a game with a
 * result, scored by that move's [%eval] (without one skipped unless no_eval_ok). Returns 0,
 * or EXIT_BAD_INPUT when the file cannot be read. */
int nnue_read_pgn(nnue_run *run, const char *path);

#endif
