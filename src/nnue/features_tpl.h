/* SPDX-License-Identifier: MIT */
/* Internal template: the NNUE input sets (nnue.h), instantiated per backend after
 * movegen_tpl.h, whose one-square slider lookups (mg_rook, mg_bishop) give each piece's
 * attacks, by the rays method.
 *
 * Full_Threats: a threat is one bit of one piece's attack set meeting another piece. Pawns
 * by the set-wise captures of pawns.h, knights by leapers.h's table, sliders by the backend's
 * eight-ray kernel, once per position, kept only where they meet a piece the attacker's type
 * keeps; each (attacker, target) pair then gives both perspectives' indices at once, put in
 * order by insertion (they come nearly ordered: by attacker type, square, target).
 * HalfKAv2_hm and PP_3Wide: a perspective only turns squares (sq ^ x), so its sets are walked
 * in ascending turned order (a byte swap and a scan from the low or the high end, constants in
 * one function per turn): nothing is mirrored and the indices come out ascending. */
#include <string.h>

#include "nnue/tables.h"

#define NN_INLINE static inline __attribute__((always_inline))

/* Room for every feature of any board whose piece and colour sets are disjoint, in the
 * largest set: at most 64 pieces for HalfKAv2_hm, 48 pawns on 8 files making 8 * 15 + 7 * 36
 * = 372 pairs, and 64 attackers hitting at most 8 kept targets each. */
enum { NN_SCRATCH = 1024 };
_Static_assert(NN_SCRATCH >= 64 + 372 + 64 * 8, "room for any board of disjoint sets");

/* Whether b has features: its piece and colour sets disjoint and one king a side (every
 * valid board's are). Then no feature set outgrows NN_SCRATCH; other boards have none. */
NN_INLINE bool nn_answerable(const df_board *b)
{
    df_bb all = 0;
    int count = 0;
    for (int t = 0; t < DF_PIECE_TYPES; t++) {
        all |= b->piece[t];
        count += df_popcount(b->piece[t]);
    }
    return !(b->color[DF_WHITE] & b->color[DF_BLACK]) && count == df_popcount(all) &&
           df_popcount(b->color[DF_WHITE] & b->piece[DF_KING]) == 1 &&
           df_popcount(b->color[DF_BLACK] & b->piece[DF_KING]) == 1;
}

/* How a perspective sees squares: s' = s ^ x (56 flips the ranks, 7 the files). Ascending
 * s' is ascending s (x = 0), descending s (63), ascending byte-swapped s (56), descending
 * byte-swapped s (7). */
typedef struct nn_turn {
    unsigned x;
    bool swap, high;
} nn_turn;

NN_INLINE nn_turn nn_turn_of(unsigned x)
{
    const bool flip = (x & 56) != 0, mirror = (x & 7) != 0;
    return (nn_turn){x, flip != mirror, mirror};
}

/* A set made ready to walk (nn_next) in ascending turned order. */
NN_INLINE df_bb nn_walk(df_bb set, nn_turn t) { return t.swap ? __builtin_bswap64(set) : set; }

/* Removes the next square of a walk (not empty) and returns it turned (s'): from the high
 * end, bit 63 - z is square z of the turned order. */
NN_INLINE unsigned nn_next(df_bb *w, nn_turn t)
{
    if (t.high) {
        const unsigned z = (unsigned)__builtin_clzll(*w);
        *w ^= (UINT64_C(1) << 63) >> z;
        return z;
    }
    const unsigned r = (unsigned)__builtin_ctzll(*w);
    *w &= *w - 1;
    return r;
}

/* The most (attacker, target) pairs a board of disjoint sets has: 64 attackers, 8 kept
 * targets each. */
enum { NN_PAIRS_MAX = 64 * 8 };

/* A position's threats for both perspectives (offset included), each row's part in order:
 * white's (white attackers first) in white; black's own attackers' in black[1], its white
 * attackers' in black[0]. */
typedef struct nn_threat_lists {
    int32_t white[NN_PAIRS_MAX], black[DF_COLORS][NN_PAIRS_MAX];
    size_t count[DF_COLORS], black_count[DF_COLORS];
} nn_threat_lists;

/* Puts index in order into row[start .. n), which grows forward; returns the new n. */
NN_INLINE size_t nn_insert(int32_t *row, size_t start, size_t n, int32_t index)
{
    size_t i = n;
    for (; i > start && row[i - 1] > index; i--) row[i] = row[i - 1];
    row[i] = index;
    return n + 1;
}

