/* Perft of the program's legal move generator (built on the library's pins, checks and
 * attack maps) against the Chess Programming Wiki's published node counts, and every
 * generated move checked legal by the walking reference. DFT_PERFT_DEEP=1 (the `slow`
 * CTest label) adds the deeper counts. */
#include <stdlib.h>
#include <string.h>

#include "../app/cpw_positions.h"
#include "../app/movegen.h"
#include "dft.h"
#include "reference.h"

static void test_perft_counts(void **state)
{
    (void)state;
    const bool deep = getenv("DFT_PERFT_DEEP") != NULL;
    for (int i = 0; i < CPW_POSITIONS; i++) {
        df_board b = dft_fen(cpw_positions[i].fen);
        for (int d = 0; d <= (deep ? 6 : 4); d++) {
            if (!cpw_positions[i].nodes[d]) continue;
            uint64_t n = mg_perft(&b, d);
            if (n != cpw_positions[i].nodes[d])
                fail_msg("%s depth %d: %llu nodes, expected %llu", cpw_positions[i].name, d,
                         (unsigned long long)n, (unsigned long long)cpw_positions[i].nodes[d]);
        }
    }
}

/* Along random playouts from every case: the bulk count equals the list, and after each
 * listed move the mover's king is not attacked (reference ray walking). */
static void test_moves_legal(void **state)
{
    (void)state;
    long checked = 0;
    for (int game = 0; game < DFT_ITERATIONS / 5000; game++) {
        df_board b = dft_fen(cpw_positions[game % CPW_POSITIONS].fen);
        for (int ply = 0; ply < 60; ply++) {
            mg_list list;
            mg_generate(&b, &list);
            assert_int_equal(list.count, mg_count(&b));
            for (int m = 0; m < list.count; m++) {
                df_board c = b;
                mg_make(&c, list.moves[m]);
                const int k = df_board_king(&c, b.stm);
                if (ref_attackers_to(&c, k, df_board_occupied(&c)) & c.color[c.stm]) {
                    char uci[6], fen[DF_FEN_MAX];
                    mg_uci(list.moves[m], uci);
                    df_fen_format(&b, fen, sizeof fen);
                    fail_msg("illegal move %s in %s", uci, fen);
                }
                checked++;
            }
            if (!list.count) break;
            mg_make(&b, list.moves[dft_rand() % (uint64_t)list.count]);
        }
    }
    print_message("%ld moves checked\n", checked);
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_counts),
        cmocka_unit_test(test_moves_legal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
