/* SPDX-License-Identifier: MIT */
/* The one-square lookup methods (src/lookup/): the rule that picks one for a CPU, checked on
 * CPUs described by hand; DIRFILL_LOOKUP; and every method this CPU runs against the reference
 * walker and the fills (attack maps) on the CPW positions with their children and a third of
 * their grandchildren, the Chess960 ones with their children, and on random boards: attackers
 * of every square and of one square through any occupancy, is-attacked, SEE and gives-check
 * of every legal move. Registered once per
 * backend: the "rays" method runs on the backend's kernel. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "dft.h"
#include "reference.h"

enum { OTHER = 0, INTEL = 1, AMD = 2 };

enum { THREADS = 16 };
static atomic_int ready;
static df_board race_boards[THREADS];
static df_bb race_out[THREADS][64];

static void *first_query(void *arg)
{
    const int t = (int)(intptr_t)arg;
    atomic_fetch_add(&ready, 1);
    while (atomic_load(&ready) < THREADS) sched_yield();
    df_attackers_to_all(race_out[t], &race_boards[t]);
    return NULL;
}

/* Must run first: 16 threads make the first one-square query at once, so that all of them
 * resolve the method and wait for its tables (pthread_once) together. */
static void test_first_query_race(void **state)
{
    (void)state;
    if (getenv("DFT_NO_THREADS")) {
        print_message("skipped: DFT_NO_THREADS is set (no threads under this emulator)\n");
        skip();
    }
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++) {
        dft_rand_board(&race_boards[t]);
        assert_int_equal(0, pthread_create(&th[t], NULL, first_query, (void *)(intptr_t)t));
    }
    for (int t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
    for (int t = 0; t < THREADS; t++) {
        const df_bb occ = df_board_occupied(&race_boards[t]);
        for (int s = 0; s < 64; s++)
            DFT_ASSERT_BB(ref_attackers_to(&race_boards[t], s, occ), race_out[t][s],
                          "thread %d square %d", t, s);
    }
}

/* Must run before any selection: DIRFILL_LOOKUP as this run's CTest sets it. */
static void test_environment(void **state)
{
    (void)state;
    const char *env = getenv("DIRFILL_LOOKUP");
    const char *want = dft_lookup_auto();
    for (size_t i = 0; env && i < dft_lookup_count(); i++) {
        bool supported;
        const char *name = dft_lookup_at(i, &supported);
        if (supported && strcmp(name, env) == 0) want = name;
    }
    print_message("DIRFILL_LOOKUP=%s: %s\n", env ? env : "(unset)", df_lookup_name());
    assert_string_equal(want, df_lookup_name());
}

static void test_rule(void **state)
{
    (void)state;
    static const struct {
        const char *cpu;
        int vendor;
        unsigned family;
        bool bmi2, fast;
    } cpus[] = {
        {"Intel Haswell and later", INTEL, 6, true, true},
        {"Intel before Haswell", INTEL, 6, false, false},
        {"AMD Excavator (BMI2, microcoded pext)", AMD, 0x15, true, false},
        {"AMD Zen 1 / Zen 2", AMD, 0x17, true, false},
        {"Hygon Dhyana (Zen 1)", OTHER, 0x18, true, false},
        {"AMD Zen 3 / Zen 4", AMD, 0x19, true, true},
        {"AMD Zen 5", AMD, 0x1a, true, true},
        {"AMD Zen 5 without BMI2 (a hypervisor hiding it)", AMD, 0x1a, false, false},
        {"another vendor", OTHER, 6, true, false},
    };
    bool have_pext = false;
    for (size_t i = 0; i < dft_lookup_count(); i++) {
        bool supported;
        have_pext |= strcmp(dft_lookup_at(i, &supported), "pext") == 0;
    }
    for (size_t i = 0; i < sizeof cpus / sizeof cpus[0]; i++) {
        const bool fast = dft_pext_is_fast(cpus[i].vendor, cpus[i].family, cpus[i].bmi2);
        const char *picked = dft_lookup_for(cpus[i].vendor, cpus[i].family, cpus[i].bmi2);
        const char *want = cpus[i].fast && have_pext ? "pext" : "magic";
        if (fast != cpus[i].fast || strcmp(picked, want) != 0)
            fail_msg("%s: pext fast %d (expected %d), auto picks %s (expected %s)", cpus[i].cpu,
                     fast, cpus[i].fast, picked, want);
    }
}

static void test_select(void **state)
{
    (void)state;
    assert_int_equal(DF_ERR_UNKNOWN_BACKEND, df_lookup_select(NULL));
    assert_int_equal(DF_ERR_UNKNOWN_BACKEND, df_lookup_select("PEXT"));
    assert_int_equal(DF_ERR_UNKNOWN_BACKEND, df_lookup_select(""));
    assert_int_equal(DF_OK, df_lookup_select("auto"));
    assert_string_equal(dft_lookup_auto(), df_lookup_name());
}

/* The reference's answers about one board, computed once for every method checked on it. */
typedef struct {
    df_bb reduced, all[64], through_reduced[64];
    df_move_list moves;
    int see[DF_MAX_MOVES], check[DF_MAX_MOVES];
} answers;

static void reference_answers(answers *a, const df_board *b, bool legal)
{
    const df_bb occ = df_board_occupied(b);
    a->reduced = occ & (dft_rand_bb() | b->piece[DF_KING]);
    ref_attackers_to_all(a->all, b, occ);
    ref_attackers_to_all(a->through_reduced, b, a->reduced);
    a->moves.count = 0;
    if (!legal) return;
    df_generate_legal(&a->moves, b);
    for (uint32_t k = 0; k < a->moves.count; k++) {
        a->see[k] = ref_see(b, a->moves.moves[k]);
        a->check[k] = ref_gives_check(b, a->moves.moves[k]);
    }
}

