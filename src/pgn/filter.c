/* SPDX-License-Identifier: MIT */
/* Filters (pgn.h): `FIELD OP VALUE` conditions, all of which a game's tag section must meet for
 * the reader to replay its moves. Parsed once into a flat array, refusing what cannot mean what
 * the user wanted (a typo keeps no game, or every game, without a word otherwise); a game is
 * matched by one tag look-up, or one derived field, per condition, so rejecting a game costs
 * less than reading its first move. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dirfill.h"

typedef enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_PREFIX, OP_NONE } df__op;

static const char *const df__op_text[] = {"=", "!=", "<", "<=", ">", ">=", "^="};

typedef struct {
    char *name, *value; /* NUL-terminated copies */
    size_t value_len;
    df__op op;
    df_pgn_field field;
    bool numeric; /* VALUE is a number (a derived field's VALUE always is: its value) */
    double number;
} df__condition;

struct df_pgn_filter {
    size_t n;
    df__condition c[];
};

/* Whether s[0, n) is a decimal number: [+-]digits[.digits] or [+-].digits; *out its value. */
static bool df__number(const char *s, size_t n, double *out)
{
    size_t i = (n && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
    size_t digits = 0, dots = 0;
    for (size_t k = i; k < n; k++) {
        if (s[k] == '.')
            dots++;
        else if (s[k] >= '0' && s[k] <= '9')
            digits++;
        else
            return false;
    }
    if (!digits || dots > 1 || n > 63) return false;
    char text[64];
    memcpy(text, s, n);
    text[n] = '\0';
    *out = strtod(text, NULL);
    return true;
}

static bool df__is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool df__is_op_char(char c) { return c && strchr("=!<>^", c); }

static bool df__is_space(char c) { return c == ' ' || c == '\t'; }

/* Whether a[0, n) and the string b are equal but for the case of ASCII letters. */
static bool df__same_text(const char *a, size_t n, const char *b)
{
    if (strlen(b) != n) return false;
    for (size_t i = 0; i < n; i++) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z') x = (char)(x + 32);
        if (y >= 'A' && y <= 'Z') y = (char)(y + 32);
        if (x != y) return false;
    }
    return true;
}

/* Whether VALUE v[0, n) is a PGN date or time: groups of digits and '?' parted by single '.' or
 * ':' (2024.01.15, 2024.??.??, 12:30:00), which sort as text the way they sort as dates. */
static bool df__date_or_time(const char *v, size_t n)
{
    size_t groups = 0, run = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && ((v[i] >= '0' && v[i] <= '9') || v[i] == '?')) {
            run++;
            continue;
        }
        if (!run || (i < n && v[i] != '.' && v[i] != ':')) return false;
        groups++;
        run = 0;
    }
    return groups >= 2;
}

/* The speed named v[0, n) in any case, or -1; *near the closest name when none is (by the bytes
 * the two share at the same places and a common start: "blits" is blitz, "Bulet" bullet). */
static int df__speed_of(const char *v, size_t n, const char **near)
{
    int best = -1;
    size_t best_score = 0;
    for (int s = DF_PGN_SPEED_ULTRABULLET; s <= DF_PGN_SPEED_CORRESPONDENCE; s++) {
        const char *name = df_pgn_speed_name((df_pgn_speed)s);
        if (df__same_text(v, n, name)) return s;
        size_t score = 0;
        for (size_t i = 0; i < n && name[i]; i++) score += ((v[i] | 32) == name[i]);
        const size_t len = strlen(name);
        if (score > best_score && 2 * score >= (n > len ? n : len)) best = s, best_score = score;
    }
    *near = best < 0 ? NULL : df_pgn_speed_name((df_pgn_speed)best);
    return -1;
}

/* What a refused expression gets: why, and the nearest valid form to show (or none). */
typedef struct {
    const char *why;
    char suggestion[96];
} df__refusal;

