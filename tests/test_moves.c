/* SPDX-License-Identifier: MIT */
/* The engine layer against the slow reference (tests/support/reference.c) and published
 * facts: perft counts of the Chess Programming Wiki (standard and Chess960), move lists
 * equal to the reference generator's, copy-make and Polyglot keys against recomputation and
 * the Polyglot format's published keys, gives-check against playing the move. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dft.h"
#include "reference.h"

static const char *fen_of(const df_board *b)
{
    static char buf[DF_FEN_MAX];
    df_fen_format(buf, sizeof buf, b, DF_FEN_STANDARD);
    return buf;
}

/* Every listed count up to max_depth (deeper with DFT_PERFT_DEEP=1, the `slow` label). */
static void perft_suite(const char *file, df_fen_flags flags, int depth, int deep_depth)
{
    const int max = getenv("DFT_PERFT_DEEP") ? deep_depth : depth;
    size_t n;
    dft_epd *e = dft_epd_load(file, &n);
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++) {
        df_board b;
        df_fen_error err;
        if (df_fen_parse(&b, e[i].fen, strlen(e[i].fen), flags, &err) != DF_OK)
            fail_msg("%s: %s", e[i].fen, err.message);
        for (int d = 0; d <= max; d++) {
            if (d && !e[i].nodes[d]) continue;
            uint64_t nodes;
            assert_int_equal(DF_OK, df_perft(&nodes, &b, d));
            const uint64_t want = d ? e[i].nodes[d] : 1;
            if (nodes != want)
                fail_msg("%s depth %d: %llu nodes, expected %llu", e[i].fen, d,
                         (unsigned long long)nodes, (unsigned long long)want);
        }
    }
    free(e);
}

/* The move generator and perft inline the active lookup method's slider tables (a copy of
 * each per method): every test below that generates runs once per method this CPU has, then
 * the CPU's own choice is restored. */
static const char *const lookups[] = {"pext", "magic", "rays"};
#define FOR_EACH_LOOKUP(i)                                                                         \
    for (size_t i = 0; i < sizeof lookups / sizeof lookups[0]; i++)                                \
        if (df_lookup_select(lookups[i]) == DF_OK && (print_message("lookup %s\n", lookups[i]), 1))
static int restore_lookup(void **state)
{
    (void)state;
    return df_lookup_select("auto") == DF_OK ? 0 : -1;
}

/* The AVX-512 backend's counting with and without vpopcntq (src/backend.h, internal). */
bool df__vpopcnt_resolve(void);
void df__vpopcnt_force(bool on);

static void test_perft_cpw(void **state)
{
    (void)state;
    FOR_EACH_LOOKUP(i) perft_suite("cpw.epd", DF_FEN_STANDARD, 4, 6);
    /* On a CPU with VPOPCNTDQ, once more without it (the emulated builds always do). */
    if (df__vpopcnt_resolve()) {
        df__vpopcnt_force(false);
        perft_suite("cpw.epd", DF_FEN_STANDARD, 4, 6);
        df__vpopcnt_force(true);
    }
}

static void test_perft_chess960(void **state)
{
    (void)state;
    FOR_EACH_LOOKUP(i) perft_suite("chess960.epd", DF_FEN_CHESS960, 3, 5);
}

static int by_value(const void *a, const void *b)
{
    return (int)*(const df_move *)a - (int)*(const df_move *)b;
}

