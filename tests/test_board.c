/* SPDX-License-Identifier: MIT */
/* The position level against the piece-by-piece reference, for the backend under test:
 * attack maps (every field, exact counts), king safety by opposite rays, attackers-to,
 * is-attacked, attacked-by-piece, gives-check, attack bytes and single-slider x-rays. */
#include <string.h>

#include "dft.h"
#include "reference.h"

#define POSITIONS (DFT_ITERATIONS / 10)

static const char *fen_of(const df_board *b)
{
    static char buf[DF_FEN_MAX];
    df_fen_format(buf, sizeof buf, b, DF_FEN_STANDARD);
    return buf;
}

/* b: the position, written as FEN only in a failure's message (a FEN a check was a noticeable
 * share of the test's time). */
static void assert_map(const df_attack_map *e, const df_attack_map *a, const df_board *b)
{
    for (int d = 0; d < 8; d++) {
        DFT_ASSERT_BB(e->rays.r[d], a->rays.r[d], "rays d=%d %s", d, fen_of(b));
        DFT_ASSERT_BB(e->xrays.r[d], a->xrays.r[d], "xrays d=%d %s", d, fen_of(b));
    }
    DFT_ASSERT_BB(e->pawn_east, a->pawn_east, "pawn east %s", fen_of(b));
    DFT_ASSERT_BB(e->pawn_west, a->pawn_west, "pawn west %s", fen_of(b));
    for (int t = 0; t < DF_PIECE_TYPES; t++)
        DFT_ASSERT_BB(e->by_type[t], a->by_type[t], "type %d %s", t, fen_of(b));
    DFT_ASSERT_BB(e->all, a->all, "all %s", fen_of(b));
    DFT_ASSERT_BB(e->twice, a->twice, "twice %s", fen_of(b));
    for (int k = 0; k < DF_COUNT_BITS; k++)
        DFT_ASSERT_BB(e->count[k], a->count[k], "count bit %d %s", k, fen_of(b));
}

static void assert_safety(const df_king_safety_sets *e, const df_king_safety_sets *a,
                          const df_board *b)
{
    DFT_ASSERT_BB(e->checkers, a->checkers, "checkers %s", fen_of(b));
    DFT_ASSERT_BB(e->pinned, a->pinned, "pinned %s", fen_of(b));
    DFT_ASSERT_BB(e->pinners, a->pinners, "pinners %s", fen_of(b));
    DFT_ASSERT_BB(e->check_block, a->check_block, "check_block %s", fen_of(b));
    DFT_ASSERT_BB(e->discoverers, a->discoverers, "discoverers %s", fen_of(b));
}

static void test_attack_maps_random(void **state)
{
    (void)state;
    for (long i = 0; i < POSITIONS; i++) {
        df_board b;
        dft_rand_board(&b);
        df_attack_map got[2], ref;
        df_attack_maps(got, &b);
        for (int c = 0; c < 2; c++) {
            ref_attack_map(&ref, &b, c);
            assert_map(&ref, &got[c], &b);
            df_attack_map one;
            df_attack_map_side(&one, &b, (df_color)c);
            assert_map(&ref, &one, &b);
            for (int n = 0; n <= 20; n++) {
                df_bb at_least = 0;
                for (int sq = 0; sq < 64; sq++) {
                    int count = 0;
                    for (int k = 0; k < DF_COUNT_BITS; k++)
                        count |= (int)((ref.count[k] >> sq) & 1) << k;
                    if (count >= n) at_least |= df_square_bb((df_square)sq);
                    if (n == 0) assert_int_equal(count, df_attack_count(&got[c], (df_square)sq));
                }
                DFT_ASSERT_BB(at_least, df_attacked_at_least(&got[c], n), "at least %d", n);
            }
        }
    }
}

static void test_attack_maps_batch(void **state)
{
    (void)state;
    enum { N = 33 };
    static df_board boards[N];
    static df_attack_map maps[2 * N];
    for (int i = 0; i < N; i++) dft_rand_board(&boards[i]);
    df_attack_maps_batch(maps, boards, N);
    for (int i = 0; i < N; i++) {
        df_attack_map one[2];
        df_attack_maps(one, &boards[i]);
        assert_map(&one[0], &maps[2 * i], &boards[i]);     /* white */
        assert_map(&one[1], &maps[2 * i + 1], &boards[i]); /* black */
    }
}

/* d4 attacked sixteen times: eight knights, two pawns, the king and five sliders (the
 * pawns and the king close three lines). Sixteen needs the fifth counter plane. */
