/* SPDX-License-Identifier: MIT */
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
    /* The first byte picks the dialect; the rest is the text. */
    if (size < 1) return 0;
    const df_fen_flags flags = data[0] & 1 ? DF_FEN_CHESS960 : DF_FEN_STANDARD;
    data++;
    size--;
    if (df_fen_parse(&b, (const char *)data, size, flags, &err) != DF_OK) {
        if (err.kind == DF_FEN_OK || err.offset > size ||
            !memchr(err.message, 0, sizeof err.message))
            abort();
        return 0;
    }
    char text[DF_FEN_MAX];
    if (df_fen_format(text, sizeof text, &b, DF_FEN_STANDARD) >= sizeof text) abort();
    if (df_fen_parse(&again, text, strlen(text), flags, NULL) != DF_OK) abort();
    if (memcmp(&b, &again, sizeof b) != 0 || b.key != df_polyglot_key(&b)) abort();
    df_attack_map m[2];
    df_king_safety_sets ks;
    df_attack_maps(m, &b);
    df_king_safety(&ks, &b);
    if (ks.pinned & ~b.color[b.stm]) abort();
    /* Where a move tree exists, one ply of it: SAN and UCI of every move read back. */
    if (!df_board_playable(&b)) return 0;
    df_move_list list;
    df_generate_legal(&list, &b);
    for (uint32_t i = 0; i < list.count; i++) {
        char san[DF_SAN_MAX], uci[DF_UCI_MAX];
        df_move back;
        df_move_to_san(san, &b, list.moves[i]);
        df_move_to_uci(uci, &b, list.moves[i]);
        if (df_move_from_san(&back, &b, san, strlen(san)) != DF_OK || back != list.moves[i])
            abort();
        if (df_move_from_uci(&back, &b, uci, strlen(uci)) != DF_OK || back != list.moves[i])
            abort();
        (void)df_see(&b, list.moves[i]);
    }
    return 0;
}
