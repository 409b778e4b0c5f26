/* SPDX-License-Identifier: MIT */
/* The benchmark's output: a table per operation and corpus with a summary, JSON for scripts,
 * an SVG chart of the speed-up ratios. */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmdline.h"

void report_init(report *r, int reps)
{
    memset(r, 0, sizeof *r);
    r->reps = reps;
    snprintf(r->cpu, sizeof r->cpu, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            char *colon = strchr(line, ':');
            if (strncmp(line, "model name", 10) == 0 && colon) {
                colon += 2;
                colon[strcspn(colon, "\n")] = 0;
                snprintf(r->cpu, sizeof r->cpu, "%s", colon);
                break;
            }
        }
        fclose(f);
    }
    const time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm)) strftime(r->date, sizeof r->date, "%Y-%m-%d", &tm);
}

void report_free(report *r)
{
    free(r->results);
    free(r->backends);
}

bool report_add(report *r, bench_result res)
{
    if (r->count == r->capacity) {
        const size_t capacity = r->capacity ? 2 * r->capacity : 256;
        bench_result *grown = realloc(r->results, capacity * sizeof *grown);
        if (!grown) return false;
        r->results = grown;
        r->capacity = capacity;
    }
    r->results[r->count++] = res;
    return true;
}

bool report_backend(report *r, const char *name)
{
    const char **grown = realloc(r->backends, (size_t)(r->nbackends + 1) * sizeof *grown);
    if (!grown) return false;
    r->backends = grown;
    r->backends[r->nbackends++] = name;
    return true;
}

void report_corpus(report *r, const char *name, size_t positions, const char *how)
{
    r->corpora[r->ncorpora].name = name;
    r->corpora[r->ncorpora].how = how;
    r->corpora[r->ncorpora++].positions = positions;
}

static bool is_backend(const report *r, const char *method)
{
    for (int i = 0; i < r->nbackends; i++)
        if (strcmp(r->backends[i], method) == 0) return true;
    return false;
}

static bool same_cell(const bench_result *a, const bench_result *b)
{
    return a->op == b->op && !strcmp(a->corpus, b->corpus) && !strcmp(a->mode, b->mode);
}

/* ns of a method in the cell of like; 0 when absent. */
static double ns_of(const report *r, const bench_result *like, const char *method)
{
    for (size_t i = 0; i < r->count; i++)
        if (same_cell(&r->results[i], like) && !strcmp(r->results[i].method, method))
            return r->results[i].ns;
    return 0;
}

/* The fastest backend (or baseline) in the cell of like; 0 when none. */
static double best_of(const report *r, const bench_result *like, bool backends, const char **name)
{
    double best = 0;
    for (size_t i = 0; i < r->count; i++) {
        const bench_result *x = &r->results[i];
        if (!same_cell(x, like) || is_backend(r, x->method) != backends) continue;
        if (best == 0 || x->ns < best) {
            best = x->ns;
            if (name) *name = x->method;
        }
    }
    return best;
}

static int method_width(const report *r)
{
    int w = (int)strlen("method");
    for (size_t i = 0; i < r->count; i++)
        if ((int)strlen(r->results[i].method) > w) w = (int)strlen(r->results[i].method);
    return w;
}

static void ratio_text(char *out, size_t size, double num, double den, const char *name)
{
    if (num > 0 && den > 0)
        snprintf(out, size, "%.2fx%s%s", num / den, name ? " " : "", name ? name : "");
    else
        snprintf(out, size, "-");
}

static void table_cells(const report *r, FILE *out, int mw)
{
    const bench_result *head = NULL;
    for (size_t i = 0; i < r->count; i++) {
        const bench_result *x = &r->results[i];
        if (!head || head->op != x->op || strcmp(head->corpus, x->corpus)) {
            head = x;
            const bench_op_info *op = &bench_ops[x->op];
            fprintf(out, "\n%s / %s   ns per %s   (checksum 0x%016llx)\n", op->name, x->corpus,
                    bench_unit_names[op->unit], (unsigned long long)x->checksum);
            fprintf(out, "  %-*s %-10s %10s %10s %10s  %s\n", mw, "method", "mode", "ns", "M/s",
                    "vs scalar", "vs best classic");
        }
        char vs_scalar[32], vs_base[48];
        const char *bname = NULL;
        const double base = best_of(r, x, false, &bname);
        const bool backend = is_backend(r, x->method);
        ratio_text(vs_scalar, sizeof vs_scalar, backend ? ns_of(r, x, "scalar") : 0, x->ns, NULL);
        ratio_text(vs_base, sizeof vs_base, backend ? base : 0, x->ns, bname);
        fprintf(out, "  %-*s %-10s %10.2f %10.1f %10s  %s%s\n", mw, x->method, x->mode, x->ns,
                1e3 / x->ns, vs_scalar, vs_base,
                x->suspect && !strcmp(x->mode, "throughput")
                    ? "   SUSPECT: throughput slower than latency"
                    : "");
    }
}

