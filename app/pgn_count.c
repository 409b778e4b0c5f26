/* SPDX-License-Identifier: MIT */
/* dirfill pgn --count-by: the kept games of PGN files counted by the values of tags and derived
 * fields, at the speed of reading headers. Each run of games (a sink, filled on a worker) records
 * its games' keys; the calling thread counts them into one table as the sinks are delivered; the
 * table is sorted and printed at the end. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "app.h"

enum { FIELDS_MAX = 8, FIELD_NAME_MAX = 64 };

typedef struct {
    char name[FIELD_NAME_MAX];
    df_pgn_field field;
} count_field;

typedef struct {
    count_field f[FIELDS_MAX];
    size_t n;
    df_pgn_field derived[FIELDS_MAX]; /* the derived ones among them, in order */
    size_t nderived;
} field_list;

static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The fields of a --count-by list: 0, or EXIT_USAGE after a message. */
static int parse_fields(field_list *out, const char *list)
{
    out->n = out->nderived = 0;
    for (const char *p = list;; p++) {
        while (*p == ' ') p++;
        const char *end = p + strcspn(p, ",");
        const char *last = end;
        while (last > p && last[-1] == ' ') last--;
        const size_t n = (size_t)(last - p);
        size_t bad = 0;
        while (bad < n && is_name_char(p[bad])) bad++;
        if (!n) return cmd_usage_error("pgn", "--count-by '%s': an empty field name", list);
        if (bad < n)
            return cmd_usage_error("pgn",
                                   "--count-by '%s': '%.*s' is no field name (letters, digits "
                                   "and _)",
                                   list, (int)n, p);
        if (n >= FIELD_NAME_MAX)
            return cmd_usage_error("pgn", "--count-by: a field name of %zu bytes is too long", n);
        if (out->n == FIELDS_MAX)
            return cmd_usage_error("pgn", "--count-by takes at most %d fields", FIELDS_MAX);
        count_field *f = &out->f[out->n];
        memcpy(f->name, p, n);
        f->name[n] = '\0';
        f->field = df_pgn_field_of(f->name);
        for (int d = DF_PGN_FIELD_TAG + 1; d < DF_PGN_FIELD_COUNT && !f->field; d++)
            if (!strcasecmp(f->name, df_pgn_field_name((df_pgn_field)d)))
                return cmd_usage_error("pgn", "--count-by: '%s': did you mean '%s'?", f->name,
                                       df_pgn_field_name((df_pgn_field)d));
        if (!strcmp(f->name, "games") || !strcmp(f->name, "plies"))
            return cmd_usage_error("pgn", "--count-by: '%s' names a count of the table", f->name);
        for (size_t k = 0; k < out->n; k++)
            if (!strcmp(out->f[k].name, f->name))
                return cmd_usage_error("pgn", "--count-by: '%s' is named twice", f->name);
        if (f->field != DF_PGN_FIELD_TAG) out->derived[out->nderived++] = f->field;
        out->n++;
        if (!*end) return 0;
        p = end;
    }
}

int pgn_count_check(const char *fields)
{
    field_list unused;
    return parse_fields(&unused, fields);
}

/* ---- a table of groups: keys (the fields' values of a game) and their counts ---- */

typedef struct {
    uint64_t hash;
    size_t key; /* offset of the key in the table's arena */
    size_t len; /* its bytes */
    uint64_t games, plies;
} group;

typedef struct {
    group *slots; /* open addressing, a power of two of them, at most half used */
    size_t cap, used;
    char *keys; /* the keys, one after the other */
    size_t keys_len, keys_cap;
    bool failed;
} group_table;

static uint64_t hash_of(const char *s, size_t n)
{
    uint64_t h = n * 0x9e3779b97f4a7c15u;
    for (; n >= 8; s += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdu;
        h ^= h >> 32;
    }
    uint64_t w = 0;
    memcpy(&w, s, n);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53u;
    return h ^ h >> 29;
}

/* memcmp(a, b, n) == 0 for keys of a few dozen bytes, without a call. */
static bool same(const char *a, const char *b, size_t n)
{
    uint64_t diff = 0;
    for (; n >= 8; a += 8, b += 8, n -= 8) {
        uint64_t x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        diff |= x ^ y;
    }
    while (n--) diff |= (uint64_t)(*a++ ^ *b++);
    return !diff;
}