/* Every query of the selected method on b, against the reference and the attack maps. */
static void check_method(const df_board *b, const answers *a)
{
    const df_bb occ = df_board_occupied(b);
    df_bb all[64];
    df_attackers_to_all(all, b);
    df_attack_map maps[2];
    df_attack_maps(maps, b);
    char fen[DF_FEN_MAX];
    df_fen_format(fen, sizeof fen, b, DF_FEN_STANDARD);
    for (int s = 0; s < 64; s++) {
        const df_square sq = (df_square)s;
        const df_bb want = a->all[s];
        DFT_ASSERT_BB(want, all[sq], "all sq=%d %s", s, fen);
        DFT_ASSERT_BB(want, df_attackers_to(b, sq, occ), "sq=%d %s", s, fen);
        DFT_ASSERT_BB(a->through_reduced[s], df_attackers_to(b, sq, a->reduced),
                      "sq=%d through %016llx %s", s, (unsigned long long)a->reduced, fen);
        for (int c = 0; c < DF_COLORS; c++) {
            const df_bb by = want & b->color[c];
            int count = 0;
            for (int k = 0; k < DF_COUNT_BITS; k++)
                count |= (int)((maps[c].count[k] >> s) & 1) << k;
            if (df_is_attacked(b, sq, (df_color)c, occ) != (by != 0) ||
                df_has(maps[c].all, sq) != (by != 0) || count != df_popcount(by))
                fail_msg("%s: square %d, colour %d: is_attacked %d, the fills count %d, the "
                         "attackers %d",
                         fen, s, c, df_is_attacked(b, sq, (df_color)c, occ), count,
                         df_popcount(by));
        }
    }
    for (uint32_t k = 0; k < a->moves.count; k++) {
        const df_move m = a->moves.moves[k];
        const int see = df_see(b, m), check = df_gives_check(b, m);
        if (see != a->see[k] || check != a->check[k]) {
            char uci[DF_UCI_MAX];
            df_move_to_uci(uci, b, m);
            fail_msg("%s %s (%s): SEE %d (reference %d), gives check %d (reference %d)", fen, uci,
                     df_lookup_name(), see, a->see[k], check, a->check[k]);
        }
    }
}

/* b under every method this CPU runs (the reference asked once). */
static void check_board(const df_board *b, bool legal)
{
    answers a;
    reference_answers(&a, b, legal);
    for (size_t i = 0; i < dft_lookup_count(); i++) {
        bool supported;
        const char *name = dft_lookup_at(i, &supported);
        if (!supported) continue;
        assert_int_equal(DF_OK, df_lookup_select(name));
        assert_string_equal(name, df_lookup_name());
        check_method(b, &a);
    }
}

/* The positions of a suite file, their children and (CPW) a third of their grandchildren. */
static long check_suite(const char *file, bool chess960)
{
    size_t n;
    dft_epd *suite = dft_epd_load(file, &n);
    long boards = 0;
    for (size_t i = 0; i < n; i++) {
        const df_board root = chess960 ? dft_fen960(suite[i].fen) : dft_fen(suite[i].fen);
        df_move_list first;
        df_generate_legal(&first, &root);
        check_board(&root, true);
        boards++;
        for (uint32_t a = 0; a < first.count; a++) {
            df_board child, grandchild;
            df_make_move(&child, &root, first.moves[a]);
            check_board(&child, true);
            boards++;
            if (chess960) continue; /* 60 positions: their children are enough */
            df_move_list second;
            df_generate_legal(&second, &child);
            /* A third of the grandchildren (a few thousand boards), each method on each backend. */
            for (uint32_t c = (a % 3); c < second.count; c += 3) {
                df_make_move(&grandchild, &child, second.moves[c]);
                check_board(&grandchild, true);
                boards++;
            }
        }
    }
    free(suite);
    return boards;
}

static void test_methods(void **state)
{
    (void)state;
    for (size_t i = 0; i < dft_lookup_count(); i++) {
        bool supported;
        const char *name = dft_lookup_at(i, &supported);
        if (supported) continue;
        assert_int_equal(DF_ERR_UNSUPPORTED_BACKEND, df_lookup_select(name));
        print_message("%s: this CPU cannot run it\n", name);
    }
    long boards = check_suite("cpw.epd", false) + check_suite("chess960.epd", true);
    for (long k = 0; k < DFT_ITERATIONS / 1000; k++) {
        df_board b;
        dft_rand_board(&b);
        check_board(&b, false);
        if (dft_rand_playable(&b, k)) check_board(&b, true);
        boards++;
    }
    print_message("every method this CPU runs, on %s: %ld boards\n", dft_backend(), boards);
    assert_int_equal(DF_OK, df_lookup_select("auto"));
}

/* With --environment, only the first resolution and what DIRFILL_LOOKUP became (the
 * lookup.env-* runs). */
int main(int argc, char **argv)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_query_race),
        cmocka_unit_test(test_environment),
        cmocka_unit_test(test_rule),
        cmocka_unit_test(test_select),
        cmocka_unit_test(test_methods),
    };
    const size_t n = argc > 1 && strcmp(argv[1], "--environment") == 0 ? 2 : 5;
    return _cmocka_run_group_tests("test_lookup", tests, n, NULL, NULL);
}