/* The generator's list equals the reference's as a set; captures and quiets split it. */
static void check_moves(const df_board *b)
{
    static df_move ref[DF_MAX_MOVES];
    df_move_list all, captures, quiets;
    const int n = ref_legal_moves(b, ref);
    df_generate_legal(&all, b);
    if ((int)all.count != n)
        fail_msg("%s: %u moves, the reference has %d", fen_of(b), all.count, n);
    qsort(ref, (size_t)n, sizeof ref[0], by_value);
    qsort(all.moves, all.count, sizeof all.moves[0], by_value);
    for (int i = 0; i < n; i++)
        if (ref[i] != all.moves[i]) {
            char uci[DF_UCI_MAX];
            df_move_to_uci(uci, b, ref[i]);
            fail_msg("%s: move %d differs (reference %s)", fen_of(b), i, uci);
        }
    assert_int_equal(all.count, df_count_legal(b));
    df_generate_captures(&captures, b);
    df_generate_quiets(&quiets, b);
    assert_int_equal(all.count, captures.count + quiets.count);
    for (uint32_t i = 0; i < captures.count; i++)
        assert_true(df_move_is_capture(b, captures.moves[i]));
    for (uint32_t i = 0; i < quiets.count; i++)
        assert_false(df_move_is_capture(b, quiets.moves[i]));
}

static void test_moves_against_reference(void **state)
{
    (void)state;
    FOR_EACH_LOOKUP(m)
    {
        long positions = 0, moves = 0;
        for (long i = 0; i < DFT_ITERATIONS / 500; i++) {
            df_board b;
            dft_rand_game_position(&b);
            check_moves(&b);
            dft_rand_board(&b);
            if (!df_board_playable(&b)) continue;
            check_moves(&b);
            positions += 2;
            moves += (long)df_count_legal(&b);
        }
        print_message("%ld positions checked\n", positions);
        assert_true(positions > DFT_ITERATIONS / 1000 && moves > 0);
    }
}

/* More legal moves than the usual 256-entry lists hold: counted exactly (and, in the
 * sanitizer builds, without a write out of bounds). */
static void test_many_moves(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        uint32_t moves;
    } cases[] = {
        {"knQQQQQQ/pp5Q/QQ5Q/Q6Q/Q6Q/Q6Q/Q5QQ/QQQQQQK1 w - - 0 1", 259},
        {"knQQQQQQ/ppQ4Q/QQ5Q/Q6Q/Q6Q/Q6Q/Q5QQ/QQQQQQK1 w - - 0 1", 261},
        /* The most moves known in a position reachable in a game. */
        {"R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1", 218},
    };
    FOR_EACH_LOOKUP(m)
    {
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            df_board b = dft_fen(cases[i].fen);
            assert_true(df_board_playable(&b));
            check_moves(&b);
            df_move_list list;
            df_generate_legal(&list, &b);
            assert_int_equal(cases[i].moves, list.count);
            uint64_t nodes;
            assert_int_equal(DF_OK, df_perft(&nodes, &b, 2));
        }
        df_board b = dft_fen(cases[0].fen);
        uint64_t nodes;
        assert_int_equal(DF_OK, df_perft(&nodes, &b, 2));
        assert_int_equal(21, nodes);
    }
}

/* Perft by the reference: its moves, its make. */
static uint64_t ref_perft(const df_board *b, int depth)
{
    df_move moves[DF_MAX_MOVES];
    const int n = ref_legal_moves(b, moves);
    if (depth == 1) return (uint64_t)n;
    uint64_t nodes = 0;
    for (int i = 0; i < n; i++) {
        df_board child;
        ref_make_move(&child, b, moves[i]);
        nodes += ref_perft(&child, depth - 1);
    }
    return nodes;
}

/* df_perft, whose inner nodes make children their own way (from the generator's groups, no
 * key), against the reference's perft on random positions reached in play (standard and
 * Chess960, castling and en passant among them; depth 3, so that each side makes children)
 * and on random boards (depth 2: their many queens make wide trees). */