/* Puts index in order into block[lo .. end), which grows backward; returns the new lo. */
NN_INLINE size_t nn_insert_back(int32_t *block, size_t lo, size_t end, int32_t index)
{
    size_t i = lo - 1;
    for (; i + 1 < end && block[i + 1] < index; i++) block[i] = block[i + 1];
    block[i] = index;
    return lo - 1;
}

/* The threats of the attackers (colour c, type t, a constant) among pieces on the pieces in
 * kept, each pair giving both perspectives' index: perspective q sees the attacker as
 * relative colour c ^ q on s ^ x[q]. Two pieces of one type count once, from the higher
 * turned square. Attackers come by square, their targets by square: nearly in white's order
 * (its turn keeps the ranks), nearly the reverse of black's (it flips them), so white's block
 * is built forward and black's backward, each kept in order by insertion. */
NN_INLINE void nn_attackers(nn_threat_lists *l, df_bb pieces, int c, int t, df_bb kept, df_bb occ,
                            const uint8_t cls[64], const unsigned x[DF_COLORS], int32_t offset,
                            const df__nnue_tables *tb, const df__sliders sl)
{
    const int32_t *const group = tb->group[t];
    int32_t back[NN_PAIRS_MAX];
    size_t n0 = l->count[0], lo = NN_PAIRS_MAX;
    const size_t start0 = n0;
    while (pieces) {
        const df_square s = df_pop_lsb(&pieces);
        df_bb a = t == DF_PAWN     ? df_pawn_table[c][s]
                  : t == DF_KNIGHT ? df_knight_table[s]
                  : t == DF_BISHOP ? mg_bishop(s, occ, sl)
                  : t == DF_ROOK   ? mg_rook(s, occ, sl)
                                   : mg_bishop(s, occ, sl) | mg_rook(s, occ, sl);
        a &= kept;
        if (!a) continue;
        const unsigned f0 = s ^ x[0], f1 = s ^ x[1];
        const df_bb reach0 = tb->reach[t][c][f0], reach1 = tb->reach[t][c ^ 1][f1];
        const int32_t base0 = offset + tb->from_base[t][c][f0],
                      base1 = offset + tb->from_base[t][c ^ 1][f1];
        while (a) {
            const unsigned to = df_pop_lsb(&a), k = cls[to], t0 = to ^ x[0], t1 = to ^ x[1];
            const bool same = t != DF_PAWN && (k & 7) == (unsigned)t;
            if (!same || t0 < f0)
                n0 = nn_insert(l->white, start0, n0,
                               base0 + group[k] + df_popcount(reach0 & ((UINT64_C(1) << t0) - 1)));
            if (!same || t1 < f1)
                lo = nn_insert_back(back, lo, NN_PAIRS_MAX,
                                    base1 + group[k ^ 8] +
                                        df_popcount(reach1 & ((UINT64_C(1) << t1) - 1)));
        }
    }
    l->count[0] = n0;
    const size_t count = NN_PAIRS_MAX - lo;
    memcpy(l->black[c] + l->black_count[c], back + lo, count * sizeof *back);
    l->black_count[c] += count;
}

/* The threats of b (disjoint sets) for the turns x[0] (white) and x[1] (black), offset by
 * offset: attackers by colour and type (pawns set-wise, only those that capture something
 * kept). */
NN_INLINE void nn_threat_lists_of(nn_threat_lists *l, const df_board *b,
                                  const unsigned x[DF_COLORS], int32_t offset,
                                  const df__nnue_tables *tb, const df__sliders sl)
{
    uint8_t cls[64]; /* the class (colour * 8 + type) of each target */
    for (int c = 0; c < DF_COLORS; c++)
        for (int t = 0; t < DF__NNUE_ATTACKERS; t++) {
            df_bb pieces = b->color[c] & b->piece[t];
            while (pieces) cls[df_pop_lsb(&pieces)] = (uint8_t)(8 * c + t);
        }
    const df_bb occ = df_board_occupied(b);
    /* The pieces each attacker type keeps as targets (df__nnue_kept). */
    const df_bb n_r = b->piece[DF_KNIGHT] | b->piece[DF_ROOK];
    const df_bb all = occ & ~b->piece[DF_KING], no_queen = all & ~b->piece[DF_QUEEN];
    l->count[0] = l->black_count[0] = l->black_count[1] = 0;
    for (int c = 0; c < DF_COLORS; c++) {
        const df_bb own = b->color[c];
        const df_bb pawns = df_pawns_able_to_capture(own & b->piece[DF_PAWN], n_r, (df_color)c);
        nn_attackers(l, pawns, c, DF_PAWN, n_r, occ, cls, x, offset, tb, sl);
        nn_attackers(l, own & b->piece[DF_KNIGHT], c, DF_KNIGHT, all, occ, cls, x, offset, tb, sl);
        nn_attackers(l, own & b->piece[DF_BISHOP], c, DF_BISHOP, no_queen, occ, cls, x, offset, tb,
                     sl);
        nn_attackers(l, own & b->piece[DF_ROOK], c, DF_ROOK, no_queen, occ, cls, x, offset, tb, sl);
        nn_attackers(l, own & b->piece[DF_QUEEN], c, DF_QUEEN, all, occ, cls, x, offset, tb, sl);
    }
    l->count[1] = l->black_count[0] + l->black_count[1];
}

