/* Perft of the program's legal move generator (built on the library's pins, checks and
 * attack maps) against the Chess Programming Wiki's published node counts, and every
 * generated move checked legal by the walking reference. DFT_PERFT_DEEP=1 (the `slow`
 * CTest label) adds the deeper counts. */
#include <stdlib.h>
#include <string.h>

#include "../app/movegen.h"
#include "dft.h"
#include "reference.h"

typedef struct {
    const char *name, *fen;
    uint64_t nodes[7]; /* nodes[d] for depth d; 0 where not listed */
} perft_case;

/* https://www.chessprogramming.org/Perft_Results */
static const perft_case cases[] = {
    {"start", DF_FEN_START, {1, 20, 400, 8902, 197281, 4865609, 119060324}},
    {"kiwipete",
     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
     {1, 48, 2039, 97862, 4085603, 193690690, 0}},
    {"position 3",
     "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
     {1, 14, 191, 2812, 43238, 674624, 11030083}},
    {"position 4",
     "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
     {1, 6, 264, 9467, 422333, 15833292, 0}},
    {"position 5",
     "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
     {1, 44, 1486, 62379, 2103487, 89941194, 0}},
    {"position 6",
     "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
     {1, 46, 2079, 89890, 3894594, 164075551, 0}},
};

static void test_perft_counts(void **state)
{
    (void)state;
    const bool deep = getenv("DFT_PERFT_DEEP") != NULL;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        df_board b = dft_fen(cases[i].fen);
        for (int d = 0; d <= (deep ? 6 : 4); d++) {
            if (!cases[i].nodes[d]) continue;
            uint64_t n = mg_perft(&b, d);
            if (n != cases[i].nodes[d])
                fail_msg("%s depth %d: %llu nodes, expected %llu", cases[i].name, d,
                         (unsigned long long)n, (unsigned long long)cases[i].nodes[d]);
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
        df_board b = dft_fen(cases[game % 6].fen);
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
