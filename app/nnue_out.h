/* SPDX-License-Identifier: MIT */
/* dirfill nnue's output: entries gathered into batches whose features (and JSON lines) worker
 * threads compute, written to standard output in input order whatever the number of threads. */
#ifndef DIRFILL_APP_NNUE_OUT_H
#define DIRFILL_APP_NNUE_OUT_H

#include "app.h"

typedef struct nnue_out nnue_out;

/* With json, one line per entry (and the lines given); without, the features are computed and
 * dropped (the summary's work). A set of no parts (count 0) computes none. threads: how many compute (0: one per CPU; 1: the calling
 * thread). NULL when out of memory. */
nnue_out *nnue_out_new(const df_nnue_set *set, bool json, unsigned threads);
/* Adds an entry; without a move (--fens) its move is written "-". False once standard output
 * failed. */
bool nnue_out_entry(nnue_out *o, const df_nnue_entry *e, bool has_move);
/* Adds a whole line of JSON (an error object, its newline included) after the entries so far. */
bool nnue_out_line(nnue_out *o, const cmd_text *line);
/* Writes what is left, stops the threads and frees o. False when standard output failed. */
bool nnue_out_finish(nnue_out *o);

#endif
