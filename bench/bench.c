/* SPDX-License-Identifier: MIT */
/* dirfill bench: every operation, every backend and every baseline that can produce the
 * same output, on three corpora; outputs checked identical before anything is timed;
 * medians of repeated side-by-side runs. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_main.h"
#include "cmdline.h"
#include "harness.h"

volatile uint64_t bench_zero = 0;

static const char help[] =
    "usage: dirfill bench [--json] [--svg FILE] [--quick] [--op LIST] [--cpu N] [--positions N]\n"
    "\n"
    "Times each operation over three built-in corpora (middlegame, endgame, games) for every\n"
    "backend this CPU runs (or scalar and the one --backend names) and for the classic per-piece\n"
    "methods that produce identical output: pext (BMI2), magic, hq (hyperbola quintessence),\n"
    "sniper (Stockfish-style pins and checks). All outputs are compared before timing.\n"
    "Figures: ns per position (perft: per node; make_move and see: per move; pgn: per game,\n"
    "and MB/s, over random legal games written as PGN with evaluations and clocks, beside the\n"
    "games corpus, one for every four positions), median of 21\n"
    "repetitions after a warm-up; throughput (positions in a loop) and latency (each\n"
    "position's address depends on the previous result). A throughput row more than 15%\n"
    "slower than its latency (median of the per-repetition ratios) is flagged SUSPECT\n"
    "(\"suspect\": true in JSON): independent positions are never slower than a dependent\n"
    "chain, so such a figure says the harness, not the method, is at fault.\n"
    "  --json         one JSON object (docs/cli.md)\n"
    "  --svg FILE     also write a chart of the speed-up ratios\n"
    "  --quick        tiny run (smoke test): 64 positions, 3 repetitions\n"
    "  --cpu N        pin the process to CPU N\n"
    "  --positions N  positions per corpus (16 to 1000000, default 1024)\n"
    "  --op LIST      only these operations (comma-separated): slider_rays, slider_rays_batch,\n"
    "                 slider_rays_both, slider_union, xrays, attack_map, attack_maps_both,\n"
    "                 king_safety, attackers_to, perft, make_move, see, pgn\n";

typedef struct {
    bool json, quick;
    const char *svg;
    unsigned ops; /* bit op set: the operations to time (--op; all by default) */
    long cpu;
    unsigned long positions;
} bench_options;

/* The operations a comma-separated list names, as bits; a usage error for an unknown name. */
static int parse_op_list(const char *list, unsigned *ops)
{
    *ops = 0;
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        int found = -1;
        for (int op = 0; op < OP_COUNT; op++)
            if (strlen(bench_ops[op].name) == len && !strncmp(p, bench_ops[op].name, len))
                found = op;
        if (found < 0)
            return cmd_usage_error("bench", "unknown operation '%.*s' in --op (see --help)",
                                   (int)len, p);
        *ops |= 1u << found;
        p = end ? end + 1 : p + len;
    }
    return -1;
}

/* Returns -1 to go on, or the exit status. */
static int parse_options(int argc, char **argv, bench_options *o)
{
    _Static_assert(OP_COUNT <= 32, "operations fit the bit set");
    *o = (bench_options){false, false, NULL, (1u << OP_COUNT) - 1, -1, 1024};
    for (int i = 0; i < argc; i++) {
        const char *value;
        int got = cmd_value("bench", argc, argv, &i, "--svg", &o->svg);
        if (got < 0) return -got;
        if (got) continue;
        if ((got = cmd_value("bench", argc, argv, &i, "--op", &value))) {
            if (got < 0) return -got;
            const int status = parse_op_list(value, &o->ops);
            if (status >= 0) return status;
        } else if ((got = cmd_value("bench", argc, argv, &i, "--cpu", &value))) {
            unsigned long cpu;
            if (got < 0) return -got;
            if (!cmd_parse_count(value, 0, 4095, &cpu))
                return cmd_usage_error("bench", "--cpu takes a CPU number, not '%s'", value);
            o->cpu = (long)cpu;
        } else if ((got = cmd_value("bench", argc, argv, &i, "--positions", &value))) {
            if (got < 0) return -got;
            if (!cmd_parse_count(value, 16, 1000000, &o->positions))
                return cmd_usage_error("bench", "--positions takes 16 to 1000000, not '%s'", value);
        } else if (cmd_is(argv[i], "--json"))
            o->json = true;
        else if (cmd_is(argv[i], "--quick"))
            o->quick = true;
        else
            return cmd_help_or_unknown("bench", argv[i], help);
    }
    if (o->quick) o->positions = 64;
    return -1;
}

