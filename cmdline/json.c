/* JSON writing in the contract's formats. */
#include <inttypes.h>

#include "cmdline.h"

const char *const dir_names[DF_DIRS] = {"N", "NE", "E", "SE", "S", "SW", "W", "NW"};
const df_dir dir_order[DF_DIRS] = {DF_N, DF_NE, DF_E, DF_SE, DF_S, DF_SW, DF_W, DF_NW};

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