static void test_perft_against_reference(void **state)
{
    (void)state;
    FOR_EACH_LOOKUP(m)
    {
        long positions = 0;
        uint64_t total = 0;
        for (long i = 0; i < DFT_ITERATIONS / 10000; i++) {
            df_board b;
            if (!dft_rand_playable(&b, i)) continue;
            const int depth = i & 1 ? 3 : 2;
            uint64_t nodes;
            assert_int_equal(DF_OK, df_perft(&nodes, &b, depth));
            const uint64_t want = ref_perft(&b, depth);
            if (nodes != want)
                fail_msg("%s: perft %d %llu, the reference %llu", fen_of(&b), depth,
                         (unsigned long long)nodes, (unsigned long long)want);
            positions++;
            total += nodes;
        }
        print_message("%ld positions, %llu nodes\n", positions, (unsigned long long)total);
        assert_true(positions > DFT_ITERATIONS / 40000 && total > 0);
    }
}

/* A random ending: kings, each side's sliders (none, one or two, of any kind; rooks only when
 * rooks), sometimes a knight (never when rooks), and pawns on ranks 2 to 7 (promotions among
 * the moves), as a FEN. */
static void rand_ending_fen(char *fen, size_t size, bool rooks)
{
    const char *const sliders = rooks ? "rrr" : "rbq";
    char board[64];
    memset(board, '.', sizeof board);
    for (int color = 0; color < 2; color++) {
        char pieces[16];
        int n = 0;
        pieces[n++] = 'k';
        for (int k = (int)(dft_rand() % 3); k > 0; k--) pieces[n++] = sliders[dft_rand() % 3];
        if (!rooks && dft_rand() % 3 == 0) pieces[n++] = 'n';
        for (int k = (int)(dft_rand() % 6); k > 0; k--) pieces[n++] = 'p';
        for (int i = 0; i < n; i++) {
            int sq;
            do sq = pieces[i] == 'p' ? 8 + (int)(dft_rand() % 48) : (int)(dft_rand() % 64);
            while (board[sq] != '.');
            board[sq] = color ? pieces[i] : (char)(pieces[i] - 'a' + 'A');
        }
    }
    size_t len = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            const char c = board[8 * rank + file];
            if (c == '.') {
                empty++;
                continue;
            }
            if (empty) fen[len++] = (char)('0' + empty);
            empty = 0;
            fen[len++] = c;
        }
        if (empty) fen[len++] = (char)('0' + empty);
        if (rank) fen[len++] = '/';
    }
    snprintf(fen + len, size - len, " %c - - 0 1", dft_rand() & 1 ? 'b' : 'w');
}

/* df_perft against the reference at depth on count random endings (rand_ending_fen) for each
 * lookup method; more than min_positions of them must be playable. */
static void perft_random_endings(long count, int depth, bool rooks, long min_positions)
{
    FOR_EACH_LOOKUP(m)
    {
        long positions = 0;
        uint64_t total = 0;
        for (long i = 0; i < count; i++) {
            char fen[DF_FEN_MAX];
            rand_ending_fen(fen, sizeof fen, rooks);
            df_board b;
            df_fen_error err;
            if (df_fen_parse(&b, fen, strlen(fen), DF_FEN_STANDARD, &err) != DF_OK ||
                !df_board_playable(&b))
                continue;
            uint64_t nodes;
            assert_int_equal(DF_OK, df_perft(&nodes, &b, depth));
            const uint64_t want = ref_perft(&b, depth);
            if (nodes != want)
                fail_msg("%s: perft %d %llu, the reference %llu", fen, depth,
                         (unsigned long long)nodes, (unsigned long long)want);
            positions++;
            total += nodes;
        }
        print_message("%ld positions, %llu nodes\n", positions, (unsigned long long)total);
        assert_true(positions > min_positions && total > 0);
    }
}

/* Perft's sparse paths (a side with at most one slider: looked up, not filled; one sniper at
 * most on the king's lines) against the reference, on endings where they are taken, left and
 * taken again below the root: a capture takes a second slider off, a promotion adds one. */
static void test_perft_sparse_sliders(void **state)
{
    (void)state;
    perft_random_endings(DFT_ITERATIONS / 2000, 3, false, DFT_ITERATIONS / 20000);
}