/* The backends (scalar first: the reference of the checks and ratios), then the baselines
 * this CPU runs; *nm of them in a new array. A backend the user forced is timed alone beside
 * scalar; scalar-baseline (scalar without POPCNT, for old CPUs) only when forced. */
static bench_method *list_methods(const char *only, int *nm)
{
    static const classic_method *const classic[] = {&bench_pext, &bench_magic, &bench_hq};
    const size_t nclassic = sizeof classic / sizeof classic[0];
    bench_method *ms = malloc((df_backend_count() + nclassic + 1) * sizeof *ms);
    if (!ms) return NULL;
    *nm = 0;
    df_backend_info info;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; df_backend_info_at(i, &info); i++) {
            const bool scalar = strcmp(info.name, "scalar") == 0;
            if (!info.supported || scalar != (pass == 0)) continue;
            if (!scalar &&
                (only ? strcmp(only, info.name) != 0 : strcmp(info.name, "scalar-baseline") == 0))
                continue;
            ms[(*nm)++] = (bench_method){info.name, &bench_dirfill_runners, true};
        }
    tables_init();
    for (size_t i = 0; i < nclassic; i++)
        if (classic[i]->available()) {
            classic[i]->init();
            ms[(*nm)++] = (bench_method){classic[i]->name, classic[i]->runners, false};
        }
    ms[(*nm)++] = (bench_method){"sniper", &bench_sniper_runners, false};
    return ms;
}

static int run(const bench_options *o, const char *only)
{
    int nm = 0;
    bench_method *ms = list_methods(only, &nm);
    bench_corpus corpora[CORPUS_COUNT] = {{0}};
    const size_t max_words = (size_t)64 * o->positions;
    uint64_t *ref = malloc(max_words * 8), *got = malloc(max_words * 8);
    report r;
    report_init(&r, o->quick ? 3 : 21);
    int status = 0;
    if (!ms || !ref || !got || !corpus_build(corpora, o->positions))
        status = cmd_input_error("bench", "out of memory");
    if (!status)
        r.pgn_bytes_per_game =
            (double)corpora[CORPUS_GAMES].game_start[corpora[CORPUS_GAMES].games] /
            (double)corpora[CORPUS_GAMES].games;
    const char *active = df_backend_name();
    for (int ci = 0; ci < CORPUS_COUNT && !status; ci++)
        for (int op = 0; op < OP_COUNT && !status; op++) {
            if (!((o->ops >> op) & 1) || !bench_op_applies((bench_op)op, &corpora[ci])) continue;
            uint64_t sum;
            if (!harness_verify(&corpora[ci], (bench_op)op, ms, nm, ref, got, &sum))
                status = EXIT_BAD_INPUT;
            else if (!harness_measure(&r, &corpora[ci], (bench_op)op, ms, nm, got,
                                      harness_units(&corpora[ci], (bench_op)op, ref), sum,
                                      o->quick ? 2e4 : 1e6))
                status = cmd_input_error("bench", "out of memory");
        }
    df_backend_select(active);
    for (int i = 0; i < nm && !status; i++)
        if (ms[i].backend && !report_backend(&r, ms[i].name))
            status = cmd_input_error("bench", "out of memory");
    if (!status) {
        for (int ci = 0; ci < CORPUS_COUNT; ci++)
            report_corpus(&r, corpora[ci].name, corpora[ci].count, corpora[ci].how);
        if (o->json)
            report_json(&r, stdout);
        else
            report_table(&r, stdout);
        if (o->svg && report_svg(&r, o->svg) != 0)
            status = cmd_input_error("bench", "cannot write %s: %s", o->svg, strerror(errno));
    }
    report_free(&r);
    free(ms);
    free(ref);
    free(got);
    corpus_free(corpora);
    return status;
}

int bench_main(int argc, char **argv, const char *backend)
{
    bench_options o;
    const int status = parse_options(argc, argv, &o);
    if (status >= 0) return status;
    if (o.cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET((int)o.cpu, &set);
        if (sched_setaffinity(0, sizeof set, &set) != 0)
            return cmd_usage_error("bench", "cannot pin to CPU %ld", o.cpu);
    }
    return run(&o, backend);
}
