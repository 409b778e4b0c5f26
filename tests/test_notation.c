/* SPDX-License-Identifier: MIT */
/* UCI and SAN: every legal move of many positions (standard and Chess960) written and read
 * back, and hand-made cases of disambiguation, castling, promotion, check and mate. */
#include <stdio.h>
#include <string.h>

#include "dft.h"
#include "reference.h"

static const char *fen_of(const df_board *b)
{
    static char buf[DF_FEN_MAX];
    df_fen_format(buf, sizeof buf, b, DF_FEN_STANDARD);
    return buf;
}

static void test_round_trips(void **state)
{
    (void)state;
    long moves = 0;
    for (long i = 0; i < DFT_ITERATIONS / 500; i++) {
        df_board b;
        dft_rand_game_position(&b);
        df_move_list list;
        df_generate_legal(&list, &b);
        for (uint32_t k = 0; k < list.count; k++) {
            const df_move m = list.moves[k];
            char uci[DF_UCI_MAX], san[DF_SAN_MAX];
            df_move back;
            const size_t ul = df_move_to_uci(uci, &b, m), sl = df_move_to_san(san, &b, m);
            assert_int_equal(strlen(uci), ul);
            assert_int_equal(strlen(san), sl);
            if (df_move_from_uci(&back, &b, uci, ul) != DF_OK || back != m)
                fail_msg("%s: UCI %s does not read back", fen_of(&b), uci);
            if (df_move_from_san(&back, &b, san, sl) != DF_OK || back != m)
                fail_msg("%s: SAN %s does not read back", fen_of(&b), san);
            /* A SAN ends in + or # exactly when the move checks, in # exactly at mate. */
            df_board child;
            df_make_move(&child, &b, m);
            const bool check = df_checkers(&child) != 0, mate = check && !df_count_legal(&child);
            assert_int_equal(check, san[sl - 1] == '+' || san[sl - 1] == '#');
            assert_int_equal(mate, san[sl - 1] == '#');
            assert_int_equal(check, df_gives_check(&b, m) != DF_CHECK_NONE);
            moves++;
        }
    }
    print_message("%ld moves written and read back\n", moves);
}

typedef struct {
    const char *fen, *uci, *san;
} notation_case;

