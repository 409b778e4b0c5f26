/* SPDX-License-Identifier: MIT */
/* Internal template: the NNUE input sets (nnue.h), instantiated per backend after
 * movegen_tpl.h, whose one-square slider lookups (mg_rook, mg_bishop) give each piece's
 * attacks, by the rays method.
 *
 * Rows come in nnue-pytorch's order (its extractors' emission order), so that a batch is
 * byte for byte the SparseBatch its loader builds. That order walks squares raw, the same
 * for both perspectives; only the indices and which colour's block comes first differ. So
 * each part is one walk giving both perspectives' index of every item, into two blocks per
 * perspective (the walk's own-colour items and the other colour's), joined afterwards:
 * - Full_Threats: per attacker colour, pawns set-wise (captures toward the h-file for white,
 *   the a-file for black, by target; then the other diagonal), then knights, bishops, rooks,
 *   queens, each by square, its targets by square: each piece's attack set (knights by
 *   leapers.h's table, sliders by per-ray bit scans) met with the pieces its type keeps;
 * - PP_3Wide: per colour, each pawn by square with the pawns beside it below it, by square;
 * - HalfKAv2_hm: every piece by square, one block. */
#include <string.h>

#include "nnue/tables.h"

#define NN_INLINE static inline __attribute__((always_inline))

/* Whether b has features: its piece and colour sets disjoint and one king a side (every
 * valid board's are). Then no part outgrows a block (nn_rows); other boards have none. */
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

/* The longest block: a part's items of one colour for one perspective, at most 64 attackers
 * hitting 8 kept targets each (a slider's first piece in each direction, a knight's eight
 * squares; more than PP_3Wide's 48 pawns on 8 files making 8 * 15 + 7 * 36 = 372 pairs, or
 * HalfKAv2_hm's 64 pieces), and a slot for an item written but not kept (nn_put). A row: the
 * three parts of a disjoint board (its 64 pieces attack at most 512 times). */
enum { NN_BLOCK = 64 * 8 + 1, NN_ROW = 512 + 372 + 64 + 1 };
_Static_assert(NN_BLOCK > 372 && NN_BLOCK > 64, "a block holds any part of a disjoint board");

/* Both perspectives' rows being built. A part's walk gives, colour by colour, white's own
 * block then its other one (in row order), but black's other block first: that one waits in
 * later until the part ends. */
typedef struct nn_rows {
    int32_t row[DF_COLORS][NN_ROW], later[NN_BLOCK];
    int32_t *end[DF_COLORS], *later_end; /* where each writes next */
} nn_rows;

/* Where perspective 1's items of colour c go: its row (own) or later. */
NN_INLINE int32_t **nn_black_end(nn_rows *r, int c) { return c ? &r->end[1] : &r->later_end; }

/* Writes index at *end, kept (the end moved) only when keep: no branch. */
NN_INLINE void nn_put(int32_t **end, int32_t index, bool keep)
{
    **end = index;
    *end += keep;
}

/* A position made ready: each occupied square's class (8 * colour + type) and each
 * perspective's turn of squares, s' = s ^ x[p] (56 flips the ranks, 7 the files):
 * Full_Threats and PP_3Wide put the perspective's king on files a-d, HalfKAv2_hm on e-h. */
typedef struct nn_pos {
    uint8_t cls[64];
    unsigned x[DF_COLORS];
    df_bb occ;
} nn_pos;

NN_INLINE void nn_pos_of(nn_pos *pos, const df_board *b, const df__nnue_tables *tb)
{
    /* The classes rank by rank, 8 bytes at once, from the class's four bits as sets (type
     * bit 0: knight, rook, king; bit 1: bishop, rook; bit 2: queen, king; bit 3: black), each
     * rank's byte of a set spread to a byte per square. No branch. */
    const df_bb bits[4] = {b->piece[DF_KNIGHT] | b->piece[DF_ROOK] | b->piece[DF_KING],
                           b->piece[DF_BISHOP] | b->piece[DF_ROOK],
                           b->piece[DF_QUEEN] | b->piece[DF_KING], b->color[DF_BLACK]};
    for (int r = 0; r < 8; r++) {
        uint64_t cls = 0;
        for (int i = 0; i < 4; i++) cls |= tb->spread[bits[i] >> (8 * r) & 255] << i;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        cls = __builtin_bswap64(cls);
#endif
        memcpy(pos->cls + 8 * r, &cls, sizeof cls);
    }
    for (int c = 0; c < DF_COLORS; c++)
        pos->x[c] = (c ? 56u : 0u) | (df_file_of(df_board_king(b, (df_color)c)) >= 4 ? 7u : 0u);
    pos->occ = df_board_occupied(b);
}

