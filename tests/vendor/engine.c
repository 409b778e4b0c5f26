/* SPDX-License-Identifier: MIT */
/* The vendoring engine: perft of the start position to depth 3 through the vendored library. */
#include <dirfill.h>
#include <stdio.h>

int main(void)
{
    df_board b;
    uint64_t nodes = 0;
    if (df_fen_parse(&b, DF_FEN_START, sizeof DF_FEN_START - 1, DF_FEN_STANDARD, NULL) != DF_OK)
        return 1;
    df_perft(&nodes, &b, 3);
    printf("%llu\n", (unsigned long long)nodes);
    return nodes == 8902 ? 0 : 1;
}
