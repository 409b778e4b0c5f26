/* SPDX-License-Identifier: MIT */
/* The transposition table: one entry a slot, indexed by the Polyglot key dirfill keeps in
 * every board (df_board.key, updated by df_make_move). A stored move is only a hint: the search
 * checks it with df_move_is_legal before it plays it (a key collision gives any 16 bits). */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

static tt_entry *table;
static size_t slots; /* a power of two */
static uint8_t age;

bool tt_resize(size_t megabytes)
{
    if (megabytes < 1) megabytes = 1;
    size_t n = 1;
    while (n * 2 * sizeof(tt_entry) <= megabytes << 20) n *= 2;
    tt_entry *t = calloc(n, sizeof *t);
    if (!t) return false;
    free(table);
    table = t;
    slots = n;
    return true;
}

void tt_clear(void)
{
    if (table) memset(table, 0, slots * sizeof *table);
}

void tt_new_search(void) { age++; }

void tt_prefetch(uint64_t key) { __builtin_prefetch(&table[key & (slots - 1)]); }

const tt_entry *tt_probe(uint64_t key)
{
    const tt_entry *e = &table[key & (slots - 1)];
    return e->key == key && e->bound != BOUND_NONE ? e : NULL;
}

void tt_store(uint64_t key, df_move move, int score, int eval, int depth, int bound)
{
    tt_entry *e = &table[key & (slots - 1)];
    /* Keep a deeper entry of this search unless this one is exact or of the same position. */
    if (e->key != key && e->age == age && e->depth > depth && bound != BOUND_EXACT) return;
    if (e->key == key && move == DF_MOVE_NONE) move = e->move;
    *e = (tt_entry){
        key, move, (int16_t)score, (int16_t)eval, (uint8_t)(depth < 0 ? 0 : depth), (uint8_t)bound,
        age};
}