/* Full_Threats into both rows, in index order: attacker colour (the perspective's own
 * first), attacker type, the attacked piece's colour and type, from, to, each ascending in
 * the turned frame. */
NN_INLINE void nn_threats(int32_t *const row[DF_COLORS], size_t n[DF_COLORS],
                          const nn_threat_lists *l)
{
    memcpy(row[0] + n[0], l->white, l->count[0] * sizeof(int32_t));
    n[0] += l->count[0];
    memcpy(row[1] + n[1], l->black[1], l->black_count[1] * sizeof(int32_t));
    memcpy(row[1] + n[1] + l->black_count[1], l->black[0], l->black_count[0] * sizeof(int32_t));
    n[1] += l->count[1];
}

/* PP_3Wide: pawn ids 0..47 the perspective's (turned square - 8), 48..95 the enemy's; each
 * pair once as hi * (hi - 1) / 2 + lo, ascending by hi then lo. */
NN_INLINE size_t nn_pawn_pairs(int32_t *out, size_t n, int32_t offset, const df_board *b,
                               df_color persp, nn_turn turn)
{
    static const df_bb near[8] = {DF_FILE_A * 3,      DF_FILE_A * 7,      DF_FILE_A * 7 << 1,
                                  DF_FILE_A * 7 << 2, DF_FILE_A * 7 << 3, DF_FILE_A * 7 << 4,
                                  DF_FILE_A * 7 << 5, DF_FILE_A * 3 << 6};
    const df_bb ranks = ~(DF_RANK_1 | DF_RANK_8);
    const df_bb own = b->color[persp] & b->piece[DF_PAWN] & ranks;
    const df_bb enemy = b->color[persp ^ 1] & b->piece[DF_PAWN] & ranks;
    for (int c = 0; c < DF_COLORS; c++) {
        df_bb w = nn_walk(c ? enemy : own, turn);
        while (w) {
            const unsigned s = nn_next(&w, turn);
            const df_bb mates = near[(s ^ turn.x) & 7];
            const int32_t hi = 48 * c + (int32_t)s - 8, base = offset + hi * (hi - 1) / 2 - 8;
            /* The perspective's pawns (below an own pawn only), then the enemy's below. */
            df_bb m = nn_walk(mates & own, turn);
            while (m) {
                const unsigned t = nn_next(&m, turn);
                if (!c && t >= s) break;
                out[n++] = base + (int32_t)t;
            }
            m = c ? nn_walk(mates & enemy, turn) : 0;
            while (m) {
                const unsigned t = nn_next(&m, turn);
                if (t >= s) break;
                out[n++] = base + 48 + (int32_t)t;
            }
        }
    }
    return n;
}

/* HalfKAv2_hm: in its own frame (mirrored when the king is on files a-d), by plane then
 * square. */
NN_INLINE size_t nn_halfka(int32_t *out, size_t n, int32_t offset, const df_board *b,
                           df_color persp, nn_turn turn)
{
    const unsigned k = df_board_king(b, persp) ^ turn.x;
    const int32_t bucket = (7 - (int32_t)(k >> 3)) * 4 + (7 - (int32_t)(k & 7));
    for (int type = 0; type < DF_PIECE_TYPES; type++)
        for (int rc = 0; rc < DF_COLORS; rc++) {
            df_bb w = nn_walk(b->color[persp ^ rc] & b->piece[type], turn);
            const int32_t base = offset + 64 * (2 * type + rc) + 768 * bucket;
            while (w) out[n++] = base + (int32_t)nn_next(&w, turn);
        }
    return n;
}

