/* SPDX-License-Identifier: MIT */
/* Reading lines in bounded memory: a line longer than CMD_LINE_MAX is kept only in part, and
 * its rest is streamed or skipped, never stored. */
#include <errno.h>
#include <string.h>

#include "cmdline.h"

void cmd_lines_init(cmd_lines *r, FILE *in)
{
    memset(r, 0, sizeof *r);
    r->in = in;
    r->rest_read = true;
}

long long cmd_lines_rest(cmd_lines *r, void (*sink)(void *ctx, const char *s, size_t n), void *ctx)
{
    char chunk[CMD_LINE_MAX];
    long long total = 0;
    size_t n = 0;
    int c = 0;
    if (r->rest_read) return 0;
    r->rest_read = true;
    while ((c = getc(r->in)) != EOF && c != '\n') {
        chunk[n++] = (char)c;
        if (n == sizeof chunk) {
            if (sink) sink(ctx, chunk, n);
            total += (long long)n;
            n = 0;
        }
    }
    if (sink && n) sink(ctx, chunk, n);
    total += (long long)n;
    return ferror(r->in) ? -1 : total;
}

int cmd_lines_next(cmd_lines *r)
{
    if (!r->rest_read && cmd_lines_rest(r, NULL, NULL) < 0) return -1;
    r->len = 0;
    r->too_long = false;
    int c = EOF;
    while ((c = getc(r->in)) != EOF && c != '\n') {
        if (r->len == sizeof r->buf) {
            ungetc(c, r->in);
            r->too_long = true;
            r->rest_read = false;
            break;
        }
        r->buf[r->len++] = (char)c;
    }
    if (c == EOF && ferror(r->in)) return -1;
    if (c == EOF && r->len == 0 && !r->too_long) return 0;
    r->number++;
    return 1;
}
