/* SPDX-License-Identifier: MIT */
/* JSON writing in the contract's formats. */
#include <inttypes.h>
#include <string.h>

#include "cmdline.h"

void json_bb(FILE *out, df_bb bb) { fprintf(out, "\"0x%016" PRIx64 "\"", bb); }

/* Byte c as the inside of a JSON string writes it: itself, a backslash escape, or \u00XX for
 * a byte outside printable ASCII. Returns its length. */
static size_t json_escape(char out[7], unsigned char c)
{
    if (c == '"' || c == '\\') {
        out[0] = '\\';
        out[1] = (char)c;
        return 2;
    }
    if (c < 0x20 || c >= 0x7f) return (size_t)snprintf(out, 7, "\\u%04x", c);
    out[0] = (char)c;
    return 1;
}

void json_string_part(FILE *out, const char *s, size_t len)
{
    char esc[7];
    for (size_t i = 0; i < len; i++) fwrite(esc, 1, json_escape(esc, (unsigned char)s[i]), out);
}

void json_text_string(cmd_text *t, const char *s, size_t len)
{
    char esc[7];
    cmd_text_put(t, "\"", 1);
    for (size_t i = 0; i < len; i++) cmd_text_put(t, esc, json_escape(esc, (unsigned char)s[i]));
    cmd_text_put(t, "\"", 1);
}

void json_string(FILE *out, const char *s, size_t len)
{
    fputc('"', out);
    json_string_part(out, s, len);
    fputc('"', out);
}

static void json_stream_part(void *out, const char *s, size_t n) { json_string_part(out, s, n); }

void json_error_input(FILE *out, const char *message, const char *input, size_t len,
                      cmd_lines *rest)
{
    fputs("{\"error\": ", out);
    json_string(out, message, strlen(message));
    fputs(", \"input\": \"", out);
    json_string_part(out, input, len);
    if (rest) cmd_lines_rest(rest, json_stream_part, out);
    fputs("\"}\n", out);
}

void json_error_line(FILE *out, const char *message, long line)
{
    fputs("{\"error\": ", out);
    json_string(out, message, strlen(message));
    fprintf(out, ", \"line\": %ld}\n", line);
}
