/* SPDX-License-Identifier: MIT */
/* JSON writing in the contract's formats. */
#include <inttypes.h>
#include <string.h>

#include "cmdline.h"

void json_bb(FILE *out, df_bb bb) { fprintf(out, "\"0x%016" PRIx64 "\"", bb); }

void json_string_part(FILE *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        const unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
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