/* op x corpus -> the best dirfill backend against scalar and against the best classic
 * method, throughput. */
static void table_summary(const report *r, FILE *out)
{
    fprintf(out, "\nSummary, throughput: the fastest dirfill backend of each operation\n");
    fprintf(out, "  %-18s %-10s %-9s %9s %-9s %10s  %s\n", "op", "corpus", "backend", "ns", "per",
            "vs scalar", "vs best classic");
    for (size_t i = 0; i < r->count; i++) {
        const bench_result *x = &r->results[i];
        if (strcmp(x->mode, "throughput") || strcmp(x->method, "scalar")) continue;
        const char *best_name = "scalar", *bname = NULL;
        const double best = best_of(r, x, true, &best_name), base = best_of(r, x, false, &bname);
        const bool dispatched = bench_ops[x->op].dispatched;
        char vs_scalar[32], vs_base[48];
        ratio_text(vs_scalar, sizeof vs_scalar, dispatched ? x->ns : 0, best, NULL);
        if (!dispatched) best_name = "(any)";
        ratio_text(vs_base, sizeof vs_base, base, best, bname);
        fprintf(out, "  %-18s %-10s %-9s %9.2f %-9s %10s  %s", bench_ops[x->op].name, x->corpus,
                best_name, best, bench_unit_names[bench_ops[x->op].unit], vs_scalar, vs_base);
        if (bench_ops[x->op].unit == UNIT_GAME)
            fprintf(out, "  (%.0f MB/s, %.0f bytes a game)", r->pgn_bytes_per_game * 1e3 / best,
                    r->pgn_bytes_per_game);
        fputc('\n', out);
    }
}

void report_table(const report *r, FILE *out)
{
    fprintf(out, "dirfill bench %s — %s — %s\n", df_version(), r->cpu, r->date);
    fprintf(out,
            "median of %d repetitions; ratios > 1 mean faster; throughput: independent positions\n"
            "in a loop, latency: each position's address depends on the previous result\n",
            r->reps);
    /* Not a backend's: the one-square lookup method the library chose for this CPU. */
    fprintf(out, "attackers_to and see on every backend: %s lookups (DIRFILL_LOOKUP)\n",
            df_lookup_name());
    for (int c = 0; c < r->ncorpora; c++)
        fprintf(out, "  %-10s %zu positions: %s\n", r->corpora[c].name, r->corpora[c].positions,
                r->corpora[c].how);
    table_cells(r, out, method_width(r));
    table_summary(r, out);
    /* Only a throughput row is flagged (harness.c), so each flag is one suspect figure. */
    size_t suspects = 0;
    for (size_t i = 0; i < r->count; i++) suspects += r->results[i].suspect;
    if (suspects)
        fprintf(out, "\n%zu %s SUSPECT (throughput more than %.0f%% slower than latency)\n",
                suspects, suspects == 1 ? "row is" : "rows are", (REPORT_SUSPECT_RATIO - 1) * 100);
}

void report_json(const report *r, FILE *out)
{
    fputs("{\"cpu\": ", out);
    json_string(out, r->cpu, strlen(r->cpu));
    fprintf(out, ", \"date\": \"%s\", \"version\": \"%s\", \"repetitions\": %d, \"backends\": [",
            r->date, df_version(), r->reps);
    for (int i = 0; i < r->nbackends; i++) fprintf(out, "%s\"%s\"", i ? ", " : "", r->backends[i]);
    fputs("], \"corpora\": [", out);
    for (int c = 0; c < r->ncorpora; c++) {
        fprintf(out, "%s{\"name\": \"%s\", \"positions\": %zu, \"how\": ", c ? ", " : "",
                r->corpora[c].name, r->corpora[c].positions);
        json_string(out, r->corpora[c].how, strlen(r->corpora[c].how));
        fputc('}', out);
    }
    fputs("], \"results\": [", out);
    for (size_t i = 0; i < r->count; i++) {
        const bench_result *x = &r->results[i];
        fprintf(out,
                "%s\n  {\"op\": \"%s\", \"corpus\": \"%s\", \"method\": \"%s\", \"mode\": "
                "\"%s\", \"unit\": \"%s\", \"ns_per_pos\": %.3f, \"mpos_per_s\": %.2f, "
                "\"checksum\": \"0x%016llx\", \"suspect\": %s",
                i ? "," : "", bench_ops[x->op].name, x->corpus, x->method, x->mode,
                bench_unit_names[bench_ops[x->op].unit], x->ns, 1e3 / x->ns,
                (unsigned long long)x->checksum, x->suspect ? "true" : "false");
        if (bench_ops[x->op].unit == UNIT_GAME)
            fprintf(out, ", \"mb_per_s\": %.1f", r->pgn_bytes_per_game * 1e3 / x->ns);
        fputc('}', out);
    }
    fputs("]}\n", out);
}