static void test_crowded_square(void **state)
{
    (void)state;
    const char *fen = "3R4/B5B1/2N1N3/1N3N2/R3K3/1NP1PN2/2N1N3/3R3k w - - 0 1";
    df_board b = dft_fen(fen);
    df_attack_map m, ref;
    df_attack_map_side(&m, &b, DF_WHITE);
    ref_attack_map(&ref, &b, DF_WHITE);
    assert_map(&ref, &m, &b);
    assert_int_equal(16, df_attack_count(&m, DF_D4));
    DFT_ASSERT_BB(df_square_bb(DF_D4), df_attacked_at_least(&m, 16), "only d4 sixteen times");
}

static void test_king_safety_random(void **state)
{
    (void)state;
    long pins = 0, checks = 0, discs = 0;
    for (long i = 0; i < POSITIONS; i++) {
        df_board b;
        dft_rand_board(&b);
        df_king_safety_sets got, ref;
        df_king_safety(&got, &b);
        ref_king_safety(&ref, &b);
        assert_safety(&ref, &got, &b);
        pins += ref.pinned != 0;
        checks += ref.checkers != 0;
        discs += ref.discoverers != 0;
        df_checks_and_pins(&got, &b);
        ref.discoverers = 0;
        assert_safety(&ref, &got, &b);
    }
    print_message("positions with pins %ld, checks %ld, discoverers %ld\n", pins, checks, discs);
    assert_true(pins > POSITIONS / 20 && checks > POSITIONS / 20 && discs > POSITIONS / 20);
}

typedef struct {
    const char *fen;
    df_bb checkers, pinned, pinners, check_block, discoverers;
} safety_case;

#define SQ(s) (UINT64_C(1) << DF_##s)
static const safety_case safety_cases[] = {
    /* Pins in all eight directions around a king on d4; the knight on d5 also stands
     * between the bishop on e4 and the black king: a discoverer. */
    {"k2r4/6b1/1b6/2PNP3/q1RKB2r/2QRN3/1b3q2/3r4 w - - 0 1", 0,
     SQ(D5) | SQ(E5) | SQ(E4) | SQ(E3) | SQ(D3) | SQ(C3) | SQ(C4) | SQ(C5),
     SQ(D8) | SQ(G7) | SQ(H4) | SQ(F2) | SQ(D1) | SQ(B2) | SQ(A4) | SQ(B6), 0, SQ(D5)},
    /* Double check: rook e8 and knight f3. */
    {"4r2k/8/8/8/8/5n2/8/4K3 w - - 0 1", SQ(E8) | SQ(F3), 0, 0,
     SQ(E2) | SQ(E3) | SQ(E4) | SQ(E5) | SQ(E6) | SQ(E7), 0},
    /* Check by each piece type. */
    {"7k/8/8/8/8/8/3p4/4K3 w - - 0 1", SQ(D2), 0, 0, 0, 0},
    {"7k/8/8/8/8/3n4/8/4K3 w - - 0 1", SQ(D3), 0, 0, 0, 0},
    {"7k/8/8/b7/8/8/8/4K3 w - - 0 1", SQ(A5), 0, 0, SQ(B4) | SQ(C3) | SQ(D2), 0},
    {"7k/8/8/8/8/8/8/r3K3 w - - 0 1", SQ(A1), 0, 0, SQ(B1) | SQ(C1) | SQ(D1), 0},
    {"7k/8/8/8/8/8/5q2/4K3 w - - 0 1", SQ(F2), 0, 0, 0, 0},
    /* Batteries: rook in front of queen, queen in front of bishop, two rooks. */
    {"4q2k/4r3/8/8/8/8/4N3/4K3 w - - 0 1", 0, SQ(E2), SQ(E7), 0, 0},
    {"k7/8/8/8/8/2b5/1q6/K7 w - - 0 1", SQ(B2), 0, 0, 0, 0},
    {"k3r3/4r3/8/8/4B3/8/8/4K3 w - - 0 1", 0, SQ(E4), SQ(E7), 0, 0},
    /* K-N-q-r: only q pins; K-q-N-r: check, nothing pinned. */
    {"k7/8/8/8/8/8/8/KNqr4 w - - 0 1", 0, SQ(B1), SQ(C1), 0, 0},
    {"k7/8/8/8/8/8/8/KqNr4 w - - 0 1", SQ(B1), 0, 0, 0, 0},
    /* Discovered-check set-ups: knight between rook and king; our own king in between. */
    {"4k3/8/8/4N3/8/8/8/4R1K1 w - - 0 1", 0, 0, 0, 0, SQ(E5)},
    {"k7/8/8/8/K7/8/8/R7 w - - 0 1", 0, 0, 0, 0, SQ(A4)},
    /* Kings in corners and on edges, black to move. */
    {"7k/6P1/8/8/8/8/8/R6K b - - 0 1", SQ(G7), 0, 0, 0, 0},
    {"K7/8/8/8/8/8/1p6/k6R b - - 0 1", SQ(H1), 0, 0,
     SQ(B1) | SQ(C1) | SQ(D1) | SQ(E1) | SQ(F1) | SQ(G1), 0},
    /* Adjacent kings (found by the differential fuzzer): the enemy king is a checker. */
    {"8/8/8/8/8/8/8/2kK4 w - - 0 1", SQ(C1), 0, 0, 0, 0},
    /* En passant: K P p r on a rank is no pin; the sets ignore the en-passant square. */
    {"8/8/8/KPp4r/8/8/8/7k w - c6 0 2", 0, 0, 0, 0, 0},
};

