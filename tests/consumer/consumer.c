/* SPDX-License-Identifier: MIT */
/* Uses the installed library the way an engine would; exits 0 when the answers are right. */
#include <dirfill.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    df_board b;
    const char *fen = "4r2k/8/8/8/8/5n2/8/4K3 w - - 0 1";
    if (df_fen_parse(&b, fen, strlen(fen), DF_FEN_STANDARD, NULL) != DF_OK) return 1;
    df_king_safety_sets ks;
    df_king_safety(&ks, &b);
    df_attack_map m[2];
    df_attack_maps(m, &b);
    printf("dirfill %s, backend %s, checkers %d, black attacks %d squares\n", df_version(),
           df_backend_name(), df_popcount(ks.checkers), df_popcount(m[DF_BLACK].all));
    if (strcmp(df_version(), DIRFILL_VERSION_STRING) != 0) return 1;
    return df_popcount(ks.checkers) == 2 && df_between(DF_A1, DF_A8) == 0x0001010101010100ull ? 0
                                                                                              : 1;
}
