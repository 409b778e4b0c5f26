/* SPDX-License-Identifier: MIT */
/* The rules of a whole game: insufficient material against a square-by-square reference,
 * outcomes on hand-made positions for every rule and its edges, and repetitions in random
 * games against a reference that keeps every earlier position and compares them field by
 * field (pieces, side, castling rights, a legal en-passant capture), not by keys. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dft.h"
#include "reference.h"

/* Insufficient material, square by square: no pawn, rook or queen, and at most one minor
 * piece, or only bishops all on squares of one colour. */
static bool ref_insufficient(const df_board *b)
{
    int knights = 0, bishops = 0, light = 0, dark = 0;
    for (int sq = 0; sq < 64; sq++) {
        const df_piece_type t = df_board_type_at(b, (df_square)sq);
        if (t == DF_PAWN || t == DF_ROOK || t == DF_QUEEN) return false;
        if (t == DF_KNIGHT) knights++;
        if (t == DF_BISHOP) {
            bishops++;
            if ((sq / 8 + sq % 8) % 2)
                light++;
            else
                dark++;
        }
    }
    return knights + bishops <= 1 || (knights == 0 && (light == 0 || dark == 0));
}

static void test_insufficient_material(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        bool insufficient;
    } cases[] = {
        {"8/8/4k3/8/8/3K4/8/8 w - - 0 1", true},        /* K v K */
        {"8/8/4k3/8/8/3KN3/8/8 w - - 0 1", true},       /* K+N v K */
        {"8/8/4k3/8/8/3KB3/8/8 b - - 0 1", true},       /* K+B v K */
        {"8/8/2b1k3/8/8/3K1B2/8/8 w - - 0 1", true},    /* bishops on light squares: c6, f3 */
        {"8/8/3bk3/8/8/3KB3/8/8 w - - 0 1", true},      /* on dark squares: d6, e3 */
        {"8/8/2b1k3/8/8/3KB3/8/8 w - - 0 1", false},    /* c6 light, e3 dark */
        {"8/2b5/2b1k3/8/8/3K1B2/8/8 w - - 0 1", false}, /* c7 dark, c6 and f3 light */
        {"b7/1b6/2b1k3/8/8/3K1B2/8/8 w - - 0 1", true}, /* four bishops, all light */
        {"8/8/4k3/8/8/3KNN2/8/8 w - - 0 1", false},     /* K+N+N v K: a mate exists */
        {"8/8/4kn2/8/8/3KN3/8/8 w - - 0 1", false},     /* K+N v K+N */
        {"8/8/4kb2/8/8/3KN3/8/8 w - - 0 1", false},     /* K+B v K+N */
        {"8/8/4k3/8/8/3K4/4P3/8 w - - 0 1", false},     /* a pawn */
        {"8/8/4k3/8/8/3K4/8/7R w - - 0 1", false},      /* a rook */
        {"8/8/4k3/8/8/3K4/8/7q w - - 0 1", false},      /* a queen */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const df_board b = dft_fen(cases[i].fen);
        if (df_insufficient_material(&b) != cases[i].insufficient)
            fail_msg("%s: insufficient material should be %d", cases[i].fen, cases[i].insufficient);
        assert_int_equal(cases[i].insufficient, ref_insufficient(&b));
    }
    /* Random sparse boards of minor pieces against the reference. */
    long insufficient = 0;
    for (long i = 0; i < DFT_ITERATIONS / 100; i++) {
        df_board b;
        dft_rand_board(&b);
        b.color[DF_WHITE] &= ~(b.piece[DF_PAWN] | b.piece[DF_ROOK] | b.piece[DF_QUEEN]) |
                             (dft_rand() % 4 ? 0 : DF_FULL);
        b.color[DF_BLACK] &= b.color[DF_WHITE] |
                             ~(b.piece[DF_PAWN] | b.piece[DF_ROOK] | b.piece[DF_QUEEN]) |
                             (dft_rand() % 4 ? 0 : DF_FULL);
        for (int t = 0; t < DF_PIECE_TYPES; t++) b.piece[t] &= df_board_occupied(&b);
        if (dft_rand() % 2) /* thin it out so that few pieces remain */
            for (int t = DF_KNIGHT; t <= DF_BISHOP; t++) {
                const df_bb keep = dft_rand() & dft_rand();
                b.color[DF_WHITE] &= keep | ~b.piece[t];
                b.color[DF_BLACK] &= keep | ~b.piece[t];
                b.piece[t] &= keep;
            }
        assert_int_equal(ref_insufficient(&b), df_insufficient_material(&b));
        insufficient += ref_insufficient(&b);
    }
    print_message("%ld random boards with insufficient material\n", insufficient);
    assert_true(insufficient > 0);
}

