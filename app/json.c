#include <inttypes.h>

#include "cli.h"

const char *const dir_names[8] = {"N", "NE", "E", "SE", "S", "SW", "W", "NW"};
const int dir_order[8] = {DF_N, DF_NE, DF_E, DF_SE, DF_S, DF_SW, DF_W, DF_NW};

void json_bb(FILE *out, df_bb bb) { fprintf(out, "\"0x%016" PRIx64 "\"", bb); }

void json_string(FILE *out, const char *s, size_t len)
{
    fputc('"', out);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}