/* Perft's krp shape (kings, rooks and pawns, no castling right: a generator with no code for
 * other pieces, kept down the tree) against the reference: on random rook endings at depth 4
 * (a promotion leaves the shape), and on boards just outside it (castling rights, one minor
 * piece or queen, which a capture may take off below the root), which must not take it. */
static void test_perft_rook_endings(void **state)
{
    (void)state;
    static const char *const fens[] = {
        "r3k2r/1p6/8/8/8/8/6P1/R3K2R w KQkq - 0 1",  /* castling rights: not the shape */
        "4k2r/8/8/8/8/8/8/R3K3 b k - 0 1",           /* one right left */
        "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1",         /* Rxd5 */
        "4k3/8/8/3n4/8/8/3R4/4K3 w - - 0 1",         /* Rxd5 */
        "4k3/8/8/3b4/2P5/8/3R4/4K3 w - - 0 1",       /* Rxd5 or cxd5 */
        "8/8/8/8/1k3p2/8/4P3/4K2R w - - 0 1",        /* e4 lets fxe3 e.p. */
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", /* CPW 3 */
        "2r5/1P3k2/8/8/8/8/5K2/8 w - - 0 1",         /* promotions, taking or not */
    };
    FOR_EACH_LOOKUP(m)
    {
        for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
            const df_board b = dft_fen(fens[i]);
            uint64_t nodes;
            assert_int_equal(DF_OK, df_perft(&nodes, &b, 4));
            const uint64_t want = ref_perft(&b, 4);
            if (nodes != want)
                fail_msg("%s: perft 4 %llu, the reference %llu", fens[i], (unsigned long long)nodes,
                         (unsigned long long)want);
        }
    }
    perft_random_endings(DFT_ITERATIONS / 10000, 4, true, DFT_ITERATIONS / 100000);
}

/* No legal move tree where the side not to move is in check; perft says so. */
static void test_unplayable(void **state)
{
    (void)state;
    static const char *const fens[] = {
        "4k3/8/8/8/8/8/8/4RK2 w - - 0 1",  /* rook checks the king of the side not to move */
        "8/8/8/8/8/8/8/2kK4 w - - 0 1",    /* adjacent kings */
        "8/8/8/8/8/3k4/4P3/4K3 w - - 0 1", /* pawn check */
        "4k3/8/8/8/8/3n4/8/4K3 b - - 0 1", /* knight check, black to move */
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        df_board b = dft_fen(fens[i]);
        assert_false(df_board_playable(&b));
        uint64_t nodes = 12345;
        assert_int_equal(DF_ERR_BOARD, df_perft(&nodes, &b, 2));
        assert_int_equal(12345, nodes);
    }
    df_board b = dft_fen(DF_FEN_START);
    uint64_t nodes;
    assert_int_equal(DF_ERR_ARGUMENT, df_perft(&nodes, &b, -1));
    assert_int_equal(DF_ERR_ARGUMENT, df_perft(NULL, &b, 1));
}

/* Boards equal in everything a position is: the rooks of rights no longer held do not count. */
static void assert_same_board(const df_board *e, const df_board *a, const char *what)
{
    for (int c = 0; c < DF_COLORS; c++)
        DFT_ASSERT_BB(e->color[c], a->color[c], "%s colour %d", what, c);
    for (int t = 0; t < DF_PIECE_TYPES; t++)
        DFT_ASSERT_BB(e->piece[t], a->piece[t], "%s type %d", what, t);
    assert_int_equal(e->stm, a->stm);
    assert_int_equal(e->castling, a->castling);
    assert_int_equal(e->ep, a->ep);
    assert_int_equal(e->halfmove, a->halfmove);
    assert_int_equal(e->fullmove, a->fullmove);
    assert_int_equal(e->chess960, a->chess960);
    for (int r = 0; r < DF_CASTLE_RIGHTS; r++)
        if ((e->castling >> r) & 1) assert_int_equal(e->castle_rook[r], a->castle_rook[r]);
    if (e->key != a->key)
        fail_msg("%s: key 0x%016llx, expected 0x%016llx", what, (unsigned long long)a->key,
                 (unsigned long long)e->key);
}