/* The threats of the attacker (colour c, type t, a constant) on s whose attack set, met with
 * the pieces its type keeps, is a: for each target by square, perspective p's index into its
 * block of colour c ^ p, the same-type pair only from the higher turned square. */
NN_INLINE void nn_attacker(nn_rows *r, int c, int t, unsigned s, df_bb a, const nn_pos *pos,
                           int32_t offset, const df__nnue_tables *tb)
{
    const int32_t *const group = tb->group[t];
    const unsigned f0 = s ^ pos->x[0], f1 = s ^ pos->x[1];
    const df_bb reach0 = tb->reach[t][c][f0], reach1 = tb->reach[t][c ^ 1][f1];
    const int32_t base0 = offset + tb->from_base[t][c][f0],
                  base1 = offset + tb->from_base[t][c ^ 1][f1];
    int32_t **const black = nn_black_end(r, c);
    int32_t *w0 = r->end[0], *w1 = *black;
    while (a) {
        const unsigned to = df_pop_lsb(&a), k = pos->cls[to];
        const unsigned t0 = to ^ pos->x[0], t1 = to ^ pos->x[1];
        const bool same = (k & 7) == (unsigned)t;
        nn_put(&w0, base0 + group[k] + df_popcount(reach0 & ((UINT64_C(1) << t0) - 1)),
               !same || t0 < f0);
        nn_put(&w1, base1 + group[k ^ 8] + df_popcount(reach1 & ((UINT64_C(1) << t1) - 1)),
               !same || t1 < f1);
    }
    r->end[0] = w0;
    *black = w1;
}

/* The pieces of colour c and type t (not pawns) with their attacks on kept. */
NN_INLINE void nn_pieces(nn_rows *r, const df_board *b, int c, int t, df_bb kept, const nn_pos *pos,
                         int32_t offset, const df__nnue_tables *tb, const df__sliders sl)
{
    df_bb pieces = b->color[c] & b->piece[t];
    while (pieces) {
        const df_square s = df_pop_lsb(&pieces);
        const df_bb a = t == DF_KNIGHT   ? df_knight_table[s]
                        : t == DF_BISHOP ? mg_bishop(s, pos->occ, sl)
                        : t == DF_ROOK   ? mg_rook(s, pos->occ, sl)
                                         : mg_bishop(s, pos->occ, sl) | mg_rook(s, pos->occ, sl);
        nn_attacker(r, c, t, s, a & kept, pos, offset, tb);
    }
}

/* Full_Threats of both perspectives (offset included). */
NN_INLINE void nn_threats(nn_rows *r, const df_board *b, const nn_pos *pos, int32_t offset,
                          const df__nnue_tables *tb, const df__sliders sl)
{
    /* The pieces each attacker type keeps as targets (df__nnue_kept). */
    const df_bb n_r = b->piece[DF_KNIGHT] | b->piece[DF_ROOK];
    const df_bb all = pos->occ & ~b->piece[DF_KING], no_queen = all & ~b->piece[DF_QUEEN];
    for (int c = 0; c < DF_COLORS; c++) {
        const df_color col = (df_color)c;
        const df_bb pawns = b->color[c] & b->piece[DF_PAWN];
        /* Captures by target, toward the h-file (+9) for white and the a-file (-9) for black
         * first, then the other diagonal. */
        const df_bb east = df_pawn_east_attacks(pawns, col) & n_r,
                    west = df_pawn_west_attacks(pawns, col) & n_r;
        const df_bb hits[2] = {c ? west : east, c ? east : west};
        const int delta[2] = {c ? df_pawn_west_delta(col) : df_pawn_east_delta(col),
                              c ? df_pawn_east_delta(col) : df_pawn_west_delta(col)};
        for (int d = 0; d < 2; d++)
            for (df_bb h = hits[d]; h;) {
                const df_square to = df_pop_lsb(&h);
                nn_attacker(r, c, DF_PAWN, (unsigned)((int)to - delta[d]), df_square_bb(to), pos,
                            offset, tb);
            }
        nn_pieces(r, b, c, DF_KNIGHT, all, pos, offset, tb, sl);
        nn_pieces(r, b, c, DF_BISHOP, no_queen, pos, offset, tb, sl);
        nn_pieces(r, b, c, DF_ROOK, no_queen, pos, offset, tb, sl);
        nn_pieces(r, b, c, DF_QUEEN, all, pos, offset, tb, sl);
    }
}

