/* SPDX-License-Identifier: MIT */
/* The transposition table: one entry a slot, indexed by the Polyglot key dirfill keeps in
 * every board (df_board.key, updated by df_make_move). A stored move is only a hint: the search
 * checks it with df_move_is_legal before it plays it (a key collision gives any 16 bits). */
#define _DEFAULT_SOURCE /* madvise */
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "engine.h"

static tt_entry *table;
static size_t slots; /* a power of two */
static uint8_t age;

bool tt_resize(size_t megabytes)
{
    if (megabytes < 1) megabytes = 1;
    size_t n = 1;
    while (n * 2 * sizeof(tt_entry) <= megabytes << 20) n *= 2;
    /* On 2 MB pages where Linux gives them (transparent huge pages on request): nearly every
     * probe is a cache miss to a random slot, and with 4 KB pages a TLB miss too, a page walk
     * as long again under a hypervisor's nested paging. The table is written once here, so
     * that the search does not take its page faults. */
    const size_t huge = (size_t)2 << 20, bytes = (n * sizeof(tt_entry) + huge - 1) / huge * huge;
    tt_entry *t = aligned_alloc(huge, bytes);
    if (!t) return false;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    madvise(t, bytes, MADV_HUGEPAGE);
#endif
    memset(t, 0, bytes);
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
