/* SPDX-License-Identifier: MIT */
/* Tag filters (pgn.h): `TAG OP VALUE` conditions, all of which a game's tag section must meet
 * for the reader to replay its moves. Parsed once into a flat array; a game is matched by one
 * tag look-up per condition, so rejecting a game costs less than reading its first move. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dirfill.h"

typedef enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_PREFIX } df__op;

/* The operators, longest spelling first so that "<=" is not read as "<" and "=2000". */
static const struct {
    const char *text;
    df__op op;
} df__ops[] = {{"<=", OP_LE}, {">=", OP_GE}, {"!=", OP_NE}, {"^=", OP_PREFIX},
               {"=", OP_EQ},  {"<", OP_LT},  {">", OP_GT}};

typedef struct {
    char *name, *value; /* NUL-terminated copies */
    size_t value_len;
    df__op op;
    bool numeric; /* VALUE is a number: compared as one when the tag's value is one too */
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

static char *df__copy(const char *s, size_t n)
{
    char *c = malloc(n + 1);
    if (c) {
        memcpy(c, s, n);
        c[n] = '\0';
    }
    return c;
}

/* Parses one expression into c; false with the reason in error. */
static bool df__parse(df__condition *c, const char *e, char *error)
{
    const char *p = e, *end = e + strlen(e);
    while (p < end && *p == ' ') p++;
    const char *name = p;
    while (p < end && df__is_name_char(*p)) p++;
    const size_t name_len = (size_t)(p - name);
    while (p < end && *p == ' ') p++;
    size_t k = 0;
    while (k < sizeof df__ops / sizeof df__ops[0] &&
           strncmp(p, df__ops[k].text, strlen(df__ops[k].text)))
        k++;
    const char *why = !name_len                                 ? "no tag name before the operator"
                      : k == sizeof df__ops / sizeof df__ops[0] ? "no operator (= != < <= > >= ^=) "
                                                                  "after the tag name"
                                                                : NULL;
    if (why) {
        if (error) snprintf(error, DF_PGN_FILTER_ERROR_MAX, "'%.100s': %s", e, why);
        return false;
    }
    p += strlen(df__ops[k].text);
    while (p < end && *p == ' ') p++;
    while (end > p && end[-1] == ' ') end--;
    if (end - p >= 2 && *p == '"' && end[-1] == '"') p++, end--;
    c->op = df__ops[k].op;
    c->value_len = (size_t)(end - p);
    c->numeric = df__number(p, c->value_len, &c->number);
    c->name = df__copy(name, name_len);
    c->value = df__copy(p, c->value_len);
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
        if (!exprs[f->n] || !df__parse(c, exprs[f->n], error)) {
            if (!exprs[f->n] && error)
                snprintf(error, DF_PGN_FILTER_ERROR_MAX, "a null expression");
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

/* Whether the tag's value v[0, n) meets condition c. */
static bool df__holds(const df__condition *c, const char *v, uint32_t n)
{
    if (c->op == OP_PREFIX) return n >= c->value_len && !memcmp(v, c->value, c->value_len);
    int order; /* the tag's value against VALUE: <0, 0, >0 */
    double number;
    if (c->numeric && df__number(v, n, &number)) {
        order = (number > c->number) - (number < c->number);
    } else {
        const size_t common = n < c->value_len ? n : c->value_len;
        order = common ? memcmp(v, c->value, common) : 0;
        if (!order) order = (n > c->value_len) - (n < c->value_len);
    }
    switch (c->op) {
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

bool df_pgn_filter_matches(const df_pgn_filter *f, const df_pgn_game *g)
{
    if (!f) return true;
    for (size_t i = 0; i < f->n; i++) {
        uint32_t n = 0;
        const char *v = df_pgn_tag_value(g, f->c[i].name, &n);
        if (!v ? f->c[i].op != OP_NE : !df__holds(&f->c[i], v, n)) return false;
    }
    return true;
}
