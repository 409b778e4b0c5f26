/* libFuzzer target: any bytes through the FEN parser. A valid FEN must format back to text
 * that parses to the same board, and the board must go through the attack maps and king
 * safety without a fault. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dirfill.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    df_board b, again;
    df_fen_error err;
    if (df_fen_parse(&b, (const char *)data, size, &err) != DF_OK) {
        if (err.kind == DF_FEN_OK || err.offset > size ||
            !memchr(err.message, 0, sizeof err.message))
            abort();
        return 0;
    }
    char text[DF_FEN_MAX];
    if (df_fen_format(&b, text, sizeof text) >= sizeof text) abort();
    if (df_fen_parse(&again, text, strlen(text), NULL) != DF_OK) abort();
    if (memcmp(&b, &again, sizeof b) != 0) abort();
    df_attack_map m[2];
    df_pins_checks ks;
    df_attack_maps(m, &b);
    df_king_safety(&ks, &b);
    if (ks.pinned & ~b.color[b.stm]) abort();
    return 0;
}