/* ---- SVG: horizontal bars on a log2 axis, one group per operation and corpus ---- */

typedef struct {
    double lo, hi; /* axis range as powers of two */
    int left, width;
} svg_axis;

static double svg_x(const svg_axis *a, double ratio)
{
    return a->left + (log2(ratio) - a->lo) / (a->hi - a->lo) * a->width;
}

static void svg_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<' || *s == '>' || *s == '&')
            fprintf(f, "&#%d;", *s);
        else
            fputc(*s, f);
    }
}

static void svg_bar(FILE *f, const svg_axis *a, int y, double ratio, const char *good,
                    const char *label)
{
    const double x1 = svg_x(a, 1.0), x2 = svg_x(a, ratio);
    fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"12\" fill=\"%s\"/>",
            x2 < x1 ? x2 : x1, y, fabs(x2 - x1) < 1 ? 1 : fabs(x2 - x1),
            ratio < 1 ? "#c23b3b" : good);
    fprintf(f, "<text x=\"%.1f\" y=\"%d\">%.2f %s</text>\n", (x2 > x1 ? x2 : x1) + 4, y + 10, ratio,
            label);
}

int report_svg(const report *r, const char *path)
{
    /* Renamed into place when whole: a failure leaves the old chart, not a part. */
    cmd_output out;
    FILE *f = cmd_output_open(&out, path);
    if (!f) return -1;
    svg_axis a = {-1, 1, 280, 560};
    int rows = 0;
    for (size_t i = 0; i < r->count; i++) {
        const bench_result *x = &r->results[i];
        if (strcmp(x->mode, "throughput") || strcmp(x->method, "scalar")) continue;
        if (!bench_ops[x->op].dispatched) continue;
        const double best = best_of(r, x, true, NULL), base = best_of(r, x, false, NULL);
        const double ratios[2] = {x->ns / best, base > 0 ? base / best : 1};
        for (int k = 0; k < 2; k++) {
            a.lo = fmin(a.lo, floor(log2(ratios[k])));
            a.hi = fmax(a.hi, ceil(log2(ratios[k])));
        }
        rows++;
    }
    const int row = 34, top = 72, height = top + rows * row + 40;
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "font-family=\"sans-serif\" font-size=\"12\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
            "<text x=\"10\" y=\"20\" font-size=\"15\">dirfill %s speed-up, throughput: fastest "
            "backend vs scalar (blue) and vs the fastest classic method (orange); red: slower"
            "</text>\n<text x=\"10\" y=\"38\" fill=\"#555\">",
            a.left + a.width + 140, height, df_version());
    svg_text(f, r->cpu);
    fprintf(f, ", %s; log scale, ratios &gt; 1 mean dirfill is faster</text>\n", r->date);
    for (double p = a.lo; p <= a.hi; p++) {
        const double x = svg_x(&a, exp2(p));
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
                "stroke-width=\"%s\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n",
                x, top - 8, x, height - 30, p == 0 ? "#222" : "#ddd", p == 0 ? "1.5" : "1", x,
                height - 16, exp2(p));
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-weight=\"bold\">1.0</text>\n",
            svg_x(&a, 1.0), top - 12);
    int y = top;
    for (size_t i = 0; i < r->count; i++) {
        const bench_result *x = &r->results[i];
        if (strcmp(x->mode, "throughput") || strcmp(x->method, "scalar")) continue;
        if (!bench_ops[x->op].dispatched) continue;
        const char *bname = "scalar", *kname = NULL;
        const double best = best_of(r, x, true, &bname), base = best_of(r, x, false, &kname);
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s / %s</text>\n", a.left - 8,
                y + 18, bench_ops[x->op].name, x->corpus);
        char label[64];
        if (strcmp(bname, "scalar")) {
            snprintf(label, sizeof label, "%s / scalar", bname);
            svg_bar(f, &a, y + 2, x->ns / best, "#3b6fb6", label);
        }
        if (base > 0) {
            snprintf(label, sizeof label, "%s / %s", bname, kname);
            svg_bar(f, &a, y + 16, base / best, "#e08a2c", label);
        }
        y += row;
    }
    fputs("</svg>\n", f);
    return cmd_output_close(&out) ? 0 : -1;
}