/* Long random playouts: each move made by copy-make equals the reference's make, and the
 * incremental key equals the key from scratch (the library's and the reference's). */
static void test_make_move_playouts(void **state)
{
    (void)state;
    long made = 0, kinds[4] = {0};
    for (long game = 0; game < DFT_ITERATIONS / 2000; game++) {
        df_board b;
        dft_rand_game_position(&b);
        for (int ply = 0; ply < 200; ply++) {
            df_move_list list;
            df_generate_legal(&list, &b);
            if (!list.count) break;
            const char *fen = fen_of(&b); /* once a position, not a move */
            for (uint32_t i = 0; i < list.count; i++) {
                df_board got, want;
                df_make_move(&got, &b, list.moves[i]);
                ref_make_move(&want, &b, list.moves[i]);
                assert_same_board(&want, &got, fen);
                assert_true(got.key == df_polyglot_key(&got));
                kinds[df_move_kind_of(list.moves[i])]++;
                made++;
            }
            df_make_move(&b, &b, list.moves[dft_rand() % list.count]);
        }
    }
    print_message("%ld moves made: %ld normal, %ld promotions, %ld en passant, %ld castling\n",
                  made, kinds[0], kinds[1], kinds[2], kinds[3]);
    assert_true(kinds[1] > 0 && kinds[2] > 0 && kinds[3] > 0);
}