static void test_king_safety_hand_made(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof safety_cases / sizeof safety_cases[0]; i++) {
        const safety_case *c = &safety_cases[i];
        df_board b = dft_fen(c->fen);
        df_king_safety_sets got, ref;
        df_king_safety(&got, &b);
        ref_king_safety(&ref, &b);
        assert_safety(&ref, &got, &b);
        const df_king_safety_sets want = {c->checkers, c->pinned, c->pinners, c->check_block,
                                          c->discoverers};
        assert_safety(&want, &got, &b);
    }
}

/* df_attackers_to_all scatters each piece's attacks on sparse boards and reads square by
 * square on full ones: random boards of both kinds (and game positions) reach both. */
/* The i-th board of a random run: a position played from the start every third, else a random
 * placement (sparse and crowded boards alike). */
static void mixed_board(long i, df_board *b)
{
    if (i % 3 == 2)
        dft_rand_game_position(b);
    else
        dft_rand_board(b);
}

static void test_square_queries_random(void **state)
{
    (void)state;
    long sparse = 0, full = 0;
    for (long i = 0; i < POSITIONS / 4; i++) {
        df_board b;
        mixed_board(i, &b);
        df_bb occ = df_board_occupied(&b), all[64], want_all[64];
        *(df_popcount(occ) > 20 ? &full : &sparse) += 1;
        df_attackers_to_all(all, &b);
        ref_attackers_to_all(want_all, &b, occ);
        for (int sq = 0; sq < 64; sq++) {
            if (i % 16 == 0) /* the two references agree (the square-wise one is slow) */
                DFT_ASSERT_BB(ref_attackers_to(&b, sq, occ), want_all[sq], "reference sq=%d", sq);
            DFT_ASSERT_BB(want_all[sq], all[sq], "all sq=%d %s", sq, fen_of(&b));
        }
        if (i & 1) occ &= dft_rand_bb() | b.piece[DF_KING]; /* any occupancy */
        ref_attackers_to_all(want_all, &b, occ);
        for (int s = 0; s < 64; s++) {
            const df_square sq = (df_square)s;
            df_bb want = want_all[s];
            DFT_ASSERT_BB(want, df_attackers_to(&b, sq, occ), "sq=%d %s", sq, fen_of(&b));
            for (int by = 0; by < 2; by++)
                assert_int_equal((want & b.color[by]) != 0,
                                 df_is_attacked(&b, sq, (df_color)by, occ));
        }
    }
    print_message("%ld boards of at most 20 pieces, %ld of more\n", sparse, full);
    assert_true(sparse > 0 && full > 0);
}

/* df_board_type_at (bit arithmetic, no branch) against the loop over the types on random
 * boards and played positions; on sets that overlap (no parser makes them) its answer is still
 * a type or "no piece", so a caller's table indexed by it is not overrun. */
static void test_type_at_random(void **state)
{
    (void)state;
    for (long i = 0; i < POSITIONS / 4; i++) {
        df_board b;
        mixed_board(i, &b);
        for (int s = 0; s < 64; s++) {
            int want = DF_PIECE_TYPES;
            for (int t = DF_PIECE_TYPES - 1; t >= 0; t--)
                if (df_has(b.piece[t], (df_square)s)) want = t;
            assert_int_equal(want, df_board_type_at(&b, (df_square)s));
        }
        for (int t = 0; t < DF_PIECE_TYPES; t++) b.piece[t] |= dft_rand_bb();
        for (int s = 0; s < 64; s++)
            assert_true(df_board_type_at(&b, (df_square)s) <= DF_PIECE_TYPES);
    }
}

