/* SPDX-License-Identifier: MIT */
/* Feature planes against the reference attack maps and king safety, square by square; the
 * batch and threaded calls against the single one; FEN and bitboard inputs with bad entries;
 * the channel names. Once per backend. */
#include <stdlib.h>
#include <string.h>

#include "dft.h"
#include "reference.h"

/* The planes of one board written the obvious way from the reference. */
static void ref_planes(uint8_t *o, const df_board *b)
{
    memset(o, 0, DF_PLANE_BYTES);
    static const int order[8] = {DF_N, DF_NE, DF_E, DF_SE, DF_S, DF_SW, DF_W, DF_NW};
    df_attack_map m[2];
    ref_attack_map(&m[0], b, DF_WHITE);
    ref_attack_map(&m[1], b, DF_BLACK);
    df_king_safety_sets ks;
    ref_king_safety(&ks, b);
    for (int sq = 0; sq < 64; sq++) {
        const df_bb bit = UINT64_C(1) << sq;
        for (int c = 0; c < 2; c++) {
            for (int t = 0; t < 6; t++)
                o[64 * (6 * c + t) + sq] = (b->color[c] & b->piece[t] & bit) != 0;
            uint8_t *s = o + 64 * (c ? DF_PLANE_BLACK : DF_PLANE_WHITE);
            const df_bb sets[7] = {m[c].pawn_east,          m[c].pawn_west,
                                   m[c].by_type[DF_KNIGHT], m[c].by_type[DF_BISHOP],
                                   m[c].by_type[DF_ROOK],   m[c].by_type[DF_QUEEN],
                                   m[c].by_type[DF_KING]};
            for (int k = 0; k < 7; k++) s[64 * k + sq] = (sets[k] & bit) != 0;
            for (int d = 0; d < 8; d++) {
                s[64 * (7 + d) + sq] = (m[c].rays.r[order[d]] & bit) != 0;
                s[64 * (15 + d) + sq] = (m[c].xrays.r[order[d]] & bit) != 0;
            }
            s[64 * 23 + sq] = (m[c].all & bit) != 0;
            s[64 * 24 + sq] = (m[c].twice & bit) != 0;
            s[64 * 25 + sq] = (uint8_t)df_attack_count(&m[c], (df_square)sq);
        }
        o[64 * 12 + sq] = b->stm == DF_WHITE;
        for (int r = 0; r < 4; r++)
            o[64 * (13 + r) + sq] = ((b->castling >> r) & 1) && b->castle_rook[r] == sq;
        o[64 * 17 + sq] = b->ep == sq;
        const df_bb safety[5] = {ks.checkers, ks.pinned, ks.pinners, ks.check_block,
                                 ks.discoverers};
        for (int k = 0; k < 5; k++) o[64 * (70 + k) + sq] = (safety[k] & bit) != 0;
    }
}

static void assert_planes(const uint8_t *want, const uint8_t *got, const df_board *b)
{
    for (int p = 0; p < DF_PLANES * 64; p++)
        if (want[p] != got[p]) {
            char fen[DF_FEN_MAX];
            df_fen_format(fen, sizeof fen, b, DF_FEN_STANDARD);
            fail_msg("%s: plane %s, square %d: %d, expected %d", fen, df_plane_name(p / 64), p % 64,
                     got[p], want[p]);
        }
}

static void test_against_reference(void **state)
{
    (void)state;
    enum { N = 32 };
    static df_board boards[N];
    static uint8_t got[N * DF_PLANE_BYTES], want[DF_PLANE_BYTES];
    for (long round = 0; round < DFT_ITERATIONS / 5000; round++) {
        for (int i = 0; i < N; i++) {
            if (i & 1)
                dft_rand_board(&boards[i]);
            else
                dft_rand_game_position(&boards[i]);
        }
        df_attack_planes_batch(got, boards, N);
        for (int i = 0; i < N; i++) {
            ref_planes(want, &boards[i]);
            assert_planes(want, got + (size_t)i * DF_PLANE_BYTES, &boards[i]);
        }
    }
}

