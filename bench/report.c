#include "report.h"

#include "../app/cli.h"

#include <stdlib.h>
#include <string.h>

void report_init(report *r) { memset(r, 0, sizeof *r); }
void report_free(report *r) { free(r->results); }

void report_add(report *r, bench_result res)
{
    if (r->count == r->capacity) {
        r->capacity = r->capacity ? 2 * r->capacity : 256;
        r->results = realloc(r->results, r->capacity * sizeof *r->results);
        if (!r->results) abort();
    }
    r->results[r->count++] = res;
}

void report_backend(report *r, const char *name) { r->backends[r->nbackends++] = name; }

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

/* ns of a method for (op, corpus, mode); 0 when absent. */
static double ns_of(const report *r, const bench_result *like, const char *method)
{
    for (size_t i = 0; i < r->count; i++) {
        const bench_result *x = &r->results[i];
        if (!strcmp(x->op, like->op) && !strcmp(x->corpus, like->corpus) &&
            !strcmp(x->mode, like->mode) && !strcmp(x->method, method))
            return x->ns_per_pos;
    }
    return 0;
}

/* The fastest baseline (or backend) for (op, corpus, mode). */
static double best_of(const report *r, const bench_result *like, bool backends, const char **name)
{
    double best = 0;
    for (size_t i = 0; i < r->count; i++) {
        const bench_result *x = &r->results[i];
        if (strcmp(x->op, like->op) || strcmp(x->corpus, like->corpus) ||
            strcmp(x->mode, like->mode) || is_backend(r, x->method) != backends)
            continue;
        if (best == 0 || x->ns_per_pos < best) {
            best = x->ns_per_pos;
            if (name) *name = x->method;
        }
    }
    return best;
}

void report_table(const report *r, FILE *out, int reps)
{
    fprintf(out, "dirfill bench — %s\n", r->cpu);
    fprintf(out,
            "ns per position, median of %d repetitions; ratios > 1 mean faster than the "
            "reference\n",
            reps);
    for (int c = 0; c < r->ncorpora; c++)
        fprintf(out, "  %-10s %zu positions: %s\n", r->corpora[c].name, r->corpora[c].positions,
                r->corpora[c].how);
    const char *corpus = "", *op = "";
    for (size_t i = 0; i < r->count; i++) {
        const bench_result *x = &r->results[i];
        if (strcmp(corpus, x->corpus) || strcmp(op, x->op)) {
            corpus = x->corpus;
            op = x->op;
            fprintf(out, "\n%s / %s%s   (checksum 0x%016llx)\n", op, corpus,
                    strcmp(op, "perft") ? "" : " (per node, not per position)",
                    (unsigned long long)x->checksum);
            fprintf(out, "  %-8s %-10s %10s %10s %10s %12s\n", "method", "mode", "ns/pos", "Mpos/s",
                    "vs scalar", "vs baseline");
        }
        const double scalar = ns_of(r, x, "scalar");
        const char *bname = "-";
        const double base = best_of(r, x, false, &bname);
        char vs_scalar[16] = "-", vs_base[32] = "-";
        if (scalar > 0 && is_backend(r, x->method))
            snprintf(vs_scalar, sizeof vs_scalar, "%.2fx", scalar / x->ns_per_pos);
        if (base > 0 && is_backend(r, x->method))
            snprintf(vs_base, sizeof vs_base, "%.2fx %s", base / x->ns_per_pos, bname);
        fprintf(out, "  %-8s %-10s %10.2f %10.1f %10s %12s\n", x->method, x->mode, x->ns_per_pos,
                1e3 / x->ns_per_pos, vs_scalar, vs_base);
    }
}

void report_json(const report *r, FILE *out)
{
    fprintf(out, "{\"cpu\": ");
    json_string(out, r->cpu, strlen(r->cpu));
    fputs(", \"backends\": [", out);
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
                "\"%s\", \"ns_per_pos\": %.3f, \"mpos_per_s\": %.2f, \"checksum\": "
                "\"0x%016llx\"}",
                i ? "," : "", x->op, x->corpus, x->method, x->mode, x->ns_per_pos,
                1e3 / x->ns_per_pos, (unsigned long long)x->checksum);
    }
    fputs("]}\n", out);
}

/* Horizontal bars, two per (op, corpus) in throughput mode: the fastest backend against
 * scalar and against the fastest baseline. A line marks 1.0. */
int report_svg(const report *r, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    const int row = 34, left = 250, width = 520;
    double maxr = 1;
    int rows = 0;
    for (size_t i = 0; i < r->count; i++) {
        const bench_result *x = &r->results[i];
        if (strcmp(x->mode, "throughput") || strcmp(x->method, "scalar")) continue;
        const double best = best_of(r, x, true, NULL), base = best_of(r, x, false, NULL);
        if (best > 0 && x->ns_per_pos / best > maxr) maxr = x->ns_per_pos / best;
        if (best > 0 && base > 0 && base / best > maxr) maxr = base / best;
        rows++;
    }
    const int height = 90 + rows * row;
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "font-family=\"sans-serif\" font-size=\"12\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
            "<text x=\"10\" y=\"20\" font-size=\"15\">dirfill speed-up, throughput: fastest "
            "backend vs scalar (blue) and vs the fastest classic method (orange)</text>\n"
            "<text x=\"10\" y=\"38\" fill=\"#555\">",
            left + width + 80, height);
    for (const char *c = r->cpu; *c; c++) {
        if (*c == '<' || *c == '>' || *c == '&')
            fprintf(f, "&#%d;", *c);
        else
            fputc(*c, f);
    }
    fputs("</text>\n", f);
    const double scale = width / maxr;
    fprintf(f,
            "<line x1=\"%.1f\" y1=\"50\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333\" "
            "stroke-dasharray=\"4\"/>\n<text x=\"%.1f\" y=\"%d\">1.0</text>\n",
            left + scale, left + scale, height - 20, left + scale - 8, height - 6);
    int y = 56;
    for (size_t i = 0; i < r->count; i++) {
        const bench_result *x = &r->results[i];
        if (strcmp(x->mode, "throughput") || strcmp(x->method, "scalar")) continue;
        const char *bname = "", *kname = "";
        const double best = best_of(r, x, true, &bname), base = best_of(r, x, false, &kname);
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s / %s</text>\n", left - 6, y + 18,
                x->op, x->corpus);
        const double v1 = best > 0 ? x->ns_per_pos / best : 0, v2 = base > 0 ? base / best : 0;
        fprintf(f,
                "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"12\" fill=\"#3b6fb6\"/>"
                "<text x=\"%.1f\" y=\"%d\">%.2f %s/scalar</text>\n",
                left, y + 2, v1 * scale, left + v1 * scale + 4, y + 12, v1, bname);
        if (v2 > 0)
            fprintf(f,
                    "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"12\" fill=\"#e08a2c\"/>"
                    "<text x=\"%.1f\" y=\"%d\">%.2f vs %s</text>\n",
                    left, y + 16, v2 * scale, left + v2 * scale + 4, y + 26, v2, kname);
        y += row;
    }
    fputs("</svg>\n", f);
    return fclose(f);
}
