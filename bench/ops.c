/* SPDX-License-Identifier: MIT */
/* The operations the benchmark times (bench.h's bench_op): each one's name, output words per
 * item, unit and whether baselines can produce it; the harness and the report read it. */
#include "bench.h"

const bench_op_info bench_ops[OP_COUNT] = {
    [OP_SLIDER_RAYS] = {"slider_rays", 8, UNIT_POSITION, true},
    [OP_SLIDER_RAYS_BATCH] = {"slider_rays_batch", 8, UNIT_POSITION, true},
    [OP_SLIDER_RAYS_BOTH] = {"slider_rays_both", 16, UNIT_POSITION, true},
    [OP_SLIDER_UNION] = {"slider_union", 1, UNIT_POSITION, true},
    [OP_XRAYS] = {"xrays", 8, UNIT_POSITION, true},
    [OP_ATTACK_MAP] = {"attack_map", MAP_WORDS, UNIT_POSITION, true},
    [OP_ATTACK_MAPS_BOTH] = {"attack_maps_both", 2 * MAP_WORDS, UNIT_POSITION, true},
    [OP_KING_SAFETY] = {"king_safety", 5, UNIT_POSITION, true},
    [OP_ATTACKERS_TO] = {"attackers_to", 64, UNIT_POSITION, true},
    [OP_PERFT] = {"perft", 1, UNIT_NODE, true},
    [OP_MAKE_MOVE] = {"make_move", 1, UNIT_MOVE, false},
    [OP_SEE] = {"see", 1, UNIT_MOVE, true},
    [OP_PGN] = {"pgn", 1, UNIT_GAME, false},
};
const char *const bench_unit_names[4] = {"position", "node", "move", "game"};

bool bench_op_applies(bench_op op, const bench_corpus *c)
{
    return bench_ops[op].unit != UNIT_GAME || c->pgn != NULL;
}

size_t bench_op_items(bench_op op, const bench_corpus *c)
{
    return bench_ops[op].unit == UNIT_GAME ? c->games : c->count;
}
