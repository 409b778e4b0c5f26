#include <stdbool.h>

#include "movegen.h"

#define MG_PERFT mg_perft_baseline
#include "movegen_impl.h"

#if defined(MG_HAVE_POPCNT)
uint64_t mg_perft_popcnt(const df_board *b, int depth);
#endif

void mg_generate(const df_board *b, mg_list *out) { mg__generate(b, out); }
uint64_t mg_count(const df_board *b) { return mg__count(b); }
void mg_make(df_board *b, mg_move m) { mg__make(b, m); }

uint64_t mg_perft(const df_board *b, int depth)
{
#if defined(MG_HAVE_POPCNT)
    if (__builtin_cpu_supports("popcnt")) return mg_perft_popcnt(b, depth);
#endif
    return mg_perft_baseline(b, depth);
}

void mg_uci(mg_move m, char out[6])
{
    out[0] = (char)('a' + df_file_of(mg_from(m)));
    out[1] = (char)('1' + df_rank_of(mg_from(m)));
    out[2] = (char)('a' + df_file_of(mg_to(m)));
    out[3] = (char)('1' + df_rank_of(mg_to(m)));
    out[4] = mg_promotion(m) ? " nbrq"[mg_promotion(m)] : 0;
    out[5] = 0;
}
