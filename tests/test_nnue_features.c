/* SPDX-License-Identifier: MIT */
/* NNUE input sets (nnue.h) against a slow reference written from their definitions: attacks
 * by walking rays square by square, every pair of pieces tried, each index by its formula,
 * in nnue-pytorch's order (its extractors' loops, SPEC c.1 to c.3).
 * Random and played positions, both kings on every square, hand-made cases for each rule,
 * compositions, rows that would overflow, threads, names. Once per backend. */
#include <stdlib.h>
#include <string.h>

#include "dft.h"

/* ---- The reference ---- */

enum { REF_MAX = 2048 };

static int file_of(int sq) { return sq & 7; }
static int rank_of(int sq) { return sq >> 3; }

/* The squares a piece of colour c and type t on sq attacks through occ, by walking. */
static df_bb walk_attacks(int sq, df_bb occ, int t, int c)
{
    static const int king_steps[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                         {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int knight_steps[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                           {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    df_bb out = 0;
    if (t == DF_PAWN) {
        const int r = rank_of(sq) + (c ? -1 : 1);
        for (int df = -1; df <= 1; df += 2)
            if (r >= 0 && r < 8 && file_of(sq) + df >= 0 && file_of(sq) + df < 8)
                out |= UINT64_C(1) << (8 * r + file_of(sq) + df);
        return out;
    }
    for (int d = 0; d < 8; d++) {
        const int(*step)[2] = t == DF_KNIGHT ? knight_steps : king_steps;
        const bool slides =
            t == DF_QUEEN || (t == DF_ROOK && d % 2 == 0) || (t == DF_BISHOP && d % 2 == 1);
        if (t != DF_KNIGHT && t != DF_KING && !slides) continue;
        int f = file_of(sq), r = rank_of(sq);
        for (;;) {
            f += step[d][0];
            r += step[d][1];
            if (f < 0 || f > 7 || r < 0 || r > 7) break;
            out |= UINT64_C(1) << (8 * r + f);
            if (!slides || ((occ >> (8 * r + f)) & 1)) break;
        }
    }
    return out;
}

/* The piece on sq: its colour and type, or type -1. */
static int piece_at(const df_board *b, int sq, int *color)
{
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < 6; t++)
            if ((b->color[c] & b->piece[t]) >> sq & 1) {
                *color = c;
                return t;
            }
    return -1;
}

/* HalfKAv2_hm as SPEC c.1 defines it. */
static size_t ref_halfka(int32_t *out, const df_board *b, int persp)
{
    const int ksq = df_lsb(b->color[persp] & b->piece[DF_KING]);
    const int flip = (persp ? 56 : 0) ^ (file_of(ksq) < 4 ? 7 : 0);
    const int ko = ksq ^ flip, bucket = (7 - rank_of(ko)) * 4 + (7 - file_of(ko));
    size_t n = 0;
    for (int sq = 0; sq < 64; sq++) {
        int c, t = piece_at(b, sq, &c);
        if (t >= 0) out[n++] = (sq ^ flip) + 64 * (t * 2 + (c != persp)) + 768 * bucket;
    }
    return n;
}

/* Full_Threats' constants as SPEC c.2 defines them, computed by counting. */
static const int slot_map[6][6] = {
    {-1, 0, -1, 1, -1, -1}, {0, 1, 2, 3, 4, -1}, {0, 1, 2, 3, -1, -1},
    {0, 1, 2, 3, -1, -1},   {0, 1, 2, 3, 4, -1}, {-1, -1, -1, -1, -1, -1},
};
static const int num_valid[6] = {4, 10, 8, 8, 10, 0};
static int sq_off[2][5][64], total[2][5], base[2][5];

static void ref_tables(void)
{
    int running = 0;
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < 5; t++) {
            int sum = 0;
            for (int s = 0; s < 64; s++) {
                sq_off[c][t][s] = sum;
                if (t != DF_PAWN || (s >= 8 && s < 56))
                    sum += df_popcount(walk_attacks(s, 0, t, c));
            }
            total[c][t] = sum;
            base[c][t] = running;
            running += num_valid[t] * sum;
        }
    /* SPEC's figures: the sums, the base offsets and the inputs. */
    static const int want_total[5] = {84, 336, 560, 896, 1456};
    static const int want_base[2][5] = {{0, 336, 3696, 8176, 15344},
                                        {29904, 30240, 33600, 38080, 45248}};
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < 5; t++) {
            assert_int_equal(want_total[t], total[c][t]);
            assert_int_equal(want_base[c][t], base[c][t]);
        }
    assert_int_equal(59808, running);
}

/* The threat of the piece on from (colour ca, type ta) against the one on to, if a feature:
 * appended to out. */
static void ref_threat(int32_t *out, size_t *n, const df_board *b, int persp, int from, int to,
                       int ca, int ta)
{
    const int ksq = df_lsb(b->color[persp] & b->piece[DF_KING]);
    const int x = (persp ? 56 : 0) | (file_of(ksq) >= 4 ? 7 : 0);
    int cd, td = piece_at(b, to, &cd);
    if (td < 0 || td == DF_KING) return;
    const int f = from ^ x, t = to ^ x, ac = ca ^ persp, dc = cd ^ persp;
    const int slot = slot_map[ta][td];
    if (slot < 0 || (ta == td && f < t)) return;
    const df_bb empty = walk_attacks(f, 0, ta, ac);
    out[(*n)++] = base[ac][ta] + (dc * num_valid[ta] / 2 + slot) * total[ac][ta] +
                  sq_off[ac][ta][f] + df_popcount(empty & ((UINT64_C(1) << t) - 1));
}

/* Full_Threats in SPEC c.2's order: the perspective's colour first; its pawns' captures by
 * target, toward the h-file (+9) for white and the a-file (-9) for black first, then the other
 * diagonal; then knights, bishops, rooks and queens, each by square, their targets by square. */
static size_t ref_threats(int32_t *out, const df_board *b, int persp)
{
    const df_bb occ = df_board_occupied(b);
    size_t n = 0;
    for (int k = 0; k < 2; k++) {
        const int c = persp ^ k;
        const int deltas[2] = {c ? -9 : 9, c ? -7 : 7};
        for (int d = 0; d < 2; d++)
            for (int to = 0; to < 64; to++) {
                const int from = to - deltas[d];
                int cf;
                if (from < 0 || from > 63 || abs(file_of(from) - file_of(to)) != 1 ||
                    piece_at(b, from, &cf) != DF_PAWN || cf != c)
                    continue;
                ref_threat(out, &n, b, persp, from, to, c, DF_PAWN);
            }
        for (int ta = DF_KNIGHT; ta <= DF_QUEEN; ta++)
            for (int from = 0; from < 64; from++) {
                int ca;
                if (piece_at(b, from, &ca) != ta || ca != c) continue;
                const df_bb att = walk_attacks(from, occ, ta, ca);
                for (int to = 0; to < 64; to++)
                    if ((att >> to) & 1) ref_threat(out, &n, b, persp, from, to, ca, ta);
            }
    }
    return n;
}

/* PP_3Wide in SPEC c.3's order: the perspective's colour first, each pawn by square with
 * every pawn on its file or a neighbouring one below it, by square. */
static size_t ref_pairs(int32_t *out, const df_board *b, int persp)
{
    const int ksq = df_lsb(b->color[persp] & b->piece[DF_KING]);
    const int x = (persp ? 56 : 0) | (file_of(ksq) >= 4 ? 7 : 0);
    size_t n = 0;
    for (int k = 0; k < 2; k++)
        for (int a = 0; a < 64; a++) {
            int ca, cb;
            if (piece_at(b, a, &ca) != DF_PAWN || ca != (persp ^ k)) continue;
            for (int bq = 0; bq < a; bq++) {
                if (piece_at(b, bq, &cb) != DF_PAWN) continue;
                if (abs(file_of(a) - file_of(bq)) > 1) continue;
                const int ia = 48 * (ca ^ persp) + (a ^ x) - 8,
                          ib = 48 * (cb ^ persp) + (bq ^ x) - 8;
                const int hi = ia > ib ? ia : ib, lo = ia > ib ? ib : ia;
                out[n++] = hi * (hi - 1) / 2 + lo;
            }
        }
    return n;
}

static const int part_inputs[3] = {24576, 59808, 4560};

/* The reference of a set: its parts' lists, each offset by the inputs before it. */
static size_t ref_set(int32_t *out, const df_board *b, int persp, const df_nnue_set *set)
{
    size_t n = 0;
    int32_t offset = 0, part[REF_MAX];
    for (int i = 0; i < set->count; i++) {
        const int p = set->parts[i];
        const size_t m = p == DF_NNUE_HALFKAV2_HM    ? ref_halfka(part, b, persp)
                         : p == DF_NNUE_FULL_THREATS ? ref_threats(part, b, persp)
                                                     : ref_pairs(part, b, persp);
        for (size_t k = 0; k < m; k++) out[n++] = part[k] + offset;
        offset += part_inputs[p];
    }
    return n;
}

/* ---- Helpers ---- */

static df_nnue_set set_of(const char *name)
{
    df_nnue_set s;
    assert_int_equal(DF_OK, df_nnue_set_parse(&s, name, strlen(name)));
    return s;
}

static const char *const set_names[] = {
    "HalfKAv2_hm",
    "Full_Threats",
    "PP_3Wide",
    "Full_Threats+PP_3Wide+HalfKAv2_hm",
    "HalfKAv2_hm+Full_Threats",
    "PP_3Wide+HalfKAv2_hm+Full_Threats",
};
enum { SETS = sizeof set_names / sizeof set_names[0] };

static void fail_rows(const df_board *b, int persp, const char *set, const int32_t *want, size_t nw,
                      const int32_t *got, size_t ng)
{
    char fen[DF_FEN_MAX];
    df_fen_format(fen, sizeof fen, b, DF_FEN_STANDARD);
    print_error("%s, %s perspective, %s: %zu features, expected %zu\n", fen,
                persp ? "black" : "white", set, ng, nw);
    for (size_t i = 0; i < nw || i < ng; i++)
        if (i >= nw || i >= ng || want[i] != got[i]) {
            print_error("first difference at %zu: %d, expected %d\n", i, i < ng ? got[i] : -1,
                        i < nw ? want[i] : -1);
            break;
        }
    fail();
}

/* df_nnue_features of b against the reference, for every set, both perspectives. */
static void check_board(const df_board *b)
{
    for (int s = 0; s < SETS; s++) {
        const df_nnue_set set = set_of(set_names[s]);
        for (int persp = 0; persp < 2; persp++) {
            int32_t want[REF_MAX], got[REF_MAX];
            const size_t nw = ref_set(want, b, persp, &set);
            const size_t ng = df_nnue_features(got, REF_MAX, b, (df_color)persp, &set);
            if (nw != ng || memcmp(want, got, nw * sizeof *got) != 0)
                fail_rows(b, persp, set_names[s], want, nw, got, ng);
        }
    }
}

/* A random board with the kings on wk and bk (distinct), pieces of every kind at a random
 * density, pawns only on ranks 2 to 7. */
static void board_with_kings(df_board *b, int wk, int bk)
{
    uint64_t pieces[12] = {0};
    pieces[df_piece_index(DF_WHITE, DF_KING)] = UINT64_C(1) << wk;
    pieces[df_piece_index(DF_BLACK, DF_KING)] = UINT64_C(1) << bk;
    const int density = 4 + (int)(dft_rand() % 40);
    for (int s = 0; s < 64; s++) {
        if (s == wk || s == bk || (int)(dft_rand() % 64) >= density) continue;
        int t = (int)(dft_rand() % 5);
        if (t == DF_PAWN && (s < 8 || s >= 56)) t = DF_QUEEN;
        pieces[df_piece_index((df_color)(dft_rand() & 1), (df_piece_type)t)] |= UINT64_C(1) << s;
    }
    assert_int_equal(DF_OK, df_board_from_pieces(b, pieces, (df_color)(dft_rand() & 1)));
}

/* ---- Tests ---- */

static void random_positions(void)
{
    for (long i = 0; i < DFT_ITERATIONS / 1000; i++) {
        df_board b;
        if (i & 1)
            dft_rand_board(&b);
        else
            dft_rand_game_position(&b);
        check_board(&b);
    }
}

static void test_random(void **state)
{
    (void)state;
    ref_tables();
    random_positions();
}

/* Both kings on every pair of files, and each king on every square: the mirror rules of both
 * frames (HalfKAv2_hm mirrors on files a-d, the others on e-h). */
static void kings_everywhere(void)
{
    for (int k = 0; k < 64; k++) {
        int other;
        do other = (int)(dft_rand() & 63);
        while (other == k);
        df_board b;
        board_with_kings(&b, k, other);
        check_board(&b);
        board_with_kings(&b, other, k);
        check_board(&b);
    }
}

static void test_kings_everywhere(void **state)
{
    (void)state;
    ref_tables();
    kings_everywhere();
}

/* The own king's HalfKAv2_hm feature on each of its 64 squares: bucket and mirror by
 * hand. */
static void test_king_buckets(void **state)
{
    (void)state;
    const df_nnue_set set = set_of("HalfKAv2_hm");
    for (int persp = 0; persp < 2; persp++)
        for (int k = 0; k < 64; k++) {
            const int other = k == 0 ? 63 : 0;
            uint64_t pieces[12] = {0};
            pieces[df_piece_index((df_color)persp, DF_KING)] = UINT64_C(1) << k;
            pieces[df_piece_index((df_color)!persp, DF_KING)] = UINT64_C(1) << other;
            df_board b;
            assert_int_equal(DF_OK, df_board_from_pieces(&b, pieces, DF_WHITE));
            /* Seen from persp: ranks flipped for black, files mirrored to put the king on e-h. */
            const int rank = persp ? 7 - rank_of(k) : rank_of(k);
            const int file = file_of(k) < 4 ? 7 - file_of(k) : file_of(k);
            const int bucket = (7 - rank) * 4 + (7 - file);
            int32_t got[32];
            const size_t n = df_nnue_features(got, 32, &b, (df_color)persp, &set);
            assert_int_equal(2, n);
            const int32_t own_king = 8 * rank + file + 64 * 10 + 768 * bucket;
            assert_true(got[0] == own_king || got[1] == own_king);
            assert_true(bucket >= 0 && bucket < 32);
        }
}

/* How many Full_Threats features each perspective sees in fen. */
static void assert_threats(const char *fen, size_t white, size_t black)
{
    const df_board b = dft_fen(fen);
    const df_nnue_set set = set_of("Full_Threats");
    int32_t out[REF_MAX];
    const size_t w = df_nnue_features(out, REF_MAX, &b, DF_WHITE, &set),
                 k = df_nnue_features(out, REF_MAX, &b, DF_BLACK, &set);
    if (w != white || k != black)
        fail_msg("%s: %zu and %zu threats, expected %zu and %zu", fen, w, k, white, black);
    check_board(&b);
}

static void test_threat_rules(void **state)
{
    (void)state;
    ref_tables();
    /* Pawns: a pawn target is no feature (pawns hitting each other give nothing); of the
     * others only knights and rooks (a bishop or queen a pawn hits counts only its own attack
     * back). */
    assert_threats("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", 0, 0);
    assert_threats("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", 1, 1);
    assert_threats("4k3/8/8/3r4/4P3/8/8/4K3 w - - 0 1", 1, 1);
    assert_threats("4k3/8/8/3b4/4P3/8/8/4K3 w - - 0 1", 1, 1); /* the bishop's alone */
    assert_threats("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", 1, 1); /* the queen's alone */
    /* A defended own knight counts too; a knight attacking a pawn does. */
    assert_threats("4k3/8/8/3N4/4P3/8/8/4K3 w - - 0 1", 1, 1);
    assert_threats("4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1", 1, 1);
    /* Kings are never attackers nor targets: a queen between both kings, a king beside a
     * rook. */
    assert_threats("8/8/8/3k4/3q4/3K4/8/8 w - - 0 1", 0, 0);
    assert_threats("8/8/8/8/8/8/8/Rk2K3 b - - 0 1", 0, 0);
    /* Bishop and rook to queen dropped, queen back to them kept; a knight to a queen kept. */
    assert_threats("4k3/8/8/8/3q4/8/1B6/4K3 w - - 0 1", 1, 1);
    assert_threats("4k3/8/8/8/1R1q4/8/8/4K3 w - - 0 1", 1, 1);
    assert_threats("4k3/8/8/8/3q4/1N6/8/4K3 w - - 0 1", 1, 1);
    /* Two pieces of one type count once, either colour, and a blocked line not at all. */
    assert_threats("4k3/8/8/8/3n4/1N6/8/4K3 w - - 0 1", 1, 1);
    assert_threats("4k3/8/8/8/1Q1q4/8/8/4K3 w - - 0 1", 1, 1);
    assert_threats("4k3/8/8/8/1QNq4/8/8/4K3 w - - 0 1", 2, 2);
}

/* The same-type rule compares turned squares: rooks on a1 and a8 seen by white (king on d1,
 * nothing turned) from a8, by black (king on d8, ranks flipped) from a1. The indices by
 * hand from SPEC's table: a white rook's block starts at 8176 (own) or 38080 (enemy), the
 * rook-to-rook slot is 3 of 4 per colour, 896 wide, a rook's square offset is 14 per
 * square, and the target is the lowest of its empty-board squares. */
static void test_same_type_turned(void **state)
{
    (void)state;
    const df_board b = dft_fen("R2k4/8/8/8/8/8/8/R2K4 w - - 0 1");
    const df_nnue_set set = set_of("Full_Threats");
    int32_t out[8];
    assert_int_equal(1, df_nnue_features(out, 8, &b, DF_WHITE, &set));
    assert_int_equal(8176 + (0 * 4 + 3) * 896 + 14 * 56 + 0, out[0]);
    assert_int_equal(1, df_nnue_features(out, 8, &b, DF_BLACK, &set));
    assert_int_equal(38080 + (1 * 4 + 3) * 896 + 14 * 56 + 0, out[0]);
    /* With the kings on e1 and e8 files are mirrored too: a1 and a8 become h-file squares. */
    const df_board m = dft_fen("R3k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    assert_int_equal(1, df_nnue_features(out, 8, &m, DF_WHITE, &set));
    assert_int_equal(8176 + 3 * 896 + 14 * 63 + 0, out[0]); /* from h8 to h1 */
    assert_int_equal(1, df_nnue_features(out, 8, &m, DF_BLACK, &set));
    assert_int_equal(38080 + 7 * 896 + 14 * 63 + 0, out[0]);
}

/* Compositions: each part's indices offset by the inputs before it, in the given order. */
static void test_compositions(void **state)
{
    (void)state;
    const df_nnue_set def = df_nnue_set_default();
    char name[DF_NNUE_SET_NAME_MAX];
    assert_int_equal(33, df_nnue_set_name(name, sizeof name, &def));
    assert_string_equal("Full_Threats+PP_3Wide+HalfKAv2_hm", name);
    assert_int_equal(88944, df_nnue_set_inputs(&def));
    assert_int_equal(288, df_nnue_set_max_active(&def));
    const struct {
        const char *name;
        uint32_t inputs, active;
    } sizes[] = {{"HalfKAv2_hm", 24576, 32},
                 {"Full_Threats", 59808, 128},
                 {"PP_3Wide", 4560, 128},
                 {"PP_3Wide+HalfKAv2_hm", 29136, 160}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const df_nnue_set s = set_of(sizes[i].name);
        assert_int_equal(sizes[i].inputs, df_nnue_set_inputs(&s));
        assert_int_equal(sizes[i].active, df_nnue_set_max_active(&s));
    }
    /* The default's rows are threats, pawn pairs + 59808, HalfKAv2_hm + 64368, each in its
     * part's range. */
    df_board b = dft_fen("r1bqk2r/pppp1ppp/2n2n2/4p3/1bB1P3/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 1 5");
    int32_t all[288], part[128];
    const df_nnue_set threats = set_of("Full_Threats"), pairs = set_of("PP_3Wide"),
                      halfka = set_of("HalfKAv2_hm");
    for (int persp = 0; persp < 2; persp++) {
        const size_t n = df_nnue_features(all, 288, &b, (df_color)persp, &def);
        size_t at = 0;
        const df_nnue_set *parts[3] = {&threats, &pairs, &halfka};
        const int32_t offsets[3] = {0, 59808, 64368};
        for (int p = 0; p < 3; p++) {
            const size_t m = df_nnue_features(part, 128, &b, (df_color)persp, parts[p]);
            assert_true(m > 0);
            const int32_t end = p < 2 ? offsets[p + 1] : 88944;
            for (size_t k = 0; k < m; k++) {
                assert_int_equal(part[k] + offsets[p], all[at + k]);
                assert_in_range(all[at + k], offsets[p], end - 1);
            }
            at += m;
        }
        assert_int_equal(at, n);
    }
}

/* Boards with more features than a row holds: nothing past the room, the first written, the
 * count returned; batch rows cut and counted. */
static void test_overflow(void **state)
{
    (void)state;
    ref_tables();
    /* 62 queens: hundreds of threats, 64 pieces for HalfKAv2_hm's 32. */
    const df_board full = dft_fen("QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQkqQQQ/qqqKqqqq/qqqqqqqq/"
                                  "qqqqqqqq/qqqqqqqq w - - 0 1");
    /* Pawns on every square of ranks 2 to 7: 372 pairs. */
    const df_board pawns = dft_fen("nnnnknnn/pppppppp/PPPPPPPP/pppppppp/PPPPPPPP/pppppppp/"
                                   "PPPPPPPP/NNNNKNNN w - - 0 1");
    const df_board boards[3] = {full, pawns, dft_fen(DF_FEN_START)};
    for (int s = 0; s < SETS; s++) {
        const df_nnue_set set = set_of(set_names[s]);
        const size_t width = df_nnue_set_max_active(&set);
        size_t want_cut = 0;
        int32_t want[2][3][REF_MAX];
        size_t nw[2][3];
        for (int i = 0; i < 3; i++) {
            for (int persp = 0; persp < 2; persp++) {
                nw[persp][i] = ref_set(want[persp][i], &boards[i], persp, &set);
                /* Any room: the count whole, the first room written, nothing after. */
                int32_t got[REF_MAX + 1];
                const size_t rooms[3] = {0, 5, width};
                for (int r = 0; r < 3; r++) {
                    for (size_t k = 0; k <= REF_MAX; k++) got[k] = -7;
                    const size_t n = df_nnue_features(rooms[r] ? got : NULL, rooms[r], &boards[i],
                                                      (df_color)persp, &set);
                    assert_int_equal(nw[persp][i], n);
                    const size_t written = n < rooms[r] ? n : rooms[r];
                    assert_memory_equal(want[persp][i], got, written * sizeof *got);
                    assert_int_equal(-7, got[written]);
                }
            }
            want_cut += nw[0][i] > width || nw[1][i] > width;
        }
        /* Every set overflows on one of the two boards, never on the start position. */
        assert_true(want_cut >= 1 && nw[0][2] <= width && nw[1][2] <= width);
        /* Batch rows of the set's width with a guard after the last one. */
        int32_t *white = malloc((3 * width + 16) * sizeof *white);
        int32_t *black = malloc((3 * width + 16) * sizeof *black);
        assert_non_null(white);
        assert_non_null(black);
        for (size_t k = 0; k < 3 * width + 16; k++) white[k] = black[k] = -7;
        assert_int_equal(want_cut, df_nnue_batch(white, black, width, boards, 3, &set));
        for (int i = 0; i < 3; i++)
            for (int persp = 0; persp < 2; persp++) {
                const int32_t *row = (persp ? black : white) + (size_t)i * width;
                for (size_t k = 0; k < width; k++)
                    assert_int_equal(k < nw[persp][i] ? want[persp][i][k] : -1, row[k]);
            }
        for (size_t k = 3 * width; k < 3 * width + 16; k++) {
            assert_int_equal(-7, white[k]);
            assert_int_equal(-7, black[k]);
        }
        free(white);
        free(black);
    }
}

/* Batches against df_nnue_features, on 1, 2, 3 and all threads, rows wider than needed. */
static void test_batches(void **state)
{
    (void)state;
    enum { N = 700 };
    static df_board boards[N];
    for (int i = 0; i < N; i++) {
        if (i & 1)
            dft_rand_board(&boards[i]);
        else
            dft_rand_game_position(&boards[i]);
    }
    const df_nnue_set set = df_nnue_set_default();
    const size_t width = 300;
    int32_t *one[2], *many[2];
    for (int c = 0; c < 2; c++) {
        one[c] = malloc((size_t)N * width * sizeof(int32_t));
        many[c] = malloc((size_t)N * width * sizeof(int32_t));
        assert_non_null(one[c]);
        assert_non_null(many[c]);
    }
    size_t cut = 0;
    for (int i = 0; i < N; i++) {
        bool over = false;
        for (int c = 0; c < 2; c++) {
            int32_t *row = one[c] + (size_t)i * width;
            const size_t n = df_nnue_features(row, width, &boards[i], (df_color)c, &set);
            for (size_t k = n; k < width; k++) row[k] = -1;
            over |= n > width;
        }
        cut += over;
    }
    assert_int_equal(cut, df_nnue_batch(many[0], many[1], width, boards, N, &set));
    for (int c = 0; c < 2; c++)
        assert_memory_equal(one[c], many[c], (size_t)N * width * sizeof(int32_t));
    const unsigned counts[4] = {1, 2, 3, 0};
    const int tried = getenv("DFT_NO_THREADS") ? 1 : 4;
    if (tried < 4) print_message("threads 2, 3 and all skipped: DFT_NO_THREADS is set\n");
    for (int k = 0; k < tried; k++) {
        for (int c = 0; c < 2; c++) memset(many[c], 0x55, (size_t)N * width * sizeof(int32_t));
        assert_int_equal(cut,
                         df_nnue_batch_mt(many[0], many[1], width, boards, N, &set, counts[k]));
        for (int c = 0; c < 2; c++)
            assert_memory_equal(one[c], many[c], (size_t)N * width * sizeof(int32_t));
    }
    for (int c = 0; c < 2; c++) {
        free(one[c]);
        free(many[c]);
    }
}

/* Names: each alone, compositions in any order, and every way to get one wrong. */
static void test_names(void **state)
{
    (void)state;
    for (int s = 0; s < SETS; s++) {
        const df_nnue_set set = set_of(set_names[s]);
        char name[DF_NNUE_SET_NAME_MAX];
        assert_int_equal(strlen(set_names[s]), df_nnue_set_name(name, sizeof name, &set));
        assert_string_equal(set_names[s], name);
    }
    static const char *const bad[] = {"",
                                      "+",
                                      "HalfKA",
                                      "halfkav2_hm",
                                      "HalfKAv2_hm^^",
                                      "Full_Threats^",
                                      "HalfKAv2_hm+HalfKAv2_hm^",
                                      "HalfKAv2_hm ",
                                      "+HalfKAv2_hm",
                                      "HalfKAv2_hm+",
                                      "HalfKAv2_hm++PP_3Wide",
                                      "PP_3Wide+PP_3Wide",
                                      "Full_Threats+PP_3Wide+Full_Threats",
                                      "Full_Threats+PP_3Wide+HalfKAv2_hm+PP_3Wide"};
    df_nnue_set out = {7, {7, 7, 7}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(DF_ERR_ARGUMENT, df_nnue_set_parse(&out, bad[i], strlen(bad[i])));
        assert_int_equal(7, out.count); /* unchanged */
    }
    assert_int_equal(DF_ERR_ARGUMENT, df_nnue_set_parse(NULL, "PP_3Wide", 8));
    assert_int_equal(DF_ERR_ARGUMENT, df_nnue_set_parse(&out, NULL, 8));
    /* nnue-pytorch's trainer's name of the factorised set: its loader's inputs. */
    const df_nnue_set composed = set_of("Full_Threats+PP_3Wide+HalfKAv2_hm");
    assert_int_equal(DF_OK, df_nnue_set_parse(&out, "Full_Threats+PP_3Wide+HalfKAv2_hm^", 34));
    assert_memory_equal(&composed, &out, sizeof out);
    /* len, not the NUL, ends the name. */
    assert_int_equal(DF_OK, df_nnue_set_parse(&out, "PP_3Wide+HalfKAv2_hm", 8));
    assert_int_equal(1, out.count);
    assert_int_equal(DF_NNUE_PP_3WIDE, out.parts[0]);
    /* Cut to fit as snprintf does; the length whole. */
    const df_nnue_set def = df_nnue_set_default();
    char small[6] = "xxxxx";
    assert_int_equal(33, df_nnue_set_name(small, sizeof small, &def));
    assert_string_equal("Full_", small);
    assert_int_equal(33, df_nnue_set_name(NULL, 0, &def));
    /* Invalid sets: no name, no inputs, no features, rows of padding. */
    const df_nnue_set invalid[] = {
        {0, {0, 0, 0}}, {4, {0, 1, 2}}, {1, {3, 0, 0}}, {2, {1, 1, 0}}, {3, {0, 2, 0}}};
    const df_board b = dft_fen(DF_FEN_START);
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
        char name[DF_NNUE_SET_NAME_MAX] = "x";
        assert_int_equal(0, df_nnue_set_name(name, sizeof name, &invalid[i]));
        assert_string_equal("", name);
        assert_int_equal(0, df_nnue_set_inputs(&invalid[i]));
        assert_int_equal(0, df_nnue_set_max_active(&invalid[i]));
        int32_t row[2][4] = {{5, 5, 5, 5}, {5, 5, 5, 5}};
        assert_int_equal(0, df_nnue_features(row[0], 4, &b, DF_WHITE, &invalid[i]));
        assert_int_equal(5, row[0][0]);
        assert_int_equal(0, df_nnue_batch(row[0], row[1], 4, &b, 1, &invalid[i]));
        for (int k = 0; k < 4; k++) assert_true(row[0][k] == -1 && row[1][k] == -1);
    }
    assert_int_equal(0, df_nnue_set_inputs(NULL));
    /* Arguments refused: nothing written. */
    int32_t row[2][4] = {{5, 5, 5, 5}, {5, 5, 5, 5}};
    assert_int_equal(0, df_nnue_features(row[0], 4, NULL, DF_WHITE, &def));
    assert_int_equal(0, df_nnue_features(NULL, 4, &b, DF_WHITE, &def));
    assert_int_equal(0, df_nnue_features(row[0], 4, &b, (df_color)2, &def));
    assert_int_equal(0, df_nnue_batch(NULL, row[1], 4, &b, 1, &def));
    assert_int_equal(0, df_nnue_batch(row[0], row[1], 4, NULL, 1, &def));
    for (int k = 0; k < 4; k++) assert_true(row[0][k] == 5 && row[1][k] == 5);
    /* Boards df_board_is_valid refuses: sets that overlap (a square white and black, a
     * square both pawn and knight), a side without a king or with two: no features, rows of
     * -1, never a cut. */
    for (int k = 0; k < 4; k++) {
        df_board bad = b;
        if (k == 0) bad.color[DF_BLACK] |= df_square_bb(DF_E2);
        if (k == 1) bad.piece[DF_KNIGHT] |= df_square_bb(DF_E2);
        if (k == 2) bad.piece[DF_KING] &= ~bad.color[DF_BLACK];
        if (k == 3)
            bad.piece[DF_KING] |= df_square_bb(DF_D2), bad.piece[DF_PAWN] &= ~df_square_bb(DF_D2);
        assert_false(df_board_is_valid(&bad));
        int32_t got[2][300];
        memset(got, 0x55, sizeof got);
        assert_int_equal(0, df_nnue_features(got[0], 300, &bad, DF_WHITE, &def));
        assert_int_equal(0, df_nnue_features(got[0], 300, &bad, DF_BLACK, &def));
        assert_int_equal(0, df_nnue_batch(got[0], got[1], 300, &bad, 1, &def));
        for (int c = 0; c < 2; c++)
            for (int i = 0; i < 300; i++) assert_int_equal(-1, got[c][i]);
    }
    /* With no room, the count alone: the start position's 32 pieces. */
    const df_nnue_set halfka = set_of("HalfKAv2_hm");
    assert_int_equal(32, df_nnue_features(NULL, 0, &b, DF_WHITE, &halfka));
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_kings_everywhere),
        cmocka_unit_test(test_king_buckets),
        cmocka_unit_test(test_threat_rules),
        cmocka_unit_test(test_same_type_turned),
        cmocka_unit_test(test_compositions),
        cmocka_unit_test(test_overflow),
        cmocka_unit_test(test_batches),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