static group *table_slot(group_table *t, const char *key, size_t len, uint64_t hash)
{
    for (size_t i = hash & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        group *g = &t->slots[i];
        if (!g->games || (g->hash == hash && g->len == len && same(t->keys + g->key, key, len)))
            return g;
    }
}

static bool table_grow(group_table *t)
{
    const size_t cap = t->cap ? 2 * t->cap : 16;
    group *old = t->slots, *slots = calloc(cap, sizeof *slots);
    if (!slots) return false;
    const size_t old_cap = t->cap;
    t->slots = slots;
    t->cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].games) *table_slot(t, t->keys + old[i].key, old[i].len, old[i].hash) = old[i];
    free(old);
    return true;
}

/* Adds games and plies to the group of key[0, len). */
static void table_add(group_table *t, const char *key, size_t len, uint64_t games, uint64_t plies)
{
    if (t->failed) return;
    if (2 * (t->used + 1) > t->cap && !table_grow(t)) {
        t->failed = true;
        return;
    }
    const uint64_t hash = hash_of(key, len);
    group *g = table_slot(t, key, len, hash);
    if (!g->games) {
        if (t->keys_len + len > t->keys_cap) {
            size_t cap = t->keys_cap ? 2 * t->keys_cap : 1024;
            while (cap < t->keys_len + len) cap *= 2;
            char *grown = realloc(t->keys, cap);
            if (!grown) {
                t->failed = true;
                return;
            }
            t->keys = grown;
            t->keys_cap = cap;
        }
        memcpy(t->keys + t->keys_len, key, len);
        *g = (group){hash, t->keys_len, len, 0, 0};
        t->keys_len += len;
        t->used++;
    }
    g->games += games;
    g->plies += plies;
}

static void table_free(group_table *t)
{
    free(t->slots);
    free(t->keys);
    memset(t, 0, sizeof *t);
}

/* ---- a game's key: per field a byte (0 no value, 1 a tag's, 2 a derived one), then a tag's
 * length and bytes or a derived value's 8 bytes: no text is made per game ---- */

enum { KEY_ROOM = 512 }; /* a key of derived fields and short tags; longer ones are allocated */

/* Where a key is written: room on the stack, then (a long tag value) a growing text. */
typedef struct {
    char *room;
    size_t len;
    cmd_text *big; /* in use once big->len > 0 */
} key_writer;

static void key_put(key_writer *w, const void *p, size_t n)
{
    if (!w->big->len && w->len + n <= KEY_ROOM) {
        memcpy(w->room + w->len, p, n);
        w->len += n;
        return;
    }
    if (!w->big->len) cmd_text_put(w->big, w->room, w->len);
    cmd_text_put(w->big, p, n);
}

/* The key of g, in room (KEY_ROOM bytes) or *big: its start and *len, NULL when out of memory. */
static const char *make_key(char *room, cmd_text *big, size_t *len, const field_list *fields,
                            const df_pgn_game *g)
{
    double values[FIELDS_MAX];
    const unsigned known = df_pgn_field_values(g, fields->derived, fields->nderived, values);
    key_writer w = {room, 0, big};
    big->len = 0;
    for (size_t i = 0, derived = 0; i < fields->n; i++) {
        const count_field *f = &fields->f[i];
        uint32_t n = 0;
        if (f->field == DF_PGN_FIELD_TAG) {
            const char *v = df_pgn_tag_value(g, f->name, &n);
            const char kind = v ? 1 : 0;
            key_put(&w, &kind, 1);
            if (v) key_put(&w, &n, 4), key_put(&w, v, n);
        } else {
            const char kind = known >> derived & 1 ? 2 : 0;
            key_put(&w, &kind, 1);
            if (kind) key_put(&w, &values[derived], 8);
            derived++;
        }
    }
    if (!big->len) return *len = w.len, room;
    *len = big->len;
    return big->failed ? NULL : big->text;
}

/* ---- the read: sinks of runs of games ---- */

typedef struct {
    const count_options *o;
    field_list fields;
    group_table all;
} count_run;

