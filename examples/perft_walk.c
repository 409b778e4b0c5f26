/* SPDX-License-Identifier: MIT */
/* Walk the legal move tree: generate, make (copy-make), count; and the same count in one call
 * with bulk counting. The node counts are the Chess Programming Wiki's. */
#include <dirfill.h>
#include <stdio.h>
#include <string.h>

static uint64_t walk(const df_board *b, int depth)
{
    if (depth == 0) return 1;
    df_move_list list;
    df_generate_legal(&list, b);
    uint64_t nodes = 0;
    for (uint32_t i = 0; i < list.count; i++) {
        df_board child;
        df_make_move(&child, b, list.moves[i]);
        nodes += walk(&child, depth - 1);
    }
    return nodes;
}

int main(void)
{
    const char *fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    df_board b;
    if (df_fen_parse(&b, fen, strlen(fen), DF_FEN_STANDARD, NULL) != DF_OK) return 1;
    uint64_t fast;
    if (df_perft(&fast, &b, 3) != DF_OK) return 1;
    const uint64_t slow = walk(&b, 3);
    printf("Kiwipete depth 3: %llu nodes walked, %llu by df_perft\n", (unsigned long long)slow,
           (unsigned long long)fast);
    return slow == 97862 && fast == 97862 ? 0 : 1;
}
