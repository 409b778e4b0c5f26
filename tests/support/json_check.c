/* SPDX-License-Identifier: MIT */
#include "json_check.h"

#include <string.h>

typedef struct {
    const char *s;
    size_t len, i;
    int depth;
} jp;

static void ws(jp *p)
{
    while (p->i < p->len && strchr(" \t\r\n", p->s[p->i]) && p->s[p->i]) p->i++;
}

static bool value(jp *p);

static bool string(jp *p)
{
    if (p->i >= p->len || p->s[p->i] != '"') return false;
    for (p->i++; p->i < p->len; p->i++) {
        unsigned char c = (unsigned char)p->s[p->i];
        if (c == '"') {
            p->i++;
            return true;
        }
        if (c < 0x20) return false;
        if (c == '\\') {
            if (++p->i >= p->len) return false;
            c = (unsigned char)p->s[p->i];
            if (c == 'u') {
                for (int k = 0; k < 4; k++)
                    if (++p->i >= p->len || !strchr("0123456789abcdefABCDEF", p->s[p->i]) ||
                        !p->s[p->i])
                        return false;
            } else if (!strchr("\"\\/bfnrt", c) || !c)
                return false;
        }
    }
    return false;
}

static bool number(jp *p)
{
    size_t start = p->i;
    if (p->i < p->len && p->s[p->i] == '-') p->i++;
    while (p->i < p->len && strchr("0123456789.eE+-", p->s[p->i]) && p->s[p->i]) p->i++;
    return p->i > start;
}

static bool literal(jp *p, const char *w)
{
    size_t n = strlen(w);
    if (p->len - p->i < n || memcmp(p->s + p->i, w, n)) return false;
    p->i += n;
    return true;
}

static bool container(jp *p, char open, char close)
{
    if (++p->depth > 64) return false;
    p->i++;
    ws(p);
    if (p->i < p->len && p->s[p->i] == close) {
        p->i++;
        p->depth--;
        return true;
    }
    for (;;) {
        ws(p);
        if (open == '{') {
            if (!string(p)) return false;
            ws(p);
            if (p->i >= p->len || p->s[p->i++] != ':') return false;
            ws(p);
        }
        if (!value(p)) return false;
        ws(p);
        if (p->i >= p->len) return false;
        char c = p->s[p->i++];
        if (c == close) break;
        if (c != ',') return false;
    }
    p->depth--;
    return true;
}

static bool value(jp *p)
{
    if (p->i >= p->len) return false;
    switch (p->s[p->i]) {
    case '{':
        return container(p, '{', '}');
    case '[':
        return container(p, '[', ']');
    case '"':
        return string(p);
    case 't':
        return literal(p, "true");
    case 'f':
        return literal(p, "false");
    case 'n':
        return literal(p, "null");
    default:
        return number(p);
    }
}

bool json_valid(const char *s, size_t len)
{
    jp p = {s, len, 0, 0};
    ws(&p);
    if (!value(&p)) return false;
    ws(&p);
    return p.i == len;
}

const char *json_find(const char *s, size_t len, const char *path, size_t *vlen)
{
    if (!json_valid(s, len)) return NULL;
    jp p = {s, len, 0, 0};
    ws(&p);
    while (*path) {
        const char *dot = strchr(path, '.');
        size_t seg = dot ? (size_t)(dot - path) : strlen(path);
        if (p.i >= len || s[p.i] != '{') return NULL;
        p.i++;
        bool found = false;
        for (;;) {
            ws(&p);
            if (p.i < len && s[p.i] == '}') return NULL;
            size_t key = p.i + 1;
            if (!string(&p)) return NULL;
            bool match = p.i - 1 - key == seg && memcmp(s + key, path, seg) == 0;
            ws(&p);
            p.i++; /* ':' */
            ws(&p);
            if (match) {
                found = true;
                break;
            }
            if (!value(&p)) return NULL;
            ws(&p);
            if (p.i < len && s[p.i] == ',') p.i++;
        }
        if (!found) return NULL;
        path += seg + (dot ? 1 : 0);
        if (!dot) break;
    }
    size_t start = p.i;
    if (!value(&p)) return NULL;
    *vlen = p.i - start;
    return s + start;
}

bool json_string_at(const char *s, size_t len, const char *path, char *out, size_t size)
{
    size_t n;
    const char *v = json_find(s, len, path, &n);
    if (!v || n < 2 || v[0] != '"' || n - 2 >= size) return false;
    memcpy(out, v + 1, n - 2);
    out[n - 2] = 0;
    return true;
}
