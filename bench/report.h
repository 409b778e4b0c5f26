/* dirfill bench: collected results and their three renderings (table, JSON, SVG). */
#ifndef DIRFILL_BENCH_REPORT_H
#define DIRFILL_BENCH_REPORT_H

#include <stdio.h>

#include "bench.h"

typedef struct report {
    char cpu[256];
    bench_result *results;
    size_t count, capacity;
    const char *backends[8];
    int nbackends;
    struct {
        const char *name, *how;
        size_t positions;
    } corpora[CORPUS_COUNT];
    int ncorpora;
} report;

void report_init(report *r);
void report_free(report *r);
void report_add(report *r, bench_result res);
void report_backend(report *r, const char *name);
void report_corpus(report *r, const char *name, size_t positions, const char *how);
void report_table(const report *r, FILE *out, int reps);
void report_json(const report *r, FILE *out);
int report_svg(const report *r, const char *path);

#endif
