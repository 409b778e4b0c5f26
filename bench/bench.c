/* dirfill bench: every operation, every backend and every baseline that can produce the
 * same output, on three corpora; outputs checked identical before anything is timed;
 * medians of repeated side-by-side runs. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../app/cli.h"
#include "bench.h"
#include "report.h"

const char *const op_names[] = {"slider_rays", "slider_rays_both", "slider_union",
                                "xrays",       "attack_map",       "attack_maps_both",
                                "king_safety", "attackers_to",     "perft"};
const int op_words[] = {8, 16, 1, 8, 30, 60, 5, 64, 1};
_Static_assert(sizeof op_names / sizeof op_names[0] == OP_COUNT &&
                   sizeof op_words / sizeof op_words[0] == OP_COUNT,
               "one name and one output size per operation");
volatile uint64_t bench_zero = 0;

static const char help[] =
    "usage: dirfill bench [--json] [--svg FILE] [--quick] [--cpu N] [--positions N]\n"
    "\n"
    "Times each operation over three built-in corpora (middlegame, endgame, games) for every\n"
    "backend this CPU runs (or scalar and the one --backend names) and for the classic per-piece\n"
    "methods that produce identical output: pext (BMI2), magic, hq (hyperbola quintessence),\n"
    "sniper (Stockfish-style pins and checks). All outputs are compared before timing.\n"
    "Figures: ns per position, median of 21 repetitions after a warm-up; throughput (positions\n"
    "in a loop) and latency (each position's address depends on the previous result).\n"
    "  --json         one JSON object (CLI-CONTRACT.md)\n"
    "  --svg FILE     also write a bar chart of the speed-up ratios\n"
    "  --quick        tiny run (smoke test): 64 positions, 3 repetitions\n"
    "  --cpu N        pin the process to CPU N\n"
    "  --positions N  positions per corpus (default 1024)\n";

typedef struct {
    const char *name;
    const bench_runners *runners;
    bool backend;
} method;

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

static void use_method(const method *m)
{
    if (m->backend) df_backend_select(m->name);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void cpu_model(char *out, size_t size)
{
    snprintf(out, size, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon) {
            colon += 2;
            colon[strcspn(colon, "\n")] = 0;
            snprintf(out, size, "%s", colon);
            break;
        }
    }
    fclose(f);
}

/* Compares every method's output (both modes) with the first method's; reports the first
 * difference. */
static bool verify(const bench_corpus *c, int op, const method *ms, int nm, uint64_t *ref,
                   uint64_t *got, uint64_t *sum)
{
    const size_t words = (size_t)op_words[op] * c->count;
    for (int i = 0; i < nm; i++) {
        for (int mode = 0; mode < 2; mode++) {
            bench_run_fn fn = mode ? ms[i].runners->latency[op] : ms[i].runners->throughput[op];
            if (!fn) continue;
            use_method(&ms[i]);
            fn(c->boards, c->count, i == 0 && mode == 0 ? ref : got);
            if (i == 0 && mode == 0) continue;
            for (size_t w = 0; w < words; w++) {
                if (got[w] == ref[w]) continue;
                char fen[DF_FEN_MAX];
                size_t pos = w / (size_t)op_words[op];
                df_fen_format(&c->boards[pos], fen, sizeof fen);
                fprintf(stderr,
                        "dirfill bench: %s on %s: %s (%s) differs from %s at position %zu "
                        "word %zu: 0x%016llx vs 0x%016llx\n  %s\n",
                        op_names[op], c->name, ms[i].name, mode ? "latency" : "throughput",
                        ms[0].name, pos, w % (size_t)op_words[op], (unsigned long long)got[w],
                        (unsigned long long)ref[w], fen);
                return false;
            }
        }
    }
    *sum = checksum(ref, words);
    return true;
}

