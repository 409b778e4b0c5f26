/* SPDX-License-Identifier: MIT */
/* dirfill nnue: one run of the command (nnue_run.c): its options, what it counted, and where
 * its entries and errors go. */
#ifndef DIRFILL_APP_NNUE_RUN_H
#define DIRFILL_APP_NNUE_RUN_H

#include "nnue_out.h"

/* One run of the command: its options and where its entries go. */
typedef struct nnue_run {
    df_nnue_set set;
    bool json;
    df_nnue_pgn_options pgn; /* --no-eval-ok, --score-units */
    unsigned threads;
    const char *write_path; /* --write OUT, or NULL */
    nnue_out *out;          /* the JSON or summary output, without --write */
    df_nnue_writer *writer; /* with --write */
    bool skipping;          /* --skip: the summary says what was skipped */
    uint64_t entries, errors, skipped;
    unsigned pgn_files;         /* PGN files read, whose positions that are no entries ... */
    df_nnue_pgn_counts dropped; /* ... are counted here by reason */
} nnue_run;

/* An entry of file, in the stream's order: to the output, or to the writer (whose refusal is an
 * error of file). False once the output failed. */
bool nnue_take(nnue_run *run, const char *file, const df_nnue_entry *e, bool has_move);
/* An error of file: a JSON object {"error", "file", "offset", key: where} in order with
 * --json (key NULL: none), else a line on standard error. */
void nnue_error(nnue_run *run, const char *file, const char *message, uint64_t offset,
                const char *key, uint64_t where);

#endif
