/* SPDX-License-Identifier: MIT */
/* dirfill bench: verification and timing of the methods of one cell (harness.h). */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

#include "cmdline.h"

static bench_run_fn runner(const bench_method *m, bench_op op, int mode)
{
    return mode ? m->runners->latency[op] : m->runners->throughput[op];
}

static void use_method(const bench_method *m)
{
    if (m->backend) df_backend_select(m->name);
}

static uint64_t checksum(const uint64_t *w, size_t n)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < n; i++) h = (h ^ w[i]) * UINT64_C(0x100000001b3);
    return h;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

bool harness_verify(const bench_corpus *c, bench_op op, const bench_method *ms, int nm,
                    uint64_t *ref, uint64_t *got, uint64_t *sum)
{
    const bench_input in = corpus_input(c);
    const size_t words = (size_t)bench_ops[op].words, items = bench_op_items(op, c);
    bool have_ref = false;
    for (int i = 0; i < nm; i++)
        for (int mode = 0; mode < 2; mode++) {
            const bench_run_fn fn = runner(&ms[i], op, mode);
            if (!fn) continue;
            use_method(&ms[i]);
            fn(&in, items, have_ref ? got : ref);
            if (!have_ref) {
                have_ref = true;
                continue;
            }
            for (size_t w = 0; w < words * items; w++) {
                if (got[w] == ref[w]) continue;
                char fen[DF_FEN_MAX] = "(a game)";
                if (bench_ops[op].unit != UNIT_GAME)
                    df_fen_format(fen, sizeof fen, &c->boards[w / words], DF_FEN_STANDARD);
                fprintf(stderr,
                        "dirfill bench: %s on %s: %s (%s) differs from %s at position %zu "
                        "word %zu: 0x%016llx vs 0x%016llx\n  %s\n",
                        bench_ops[op].name, c->name, ms[i].name, mode ? "latency" : "throughput",
                        ms[0].name, w / words, w % words, (unsigned long long)got[w],
                        (unsigned long long)ref[w], fen);
                return false;
            }
        }
    *sum = checksum(ref, words * items);
    return true;
}

double harness_units(const bench_corpus *c, bench_op op, const uint64_t *ref)
{
    switch (bench_ops[op].unit) {
    case UNIT_NODE: {
        uint64_t nodes = 0;
        for (size_t k = 0; k < c->count; k++) nodes += ref[k];
        return (double)nodes;
    }
    case UNIT_MOVE:
        return (double)c->move_start[c->count];
    case UNIT_GAME:
        return (double)c->games;
    default:
        return (double)c->count;
    }
}

/* Repetitions interleave the methods, so that drift hits all of them alike; each timed run
 * follows an untimed pass of the same method and mode, so that every method is timed with its
 * tables in cache, whichever method ran before it (the table methods evict each other's
 * tables). The passes per run are sized from a warm pass. */
bool harness_measure(report *r, const bench_corpus *c, bench_op op, const bench_method *ms, int nm,
                     uint64_t *got, double units, uint64_t sum, double target_ns)
{
    const bench_input in = corpus_input(c);
    const size_t items = bench_op_items(op, c);
    const int reps = r->reps;
    /* times[(i * 2 + mode) * reps + rep]: ns per unit; ratios[rep]: scratch. */
    double *times = malloc((size_t)nm * 2 * (size_t)reps * sizeof *times);
    double *ratios = malloc((size_t)reps * sizeof *ratios);
    int *passes = malloc((size_t)nm * 2 * sizeof *passes);
    bool ok = times && ratios && passes;
    for (int i = 0; ok && i < nm; i++)
        for (int mode = 0; mode < 2; mode++) {
            const bench_run_fn fn = runner(&ms[i], op, mode);
            passes[i * 2 + mode] = 0;
            if (!fn) continue;
            use_method(&ms[i]);
            fn(&in, items, got);
            const double t0 = cmd_seconds();
            fn(&in, items, got);
            const double ns = (cmd_seconds() - t0) * 1e9;
            passes[i * 2 + mode] = (int)(target_ns / (ns > 1 ? ns : 1)) + 1;
        }
    for (int rep = 0; ok && rep < reps; rep++)
        for (int i = 0; i < nm; i++)
            for (int mode = 0; mode < 2; mode++) {
                const bench_run_fn fn = runner(&ms[i], op, mode);
                const int n = passes[i * 2 + mode];
                if (!fn) continue;
                use_method(&ms[i]);
                fn(&in, items, got);
                const double t0 = cmd_seconds();
                for (int p = 0; p < n; p++) fn(&in, items, got);
                times[(i * 2 + mode) * reps + rep] =
                    (cmd_seconds() - t0) * 1e9 / ((double)n * units);
            }
    for (int i = 0; ok && i < nm; i++) {
        const double *tp = &times[(i * 2) * reps], *lat = &times[(i * 2 + 1) * reps];
        bool suspect = false;
        if (passes[i * 2] && passes[i * 2 + 1]) {
            for (int rep = 0; rep < reps; rep++) ratios[rep] = tp[rep] / lat[rep];
            suspect = median(ratios, reps) > REPORT_SUSPECT_RATIO;
        }
        for (int mode = 0; ok && mode < 2; mode++) {
            if (!passes[i * 2 + mode]) continue;
            const bench_result res = {op,
                                      c->name,
                                      ms[i].name,
                                      mode ? "latency" : "throughput",
                                      median(&times[(i * 2 + mode) * reps], reps),
                                      sum,
                                      suspect && mode == 0};
            ok = report_add(r, res);
        }
    }
    free(times);
    free(ratios);
    free(passes);
    return ok;
}