/* PP_3Wide of both perspectives: per colour each pawn by square, with each pawn beside it
 * (files f-1 to f+1) below it, by square; pawn ids 48 * relative colour + turned square - 8,
 * each pair's index tb->pair's. Pawns on ranks 1 and 8 (no game has them) count not. */
NN_INLINE void nn_pawn_pairs(nn_rows *r, const df_board *b, const nn_pos *pos, int32_t offset,
                             const df__nnue_tables *tb)
{
    static const df_bb near[8] = {DF_FILE_A * 3,      DF_FILE_A * 7,      DF_FILE_A * 7 << 1,
                                  DF_FILE_A * 7 << 2, DF_FILE_A * 7 << 3, DF_FILE_A * 7 << 4,
                                  DF_FILE_A * 7 << 5, DF_FILE_A * 3 << 6};
    const df_bb ranks = ~(DF_RANK_1 | DF_RANK_8);
    const df_bb pawns = b->piece[DF_PAWN] & ranks;
    /* Each pawn's id for each perspective, by square. */
    uint8_t id[DF_COLORS][64];
    for (df_bb w = pawns; w;) {
        const unsigned s = (unsigned)df_pop_lsb(&w), black = !((b->color[DF_WHITE] >> s) & 1);
        for (int p = 0; p < DF_COLORS; p++)
            id[p][s] = (uint8_t)(48 * (black ^ (unsigned)p) + (s ^ pos->x[p]) - 8);
    }
    for (int c = 0; c < DF_COLORS; c++) {
        int32_t **const black = nn_black_end(r, c);
        int32_t *w0 = r->end[0], *w1 = *black;
        for (df_bb from = pawns & b->color[c]; from;) {
            const int s = df_pop_lsb(&from);
            const int16_t *const pair0 = tb->pair[id[0][s]], *const pair1 = tb->pair[id[1][s]];
            for (df_bb m = pawns & near[s & 7] & ((UINT64_C(1) << s) - 1); m;) {
                const int t = df_pop_lsb(&m);
                *w0++ = offset + pair0[id[0][t]];
                *w1++ = offset + pair1[id[1][t]];
            }
        }
        r->end[0] = w0;
        *black = w1;
    }
}

/* HalfKAv2_hm of both perspectives: every piece by square, o(s) + 64 * plane + 768 * bucket
 * with o(s) = s ^ x ^ 7 (the king on files e-h), the plane 2 * type + (not the
 * perspective's colour), the bucket (7 - rank) * 4 + (7 - file) of o(king). */
NN_INLINE void nn_halfka(nn_rows *r, const df_board *b, const nn_pos *pos, int32_t offset)
{
    int32_t base[DF_COLORS];
    unsigned h[DF_COLORS];
    for (int p = 0; p < DF_COLORS; p++) {
        h[p] = pos->x[p] ^ 7;
        const unsigned k = df_board_king(b, (df_color)p) ^ h[p];
        base[p] = offset + 768 * ((7 - (int32_t)(k >> 3)) * 4 + (7 - (int32_t)(k & 7)));
    }
    /* Each class's plane offset for each perspective. */
    int32_t plane[DF_COLORS][16];
    for (int p = 0; p < DF_COLORS; p++)
        for (int k = 0; k < 16; k++) plane[p][k] = base[p] + 64 * (2 * (k & 7) + ((k >> 3) ^ p));
    int32_t *w0 = r->end[0], *w1 = r->end[1];
    for (df_bb w = pos->occ; w;) {
        const unsigned s = df_pop_lsb(&w), k = pos->cls[s];
        *w0++ = plane[0][k] + (int32_t)(s ^ h[0]);
        *w1++ = plane[1][k] + (int32_t)(s ^ h[1]);
    }
    r->end[0] = w0;
    r->end[1] = w1;
}

