/* SPDX-License-Identifier: MIT */
/* Baseline king safety, Stockfish style: the sliders that would see the king on an empty
 * board (snipers), then for each the in-between table: nothing between is a check, one
 * piece of `side` between is a pin. From the enemy king the same gives the discoverers. */
#include <string.h>

#include "bench.h"

static void scan(df_square ksq, df_bb snipers, df_bb occ, df_bb side, df_bb *blocked,
                 df_bb *pinners, df_bb *checkers, df_bb *block)
{
    while (snipers) {
        const df_square s = df_pop_lsb(&snipers);
        const df_bb between = df_between(ksq, s), on = between & occ;
        if (!on) {
            *checkers |= df_square_bb(s);
            *block |= between;
        } else if (!df_more_than_one(on) && (on & side)) {
            *blocked |= on;
            *pinners |= df_square_bb(s);
        }
    }
}

void sniper_king_safety(df_king_safety_sets *o, const df_board *b)
{
    const df_color us = df_board_stm(b), them = (df_color)(us ^ 1);
    const df_bb occ = df_board_occupied(b), own = b->color[us], enemy = b->color[them];
    const df_bb rq = b->piece[DF_ROOK] | b->piece[DF_QUEEN];
    const df_bb bq = b->piece[DF_BISHOP] | b->piece[DF_QUEEN];
    const df_square ksq = df_board_king(b, us), eksq = df_board_king(b, them);
    df_bb unused = 0;

    o->pinned = o->pinners = o->checkers = o->check_block = o->discoverers = 0;
    scan(ksq, ((bt_rook_pseudo[ksq] & rq) | (bt_bishop_pseudo[ksq] & bq)) & enemy, occ, own,
         &o->pinned, &o->pinners, &o->checkers, &o->check_block);
    o->checkers |= (df_knight_table[ksq] & enemy & b->piece[DF_KNIGHT]) |
                   (df_pawn_table[us][ksq] & enemy & b->piece[DF_PAWN]) |
                   (df_king_table[ksq] & enemy & b->piece[DF_KING]);
    scan(eksq, ((bt_rook_pseudo[eksq] & rq) | (bt_bishop_pseudo[eksq] & bq)) & own, occ, own,
         &o->discoverers, &unused, &unused, &unused);
}

BENCH_RUNNERS(sniper, OP_KING_SAFETY, sniper_king_safety((df_king_safety_sets *)o, b))

const bench_runners bench_sniper_runners = {.throughput = {[OP_KING_SAFETY] = sniper_tp},
                                            .latency = {[OP_KING_SAFETY] = sniper_lat}};
