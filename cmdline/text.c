/* SPDX-License-Identifier: MIT */
/* A growing text (cmdline.h): what the program writes per run of PGN games and what the PGN
 * generator writes, kept NUL-terminated. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"

/* Room for n more bytes and the NUL; false (and failed set) when out of memory. */
static bool reserve(cmd_text *t, size_t n)
{
    if (t->failed) return false;
    if (t->len + n + 1 <= t->cap) return true;
    size_t cap = t->cap ? t->cap : 1 << 16;
    while (cap < t->len + n + 1) cap *= 2;
    char *grown = realloc(t->text, cap);
    if (!grown) {
        t->failed = true;
        return false;
    }
    t->text = grown;
    t->cap = cap;
    return true;
}

bool cmd_text_put(cmd_text *t, const char *s, size_t n)
{
    if (!reserve(t, n)) return false;
    memcpy(t->text + t->len, s, n);
    t->len += n;
    t->text[t->len] = 0;
    return true;
}

bool cmd_text_puts(cmd_text *t, const char *s) { return cmd_text_put(t, s, strlen(s)); }

bool cmd_text_putf(cmd_text *t, const char *fmt, ...)
{
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    const int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    const bool ok = n >= 0 && reserve(t, (size_t)n);
    if (ok) {
        vsnprintf(t->text + t->len, (size_t)n + 1, fmt, again);
        t->len += (size_t)n;
    }
    va_end(again);
    return ok;
}

bool cmd_text_json(cmd_text *b, const char *s, size_t n)
{
    cmd_text_put(b, "\"", 1);
    for (size_t i = 0; i < n;) {
        const unsigned char c = (unsigned char)s[i];
        size_t len = c < 0x80                ? 1
                     : c >= 0xc2 && c < 0xe0 ? 2
                     : c >= 0xe0 && c < 0xf0 ? 3
                     : c >= 0xf0 && c < 0xf5 ? 4
                                             : 0;
        for (size_t k = 1; k < len; k++)
            if (i + k >= n || ((unsigned char)s[i + k] & 0xc0) != 0x80) len = 0;
        if (len > 1) {
            cmd_text_put(b, s + i, len);
            i += len;
            continue;
        }
        if (c == '"' || c == '\\') {
            const char esc[2] = {'\\', (char)c};
            cmd_text_put(b, esc, 2);
        } else if (c < 0x20 || c >= 0x7f) {
            cmd_text_putf(b, "\\u%04x", c);
        } else {
            cmd_text_put(b, s + i, 1);
        }
        i++;
    }
    return cmd_text_put(b, "\"", 1);
}

void cmd_text_free(cmd_text *t)
{
    free(t->text);
    memset(t, 0, sizeof *t);
}