/* Plays moves given in UCI, pushing each position onto h first. */
static void play(df_board *b, df_history *h, const char *moves)
{
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", moves);
    for (char *save, *m = strtok_r(copy, " ", &save); m; m = strtok_r(NULL, " ", &save)) {
        df_move move;
        if (df_move_from_uci(&move, b, m, strlen(m)) != DF_OK) fail_msg("illegal %s", m);
        df_history_push(h, b);
        df_make_move(b, b, move);
    }
}

static void expect(const df_board *b, const df_history *h, bool claim, df_termination t,
                   df_result r)
{
    const df_outcome o = df_outcome_of(b, h, claim);
    if (o.termination != t || o.result != r) {
        char fen[DF_FEN_MAX];
        df_fen_format(fen, sizeof fen, b, DF_FEN_STANDARD);
        fail_msg("%s: outcome %s %s, expected %s %s", fen, df_termination_name(o.termination),
                 df_result_string(o.result), df_termination_name(t), df_result_string(r));
    }
}

static void test_outcomes(void **state)
{
    (void)state;
    df_board b = dft_fen(DF_FEN_START);
    expect(&b, NULL, true, DF_TERM_NONE, DF_RESULT_NONE);
    /* Fool's mate; a stalemate; mate and stalemate by the other side. */
    df_history h;
    df_history_init(&h);
    play(&b, &h, "f2f3 e7e5 g2g4 d8h4");
    expect(&b, &h, false, DF_TERM_CHECKMATE, DF_RESULT_BLACK_WINS);
    b = dft_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    expect(&b, NULL, true, DF_TERM_STALEMATE, DF_RESULT_DRAW);
    b = dft_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    expect(&b, NULL, true, DF_TERM_CHECKMATE, DF_RESULT_WHITE_WINS);
    /* K+B v K stalemated: insufficient material is named first, as python-chess does. */
    b = dft_fen("k7/2K5/1B6/8/8/8/8/8 b - - 0 1");
    assert_int_equal(0, df_count_legal(&b));
    expect(&b, NULL, false, DF_TERM_INSUFFICIENT_MATERIAL, DF_RESULT_DRAW);

    /* The fifty-move rule: claimable at 100 plies, not before; automatic at 150. */
    b = dft_fen("8/8/4k3/8/8/3K4/8/7R w - - 98 80");
    expect(&b, NULL, true, DF_TERM_NONE, DF_RESULT_NONE);
    assert_false(df_can_claim_fifty_moves(&b));
    b.halfmove = 99; /* a quiet move reaches 100: claimable now, by writing it down */
    assert_true(df_can_claim_fifty_moves(&b));
    expect(&b, NULL, true, DF_TERM_FIFTY_MOVES, DF_RESULT_DRAW);
    expect(&b, NULL, false, DF_TERM_NONE, DF_RESULT_NONE);
    b.halfmove = 100;
    expect(&b, NULL, true, DF_TERM_FIFTY_MOVES, DF_RESULT_DRAW);
    b.halfmove = 149;
    expect(&b, NULL, false, DF_TERM_NONE, DF_RESULT_NONE);
    b.halfmove = 150;
    expect(&b, NULL, false, DF_TERM_SEVENTYFIVE_MOVES, DF_RESULT_DRAW);
    /* At 99 with only zeroing moves (captures, pawn moves) there is nothing to claim. */
    b = dft_fen("8/8/8/8/8/k7/2q4P/K7 w - - 99 80");
    assert_int_equal(2, df_count_legal(&b)); /* h2h3 and h2h4 */
    assert_false(df_can_claim_fifty_moves(&b));
    /* Mate on the hundredth and on the hundred-and-fiftieth ply wins. */
    static const char *const mates[] = {"6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 70",
                                        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 90"};
    for (int i = 0; i < 2; i++) {
        b = dft_fen(mates[i]);
        df_history_init(&h);
        play(&b, &h, "a1a8");
        assert_true(b.halfmove == 100 || b.halfmove == 150);
        expect(&b, &h, true, DF_TERM_CHECKMATE, DF_RESULT_WHITE_WINS);
    }
}

static void test_repetitions(void **state)
{
    (void)state;
    /* Knights out and back: the start position a second, third, fifth time. */
    df_board b = dft_fen(DF_FEN_START);
    df_history h;
    df_history_init(&h);
    assert_int_equal(1, df_repetitions(&h, &b));
    play(&b, &h, "g1f3 g8f6 f3g1 f6g8");
    assert_int_equal(2, df_repetitions(&h, &b));
    assert_true(df_is_repetition(&h, &b));
    expect(&b, &h, true, DF_TERM_NONE, DF_RESULT_NONE);
    /* One more knight move out: the move back would make the third time, so it may be claimed
     * after writing down g1f3 ... and f3g1 is the move: claimable before playing f6g8. */
    play(&b, &h, "g1f3 g8f6 f3g1");
    assert_true(df_can_claim_threefold_repetition(&h, &b));
    expect(&b, &h, true, DF_TERM_THREEFOLD_REPETITION, DF_RESULT_DRAW);
    play(&b, &h, "f6g8");
    assert_int_equal(3, df_repetitions(&h, &b));
    expect(&b, &h, false, DF_TERM_NONE, DF_RESULT_NONE);
    play(&b, &h, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    assert_int_equal(5, df_repetitions(&h, &b));
    expect(&b, &h, false, DF_TERM_FIVEFOLD_REPETITION, DF_RESULT_DRAW);
    /* Taking moves back takes the count back. */
    for (int i = 0; i < 4; i++) df_history_pop(&h);
    b = dft_fen(DF_FEN_START);
    b.halfmove = 12; /* the twelfth ply without a capture or pawn move */
    assert_int_equal(4, df_repetitions(&h, &b));

    /* Castling rights lost make a different position: the rooks go out and back. */
    b = dft_fen(DF_FEN_START);
    df_history_init(&h);
    play(&b, &h, "g1f3 g8f6 h1g1 h8g8 g1h1 g8h8 f3g1 f6g8");
    assert_int_equal(1, df_repetitions(&h, &b)); /* KQkq != Qq */
    play(&b, &h, "g1f3 g8f6 f3g1 f6g8");
    assert_int_equal(2, df_repetitions(&h, &b));

    /* En passant: after 1. e4 ... d5 2. e5 f5 the capture e5f6 is possible; after the knights
     * go out and back the same placement has no en-passant capture: a different position. */
    b = dft_fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2");
    df_history_init(&h);
    play(&b, &h, "e4e5 f7f5");
    assert_true(b.ep < 64);
    const uint64_t with_ep = b.key;
    play(&b, &h, "g1f3 g8f6 f3g1 f6g8");
    assert_true(b.key != with_ep);
    assert_int_equal(1, df_repetitions(&h, &b));
    /* When the en-passant capture is only pseudo-legal (the capturing pawn is pinned) the
     * position equals the same placement without the double push: the bishop on d7 pins f5
     * to the king on h3, so after ...g7g5 f5xg6 is impossible. */
    b = dft_fen("4k3/3b2p1/8/5P2/8/7K/8/8 b - - 0 1");
    df_history_init(&h);
    play(&b, &h, "g7g5");
    assert_true(b.ep < 64); /* the key's rule keeps the square */
    play(&b, &h, "h3h2 e8e7 h2h3 e7e8");
    assert_int_equal(2, df_repetitions(&h, &b));
}

/* The ring of 256: a long game pushed and popped sees exactly what a full list would. */
static void test_history_ring(void **state)
{
    (void)state;
    df_history h;
    df_history_init(&h);
    df_board boards[700];
    boards[0] = dft_fen("8/8/4k3/8/8/3K4/8/7R w - - 0 1");
    /* Shuffle the rook along the first rank and back: many repetitions, no capture. */
    static const char *const cycle[] = {"h1g1", "e6e7", "g1h1", "e7e6"};
    for (int i = 0; i < 600; i++) {
        df_move m;
        assert_int_equal(DF_OK, df_move_from_uci(&m, &boards[i], cycle[i % 4], 4));
        df_history_push(&h, &boards[i]);
        df_make_move(&boards[i + 1], &boards[i], m);
        boards[i + 1].halfmove = 0; /* keep the clock low: the ring, not the clock, limits */
    }
    for (int i = 600; i > 0; i--) {
        /* Positions i-2, i-4, ... up to the clock (0 here): none seen. With the clock the
         * whole way, the ring shows at most 255 earlier positions. */
        boards[i].halfmove = 1000;
        const int reps = df_repetitions(&h, &boards[i]);
        const int visible = (int)(h.count - h.floor) < i ? (int)(h.count - h.floor) : i;
        assert_int_equal(1 + visible / 4, reps);
        boards[i].halfmove = 0;
        df_history_pop(&h);
    }
}

/* Random games, most of them in endings where repetitions come often, against the
 * reference: every position's repetition count and outcome. */
typedef struct {
    df_bb color[2], piece[6];
    uint8_t stm, castling;
    int ep; /* a legal en-passant capture's square, or -1 */
} ref_position;

static ref_position ref_position_of(const df_board *b)
{
    ref_position p;
    memset(&p, 0, sizeof p);
    memcpy(p.color, b->color, sizeof p.color);
    memcpy(p.piece, b->piece, sizeof p.piece);
    p.stm = b->stm;
    p.castling = b->castling;
    p.ep = -1;
    df_move moves[DF_MAX_MOVES];
    const int n = ref_legal_moves(b, moves);
    for (int i = 0; i < n; i++)
        if (df_move_kind_of(moves[i]) == DF_MOVE_EN_PASSANT) p.ep = b->ep;
    return p;
}

static void test_random_games(void **state)
{
    (void)state;
    static const char *const starts[] = {
        DF_FEN_START, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1",
        "4k3/4p3/8/3P4/8/8/8/4K3 b - - 0 1", "8/8/3k4/8/8/2NK4/8/8 w - - 0 1"};
    static ref_position seen[600];
    static df_move played[600];
    long repeated = 0, outcomes[8] = {0};
    for (long game = 0; game < DFT_ITERATIONS / 2000 + 20; game++) {
        df_board b = dft_fen(starts[game % 5]);
        df_history h;
        df_history_init(&h);
        int plies = 0, since_zeroing = 0;
        for (; plies < 500; plies++) {
            seen[plies] = ref_position_of(&b);
            int reps = 1;
            for (int k = plies - 2; k >= plies - since_zeroing && k >= 0; k -= 2)
                reps += !memcmp(&seen[k], &seen[plies], sizeof seen[0]);
            assert_int_equal(reps, df_repetitions(&h, &b));
            repeated += reps > 1;
            const df_outcome o = df_outcome_of(&b, &h, false);
            outcomes[o.termination]++;
            if (o.termination != DF_TERM_NONE) break;
            df_move_list list;
            df_generate_legal(&list, &b);
            /* Half the time the move that takes back our previous one, when there is one:
             * positions then come again and again. */
            df_move m = list.moves[dft_rand() % list.count];
            if (plies >= 2 && dft_rand() % 2)
                for (uint32_t k = 0; k < list.count; k++)
                    if (df_move_from(list.moves[k]) == df_move_to(played[plies - 2]) &&
                        df_move_to(list.moves[k]) == df_move_from(played[plies - 2]))
                        m = list.moves[k];
            played[plies] = m;
            df_history_push(&h, &b);
            df_board child;
            df_make_move(&child, &b, m);
            since_zeroing = child.halfmove == 0 ? 0 : since_zeroing + 1;
            b = child;
        }
    }
    print_message("%ld positions repeated; outcomes: none %ld, mate %ld, stalemate %ld, "
                  "material %ld, 75 moves %ld, fivefold %ld\n",
                  repeated, outcomes[0], outcomes[1], outcomes[2], outcomes[3], outcomes[4],
                  outcomes[5]);
    assert_true(repeated > 0 &&
                outcomes[DF_TERM_FIVEFOLD_REPETITION] + outcomes[DF_TERM_SEVENTYFIVE_MOVES] > 0);
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal("checkmate", df_termination_name(DF_TERM_CHECKMATE));
    assert_string_equal("threefold_repetition", df_termination_name(DF_TERM_THREEFOLD_REPETITION));
    assert_string_equal("none", df_termination_name((df_termination)99));
    assert_string_equal("1/2-1/2", df_result_string(DF_RESULT_DRAW));
    assert_string_equal("*", df_result_string(DF_RESULT_NONE));
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_insufficient_material), cmocka_unit_test(test_outcomes),
        cmocka_unit_test(test_repetitions),           cmocka_unit_test(test_history_ring),
        cmocka_unit_test(test_random_games),          cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