static const int32_t nn_part_inputs[DF_NNUE_PARTS] = {
    DF__NNUE_HALFKA_INPUTS, DF__NNUE_THREAT_INPUTS, DF__NNUE_PAIRS_INPUTS};

/* Both perspectives' rows of b into out[0] and out[1] (room each; NULL: not wanted), cut at
 * room. Returns each perspective's count in n (none for a board nn_answerable refuses). */
NN_INLINE void nn_position(int32_t *const out[DF_COLORS], size_t room, size_t n[DF_COLORS],
                           const df_board *b, const df_nnue_set *set, const df__nnue_tables *tb,
                           const df__sliders sl)
{
    n[0] = n[1] = 0;
    if (!nn_answerable(b)) return;
    nn_pos pos;
    nn_pos_of(&pos, b, tb);
    nn_rows r;
    r.end[0] = r.row[0];
    r.end[1] = r.row[1];
    int32_t offset = 0;
    for (int i = 0; i < set->count; i++) {
        const int part = set->parts[i];
        r.later_end = r.later;
        if (part == DF_NNUE_FULL_THREATS)
            nn_threats(&r, b, &pos, offset, tb, sl);
        else if (part == DF_NNUE_PP_3WIDE)
            nn_pawn_pairs(&r, b, &pos, offset, tb);
        else
            nn_halfka(&r, b, &pos, offset);
        const size_t later = (size_t)(r.later_end - r.later);
        memcpy(r.end[1], r.later, later * sizeof(int32_t));
        r.end[1] += later;
        offset += nn_part_inputs[part];
    }
    for (int p = 0; p < DF_COLORS; p++) {
        n[p] = (size_t)(r.end[p] - r.row[p]);
        if (out[p]) memcpy(out[p], r.row[p], (n[p] < room ? n[p] : room) * sizeof(int32_t));
    }
}

/* One position's features for persp (the per-position call). */
NN_INLINE size_t nn_one(int32_t *out, size_t room, const df_board *b, df_color persp,
                        const df_nnue_set *set, const df__nnue_tables *tb, const df__sliders sl)
{
    size_t n[DF_COLORS];
    /* Both are made (each walk gives both); the other is not kept. */
    int32_t *const rows[DF_COLORS] = {persp == DF_WHITE ? out : NULL,
                                      persp == DF_BLACK ? out : NULL};
    nn_position(rows, room, n, b, set, tb, sl);
    return n[persp];
}

/* Rows of count positions, padded with -1; returns the positions with a row cut. */
NN_INLINE size_t nn_batch(int32_t *white, int32_t *black, size_t width, const df_board *boards,
                          size_t count, const df_nnue_set *set, const df__nnue_tables *tb,
                          const df__sliders sl)
{
    size_t cut = 0;
    for (size_t i = 0; i < count; i++) {
        int32_t *const row[DF_COLORS] = {white + i * width, black + i * width};
        size_t n[DF_COLORS];
        nn_position(row, width, n, &boards[i], set, tb, sl);
        for (int c = 0; c < DF_COLORS; c++)
            for (size_t j = n[c]; j < width; j++) row[c][j] = -1;
        cut += n[0] > width || n[1] > width;
    }
    return cut;
}

/* The sliders by the rays method (per-ray bit scans, square_attacks.h: no tables) whatever
 * method the move generator uses: over a stream of unrelated positions the lookup tables'
 * loads miss the cache (docs/performance.md, "Which lookup method each path uses"); the
 * backend's eight-ray vector kernel was no faster here either. The set must be valid
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
