/* dirfill bench: every operation, every backend and every baseline that can produce the
 * same output, on three corpora; outputs checked identical before anything is timed;
 * medians of repeated side-by-side runs. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "bench_main.h"
#include "cmdline.h"
#include "report.h"

const bench_op_info bench_ops[OP_COUNT] = {
    [OP_SLIDER_RAYS] = {"slider_rays", 8, UNIT_POSITION, true},
    [OP_SLIDER_RAYS_BATCH] = {"slider_rays_batch", 8, UNIT_POSITION, true},
    [OP_SLIDER_RAYS_BOTH] = {"slider_rays_both", 16, UNIT_POSITION, true},
    [OP_SLIDER_UNION] = {"slider_union", 1, UNIT_POSITION, true},
    [OP_XRAYS] = {"xrays", 8, UNIT_POSITION, true},
    [OP_ATTACK_MAP] = {"attack_map", MAP_WORDS, UNIT_POSITION, true},
    [OP_ATTACK_MAPS_BOTH] = {"attack_maps_both", 2 * MAP_WORDS, UNIT_POSITION, true},
    [OP_KING_SAFETY] = {"king_safety", 5, UNIT_POSITION, true},
    [OP_ATTACKERS_TO] = {"attackers_to", 64, UNIT_POSITION, true},
    [OP_PERFT] = {"perft", 1, UNIT_NODE, true},
    [OP_MAKE_MOVE] = {"make_move", 1, UNIT_MOVE, false},
    [OP_SEE] = {"see", 1, UNIT_MOVE, false},
};
const char *const bench_unit_names[3] = {"position", "node", "move"};
volatile uint64_t bench_zero = 0;

static const char help[] =
    "usage: dirfill bench [--json] [--svg FILE] [--quick] [--cpu N] [--positions N] [--op LIST]\n"
    "\n"
    "Times each operation over three built-in corpora (middlegame, endgame, games) for every\n"
    "backend this CPU runs (or scalar and the one --backend names) and for the classic per-piece\n"
    "methods that produce identical output: pext (BMI2), magic, hq (hyperbola quintessence),\n"
    "sniper (Stockfish-style pins and checks). All outputs are compared before timing.\n"
    "Figures: ns per position (perft: per node; make_move and see: per move), median of 21\n"
    "repetitions after a warm-up; throughput (positions in a loop) and latency (each\n"
    "position's address depends on the previous result). A row whose throughput is more than\n"
    "15%% slower than its latency is flagged SUSPECT (\"suspect\": true in JSON).\n"
    "  --json         one JSON object (docs/cli.md)\n"
    "  --svg FILE     also write a chart of the speed-up ratios\n"
    "  --quick        tiny run (smoke test): 64 positions, 3 repetitions\n"
    "  --cpu N        pin the process to CPU N\n"
    "  --positions N  positions per corpus (16 to 1000000, default 1024)\n"
    "  --op LIST      only these operations (comma-separated): slider_rays, slider_rays_batch,\n"
    "                 slider_rays_both, slider_union, xrays, attack_map, attack_maps_both,\n"
    "                 king_safety, attackers_to, perft, make_move, see\n";

typedef struct {
    bool json, quick;
    const char *svg, *ops; /* ops: a comma-separated list of operations, or NULL for all */
    long cpu;
    unsigned long positions;
} bench_options;

/* Whether op is among the comma-separated names (all when names is NULL). */
static bool op_selected(const char *names, bench_op op)
{
    if (!names) return true;
    const size_t n = strlen(bench_ops[op].name);
    for (const char *p = names; *p;) {
        const char *end = strchr(p, ',');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, bench_ops[op].name, n) == 0) return true;
        if (!end) break;
        p = end + 1;
    }
    return false;
}

typedef struct {
    const char *name;
    const bench_runners *runners;
    bool backend;
} method;