/* The expression written again: name, op and value (a quoted value with its quotes). */
static void df__suggest(df__refusal *x, const char *name, size_t name_len, const char *op,
                        const char *value, size_t value_len)
{
    snprintf(x->suggestion, sizeof x->suggestion, "%.*s%s%.*s", (int)name_len, name, op,
             (int)value_len, value);
}

/* The operator a run of operator characters that is none meant, from the characters in it:
 * => and >== are >=, =< is <=, <> and =! are !=, == is =, =^ is ^=. */
static const char *df__meant_op(const char *run, size_t n)
{
    bool has[256] = {false};
    for (size_t i = 0; i < n; i++) has[(unsigned char)run[i]] = true;
    return has['!'] || (has['<'] && has['>']) ? "!="
           : has['^']                         ? "^="
           : has['<']                         ? (has['='] ? "<=" : "<")
           : has['>']                         ? (has['='] ? ">=" : ">")
                                              : "=";
}

static bool df__parse(df__condition *c, const char *e, df__refusal *x, bool copy);

/* Whether the suggestion is itself a valid expression (else it is not shown). */
static bool df__valid(const char *e)
{
    df__condition c;
    df__refusal x;
    return df__parse(&c, e, &x, false);
}

/* The VALUE v[0, n) (quotes taken off) against the field and operator of c: false with why. */
static bool df__check_value(df__condition *c, const char *v, size_t n, bool quoted, df__refusal *x,
                            const char *name, size_t name_len, const char *raw, size_t raw_len)
{
    const char *op = df__op_text[c->op];
    const bool ordering = c->op >= OP_LT && c->op <= OP_GE;
    if (!n && !quoted) return x->why = "no value after the operator", false;
    c->numeric = df__number(v, n, &c->number);
    if (c->field == DF_PGN_FIELD_TAG) {
        if (c->op == OP_PREFIX && !n) return x->why = "an empty prefix: every game has it", false;
        if (!ordering || c->numeric) return true;
        if (!n ||
            ((strchr("+-.", v[0]) || (v[0] >= '0' && v[0] <= '9')) && !df__date_or_time(v, n))) {
            /* "2,000", "2_000": the number meant. */
            char digits[64];
            size_t k = 0;
            for (size_t i = 0; i < n && k < sizeof digits - 1; i++)
                if (v[i] != ',' && v[i] != '_') digits[k++] = v[i];
            double unused;
            if (k && df__number(digits, k, &unused)) df__suggest(x, name, name_len, op, digits, k);
            return x->why = "< <= > >= take a number, a date (2024.01.15), a time or text that "
                            "starts with a letter",
                   false;
        }
        return true;
    }
    if (c->op == OP_PREFIX) {
        x->why = "^= is for text: a derived field is not";
        df__suggest(x, name, name_len, "=", raw, raw_len);
        return false;
    }
    if (c->field == DF_PGN_FIELD_SPEED) {
        const char *near = NULL;
        const int s = df__speed_of(v, n, &near);
        if (s < 0) {
            if (near) df__suggest(x, name, name_len, op, near, strlen(near));
            return x->why = "Speed is ultrabullet, bullet, blitz, rapid, classical or "
                            "correspondence",
                   false;
        }
        c->numeric = true;
        c->number = s;
        return true;
    }
    if (c->field == DF_PGN_FIELD_BOT) {
        const bool yes = df__same_text(v, n, "true"), no = df__same_text(v, n, "false");
        if (ordering) return x->why = "Bot is true or false: = or != only", false;
        if (!yes && !no) {
            const bool meant_yes = df__same_text(v, n, "yes") || df__same_text(v, n, "1");
            const bool meant_no = df__same_text(v, n, "no") || df__same_text(v, n, "0");
            if (meant_yes || meant_no)
                df__suggest(x, name, name_len, op, meant_yes ? "true" : "false", meant_yes ? 4 : 5);
            return x->why = "Bot is true or false", false;
        }
        c->numeric = true;
        c->number = yes;
        return true;
    }
    if (!c->numeric) return x->why = "this derived field is a number", false;
    return true;
}

