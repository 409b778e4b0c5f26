/* The perft recursion built with -mpopcnt; called only when the CPU has POPCNT. */
#include "movegen.h"

#define MG_PERFT mg_perft_popcnt_impl
#include "movegen_impl.h"

uint64_t mg_perft_popcnt(const df_board *b, int depth);
uint64_t mg_perft_popcnt(const df_board *b, int depth) { return mg_perft_popcnt_impl(b, depth); }