/* Returns -1 to go on, or the exit status. */
static int parse_options(int argc, char **argv, bench_options *o)
{
    *o = (bench_options){false, false, NULL, NULL, -1, 1024};
    for (int i = 0; i < argc; i++) {
        const char *value;
        int got = cmd_value("bench", argc, argv, &i, "--svg", &o->svg);
        if (!got) got = cmd_value("bench", argc, argv, &i, "--op", &o->ops);
        if (got < 0) return -got;
        if (got) continue;
        if ((got = cmd_value("bench", argc, argv, &i, "--cpu", &value))) {
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
    for (const char *p = o->ops; p && *p;) {
        const char *end = strchr(p, ',');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        bool known = false;
        for (int op = 0; op < OP_COUNT; op++)
            known |= strlen(bench_ops[op].name) == len && !strncmp(p, bench_ops[op].name, len);
        if (!known)
            return cmd_usage_error("bench", "unknown operation '%.*s' in --op (see --help)",
                                   (int)len, p);
        p = end ? end + 1 : p + len;
    }
    return -1;
}

/* The backends (scalar first: the reference of the checks and ratios), then the baselines
 * this CPU runs. A backend the user forced is timed alone beside scalar. */
static int list_methods(method ms[8], const char *only)
{
    int nm = 0;
    df_backend_info info;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; df_backend_info_at(i, &info); i++) {
            const bool scalar = strcmp(info.name, "scalar") == 0;
            if (!info.supported || scalar != (pass == 0)) continue;
            if (only && strcmp(only, info.name) != 0 && !scalar) continue;
            ms[nm++] = (method){info.name, &bench_dirfill_runners, true};
        }
    const classic_method *classic[] = {&bench_pext, &bench_magic, &bench_hq};
    tables_init();
    for (size_t i = 0; i < sizeof classic / sizeof classic[0]; i++)
        if (classic[i]->available()) {
            classic[i]->init();
            ms[nm++] = (method){classic[i]->name, classic[i]->runners, false};
        }
    ms[nm++] = (method){"sniper", &bench_sniper_runners, false};
    return nm;
}

static bench_run_fn runner(const method *m, bench_op op, int mode)
{
    return mode ? m->runners->latency[op] : m->runners->throughput[op];
}

static void use_method(const method *m)
{
    if (m->backend) df_backend_select(m->name);
}

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
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

/* Compares every method's output (both modes) with the first method's; reports the first
 * difference. */
static bool verify(const bench_corpus *c, bench_op op, const method *ms, int nm, uint64_t *ref,
                   uint64_t *got, uint64_t *sum)
{
    const bench_input in = corpus_input(c);
    const size_t words = (size_t)bench_ops[op].words;
    bool have_ref = false;
    for (int i = 0; i < nm; i++)
        for (int mode = 0; mode < 2; mode++) {
            const bench_run_fn fn = runner(&ms[i], op, mode);
            if (!fn) continue;
            use_method(&ms[i]);
            fn(&in, c->count, have_ref ? got : ref);
            if (!have_ref) {
                have_ref = true;
                continue;
            }
            for (size_t w = 0; w < words * c->count; w++) {
                if (got[w] == ref[w]) continue;
                char fen[DF_FEN_MAX];
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
    *sum = checksum(ref, words * c->count);
    return true;
}

/* What one pass's time is divided by: positions, or the nodes or moves they hold. */
static double units_of(const bench_corpus *c, bench_op op, const uint64_t *ref)
{
    switch (bench_ops[op].unit) {
    case UNIT_NODE: {
        uint64_t nodes = 0;
        for (size_t k = 0; k < c->count; k++) nodes += ref[k];
        return (double)nodes;
    }
    case UNIT_MOVE:
        return (double)c->move_start[c->count];
    default:
        return (double)c->count;
    }
}

/* Times every method of one cell. Repetitions interleave the methods, so that drift hits all
 * of them alike; each timed run follows an untimed pass of the same method and mode, so that
 * every method is timed with its tables in cache, whichever method ran before it (the table
 * methods evict each other's tables). The passes per run are sized from a warm pass. */
static bool measure(report *r, const bench_corpus *c, bench_op op, const method *ms, int nm,
                    uint64_t *got, double units, uint64_t sum, double target_ns)
{
    const bench_input in = corpus_input(c);
    double times[8][2][32];
    int passes[8][2];
    for (int i = 0; i < nm; i++)
        for (int mode = 0; mode < 2; mode++) {
            const bench_run_fn fn = runner(&ms[i], op, mode);
            passes[i][mode] = 0;
            if (!fn) continue;
            use_method(&ms[i]);
            fn(&in, c->count, got);
            double t = now_ns();
            fn(&in, c->count, got);
            t = now_ns() - t;
            passes[i][mode] = (int)(target_ns / (t > 1 ? t : 1)) + 1;
        }
    for (int rep = 0; rep < r->reps; rep++)
        for (int i = 0; i < nm; i++)
            for (int mode = 0; mode < 2; mode++) {
                const bench_run_fn fn = runner(&ms[i], op, mode);
                if (!fn) continue;
                use_method(&ms[i]);
                fn(&in, c->count, got);
                double t = now_ns();
                for (int p = 0; p < passes[i][mode]; p++) fn(&in, c->count, got);
                t = now_ns() - t;
                times[i][mode][rep] = t / ((double)passes[i][mode] * units);
            }
    for (int i = 0; i < nm; i++)
        for (int mode = 0; mode < 2; mode++) {
            if (!passes[i][mode]) continue;
            qsort(times[i][mode], (size_t)r->reps, sizeof(double), cmp_double);
            const bench_result res = {op,
                                      c->name,
                                      ms[i].name,
                                      mode ? "latency" : "throughput",
                                      times[i][mode][r->reps / 2],
                                      sum,
                                      false};
            if (!report_add(r, res)) return false;
        }
    return true;
}

static int run(const bench_options *o, const char *only)
{
    method ms[8];
    const int nm = list_methods(ms, only);
    bench_corpus corpora[CORPUS_COUNT] = {{0}};
    const size_t max_words = (size_t)64 * o->positions;
    uint64_t *ref = malloc(max_words * 8), *got = malloc(max_words * 8);
    report r;
    report_init(&r, o->quick ? 3 : 21);
    int status = 0;
    if (!ref || !got || !corpus_build(corpora, o->positions))
        status = cmd_input_error("bench", "out of memory");
    const char *active = df_backend_name();
    for (int ci = 0; ci < CORPUS_COUNT && !status; ci++)
        for (int op = 0; op < OP_COUNT && !status; op++) {
            if (!op_selected(o->ops, (bench_op)op)) continue;
            uint64_t sum;
            if (!verify(&corpora[ci], (bench_op)op, ms, nm, ref, got, &sum))
                status = EXIT_BAD_INPUT;
            else if (!measure(&r, &corpora[ci], (bench_op)op, ms, nm, got,
                              units_of(&corpora[ci], (bench_op)op, ref), sum, o->quick ? 2e4 : 1e6))
                status = cmd_input_error("bench", "out of memory");
        }
    df_backend_select(active);
    if (!status) {
        for (int i = 0; i < nm; i++)
            if (ms[i].backend) report_backend(&r, ms[i].name);
        for (int ci = 0; ci < CORPUS_COUNT; ci++)
            report_corpus(&r, corpora[ci].name, corpora[ci].count, corpora[ci].how);
        if (o->json)
            report_json(&r, stdout);
        else
            report_table(&r, stdout);
        if (o->svg && report_svg(&r, o->svg) != 0)
            status = cmd_input_error("bench", "cannot write %s", o->svg);
    }
    report_free(&r);
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
