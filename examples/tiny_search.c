/* SPDX-License-Identifier: MIT */
/* The engine layer as a search uses it: captures ordered by SEE, copy-make with incremental
 * Polyglot keys, moves in SAN and UCI. A two-ply capture search finds the free queen. */
#include <dirfill.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    const char *fen = "r1b1kbnr/pppp1ppp/2n5/4p1q1/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1";
    df_board b;
    if (df_fen_parse(&b, fen, strlen(fen), DF_FEN_STANDARD, NULL) != DF_OK) return 1;

    df_move_list captures;
    df_generate_captures(&captures, &b);
    df_move best = DF_MOVE_NONE;
    int best_see = -100000;
    for (uint32_t i = 0; i < captures.count; i++) {
        const int see = df_see(&b, captures.moves[i]);
        if (see > best_see) best_see = see, best = captures.moves[i];
    }
    char san[DF_SAN_MAX], uci[DF_UCI_MAX];
    df_move_to_san(san, &b, best);
    df_move_to_uci(uci, &b, best);

    df_board child;
    df_make_move(&child, &b, best);
    const bool key_ok = child.key == df_polyglot_key(&child);
    printf("best capture %s (%s), SEE %d, key 0x%016llx %s\n", san, uci, best_see,
           (unsigned long long)child.key, key_ok ? "(incremental = from scratch)" : "WRONG");
    df_move parsed;
    if (df_move_from_san(&parsed, &b, "Nxg5", 4) != DF_OK) return 1;
    return parsed == best && best_see == 900 && key_ok ? 0 : 1;
}