int cmd_bench(int argc, char **argv)
{
    bool json = false, quick = false;
    const char *svg = NULL;
    long cpu = -1, positions = 1024;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (is_opt(a, "--json"))
            json = true;
        else if (is_opt(a, "--quick"))
            quick = true;
        else if (is_opt(a, "--svg") || is_opt(a, "--cpu") || is_opt(a, "--positions")) {
            if (i + 1 >= argc) return usage_error("bench", "%s needs a value", a);
            const char *v = argv[++i];
            if (is_opt(a, "--svg")) {
                svg = v;
                continue;
            }
            char *end;
            long n = strtol(v, &end, 10);
            if (*end || end == v || n < (is_opt(a, "--cpu") ? 0 : 16) || n > 1000000)
                return usage_error("bench", "bad value '%s' for %s", v, a);
            *(is_opt(a, "--cpu") ? &cpu : &positions) = n;
        } else if (is_opt(a, "--help") || is_opt(a, "-h")) {
            fputs(help, stdout);
            return 0;
        } else
            return usage_error("bench", "unknown argument '%s' (see dirfill bench --help)", a);
    }
    if (cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET((int)cpu, &set);
        if (sched_setaffinity(0, sizeof set, &set) != 0)
            return usage_error("bench", "cannot pin to CPU %ld", cpu);
    }
    if (quick) positions = 64;
    const int reps = quick ? 3 : 21;
    const double target_ns = quick ? 2e4 : 1e6;

    /* Methods: the backends (scalar first: the reference of the checks and ratios), then
     * the baselines this CPU runs. A backend named by --backend or DIRFILL_BACKEND is timed
     * alone beside scalar, which stays as the reference. */
    const char *only = cli_backend;
    method ms[8];
    int nm = 0;
    df_backend_info info;
    const char *active = df_backend_name();
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

    bench_corpus corpora[CORPUS_COUNT];
    corpus_build(corpora, (size_t)positions);
    const size_t max_words = (size_t)64 * (size_t)positions;
    uint64_t *ref = aligned_alloc(64, max_words * 8), *got = aligned_alloc(64, max_words * 8);
    report r;
    report_init(&r);
    cpu_model(r.cpu, sizeof r.cpu);
    int status = 0;

    for (int ci = 0; ci < CORPUS_COUNT && !status; ci++) {
        const bench_corpus *c = &corpora[ci];
        for (int op = 0; op < OP_COUNT && !status; op++) {
            uint64_t sum;
            if (!verify(c, op, ms, nm, ref, got, &sum)) {
                status = 1;
                break;
            }
            /* Positions, or for perft the nodes it visits (the sum of its outputs). */
            double units = (double)c->count;
            if (op == OP_PERFT) {
                uint64_t nodes = 0;
                for (size_t k = 0; k < c->count; k++) nodes += ref[k];
                units = (double)nodes;
            }
            double times[8][2][32];
            int passes[8][2];
            for (int i = 0; i < nm; i++)
                for (int mode = 0; mode < 2; mode++) {
                    bench_run_fn fn =
                        mode ? ms[i].runners->latency[op] : ms[i].runners->throughput[op];
                    passes[i][mode] = 0;
                    if (!fn) continue;
                    use_method(&ms[i]);
                    double t = now_ns();
                    fn(c->boards, c->count, got); /* warm-up, and a size for the passes */
                    t = now_ns() - t;
                    passes[i][mode] = (int)(target_ns / (t > 1 ? t : 1)) + 1;
                }
            /* Repetitions interleave the methods, so drift hits all of them alike. */
            for (int rep = 0; rep < reps; rep++)
                for (int i = 0; i < nm; i++)
                    for (int mode = 0; mode < 2; mode++) {
                        bench_run_fn fn =
                            mode ? ms[i].runners->latency[op] : ms[i].runners->throughput[op];
                        if (!fn) continue;
                        use_method(&ms[i]);
                        double t = now_ns();
                        for (int p = 0; p < passes[i][mode]; p++) fn(c->boards, c->count, got);
                        t = now_ns() - t;
                        times[i][mode][rep] = t / ((double)passes[i][mode] * units);
                    }
            for (int i = 0; i < nm; i++)
                for (int mode = 0; mode < 2; mode++) {
                    if (!passes[i][mode]) continue;
                    qsort(times[i][mode], (size_t)reps, sizeof(double), cmp_double);
                    report_add(&r, (bench_result){op_names[op], c->name, ms[i].name,
                                                  mode ? "latency" : "throughput",
                                                  times[i][mode][reps / 2], sum});
                }
        }
    }
    df_backend_select(active);
    if (!status) {
        for (int i = 0; i < nm; i++)
            if (ms[i].backend) report_backend(&r, ms[i].name);
        for (int ci = 0; ci < CORPUS_COUNT; ci++)
            report_corpus(&r, corpora[ci].name, corpora[ci].count, corpora[ci].how);
        if (json)
            report_json(&r, stdout);
        else
            report_table(&r, stdout, reps);
        if (svg && report_svg(&r, svg) != 0) {
            fprintf(stderr, "dirfill bench: cannot write %s\n", svg);
            status = 1;
        }
    }
    report_free(&r);
    free(ref);
    free(got);
    corpus_free(corpora);
    return status;
}