/* A sink: the keys of its kept games, one record each (the key's length, the game's plies, the
 * key), counted into the table on the calling thread when it is delivered. A worker thus
 * writes a few dozen bytes a game and no table of its own. */
typedef struct {
    const count_run *run;
    char *records;
    size_t len, cap;
    bool failed;
    cmd_text big_key; /* a key longer than KEY_ROOM */
} count_sink;

static void *count_open(void *ctx)
{
    count_sink *s = calloc(1, sizeof *s);
    if (s) s->run = ctx;
    return s;
}

static void count_drop(void *ctx, void *p)
{
    (void)ctx;
    count_sink *s = p;
    free(s->records);
    cmd_text_free(&s->big_key);
    free(s);
}

/* A kept game (read without an error, not skipped) is recorded. */
static df_pgn_action count_end(void *ctx, const df_pgn_game *g)
{
    count_sink *s = ctx;
    if (g->error || g->skipped || s->failed) return DF_PGN_READ;
    char room[KEY_ROOM];
    size_t len;
    const char *key = make_key(room, &s->big_key, &len, &s->run->fields, g);
    const size_t need = 8 + len;
    if (key && s->len + need > s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 4096;
        while (cap < s->len + need) cap *= 2;
        char *grown = realloc(s->records, cap);
        if (grown) s->records = grown, s->cap = cap;
    }
    if (!key || s->len + need > s->cap) {
        s->failed = true;
        return DF_PGN_STOP;
    }
    const uint32_t n = (uint32_t)len, plies = g->plies;
    memcpy(s->records + s->len, &n, 4);
    memcpy(s->records + s->len + 4, &plies, 4);
    memcpy(s->records + s->len + 8, key, len);
    s->len += 8 + len;
    return DF_PGN_READ;
}

static int count_deliver(void *ctx, void *p, uint64_t first_game)
{
    (void)first_game;
    count_run *run = ctx;
    const count_sink *s = p;
    for (size_t at = 0; at < s->len && !run->all.failed;) {
        uint32_t n, plies;
        memcpy(&n, s->records + at, 4);
        memcpy(&plies, s->records + at + 4, 4);
        table_add(&run->all, s->records + at + 8, n, 1, plies);
        at += 8 + n;
    }
    if (s->failed) run->all.failed = true;
    return run->all.failed;
}

/* ---- the table, sorted ---- */

/* One field's value of a group, as the order and the output see it. */
typedef struct {
    const char *v; /* its text: a tag's bytes in the key, or text */
    uint32_t n;
    bool missing, number;
    double x;      /* a number's value, a speed's rank, Bot's 0 or 1 */
    char text[32]; /* a derived value written out */
} cell;

static size_t sort_fields; /* cells per row, for compare_rows */

/* Numbers by value (speeds by duration), before text; text byte-wise; no value last. */
static int compare_cells(const cell *a, const cell *b)
{
    if (a->missing || b->missing) return (int)a->missing - (int)b->missing;
    if (a->number && b->number) return (a->x > b->x) - (a->x < b->x);
    if (a->number != b->number) return a->number ? -1 : 1;
    const int c = memcmp(a->v, b->v, a->n < b->n ? a->n : b->n);
    return c ? c : (a->n > b->n) - (a->n < b->n);
}

static int compare_rows(const void *pa, const void *pb)
{
    const cell *a = *(const cell *const *)pa, *b = *(const cell *const *)pb;
    for (size_t i = 0; i < sort_fields; i++) {
        const int c = compare_cells(&a[i], &b[i]);
        if (c) return c;
    }
    return 0;
}

/* Whether v[0, n) is a decimal number ([+-]digits[.digits], as filters read one); *x its value. */
static bool decimal(const char *v, size_t n, double *x)
{
    size_t i = n && (v[0] == '-' || v[0] == '+'), digits = 0, dots = 0;
    for (; i < n; i++) {
        if (v[i] == '.')
            dots++;
        else if (v[i] >= '0' && v[i] <= '9')
            digits++;
        else
            return false;
    }
    if (!digits || dots > 1 || n > 63) return false;
    char text[64];
    memcpy(text, v, n);
    text[n] = '\0';
    *x = strtod(text, NULL);
    return true;
}