/* Parses one expression into c (its name and value copied when copy); false with the reason and
 * a suggestion (not yet checked) in x. */
static bool df__parse(df__condition *c, const char *e, df__refusal *x, bool copy)
{
    memset(c, 0, sizeof *c);
    x->why = NULL;
    x->suggestion[0] = '\0';
    const char *p = e, *end = e + strlen(e);
    while (p < end && df__is_space(*p)) p++;
    while (end > p && df__is_space(end[-1])) end--;
    const char *name = p;
    while (p < end && df__is_name_char(*p)) p++;
    const size_t name_len = (size_t)(p - name);
    const char *q = p;
    while (q < end && df__is_space(*q)) q++;
    if (q == end || !df__is_op_char(*q)) {
        const char *op = q;
        while (op < end && !df__is_op_char(*op)) op++;
        if (op == end)
            return x->why = name_len || q < end ? "no operator (= != < <= > >= ^=) after the "
                                                  "tag name"
                                                : "no tag name before the operator",
                   false;
        /* "White Elo>=2000": the name with its stray bytes left out. */
        char joined[64];
        size_t k = 0;
        for (const char *b = name; b < op && k < sizeof joined - 1; b++)
            if (df__is_name_char(*b)) joined[k++] = *b;
        if (k) df__suggest(x, joined, k, "", op, (size_t)(end - op));
        return x->why = "a tag name is letters, digits and _ only", false;
    }
    if (!name_len) return x->why = "no tag name before the operator", false;
    /* The run of operator characters (spaces in it ignored): one operator, or a typo. */
    char run[8];
    size_t run_len = 0;
    const char *v = q;
    while (v < end && (df__is_op_char(*v) || df__is_space(*v))) {
        if (df__is_op_char(*v) && run_len < sizeof run) run[run_len++] = *v;
        v++;
    }
    c->op = OP_NONE;
    for (int k = OP_EQ; k <= OP_PREFIX; k++)
        if (strlen(df__op_text[k]) == run_len && !memcmp(df__op_text[k], run, run_len))
            c->op = (df__op)k;
    if (c->op == OP_NONE) {
        df__suggest(x, name, name_len, df__meant_op(run, run_len), v, (size_t)(end - v));
        return x->why = "no such operator (= != < <= > >= ^=)", false;
    }
    /* The field: a derived one by its exact name; its name in another case is a typo. */
    char field_name[32];
    c->field = DF_PGN_FIELD_TAG;
    if (name_len < sizeof field_name) {
        memcpy(field_name, name, name_len);
        field_name[name_len] = '\0';
        c->field = df_pgn_field_of(field_name);
        for (int f = DF_PGN_FIELD_TAG + 1; f < DF_PGN_FIELD_COUNT && !c->field; f++)
            if (df__same_text(name, name_len, df_pgn_field_name((df_pgn_field)f))) {
                const char *right = df_pgn_field_name((df_pgn_field)f);
                df__suggest(x, right, strlen(right), df__op_text[c->op], v, (size_t)(end - v));
                return x->why = "derived field names are case-sensitive", false;
            }
    }
    /* The value, its quotes taken off. */
    const char *value = v, *value_end = end;
    const bool quoted = value < value_end && *value == '"';
    if (quoted) {
        if (value_end - value < 2 || value_end[-1] != '"') {
            char closed[64];
            const int k = snprintf(closed, sizeof closed, "%.*s\"", (int)(end - v), v);
            if (k > 0 && (size_t)k < sizeof closed)
                df__suggest(x, name, name_len, df__op_text[c->op], closed, (size_t)k);
            return x->why = "the value's quote is not closed", false;
        }
        value++, value_end--;
    }
    if (!df__check_value(c, value, (size_t)(value_end - value), quoted, x, name, name_len, v,
                         (size_t)(end - v)))
        return false;
    c->value_len = (size_t)(value_end - value);
    if (!copy) return true;
    c->name = malloc(name_len + 1);
    c->value = malloc(c->value_len + 1);
    if (c->name) memcpy(c->name, name, name_len), c->name[name_len] = '\0';
    if (c->value) memcpy(c->value, value, c->value_len), c->value[c->value_len] = '\0';
    return true;
}