static void test_attacks_square_random(void **state)
{
    (void)state;
    for (long i = 0; i < DFT_ITERATIONS; i++) {
        const df_square from = (df_square)(dft_rand() & 63), to = (df_square)(dft_rand() & 63);
        const df_piece_type type = (df_piece_type)(dft_rand() % 6);
        const df_color color = (df_color)(dft_rand() & 1);
        df_bb occ = dft_rand_bb();
        bool want = (ref_piece_attacks(type, color, from, occ) >> to) & 1;
        DFT_ASSERT_BB(ref_piece_attacks(type, color, from, occ),
                      df_piece_attacks(from, occ, type, color), "piece %d on %d", type, from);
        if (want != df_piece_attacks_square(from, to, occ, type, color))
            fail_msg("type %d color %d from %d to %d occ 0x%llx: expected %d", type, color, from,
                     to, (unsigned long long)occ, want);
    }
}

static void test_attack_bytes_random(void **state)
{
    (void)state;
    for (long i = 0; i < POSITIONS / 10; i++) {
        df_board b;
        dft_rand_board(&b);
        df_attack_map m;
        df_attack_map_side(&m, &b, DF_WHITE);
        uint8_t bytes[64];
        df_attack_bytes(bytes, &m);
        for (int sq = 0; sq < 64; sq++) {
            int n = 0, kinds = 0;
            for (int s = 0; s < 64; s++) {
                int t = df_board_type_at(&b, (df_square)s);
                if (!((b.color[0] >> s) & 1)) continue;
                if (!((ref_piece_attacks(t, 0, s, df_board_occupied(&b)) >> sq) & 1)) continue;
                n++;
                static const int bits[6] = {DF_ATTACK_BYTE_PAWN,  DF_ATTACK_BYTE_MINOR,
                                            DF_ATTACK_BYTE_MINOR, DF_ATTACK_BYTE_ROOK,
                                            DF_ATTACK_BYTE_QUEEN, DF_ATTACK_BYTE_KING};
                kinds |= bits[t];
            }
            assert_int_equal((n > 7 ? 7 : n) | kinds, bytes[sq]);
        }
    }
}

static void test_single_slider_xrays_random(void **state)
{
    (void)state;
    for (long i = 0; i < DFT_ITERATIONS / 4; i++) {
        const df_square sq = (df_square)(dft_rand() & 63);
        df_bb occ = dft_rand_bb() | df_square_bb(sq), blockers = occ & dft_rand_bb();
        df_bb rook = 0, bishop = 0;
        for (int d = 0; d < 8; d++) {
            int s = ref_step(sq, d);
            while (s >= 0 && !((occ >> s) & 1)) s = ref_step(s, d);
            if (s < 0 || !((blockers >> s) & 1)) continue;
            if (d & 1)
                bishop |= ref_ray(s, occ, d);
            else
                rook |= ref_ray(s, occ, d);
        }
        DFT_ASSERT_BB(rook, df_xray_rook_attacks(sq, occ, blockers), "rook sq=%d", sq);
        DFT_ASSERT_BB(bishop, df_xray_bishop_attacks(sq, occ, blockers), "bishop sq=%d", sq);
    }
}

/* Parts and back: every played position (castling rights, en passant, Chess960) returns equal,
 * and every invariant a part can break is refused. df_board_is_valid agrees. */