/* A derived value as text: a speed's name, true or false, a number as the shortest decimal. */
static void derived_text(cell *c, df_pgn_field f)
{
    const int n =
        f == DF_PGN_FIELD_SPEED
            ? snprintf(c->text, sizeof c->text, "%s", df_pgn_speed_name((df_pgn_speed)c->x))
        : f == DF_PGN_FIELD_BOT ? snprintf(c->text, sizeof c->text, "%s", c->x ? "true" : "false")
                                : snprintf(c->text, sizeof c->text, "%.15g", c->x);
    c->v = c->text;
    c->n = (uint32_t)n;
}

/* A group's key back into cells. */
static void decode(cell *cells, const field_list *fields, const char *key)
{
    for (size_t i = 0; i < fields->n; i++) {
        cell *c = &cells[i];
        memset(c, 0, sizeof *c);
        const char kind = *key++;
        c->missing = kind == 0;
        if (kind == 2) {
            memcpy(&c->x, key, 8);
            key += 8;
            c->number = true; /* speeds by duration, Bot false first */
            derived_text(c, fields->f[i].field);
        } else if (kind == 1) {
            memcpy(&c->n, key, 4);
            c->v = key + 4;
            key += 4 + c->n;
            c->number = decimal(c->v, c->n, &c->x);
        }
    }
}

/* A CSV field: quoted when it holds a comma, a quote or a line end, or is empty (none: no
 * bytes at all). */
static void put_csv(const cell *c)
{
    if (c->missing) return;
    if (c->n && !memchr(c->v, ',', c->n) && !memchr(c->v, '"', c->n) && !memchr(c->v, '\n', c->n) &&
        !memchr(c->v, '\r', c->n)) {
        fwrite(c->v, 1, c->n, stdout);
        return;
    }
    putchar('"');
    for (uint32_t i = 0; i < c->n; i++) {
        if (c->v[i] == '"') putchar('"');
        putchar(c->v[i]);
    }
    putchar('"');
}

static const char none_text[] = "(none)";

/* Column i of a row: a field's cell (its text's length in *n, "(none)" for no value), or NULL
 * for a count, written into text. */
static const cell *cell_text(const cell *row, size_t nf, size_t i, char *text, size_t *n)
{
    if (i < nf) {
        *n = row[i].missing ? sizeof none_text - 1 : row[i].n;
        return &row[i];
    }
    const group *g = (const group *)(row + nf);
    *n = (size_t)snprintf(text, 24, "%llu", (unsigned long long)(i == nf ? g->games : g->plies));
    return NULL;
}

static void print_table(const count_run *run, cell **rows, size_t nrows)
{
    const field_list *fields = &run->fields;
    const count_options *o = run->o;
    if (o->format == COUNT_JSON) {
        cmd_text line = {0};
        for (size_t r = 0; r < nrows; r++) {
            const group *g = (const group *)(rows[r] + fields->n);
            line.len = 0;
            cmd_text_puts(&line, "{");
            for (size_t i = 0; i < fields->n; i++) {
                const cell *c = &rows[r][i];
                const df_pgn_field f = fields->f[i].field;
                cmd_text_json(&line, fields->f[i].name, strlen(fields->f[i].name));
                cmd_text_puts(&line, ": ");
                if (c->missing)
                    cmd_text_puts(&line, "null");
                else if (f == DF_PGN_FIELD_TAG || f == DF_PGN_FIELD_SPEED)
                    cmd_text_json(&line, c->v, c->n);
                else
                    cmd_text_put(&line, c->v, c->n);
                cmd_text_puts(&line, ", ");
            }
            cmd_text_putf(&line, "\"games\": %llu", (unsigned long long)g->games);
            if (o->validate)
                cmd_text_putf(&line, ", \"plies\": %llu", (unsigned long long)g->plies);
            cmd_text_puts(&line, "}\n");
            fwrite(line.text, 1, line.len, stdout);
        }
        cmd_text_free(&line);
        return;
    }
    /* Text and CSV: a header, then a line per group; in text, columns as wide as their widest
     * value, numbers to the right. */
    const size_t ncols = fields->n + 1 + o->validate;
    size_t width[FIELDS_MAX + 2];
    bool right[FIELDS_MAX + 2];
    for (size_t i = 0; i < ncols; i++) {
        const bool count = i >= fields->n;
        width[i] = count ? 5 : strlen(fields->f[i].name); /* "games", "plies" */
        right[i] = count || (fields->f[i].field != DF_PGN_FIELD_SPEED &&
                             fields->f[i].field != DF_PGN_FIELD_BOT);
        for (size_t r = 0; r < nrows; r++) {
            char text[24];
            size_t n;
            const cell *c = cell_text(rows[r], fields->n, i, text, &n);
            if (n > width[i]) width[i] = n;
            right[i] &= count || c->missing || c->number;
        }
    }
    for (size_t r = 0; r <= nrows; r++) {
        for (size_t i = 0; i < ncols; i++) {
            char text[24];
            size_t n;
            const cell *c = r ? cell_text(rows[r - 1], fields->n, i, text, &n) : NULL;
            const char *v = !r                ? (i < fields->n    ? fields->f[i].name
                                                 : i == fields->n ? "games"
                                                                  : "plies")
                            : c && c->missing ? none_text
                            : c               ? c->v
                                              : text;
            if (!r) n = strlen(v);
            if (o->format == COUNT_CSV) {
                if (i) putchar(',');
                if (c)
                    put_csv(c);
                else
                    fwrite(v, 1, n, stdout);
                continue;
            }
            const int pad = (int)(width[i] - n);
            if (i) fputs("  ", stdout);
            if (right[i]) printf("%*s", pad, "");
            fwrite(v, 1, n, stdout);
            if (!right[i] && i + 1 < ncols) printf("%*s", pad, "");
        }
        putchar('\n');
    }
}