/* The per-perspective parts once per turn, the turn a constant; by part and turn index
 * (x & 1 | x >> 4 & 2: mirrored, flipped). */
#define NN_TURNS(X)      X(0) X(7) X(56) X(63)
#define NN_TURN_INDEX(x) (((x)&1) | (((x) >> 4) & 2))
typedef size_t (*nn_part_fn)(int32_t *out, size_t n, int32_t offset, const df_board *b,
                             df_color persp);
#define NN_PER_TURN(x)                                                                             \
    static size_t nn_halfka_##x(int32_t *out, size_t n, int32_t offset, const df_board *b,         \
                                df_color persp)                                                    \
    {                                                                                              \
        return nn_halfka(out, n, offset, b, persp, nn_turn_of(x));                                 \
    }                                                                                              \
    static size_t nn_pairs_##x(int32_t *out, size_t n, int32_t offset, const df_board *b,          \
                               df_color persp)                                                     \
    {                                                                                              \
        return nn_pawn_pairs(out, n, offset, b, persp, nn_turn_of(x));                             \
    }
NN_TURNS(NN_PER_TURN)
#undef NN_PER_TURN
#define NN_ENTRY(name, x) [NN_TURN_INDEX(x)] = name##_##x,
#define NN_HALFKA(x)      NN_ENTRY(nn_halfka, x)
#define NN_PAIRS(x)       NN_ENTRY(nn_pairs, x)
static const nn_part_fn nn_halfka_by_turn[4] = {NN_TURNS(NN_HALFKA)};
static const nn_part_fn nn_pairs_by_turn[4] = {NN_TURNS(NN_PAIRS)};
#undef NN_HALFKA
#undef NN_PAIRS
#undef NN_ENTRY

static const int32_t nn_part_inputs[DF_NNUE_PARTS] = {
    DF__NNUE_HALFKA_INPUTS, DF__NNUE_THREAT_INPUTS, DF__NNUE_PAIRS_INPUTS};

/* Where Full_Threats' indices start in set: the inputs of the parts before it. */
NN_INLINE int32_t nn_threat_offset(const df_nnue_set *set)
{
    int32_t offset = 0;
    for (int i = 0; i < set->count && set->parts[i] != DF_NNUE_FULL_THREATS; i++)
        offset += nn_part_inputs[set->parts[i]];
    return offset;
}

/* Whether a set has Full_Threats. */
NN_INLINE bool nn_has_threats(const df_nnue_set *set)
{
    bool threats = false;
    for (int i = 0; i < set->count; i++) threats |= set->parts[i] == DF_NNUE_FULL_THREATS;
    return threats;
}

/* A position's turns: x[c] for perspective c (threats and pawn pairs put its king on files
 * a-d; HalfKAv2_hm turns the files the other way). */
NN_INLINE void nn_turns(unsigned x[DF_COLORS], const df_board *b)
{
    for (int c = 0; c < DF_COLORS; c++)
        x[c] = (c ? 56u : 0u) | (df_file_of(df_board_king(b, (df_color)c)) >= 4 ? 7u : 0u);
}

/* At most how many features a position of disjoint sets has in set (either perspective): its
 * pieces, its pawn pairs, its threats. */
NN_INLINE size_t nn_bound(const df_board *b, const df_nnue_set *set, const nn_threat_lists *l)
{
    const size_t pawns = (size_t)df_popcount(b->piece[DF_PAWN] & ~(DF_RANK_1 | DF_RANK_8));
    const size_t threats = l->count[0] > l->count[1] ? l->count[0] : l->count[1];
    size_t total = 0;
    for (int i = 0; i < set->count; i++)
        total += set->parts[i] == DF_NNUE_HALFKAV2_HM ? (size_t)df_popcount(df_board_occupied(b))
                 : set->parts[i] == DF_NNUE_PP_3WIDE  ? pawns * (pawns - (pawns > 0)) / 2
                                                      : threats;
    return total;
}

/* Both perspectives' features of b (disjoint sets) into row[0] and row[1], n[c] each. The
 * rows must hold the position's bound (nn_bound). */