static void test_parts(void **state)
{
    (void)state;
    for (long i = 0; i < DFT_ITERATIONS / 200; i++) {
        df_board b, back;
        dft_rand_game_position(&b);
        assert_true(df_board_is_valid(&b));
        df_board_parts parts;
        df_board_to_parts(&parts, &b);
        assert_int_equal(DF_OK, df_board_from_parts(&back, &parts));
        /* Equal but for the rook squares of rights no longer held, which mean nothing. */
        df_board_parts again;
        df_board_to_parts(&again, &back);
        assert_memory_equal(&parts, &again, sizeof parts);
        assert_int_equal(b.key, back.key);
        assert_int_equal(b.castling, back.castling);
    }
    const df_board start = dft_fen(DF_FEN_START);
    df_board_parts good, p;
    df_board_to_parts(&good, &start);
    df_board out = start;
    /* Each fault once; *out is left alone. */
    p = good;
    p.pieces[df_piece_index(DF_WHITE, DF_KNIGHT)] |= df_square_bb(DF_E1); /* on the king */
    assert_int_equal(DF_ERR_BOARD, df_board_from_parts(&out, &p));
    p = good;
    p.pieces[df_piece_index(DF_BLACK, DF_KING)] = 0;
    assert_int_equal(DF_ERR_BOARD, df_board_from_parts(&out, &p));
    p = good;
    p.pieces[df_piece_index(DF_BLACK, DF_PAWN)] |= df_square_bb(DF_A1) & ~start.color[DF_WHITE];
    p.pieces[df_piece_index(DF_WHITE, DF_PAWN)] |= df_square_bb(DF_D4) | df_square_bb(DF_H8);
    p.pieces[df_piece_index(DF_BLACK, DF_ROOK)] &= ~df_square_bb(DF_H8);
    p.castling_rooks &= ~df_square_bb(DF_H8);
    assert_int_equal(DF_ERR_BOARD, df_board_from_parts(&out, &p)); /* a pawn on h8 */
    p = good;
    p.pieces[df_piece_index(DF_WHITE, DF_ROOK)] &= ~df_square_bb(DF_H1); /* right without rook */
    assert_int_equal(DF_ERR_BOARD, df_board_from_parts(&out, &p));
    p = good;
    p.castling_rooks |= df_square_bb(DF_B1); /* a knight, not a rook */
    assert_int_equal(DF_ERR_BOARD, df_board_from_parts(&out, &p));
    p = good;
    p.pieces[df_piece_index(DF_WHITE, DF_KNIGHT)] &= ~df_square_bb(DF_B1);
    p.pieces[df_piece_index(DF_WHITE, DF_ROOK)] |= df_square_bb(DF_B1);
    p.castling_rooks = (p.castling_rooks & ~df_square_bb(DF_A1)) | df_square_bb(DF_B1);
    assert_int_equal(DF_ERR_BOARD, df_board_from_parts(&out, &p)); /* b1: Chess960 only */
    p.chess960 = true;
    assert_int_equal(DF_OK, df_board_from_parts(&out, &p));
    p = good;
    p.ep = DF_E3; /* no black pawn in front, and white is to move */
    assert_int_equal(DF_ERR_BOARD, df_board_from_parts(&out, &p));
    p = good;
    p.ep = 64;
    assert_int_equal(DF_ERR_ARGUMENT, df_board_from_parts(&out, &p));
    assert_int_equal(DF_ERR_ARGUMENT, df_board_from_parts(&out, NULL));
    /* A real en-passant square is kept only when a pawn can take: as the FEN parser keeps it. */
    const df_board e4 = dft_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_int_equal(DF_SQUARE_NONE, e4.ep);
    df_board_to_parts(&p, &e4);
    p.ep = DF_E3;
    assert_int_equal(DF_OK, df_board_from_parts(&out, &p));
    assert_int_equal(DF_SQUARE_NONE, out.ep);
    const df_board d5 = dft_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_int_equal(DF_E3, d5.ep);
    df_board_to_parts(&p, &d5);
    assert_int_equal(DF_OK, df_board_from_parts(&out, &p));
    assert_memory_equal(&d5, &out, sizeof out);
    /* Hand-broken boards are not valid. */
    df_board bad = start;
    bad.piece[DF_PAWN] |= df_square_bb(DF_E4);
    assert_false(df_board_is_valid(&bad));
    bad = start;
    bad.castle_rook[0] = DF_G1;
    assert_false(df_board_is_valid(&bad));
    bad = start;
    bad.ep = 100;
    assert_false(df_board_is_valid(&bad));
    bad = start;
    bad.stm = 2;
    assert_false(df_board_is_valid(&bad));
    assert_false(df_board_is_valid(NULL));
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_attack_maps_random),
        cmocka_unit_test(test_attack_maps_batch),
        cmocka_unit_test(test_crowded_square),
        cmocka_unit_test(test_king_safety_random),
        cmocka_unit_test(test_king_safety_hand_made),
        cmocka_unit_test(test_square_queries_random),
        cmocka_unit_test(test_type_at_random),
        cmocka_unit_test(test_attacks_square_random),
        cmocka_unit_test(test_attack_bytes_random),
        cmocka_unit_test(test_single_slider_xrays_random),
        cmocka_unit_test(test_parts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