static void test_cases(void **state)
{
    (void)state;
    static const notation_case cases[] = {
        {DF_FEN_START, "g1f3", "Nf3"},
        {DF_FEN_START, "e2e4", "e4"},
        /* Disambiguation by file, by rank, by both. */
        {"4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "b1d2", "Nbd2"},
        {"4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", "R1a3"},
        {"k7/8/8/2Q1Q3/8/2Q5/8/4K3 w - - 0 1", "c5d4", "Qc5d4"},
        /* Pinned pieces do not disambiguate: the knight on e2 cannot move. */
        {"4k3/4r3/8/8/8/8/4N3/1N2K3 w - - 0 1", "b1c3", "Nc3"},
        /* Captures, en passant, promotions, castling, check and mate. */
        {"4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", "exd5"},
        {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", "exd6"},
        {"3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c7d8q", "cxd8=Q+"},
        {"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n", "b8=N"},
        {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O"},
        {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "O-O-O"},
        {"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "Ra8#"},
        {"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", "Ra8+"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const notation_case *c = &cases[i];
        df_board b = dft_fen(c->fen);
        df_move m, s;
        if (df_move_from_uci(&m, &b, c->uci, strlen(c->uci)) != DF_OK)
            fail_msg("%s: %s not legal", c->fen, c->uci);
        char san[DF_SAN_MAX];
        df_move_to_san(san, &b, m);
        assert_string_equal(c->san, san);
        assert_int_equal(DF_OK, df_move_from_san(&s, &b, c->san, strlen(c->san)));
        assert_int_equal(m, s);
    }
}

static void test_chess960(void **state)
{
    (void)state;
    /* King b1, rooks a1 and c1: queen-side castling is the king taking the a1 rook. */
    df_board b = dft_fen960("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1");
    df_move m;
    char uci[DF_UCI_MAX], san[DF_SAN_MAX];
    assert_int_equal(DF_OK, df_move_from_uci(&m, &b, "e1g1", 4));
    assert_int_equal(DF_MOVE_CASTLING, df_move_kind_of(m));
    df_move_to_uci(uci, &b, m);
    assert_string_equal("e1g1", uci);
    df_move_to_san(san, &b, m);
    assert_string_equal("O-O", san);
    /* In Chess960 king-to-destination is not castling: e1c1 is not a legal move here. */
    assert_int_equal(DF_ERR_MOVE, df_move_from_uci(&m, &b, "e1c1", 4));
    assert_int_equal(DF_OK, df_move_from_uci(&m, &b, "e1b1", 4));
    df_move_to_san(san, &b, m);
    assert_string_equal("O-O-O", san);
    /* A standard board reads castling both ways. */
    b = dft_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    df_move a, h;
    assert_int_equal(DF_OK, df_move_from_uci(&a, &b, "e1g1", 4));
    assert_int_equal(DF_OK, df_move_from_uci(&h, &b, "e1h1", 4));
    assert_int_equal(a, h);
}

static void test_lenient_and_strict(void **state)
{
    (void)state;
    df_board b = dft_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    df_move m;
    static const char *const ok[] = {"Nbd2", "Nbd2+", "Nb1d2", "Nbd2!?", "Nc3", "N1c3"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (df_move_from_san(&m, &b, ok[i], strlen(ok[i])) != DF_OK) fail_msg("refused %s", ok[i]);
    static const char *const bad[] = {"Nd2",   "Ke3x", "Qd2",  "N",      "",    "Nbd9",
                                      "Nbdd2", "xd2",  "e8=Q", "Nbd2=Q", "O-O", "\xff\x01"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (df_move_from_san(&m, &b, bad[i], strlen(bad[i])) == DF_OK)
            fail_msg("accepted '%s'", bad[i]);
    /* Why each is refused. */
    assert_string_equal("ambiguous", df_move_from_san_error(&b, "Nd2", 3));
    assert_string_equal("illegal", df_move_from_san_error(&b, "Qd2", 3));
    assert_string_equal("not SAN", df_move_from_san_error(&b, "Nbdd2", 5));
    assert_string_equal("not SAN", df_move_from_san_error(&b, "", 0));
    assert_null(df_move_from_san_error(&b, "Nbd2", 4));
    b = dft_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    assert_int_equal(DF_OK, df_move_from_san(&m, &b, "b8Q", 3));
    assert_int_equal(DF_QUEEN, df_move_promotion(m));
    assert_int_equal(DF_ERR_MOVE, df_move_from_san(&m, &b, "b8", 2)); /* which piece? */
    b = dft_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_int_equal(DF_OK, df_move_from_san(&m, &b, "0-0-0", 5));
    static const char *const bad_uci[] = {"e2", "e2e9", "e7e8k", "e1e1", "a1a1q", "zzzz", "e2e4qq"};
    b = dft_fen(DF_FEN_START);
    for (size_t i = 0; i < sizeof bad_uci / sizeof bad_uci[0]; i++)
        assert_int_equal(DF_ERR_MOVE, df_move_from_uci(&m, &b, bad_uci[i], strlen(bad_uci[i])));
    char uci[DF_UCI_MAX];
    df_move_to_uci(uci, &b, DF_MOVE_NONE);
    assert_string_equal("0000", uci);
}

/* The reference on the raw text, as df_move_from_san reads it: more than 16 bytes, marks
 * included, is no SAN (the reference strips the marks before it counts). */
static int reference_san(const df_board *b, const char *text, size_t len, df_move *out)
{
    return len > 16 ? -1 : ref_move_from_san(b, text, len, out);
}

/* Compares one SAN text's reading, and the reason given for refusing it, with the
 * reference's; returns the reference's count (-1: no SAN). */
static int check_san_text(const df_board *b, const char *text, size_t len)
{
    df_move got = DF_MOVE_NONE, want = DF_MOVE_NONE;
    const int wanted = reference_san(b, text, len, &want);
    const bool ok = df_move_from_san(&got, b, text, len) == DF_OK;
    const char *why = df_move_from_san_error(b, text, len);
    const char *want_why = wanted < 0 ? "not SAN" : wanted == 0 ? "illegal" : "ambiguous";
    if (ok != (wanted == 1) || (ok && got != want) || ok != (why == NULL) ||
        (!ok && strcmp(why, want_why)))
        fail_msg("%s: '%.*s' read as %s (0x%04x), the reference finds %d (0x%04x)", fen_of(b),
                 (int)len, text, why ? why : "ok", got, wanted, want);
    return wanted;
}

/* Compares one SAN text's reading with the reference's; returns whether it was legal. */
static bool same_as_reference(const df_board *b, const char *text)
{
    return check_san_text(b, text, strlen(text)) == 1;
}

/* Texts near the SAN of the legal move m (at most 64 of 24 bytes): its disambiguation
 * dropped, wrong, doubled, reversed or given in full; another piece letter, or "P"; the
 * capture mark dropped, added or written ':'; each promotion letter with and without '=',
 * and one where none belongs; check and annotation marks, up to and past the 16 bytes a SAN
 * may have; castling with zeros and misspelt; "e.p." after a pawn move; one byte garbled. */
static int san_variants(const df_board *b, df_move m, const char *san, char out[][24])
{
    const df_square from = df_move_from(m), to = df_move_to(m);
    const char f = (char)('a' + df_file_of(from)), r = (char)('1' + df_rank_of(from));
    const char tf = (char)('a' + df_file_of(to)), tr = (char)('1' + df_rank_of(to));
    const char wrong_f = (char)('a' + (df_file_of(from) + 1) % 8);
    const char wrong_r = (char)('1' + (df_rank_of(from) + 1) % 8);
    const df_piece_type type = df_board_type_at(b, from);
    const char letter = "PNBRQK"[type];
    const char *x = df_move_is_capture(b, m) ? "x" : "";
    int n = 0;
    snprintf(out[n++], 24, "%s", san);
    if (df_move_kind_of(m) == DF_MOVE_CASTLING) {
        static const char *const castles[] = {"O-O", "O-O-O", "0-0", "0-0-0",   "O-0",  "0-O-O",
                                              "OO",  "o-o",   "O-",  "O-O-O-O", "O-O-", "0"};
        for (size_t i = 0; i < sizeof castles / sizeof castles[0]; i++)
            snprintf(out[n++], 24, "%s", castles[i]);
    } else if (type != DF_PAWN) {
        snprintf(out[n++], 24, "%c%c%c", letter, tf, tr);
        snprintf(out[n++], 24, "%c%c%c%c", letter, f, tf, tr);
        snprintf(out[n++], 24, "%c%c%c%c", letter, r, tf, tr);
        snprintf(out[n++], 24, "%c%c%c%c%c", letter, f, r, tf, tr);
        snprintf(out[n++], 24, "%c%c%cx%c%c", letter, f, r, tf, tr);
        snprintf(out[n++], 24, "%c%c%c:%c%c", letter, f, r, tf, tr);
        snprintf(out[n++], 24, "%c%c%s%c%c", letter, wrong_f, x, tf, tr);
        snprintf(out[n++], 24, "%c%c%s%c%c", letter, wrong_r, x, tf, tr);
        snprintf(out[n++], 24, "%c%c%c%s%c%c", letter, f, wrong_r, x, tf, tr);
        snprintf(out[n++], 24, "%c%c%c%c%c", letter, r, f, tf, tr);
        snprintf(out[n++], 24, "%c%c%c%c%c", letter, f, f, tf, tr);
        snprintf(out[n++], 24, "%cx%c%c", letter, tf, tr);
        snprintf(out[n++], 24, "%c%c%c=Q", letter, tf, tr);
        for (const char *l = "PNBRQK"; *l; l++)
            if (*l != letter) snprintf(out[n++], 24, "%c%s%c%c", *l, x, tf, tr);
    } else {
        char capture[3] = {0};
        if (*x) capture[0] = f, capture[1] = 'x';
        snprintf(out[n++], 24, "%c%c", tf, tr);
        snprintf(out[n++], 24, "%c%c%c", f, tf, tr);
        snprintf(out[n++], 24, "%cx%c%c", f, tf, tr);
        snprintf(out[n++], 24, "%c:%c%c", f, tf, tr);
        snprintf(out[n++], 24, "%c%c%c%c", f, r, tf, tr);
        snprintf(out[n++], 24, "%cx%c%c", wrong_f, tf, tr);
        snprintf(out[n++], 24, "P%s%c%c", capture, tf, tr);
        snprintf(out[n++], 24, "x%c%c", tf, tr);
        snprintf(out[n++], 24, "%s e.p.", san);
        snprintf(out[n++], 24, "%se.p.", san);
        for (const char *p = "NBRQKP"; *p; p++) {
            snprintf(out[n++], 24, "%s%c%c=%c", capture, tf, tr, *p);
            snprintf(out[n++], 24, "%s%c%c%c", capture, tf, tr, *p);
        }
        snprintf(out[n++], 24, "%s%c%c=", capture, tf, tr);
    }
    static const char *const marks[] = {"+", "#", "!", "?", "!!", "?!", "+!?", "#?!"};
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        snprintf(out[n++], 24, "%s%s", san, marks[i]);
    /* Exactly 16 bytes, then 17: the marks count towards the limit. */
    const size_t len = strlen(san);
    for (size_t total = 16; total <= 17; total++, n++) {
        memcpy(out[n], san, len);
        for (size_t k = len; k < total; k++) out[n][k] = "+!?#"[k % 4];
        out[n][total] = 0;
    }
    snprintf(out[n], 24, "%s", san);
    out[n++][dft_rand() % len] = "abcdefgh12345678NBRQKPx:=-+#!?O0 ."[dft_rand() % 34];
    return n;
}

/* SAN read by piece geometry and the king's safety equals generate-and-match (the reference)
 * on every text a player might write (san_variants), in hand-made positions (pins along
 * ranks, files and diagonals, checks by every piece, en passant that would expose the king,
 * promotions, castling in standard chess and Chess960) and random ones reached by play from
 * the standard and Chess960 starts or set up at random. Each legal move's SAN reads back as
 * the move, and is minimal. */
static void test_san_against_reference(void **state)
{
    (void)state;
    static const char *const fens[] = {
        "4k3/8/8/4r3/8/8/4R3/4K3 w - - 0 1",
        "4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1",
        "4k3/8/8/8/8/2b5/3P4/4K3 w - - 0 1",
        "3qk3/8/8/8/8/8/3B1B2/3RKR2 w - - 0 1",
        "4k3/4q3/8/8/8/8/3NRN2/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/3PP3/r2NK3 w - - 0 1",
        "7k/8/8/8/8/5n2/4P3/4K3 w - - 0 1",
        "4k3/8/8/8/8/3p4/4P3/2N1K3 w - - 0 1",
        "4k3/8/8/8/4q3/8/3R1R2/R3K2R w KQ - 0 1",
        "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1",
        "8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1",
        "4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 1",
        "8/8/3k4/2pP4/8/8/8/B3K3 w - c6 0 1",
        "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
        "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",
        "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R b KQkq - 0 1",
        "1r2k1r1/1P5P/8/8/8/8/8/4K3 w - - 0 1",
        "k7/8/8/2Q1Q3/8/2Q5/8/4K3 w - - 0 1",
        "1k6/8/8/8/3N1N2/8/3N1N2/4K3 w - - 0 1",
        "r3k2r/8/8/8/8/8/5n2/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1",
    };
    static const char *const fens960[] = {
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
        "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1",
        "2r1k2r/8/8/8/8/8/8/2R1K2R w HChc - 0 1",
        "4k3/8/8/8/8/8/8/r3KR1R w F - 0 1",
        "rkr5/8/8/8/8/8/8/RKR5 w ACac - 0 1",
    };
    const long standard = (long)(sizeof fens / sizeof fens[0]);
    const long hand_made = standard + (long)(sizeof fens960 / sizeof fens960[0]);
    long texts = 0, ambiguous = 0, illegal = 0, refused = 0;
    for (long i = 0; i < hand_made + DFT_ITERATIONS / 2000; i++) {
        df_board b;
        if (i < standard) {
            b = dft_fen(fens[i]);
        } else if (i < hand_made) {
            b = dft_fen960(fens960[i - standard]);
        } else if ((i - hand_made) % 3) {
            dft_rand_game_position(&b);
        } else {
            dft_rand_board(&b);
            if (!df_board_playable(&b)) continue;
        }
        df_move_list list;
        df_generate_legal(&list, &b);
        for (uint32_t k = 0; k < list.count; k++) {
            const df_move m = list.moves[k];
            char san[DF_SAN_MAX], variants[64][24];
            df_move_to_san(san, &b, m);
            df_move back;
            if (df_move_from_san(&back, &b, san, strlen(san)) != DF_OK || back != m)
                fail_msg("%s: SAN %s does not read back", fen_of(&b), san);
            /* The SAN written is minimal: no disambiguation where the bare form is unique. */
            const df_piece_type type = df_board_type_at(&b, df_move_from(m));
            if (type != DF_PAWN && df_move_kind_of(m) != DF_MOVE_CASTLING) {
                const df_square to = df_move_to(m);
                const char tf = (char)('a' + df_file_of(to)), tr = (char)('1' + df_rank_of(to));
                char bare[8];
                df_move m1;
                snprintf(bare, sizeof bare, "%c%c%c", "PNBRQK"[type], tf, tr);
                const bool unique = ref_move_from_san(&b, bare, 3, &m1) == 1;
                const bool disambiguated = san[1] != 'x' && (san[1] != tf || san[2] != tr);
                if (unique == disambiguated)
                    fail_msg("%s: SAN %s (unique bare form: %d)", fen_of(&b), san, unique);
            }
            const int n = san_variants(&b, m, san, variants);
            for (int v = 0; v < n; v++, texts++) {
                const int wanted = check_san_text(&b, variants[v], strlen(variants[v]));
                ambiguous += wanted > 1;
                illegal += wanted == 0;
                refused += wanted < 0;
            }
        }
    }
    const df_board start = dft_fen(DF_FEN_START);
    assert_string_equal("not SAN", df_move_from_san_error(&start, NULL, 0));
    print_message("%ld texts, %ld ambiguous, %ld illegal, %ld no SAN\n", texts, ambiguous, illegal,
                  refused);
    assert_true(ambiguous > 0 && illegal > 0 && refused > 0);
}

/* Texts of pseudo-legal moves, most of them illegal where pieces are pinned or the king is in
 * check: every piece of the side to move named to every square it attacks, with and without
 * its file, and every pawn capture and push. The SAN reader decides these from the king's
 * checkers and pins (not by walking rays): each must agree with generate-and-match. */
static void test_san_pins_and_checks_against_reference(void **state)
{
    (void)state;
    long texts = 0, refused = 0;
    for (long i = 0; i < DFT_ITERATIONS / 5000; i++) {
        df_board b;
        if (!dft_rand_playable(&b, i)) continue;
        const df_color us = df_board_stm(&b);
        const df_bb occ = df_board_occupied(&b);
        for (df_bb own = b.color[us]; own;) {
            const df_square from = df_pop_lsb(&own);
            const df_piece_type type = df_board_type_at(&b, from);
            const char f = (char)('a' + df_file_of(from));
            df_bb reach;
            switch (type) {
            case DF_PAWN:
                reach = df_pawn_table[us][from] | df_square_bb((df_square)(from + (us ? -8 : 8)));
                break;
            case DF_KNIGHT:
                reach = df_knight_table[from];
                break;
            case DF_KING:
                reach = df_king_table[from];
                break;
            default:
                reach = df_square_queen_attacks(from, occ);
            }
            for (; reach;) {
                const df_square to = df_pop_lsb(&reach);
                const char tf = (char)('a' + df_file_of(to)), tr = (char)('1' + df_rank_of(to));
                char text[3][8];
                int n = 0;
                if (type == DF_PAWN) {
                    const char *promo = tr == '1' || tr == '8' ? "=Q" : "";
                    if (tf != f) snprintf(text[n++], 8, "%cx%c%c%s", f, tf, tr, promo);
                    snprintf(text[n++], 8, "%c%c%s", tf, tr, promo);
                } else {
                    snprintf(text[n++], 8, "%c%c%c", "PNBRQK"[type], tf, tr);
                    snprintf(text[n++], 8, "%c%c%c%c", "PNBRQK"[type], f, tf, tr);
                }
                for (int k = 0; k < n; k++, texts++) refused += !same_as_reference(&b, text[k]);
            }
        }
    }
    print_message("%ld texts, %ld refused\n", texts, refused);
    assert_true(refused > 0 && refused < texts);
}

/* Hand-made: a pinned piece moves along its pin (legal) or off it (illegal); in check, only
 * what answers the check. */
static void test_san_pins_and_checks(void **state)
{
    (void)state;
    static const struct {
        const char *fen, *san;
        bool legal;
    } cases[] = {
        {"4k3/8/8/4r3/8/8/4R3/4K3 w - - 0 1", "Re4", true},   /* along the pin */
        {"4k3/8/8/4r3/8/8/4R3/4K3 w - - 0 1", "Rxe5", true},  /* takes the pinner */
        {"4k3/8/8/4r3/8/8/4R3/4K3 w - - 0 1", "Rd2", false},  /* off the pin */
        {"4k3/8/8/8/8/2b5/3N4/4K3 w - - 0 1", "Nf3", false},  /* a pinned knight never moves */
        {"4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1", "d3", false},   /* a pinned pawn's push */
        {"4k3/8/8/8/8/2b5/3P4/4K3 w - - 0 1", "dxc3", true},  /* takes its pinner */
        {"4k3/8/8/8/8/8/3PP3/r3K3 w - - 0 1", "d3", false},   /* in check: does not answer */
        {"4k3/8/8/8/8/8/3PP3/r2NK3 w - - 0 1", "Nb2", false}, /* a blocker leaves its post */
        {"4k3/8/8/8/8/8/3N4/r3K3 w - - 0 1", "Nb1", true},    /* blocks the check */
        {"4k3/8/8/8/8/5n2/8/4K3 w - - 0 1", "Kd1", true},     /* a knight's check: the king */
        {"4k3/8/8/8/8/5n2/3R4/4K3 w - - 0 1", "Rd3", false},  /* ignores it */
        {"4k3/8/8/8/8/5n2/5R2/4K3 w - - 0 1", "Rxf3", true},  /* takes the checker */
        {"4k3/8/8/1q6/8/8/4R3/4K3 w - - 0 1", "Re4", true},   /* on the king's line, no pin */
        {"4k3/8/8/8/1q6/8/3R4/4K3 w - - 0 1", "Rd3", false},  /* pinned on a diagonal */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const df_board b = dft_fen(cases[i].fen);
        if (same_as_reference(&b, cases[i].san) != cases[i].legal)
            fail_msg("%s: %s should be %s", cases[i].fen, cases[i].san,
                     cases[i].legal ? "legal" : "illegal");
    }
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_chess960),
        cmocka_unit_test(test_lenient_and_strict),
        cmocka_unit_test(test_san_against_reference),
        cmocka_unit_test(test_san_pins_and_checks_against_reference),
        cmocka_unit_test(test_san_pins_and_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
