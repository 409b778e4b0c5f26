/* SPDX-License-Identifier: MIT */
/* Attack maps, king safety and per-direction rays of one position. */
#include <dirfill.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    const char *fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    df_board b;
    df_fen_error err;
    if (df_fen_parse(&b, fen, strlen(fen), DF_FEN_STANDARD, &err) != DF_OK) {
        fprintf(stderr, "bad FEN: %s\n", err.message);
        return 1;
    }

    df_attack_map map[2];    /* per side: rays and x-rays per direction, per piece type, */
    df_attack_maps(map, &b); /* all, twice, exact attacker counts (bit-sliced) */
    const int e5_defenders = df_attack_count(&map[DF_WHITE], DF_E5);
    const df_bb contested = df_attacked_at_least(&map[DF_BLACK], 2) & map[DF_WHITE].all;
    const df_bb forks = map[DF_WHITE].by_type[DF_KNIGHT] & b.color[DF_BLACK];

    df_king_safety_sets ks; /* checkers, pinned, pinners, check-block squares, discoverers */
    df_king_safety(&ks, &b);

    /* Eight disjoint per-direction attack sets of one side's sliders, in one call. */
    const df_bb occupied = df_board_occupied(&b), white = b.color[DF_WHITE];
    df_rays rays;
    df_slider_rays(&rays, white & (b.piece[DF_ROOK] | b.piece[DF_QUEEN]),
                   white & (b.piece[DF_BISHOP] | b.piece[DF_QUEEN]), ~occupied);

    printf("backend %s: the knight on e5 is defended %d times, %d squares are contested, "
           "white knights attack %d black pieces, white's rays north reach %d squares\n",
           df_backend_name(), e5_defenders, df_popcount(contested), df_popcount(forks),
           df_popcount(rays.r[DF_N]));
    /* The facts of this position: nothing defends e5; the knights attack d7, f7 and g6; north,
     * the queen reaches f4 f5 f6 and the rooks their own pawns on a2 and h2. */
    const df_bb north = df_square_bb(DF_F4) | df_square_bb(DF_F5) | df_square_bb(DF_F6) |
                        df_square_bb(DF_A2) | df_square_bb(DF_H2);
    const df_bb attacked = df_square_bb(DF_D7) | df_square_bb(DF_F7) | df_square_bb(DF_G6);
    return e5_defenders == 0 && forks == attacked && rays.r[DF_N] == north && !ks.checkers ? 0 : 1;
}