static void test_threads_and_inputs(void **state)
{
    (void)state;
    enum { N = 301 };
    static df_board boards[N];
    static uint64_t pieces[N * 12], castling[N];
    static int8_t ep[N];
    static uint8_t stm[N];
    static const char *fens[N];
    static size_t lens[N];
    static char text[N][DF_FEN_MAX];
    for (int i = 0; i < N; i++) {
        /* Played positions: castling rights and en passant travel through every input form
         * (the rows as df_board_to_parts gives them). */
        dft_rand_game_position(&boards[i]);
        boards[i].halfmove = 0;
        boards[i].fullmove = 1;
        df_fen_format(text[i], sizeof text[i], &boards[i], DF_FEN_STANDARD);
        fens[i] = text[i];
        lens[i] = strlen(text[i]);
        df_board_parts parts;
        df_board_to_parts(&parts, &boards[i]);
        memcpy(&pieces[12 * i], parts.pieces, sizeof parts.pieces);
        castling[i] = parts.castling_rooks;
        ep[i] = (int8_t)parts.ep;
        stm[i] = (uint8_t)parts.stm;
    }
    /* Bad entries: a bad FEN, overlapping pieces, no black king. */
    fens[7] = "not a fen";
    lens[7] = strlen(fens[7]);
    pieces[12 * 9] |= pieces[12 * 9 + 5];
    pieces[12 * 11 + 11] = 0;
    void *base;
    uint8_t *one = malloc((size_t)N * DF_PLANE_BYTES);
    uint8_t *many = dft_alloc_at((size_t)N * DF_PLANE_BYTES, 8, &base);
    bool ok[N];
    df_attack_planes_batch(one, boards, N);
    /* One thread runs the batch in the caller; more start threads, which the aarch64 preset's
     * qemu-user cannot (DFT_NO_THREADS, as in test_dispatch). */
    const unsigned counts[4] = {1, 2, 3, 0};
    const int tried = getenv("DFT_NO_THREADS") ? 1 : 4;
    if (tried < 4) print_message("threads 2, 3 and all skipped: DFT_NO_THREADS is set\n");
    for (int k = 0; k < tried; k++) {
        memset(many, 0xaa, (size_t)N * DF_PLANE_BYTES);
        assert_int_equal(DF_OK, df_attack_planes_batch_mt(many, boards, N, counts[k]));
        assert_memory_equal(one, many, (size_t)N * DF_PLANE_BYTES);
        memset(many, 0xaa, (size_t)N * DF_PLANE_BYTES);
        assert_int_equal(N - 1, df_attack_planes_from_fens_mt(many, ok, fens, lens, N,
                                                              DF_FEN_CHESS960, counts[k]));
        for (int i = 0; i < N; i++) {
            const uint8_t *p = many + (size_t)i * DF_PLANE_BYTES;
            assert_int_equal(i != 7, ok[i]);
            if (i == 7) {
                for (int b = 0; b < DF_PLANE_BYTES; b++) assert_int_equal(0, p[b]);
            } else {
                assert_memory_equal(one + (size_t)i * DF_PLANE_BYTES, p, DF_PLANE_BYTES);
            }
        }
        memset(many, 0xaa, (size_t)N * DF_PLANE_BYTES);
        /* Chess960 starts are among the positions: rows and FENs are read as Chess960 (which
         * takes standard castling too). */
        const df_position_rows rows = {pieces, stm, castling, ep, true};
        assert_int_equal(N - 2, df_attack_planes_from_rows_mt(many, ok, &rows, N, counts[k]));
        for (int i = 0; i < N; i++) {
            assert_int_equal(i != 9 && i != 11, ok[i]);
            if (ok[i])
                assert_memory_equal(one + (size_t)i * DF_PLANE_BYTES,
                                    many + (size_t)i * DF_PLANE_BYTES, DF_PLANE_BYTES);
        }
    }
    assert_int_equal(0, df_attack_planes_from_fens_mt(many, ok, fens, lens, 0, DF_FEN_STANDARD, 2));
    assert_true(df_hardware_threads() >= 1);
    free(one);
    free(base);
}

static void test_names(void **state)
{
    (void)state;
    for (int i = 0; i < DF_PLANES; i++) {
        assert_non_null(df_plane_name(i));
        for (int j = 0; j < i; j++) assert_string_not_equal(df_plane_name(i), df_plane_name(j));
    }
    assert_null(df_plane_name(DF_PLANES));
    assert_null(df_plane_name(-1));
    assert_string_equal("white.count", df_plane_name(DF_PLANE_WHITE + DF_SIDE_COUNT));
    assert_string_equal("black.count", df_plane_name(DF_PLANE_BLACK + DF_SIDE_COUNT));
    assert_string_equal("pinned", df_plane_name(DF_PLANE_KING_SAFETY + 1));
    assert_string_equal("checkers", df_plane_name(DF_PLANE_KING_SAFETY));
    assert_string_equal("white.rays.SE", df_plane_name(DF_PLANE_WHITE + DF_SIDE_RAYS + 3));
    assert_string_equal("piece.k", df_plane_name(11));
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_reference),
        cmocka_unit_test(test_threads_and_inputs),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