df_status df_pgn_filter_new(df_pgn_filter **out, const char *const *exprs, size_t n, char *error)
{
    if (!out || (n && !exprs)) return DF_ERR_ARGUMENT;
    *out = NULL;
    df_pgn_filter *f = calloc(1, sizeof *f + n * sizeof f->c[0]);
    if (!f) return DF_ERR_IO;
    for (; f->n < n; f->n++) {
        df__condition *c = &f->c[f->n];
        const char *e = exprs[f->n];
        df__refusal x;
        if (!e || !df__parse(c, e, &x, true)) {
            if (error && !e) snprintf(error, DF_PGN_FILTER_ERROR_MAX, "a null expression");
            const bool shown = e && x.suggestion[0] && df__valid(x.suggestion);
            if (error && e && shown && !strncmp(x.why, "no such operator", 16))
                snprintf(error, DF_PGN_FILTER_ERROR_MAX, "'%.60s': did you mean '%.60s'?", e,
                         x.suggestion);
            else if (error && e && shown)
                snprintf(error, DF_PGN_FILTER_ERROR_MAX, "'%.40s': %s; did you mean '%.40s'?", e,
                         x.why, x.suggestion);
            else if (error && e)
                snprintf(error, DF_PGN_FILTER_ERROR_MAX, "'%.60s': %s", e, x.why);
            df_pgn_filter_free(f);
            return DF_ERR_ARGUMENT;
        }
        if (!c->name || !c->value) {
            f->n++; /* freed with the rest */
            df_pgn_filter_free(f);
            return DF_ERR_IO;
        }
    }
    *out = f;
    return DF_OK;
}

void df_pgn_filter_free(df_pgn_filter *f)
{
    if (!f) return;
    for (size_t i = 0; i < f->n; i++) {
        free(f->c[i].name);
        free(f->c[i].value);
    }
    free(f);
}

/* Whether order (the game's value against VALUE: <0, 0, >0) meets c's operator. */
static bool df__meets(df__op op, int order)
{
    switch (op) {
    case OP_EQ:
        return order == 0;
    case OP_NE:
        return order != 0;
    case OP_LT:
        return order < 0;
    case OP_LE:
        return order <= 0;
    case OP_GT:
        return order > 0;
    default:
        return order >= 0;
    }
}

/* Whether the tag's value v[0, n) meets condition c. */
static bool df__holds(const df__condition *c, const char *v, uint32_t n)
{
    if (c->op == OP_PREFIX) return n >= c->value_len && !memcmp(v, c->value, c->value_len);
    int order;
    double number;
    if (c->numeric && df__number(v, n, &number)) {
        order = (number > c->number) - (number < c->number);
    } else {
        const size_t common = n < c->value_len ? n : c->value_len;
        order = common ? memcmp(v, c->value, common) : 0;
        if (!order) order = (n > c->value_len) - (n < c->value_len);
    }
    return df__meets(c->op, order);
}

bool df_pgn_filter_matches(const df_pgn_filter *f, const df_pgn_game *g)
{
    if (!f) return true;
    for (size_t i = 0; i < f->n; i++) {
        const df__condition *c = &f->c[i];
        bool holds;
        if (c->field != DF_PGN_FIELD_TAG) {
            double x;
            holds = df_pgn_field_value(g, c->field, &x)
                        ? df__meets(c->op, (x > c->number) - (x < c->number))
                        : c->op == OP_NE;
        } else {
            uint32_t n = 0;
            const char *v = df_pgn_tag_value(g, c->name, &n);
            holds = v ? df__holds(c, v, n) : c->op == OP_NE;
        }
        if (!holds) return false;
    }
    return true;
}
