/* SPDX-License-Identifier: MIT */
/* The benchmark's self-check fires: a method whose throughput runner is slowed on purpose is
 * flagged suspect, in the rows, in the table's count and in the JSON, and an honest one is
 * not. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dft.h"
#include "harness.h"

static const bench_op OP = OP_SLIDER_RAYS;

/* Throughput slowed to twice the latency: the latency runner, twice. */
static void slowed_throughput(const bench_input *restrict in, size_t n, uint64_t *restrict out)
{
    bench_dirfill_runners.latency[OP](in, n, out);
    bench_dirfill_runners.latency[OP](in, n, out);
}

static const bench_result *row(const report *r, const char *method, const char *mode)
{
    for (size_t i = 0; i < r->count; i++)
        if (!strcmp(r->results[i].method, method) && !strcmp(r->results[i].mode, mode))
            return &r->results[i];
    fail_msg("no %s %s row", method, mode);
    return NULL;
}

static void test_slowed_method_is_suspect(void **state)
{
    (void)state;
    bench_runners honest = {{0}, {0}}, slowed = {{0}, {0}};
    honest.throughput[OP] = bench_dirfill_runners.throughput[OP];
    honest.latency[OP] = slowed.latency[OP] = bench_dirfill_runners.latency[OP];
    slowed.throughput[OP] = slowed_throughput;
    const bench_method ms[] = {{"honest", &honest, false}, {"slowed", &slowed, false}};

    bench_corpus corpora[CORPUS_COUNT] = {{0}};
    assert_true(corpus_build(corpora, 256));
    const bench_corpus *c = &corpora[CORPUS_MIDDLEGAME];
    uint64_t *ref = malloc(c->count * 8 * sizeof *ref), *got = malloc(c->count * 8 * sizeof *got);
    uint64_t sum;
    assert_true(harness_verify(c, OP, ms, 2, ref, got, &sum));
    report r;
    report_init(&r, 9);
    assert_true(harness_measure(&r, c, OP, ms, 2, got, harness_units(c, OP, ref), sum, 2e5));

    const bench_result *h = row(&r, "honest", "throughput"), *s = row(&r, "slowed", "throughput");
    print_message(
        "honest: %.2f ns throughput, %.2f latency; slowed: %.2f throughput, %.2f latency\n", h->ns,
        row(&r, "honest", "latency")->ns, s->ns, row(&r, "slowed", "latency")->ns);
    assert_false(h->suspect);
    assert_true(s->suspect);
    assert_false(row(&r, "slowed", "latency")->suspect);

    /* The table counts it (it said "0 rows are SUSPECT" of one flagged row, halving the count
     * as if both of a method's rows were flagged). */
    char *table = NULL;
    size_t table_len = 0;
    FILE *t = open_memstream(&table, &table_len);
    report_table(&r, t);
    fclose(t);
    assert_non_null(strstr(table, "slowed throughput"));
    assert_non_null(strstr(table, "\n1 row is SUSPECT"));
    free(table);

    /* The flag reaches the JSON scripts read. */
    char *json = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&json, &len);
    report_json(&r, f);
    fclose(f);
    const char *slowed_row = strstr(json, "\"method\": \"slowed\", \"mode\": \"throughput\"");
    const char *honest_row = strstr(json, "\"method\": \"honest\", \"mode\": \"throughput\"");
    assert_non_null(slowed_row);
    assert_non_null(honest_row);
    assert_non_null(strstr(slowed_row, "\"suspect\": true"));
    assert_true(strstr(honest_row, "\"suspect\": false") < strstr(honest_row, "}"));
    free(json);
    report_free(&r);
    free(ref);
    free(got);
    corpus_free(corpora);
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_slowed_method_is_suspect)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