static void nn_rows(int32_t *const row[DF_COLORS], size_t n[DF_COLORS], const df_board *b,
                    const df_nnue_set *set, const unsigned x[DF_COLORS], const nn_threat_lists *l)
{
    n[0] = n[1] = 0;
    int32_t offset = 0;
    for (int i = 0; i < set->count; i++) {
        const int part = set->parts[i];
        if (part == DF_NNUE_FULL_THREATS) nn_threats(row, n, l);
        for (int c = 0; c < DF_COLORS && part != DF_NNUE_FULL_THREATS; c++) {
            const unsigned turn = NN_TURN_INDEX(x[c]);
            n[c] = part == DF_NNUE_HALFKAV2_HM
                       ? nn_halfka_by_turn[turn ^ 1](row[c], n[c], offset, b, (df_color)c)
                       : nn_pairs_by_turn[turn](row[c], n[c], offset, b, (df_color)c);
        }
        offset += nn_part_inputs[part];
    }
}

/* Both perspectives' rows of b into out[0] and out[1] (room each; NULL: not wanted):
 * straight when both are wanted and the bound fits, else through scratch rows. Returns each
 * perspective's count in n (none for a board nn_answerable refuses). */
NN_INLINE void nn_position(int32_t *const out[DF_COLORS], size_t room, size_t n[DF_COLORS],
                           const df_board *b, const df_nnue_set *set, bool threats,
                           nn_threat_lists *l, const df__nnue_tables *tb, const df__sliders sl)
{
    if (!nn_answerable(b)) {
        n[0] = n[1] = 0;
        return;
    }
    unsigned x[DF_COLORS];
    nn_turns(x, b);
    l->count[0] = l->count[1] = 0;
    if (threats) nn_threat_lists_of(l, b, x, nn_threat_offset(set), tb, sl);
    if (out[0] && out[1] && nn_bound(b, set, l) <= room) {
        nn_rows(out, n, b, set, x, l);
        return;
    }
    int32_t scratch[DF_COLORS][NN_SCRATCH];
    int32_t *const rows[DF_COLORS] = {scratch[0], scratch[1]};
    nn_rows(rows, n, b, set, x, l);
    for (int c = 0; c < DF_COLORS; c++)
        if (out[c]) memcpy(out[c], scratch[c], (n[c] < room ? n[c] : room) * sizeof(int32_t));
}

/* One position's features for persp (the per-position call). */
NN_INLINE size_t nn_one(int32_t *out, size_t room, const df_board *b, df_color persp,
                        const df_nnue_set *set, const df__nnue_tables *tb, const df__sliders sl)
{
    nn_threat_lists l;
    size_t n[DF_COLORS];
    /* Both are made (threats come in pairs); the other is not kept. */
    int32_t *const rows[DF_COLORS] = {persp == DF_WHITE ? out : NULL,
                                      persp == DF_BLACK ? out : NULL};
    nn_position(rows, room, n, b, set, nn_has_threats(set), &l, tb, sl);
    return n[persp];
}

/* Rows of count positions, padded with -1; returns the positions with a row cut. */
NN_INLINE size_t nn_batch(int32_t *white, int32_t *black, size_t width, const df_board *boards,
                          size_t count, const df_nnue_set *set, const df__nnue_tables *tb,
                          const df__sliders sl)
{
    const bool threats = nn_has_threats(set);
    nn_threat_lists l;
    size_t cut = 0;
    for (size_t i = 0; i < count; i++) {
        int32_t *const row[DF_COLORS] = {white + i * width, black + i * width};
        size_t n[DF_COLORS];
        nn_position(row, width, n, &boards[i], set, threats, &l, tb, sl);
        for (int c = 0; c < DF_COLORS; c++)
            for (size_t j = n[c]; j < width; j++) row[c][j] = -1;
        cut += n[0] > width || n[1] > width;
    }
    return cut;
}

/* The sliders by the rays method (the backend's eight-ray kernel, no tables) whatever method
 * the move generator uses: over a stream of unrelated positions the lookup tables' loads miss
 * the cache (docs/performance.md, "Which lookup method each path uses"). The set must be valid
 * (nnue/features.c checks it). */
static size_t k_nnue_features(int32_t *out, size_t room, const df_board *b, df_color persp,
                              const df_nnue_set *set)
{
    return nn_one(out, room, b, persp, set, df__nnue_tables_get(), DF__SLIDERS_RAYS);
}

static size_t k_nnue_batch(int32_t *white, int32_t *black, size_t width, const df_board *boards,
                           size_t n, const df_nnue_set *set)
{
    return nn_batch(white, black, width, boards, n, set, df__nnue_tables_get(), DF__SLIDERS_RAYS);
}
