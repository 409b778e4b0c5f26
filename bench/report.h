/* SPDX-License-Identifier: MIT */
/* dirfill bench: collected results and their three renderings (table, JSON, SVG). */
#ifndef DIRFILL_BENCH_REPORT_H
#define DIRFILL_BENCH_REPORT_H

#include <stdio.h>

#include "bench.h"

/* A method whose throughput time exceeds its latency time by more than this (the median of
 * the ratios of each repetition's pair) is flagged: a loop of independent positions can never
 * be slower than a dependent chain, so the harness, not the method, is at fault. */
#define REPORT_SUSPECT_RATIO 1.15

typedef struct bench_result {
    bench_op op;
    const char *corpus, *method, *mode;
    double ns; /* per unit of the operation */
    uint64_t checksum;
    bool suspect;
} bench_result;

typedef struct report {
    char cpu[256], date[32];
    int reps;
    bench_result *results;
    size_t count, capacity;
    const char **backends; /* the dirfill backends timed (report_backend) */
    int nbackends;
    struct {
        const char *name, *how;
        size_t positions;
    } corpora[CORPUS_COUNT];
    int ncorpora;
    double pgn_bytes_per_game; /* the pgn operation's games: their average size (MB/s) */
} report;

void report_init(report *r, int reps);
void report_free(report *r);
/* Returns false when out of memory. */
bool report_add(report *r, bench_result res);
/* Returns false when out of memory. */
bool report_backend(report *r, const char *name);
void report_corpus(report *r, const char *name, size_t positions, const char *how);
void report_table(const report *r, FILE *out);
void report_json(const report *r, FILE *out);
/* Returns 0, or -1 when the file cannot be written. */
int report_svg(const report *r, const char *path);

#endif