/* The keys published with the Polyglot book format (its book_format page). */
static void test_polyglot_published_keys(void **state)
{
    (void)state;
    static const struct {
        const char *moves;
        uint64_t key;
    } cases[] = {
        {"", UINT64_C(0x463b96181691fc9c)},
        {"e2e4", UINT64_C(0x823c9b50fd114196)},
        {"e2e4 d7d5", UINT64_C(0x0756b94461c50fb0)},
        {"e2e4 d7d5 e4e5", UINT64_C(0x662fafb965db29d4)},
        {"e2e4 d7d5 e4e5 f7f5", UINT64_C(0x22a48b5a8e47ff78)},
        {"e2e4 d7d5 e4e5 f7f5 e1e2", UINT64_C(0x652a607ca3f242c1)},
        {"e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", UINT64_C(0x00fdd303c946bdd9)},
        {"a2a4 b7b5 h2h4 b5b4 c2c4", UINT64_C(0x3c8123ea7b067637)},
        {"a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", UINT64_C(0x5c3f9b829b279560)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        df_board b = dft_fen(DF_FEN_START);
        char moves[64];
        snprintf(moves, sizeof moves, "%s", cases[i].moves);
        for (char *save, *uci = strtok_r(moves, " ", &save); uci;
             uci = strtok_r(NULL, " ", &save)) {
            df_move m;
            assert_int_equal(DF_OK, df_move_from_uci(&m, &b, uci, strlen(uci)));
            df_make_move(&b, &b, m);
        }
        if (b.key != cases[i].key)
            fail_msg("after \"%s\": 0x%016llx, expected 0x%016llx", cases[i].moves,
                     (unsigned long long)b.key, (unsigned long long)cases[i].key);
        assert_true(df_polyglot_key(&b) == cases[i].key);
        df_board parsed = dft_fen(fen_of(&b));
        assert_true(parsed.key == cases[i].key);
    }
}

static void test_null_move(void **state)
{
    (void)state;
    for (long i = 0; i < DFT_ITERATIONS / 2000; i++) {
        df_board b, n;
        dft_rand_game_position(&b);
        if (df_checkers(&b)) continue;
        df_make_null_move(&n, &b);
        assert_int_equal(b.stm ^ 1, n.stm);
        assert_int_equal(DF_SQUARE_NONE, n.ep);
        assert_true(n.key == df_polyglot_key(&n));
    }
}

static void test_gives_check(void **state)
{
    (void)state;
    long counts[4] = {0};
    for (long i = 0; i < DFT_ITERATIONS / 500; i++) {
        df_board b;
        dft_rand_game_position(&b);
        df_move_list list;
        df_generate_legal(&list, &b);
        for (uint32_t k = 0; k < list.count; k++) {
            const int want = ref_gives_check(&b, list.moves[k]);
            counts[want]++;
            if (want != df_gives_check(&b, list.moves[k])) {
                char uci[DF_UCI_MAX];
                df_move_to_uci(uci, &b, list.moves[k]);
                fail_msg("%s: %s gives %d, expected %d", fen_of(&b), uci,
                         df_gives_check(&b, list.moves[k]), want);
            }
        }
    }
    print_message("none %ld, direct %ld, discovered %ld, double %ld\n", counts[0], counts[1],
                  counts[2], counts[3]);
    assert_true(counts[1] > 0 && counts[2] > 0);
    /* Castling giving check with the rook; en passant uncovering a rank. */
    df_board b = dft_fen("5k2/8/8/8/8/8/8/4K2R w K - 0 1");
    df_move m;
    assert_int_equal(DF_OK, df_move_from_uci(&m, &b, "e1g1", 4));
    assert_int_equal(DF_CHECK_DIRECT, df_gives_check(&b, m));
    b = dft_fen("8/8/8/8/K2Pp2q/8/8/7k b - d3 0 1");
    assert_int_equal(DF_OK, df_move_from_uci(&m, &b, "e4d3", 4));
    assert_int_equal(DF_CHECK_DISCOVERED, df_gives_check(&b, m));
}

/* df_move_is_legal decides from the move alone: every one of the 65536 values, on played
 * positions and on random crowded boards (pins, checks, double checks, en passant pinned on
 * the rank), agrees with the generator's list. */
static void test_is_legal(void **state)
{
    (void)state;
    long legal = 0, boards = 0;
    for (long i = 0; i < DFT_ITERATIONS / 5000 + 20; i++) {
        df_board b;
        if (i % 2)
            dft_rand_game_position(&b);
        else {
            dft_rand_board(&b);
            if (!df_board_playable(&b)) continue;
        }
        boards++;
        df_move_list list;
        df_generate_legal(&list, &b);
        static bool listed[1 << 16];
        memset(listed, 0, sizeof listed);
        for (uint32_t k = 0; k < list.count; k++) listed[list.moves[k]] = true;
        for (uint32_t m = 0; m < 1u << 16; m++) {
            if (listed[m] != df_move_is_legal(&b, (df_move)m)) {
                char fen[DF_FEN_MAX], uci[DF_UCI_MAX];
                df_fen_format(fen, sizeof fen, &b, DF_FEN_STANDARD);
                df_move_to_uci(uci, &b, (df_move)m);
                fail_msg("%s: move 0x%04x (%s) legal %d, listed %d", fen, m, uci,
                         df_move_is_legal(&b, (df_move)m), listed[m]);
            }
            legal += listed[m];
        }
    }
    print_message("%ld boards, every 16-bit value; %ld legal\n", boards, legal);
    assert_true(legal > 0);
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_perft_cpw, restore_lookup),
        cmocka_unit_test_teardown(test_perft_chess960, restore_lookup),
        cmocka_unit_test_teardown(test_moves_against_reference, restore_lookup),
        cmocka_unit_test_teardown(test_many_moves, restore_lookup),
        cmocka_unit_test_teardown(test_perft_against_reference, restore_lookup),
        cmocka_unit_test_teardown(test_perft_sparse_sliders, restore_lookup),
        cmocka_unit_test_teardown(test_perft_rook_endings, restore_lookup),
        cmocka_unit_test(test_unplayable),
        cmocka_unit_test(test_make_move_playouts),
        cmocka_unit_test(test_polyglot_published_keys),
        cmocka_unit_test(test_null_move),
        cmocka_unit_test(test_gives_check),
        cmocka_unit_test(test_is_legal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