/* Sorts the table's groups and prints them: false when out of memory. */
static bool sort_and_print(const count_run *run)
{
    const group_table *t = &run->all;
    const size_t nf = run->fields.n;
    /* A row: its cells, then a copy of its group. */
    const size_t row_bytes = nf * sizeof(cell) + sizeof(group);
    char *block = malloc(t->used * row_bytes + 1);
    cell **rows = malloc((t->used + 1) * sizeof *rows);
    if (!block || !rows) {
        free(block);
        free(rows);
        return false;
    }
    size_t n = 0;
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->slots[i].games) continue;
        cell *cells = (cell *)(block + n * row_bytes);
        decode(cells, &run->fields, t->keys + t->slots[i].key);
        memcpy(cells + nf, &t->slots[i], sizeof(group));
        rows[n++] = cells;
    }
    sort_fields = nf;
    qsort(rows, n, sizeof *rows, compare_rows);
    print_table(run, rows, n);
    free(block);
    free(rows);
    return true;
}

int pgn_count(const count_options *o, const char *const *files, int nfiles)
{
    count_run run;
    memset(&run, 0, sizeof run);
    run.o = o;
    if (parse_fields(&run.fields, o->fields)) return EXIT_USAGE;
    const df_pgn_sinks sinks = {
        count_open, {NULL, NULL, count_end, NULL}, count_deliver, count_drop, &run};
    int status = 0;
    uint64_t errors = 0;
    for (int i = 0; i < nfiles; i++) {
        const char *path = files[i], *name = strcmp(path, "-") ? path : "standard input";
        df_source *src;
        const df_status opened = df_source_open(&src, path);
        if (opened != DF_OK) {
            status = cmd_open_error("pgn", path, opened);
            continue;
        }
        df_pgn_stats stats;
        const unsigned flags = o->flags | (o->validate ? 0 : DF_PGN_HEADERS_ONLY);
        const df_status s = df_pgn_read_threaded(src, flags, o->filter, o->threads, &sinks, &stats);
        errors += stats.errors;
        if (s == DF_ERR_IO) {
            const char *why = df_source_error(src);
            status = cmd_input_error("pgn", "%s: %s", name, why ? why : "cannot read it");
        }
        df_source_close(src);
        if (run.all.failed) break;
    }
    const bool printed = !run.all.failed && sort_and_print(&run);
    table_free(&run.all);
    if (!printed) return cmd_input_error("pgn", "out of memory");
    if (errors)
        status = cmd_input_error("pgn", "%llu games with an error were not counted",
                                 (unsigned long long)errors);
    return status;
}
