/* SPDX-License-Identifier: MIT */
/* Internal template: the NNUE input sets (nnue.h), instantiated per backend after
 * movegen_tpl.h, whose one-square slider lookups (mg_rook, mg_bishop) give each piece's
 * attacks, once per lookup method as the move generator is. A threat is one bit of one
 * piece's attack set meeting another piece: pawns by the set-wise captures of pawns.h, knights
 * by leapers.h's table, sliders by the active method's lookup. Each perspective's position is
 * turned once (byte swap, file mirror) into the frame the index layout uses, so the indices
 * come out in ascending order without a sort. */
#include "nnue/tables.h"

#define NN_INLINE static inline __attribute__((always_inline))

/* A row being written: nothing past room; n counts every feature, written or not. */
typedef struct nn_row {
    int32_t *out;
    size_t n, room;
} nn_row;

NN_INLINE void nn_put(nn_row *r, int32_t index)
{
    if (r->n < r->room) r->out[r->n] = index;
    r->n++;
}

/* Files a-h swapped (the three swaps of a bit reversal within each byte). */
NN_INLINE df_bb nn_mirror(df_bb b)
{
    b = ((b >> 1) & UINT64_C(0x5555555555555555)) | ((b & UINT64_C(0x5555555555555555)) << 1);
    b = ((b >> 2) & UINT64_C(0x3333333333333333)) | ((b & UINT64_C(0x3333333333333333)) << 2);
    return ((b >> 4) & UINT64_C(0x0f0f0f0f0f0f0f0f)) | ((b & UINT64_C(0x0f0f0f0f0f0f0f0f)) << 4);
}

/* How a perspective turns squares: sq ^ 56 (ranks flipped) for black, sq ^ 7 (files) when
 * mirrored. */
typedef struct nn_turn {
    bool flip, mirror;
} nn_turn;

NN_INLINE df_bb nn_turned(df_bb b, nn_turn t)
{
    if (t.flip) b = __builtin_bswap64(b);
    return t.mirror ? nn_mirror(b) : b;
}

/* A position as one perspective sees it: pieces by relative colour (0 the perspective's)
 * and type, every set turned. */
typedef struct nn_view {
    df_bb pc[DF_COLORS][DF_PIECE_TYPES];
    df_bb occ;
} nn_view;

NN_INLINE void nn_view_of(nn_view *v, const df_board *b, df_color persp, nn_turn t)
{
    for (int rc = 0; rc < DF_COLORS; rc++)
        for (int k = 0; k < DF_PIECE_TYPES; k++)
            v->pc[rc][k] = nn_turned(b->color[persp ^ rc] & b->piece[k], t);
    v->occ = nn_turned(df_board_occupied(b), t);
}

/* The features of one attacker on from hitting the targets hits (ascending by to). */
NN_INLINE void nn_hits(nn_row *r, int32_t base, df_bb reach, df_bb hits)
{
    while (hits) {
        const df_square to = df_pop_lsb(&hits);
        nn_put(r, base + df_popcount(reach & (df_square_bb(to) - 1)));
    }
}

/* Full_Threats, in index order: attacker colour, attacker type, attacked colour, attacked
 * type, from, to, each ascending in the turned frame. */
NN_INLINE void nn_threats(nn_row *r, int32_t offset, const nn_view *v, const df__nnue_tables *tb,
                          const df__sliders sl)
{
    const df_bb targets = v->occ & ~(v->pc[0][DF_KING] | v->pc[1][DF_KING]);
    for (int ac = 0; ac < DF_COLORS; ac++) {
        /* Pawns: set-wise, the pawns that capture a target of each kept kind. */
        const df_bb pawns = v->pc[ac][DF_PAWN];
        for (int dc = 0; pawns && dc < DF_COLORS; dc++)
            for (int u = DF_KNIGHT; u <= DF_ROOK; u += DF_ROOK - DF_KNIGHT) {
                const df_bb hit = v->pc[dc][u];
                df_bb from = df_pawns_able_to_capture(pawns, hit, (df_color)ac);
                const int32_t base = offset + tb->group[DF_PAWN][dc][u];
                while (from) {
                    const df_square s = df_pop_lsb(&from);
                    const df_bb reach = tb->reach[ac][DF_PAWN][s];
                    nn_hits(r, base + tb->from_base[ac][DF_PAWN][s], reach, reach & hit);
                }
            }
        /* Pieces: each one's attack set once, then met with each kept kind of target. */
        for (int t = DF_KNIGHT; t < DF__NNUE_ATTACKERS; t++) {
            df_bb pieces = v->pc[ac][t];
            if (!pieces) continue;
            df_square from[64];
            df_bb att[64], any = 0;
            int k = 0;
            while (pieces) {
                const df_square s = df_pop_lsb(&pieces);
                df_bb a = 0;
                if (t == DF_KNIGHT) a = df_knight_table[s];
                if (t == DF_BISHOP || t == DF_QUEEN) a |= mg_bishop(s, v->occ, sl);
                if (t == DF_ROOK || t == DF_QUEEN) a |= mg_rook(s, v->occ, sl);
                from[k] = s;
                att[k] = a & targets;
                any |= att[k++];
            }
            for (int dc = 0; any && dc < DF_COLORS; dc++)
                for (int u = DF_PAWN; u < DF__NNUE_ATTACKERS; u++) {
                    const df_bb hit = v->pc[dc][u] & any;
                    if (!hit || tb->group[t][dc][u] < 0) continue;
                    const int32_t base = offset + tb->group[t][dc][u];
                    for (int i = 0; i < k; i++) {
                        df_bb h = att[i] & hit;
                        /* Two pieces of one type count once: from the higher square. */
                        if (u == t) h &= df_square_bb(from[i]) - 1;
                        if (h)
                            nn_hits(r, base + tb->from_base[ac][t][from[i]],
                                    tb->reach[ac][t][from[i]], h);
                    }
                }
        }
    }
}

/* PP_3Wide: pawn ids 0..47 the perspective's (square - 8), 48..95 the enemy's; each pair
 * once as hi * (hi - 1) / 2 + lo, ascending by hi then lo. */
NN_INLINE void nn_pawn_pairs(nn_row *r, int32_t offset, const nn_view *v)
{
    const df_bb ranks = ~(DF_RANK_1 | DF_RANK_8);
    const df_bb own = v->pc[0][DF_PAWN] & ranks, enemy = v->pc[1][DF_PAWN] & ranks;
    for (int c = 0; c < DF_COLORS; c++) {
        df_bb pawns = c ? enemy : own;
        while (pawns) {
            const df_square s = df_pop_lsb(&pawns);
            const df_bb file = DF_FILE_A << (s & 7);
            const df_bb near = file | ((file << 1) & DF_NOT_A) | ((file >> 1) & DF_NOT_H);
            const int32_t hi = 48 * c + (int32_t)s - 8, base = offset + hi * (hi - 1) / 2;
            df_bb lower = df_square_bb(s) - 1;
            for (int lc = 0; lc <= c; lc++) {
                df_bb mates = near & (lc ? enemy : own) & (lc == c ? lower : ~(df_bb)0);
                while (mates) nn_put(r, base + 48 * lc + (int32_t)df_pop_lsb(&mates) - 8);
            }
        }
    }
}

/* HalfKAv2_hm: in its own frame (mirrored when the king is on files a-d), by plane then
 * square. */
NN_INLINE void nn_halfka(nn_row *r, int32_t offset, const df_board *b, df_color persp, nn_turn t)
{
    const df_square k = df_lsb(nn_turned(b->color[persp] & b->piece[DF_KING], t));
    const int32_t bucket = (7 - df_rank_of(k)) * 4 + (7 - df_file_of(k));
    for (int type = 0; type < DF_PIECE_TYPES; type++)
        for (int rc = 0; rc < DF_COLORS; rc++) {
            df_bb set = nn_turned(b->color[persp ^ rc] & b->piece[type], t);
            const int32_t base = offset + 64 * (2 * type + rc) + 768 * bucket;
            while (set) nn_put(r, base + (int32_t)df_pop_lsb(&set));
        }
}

/* The set's features of b for persp into out (room); returns how many there are. */
NN_INLINE size_t nn_features(int32_t *out, size_t room, const df_board *b, df_color persp,
                             const df_nnue_set *set, const df__nnue_tables *tb,
                             const df__sliders sl)
{
    nn_row r = {out, 0, room};
    const bool east = df_file_of(df_board_king(b, persp)) >= 4;
    const nn_turn threat_turn = {persp == DF_BLACK, east}, halfka_turn = {persp == DF_BLACK, !east};
    /* Full_Threats and PP_3Wide share one view (HalfKAv2_hm turns the other way). */
    bool threat_frame = false;
    for (int i = 0; i < set->count; i++) threat_frame |= set->parts[i] != DF_NNUE_HALFKAV2_HM;
    nn_view v = {{{0}}, 0};
    if (threat_frame) nn_view_of(&v, b, persp, threat_turn);
    int32_t offset = 0;
    for (int i = 0; i < set->count; i++) {
        const df_nnue_part part = (df_nnue_part)set->parts[i];
        if (part == DF_NNUE_HALFKAV2_HM) {
            nn_halfka(&r, offset, b, persp, halfka_turn);
            offset += DF__NNUE_HALFKA_INPUTS;
        } else if (part == DF_NNUE_FULL_THREATS) {
            nn_threats(&r, offset, &v, tb, sl);
            offset += DF__NNUE_THREAT_INPUTS;
        } else {
            nn_pawn_pairs(&r, offset, &v);
            offset += DF__NNUE_PAIRS_INPUTS;
        }
    }
    return r.n;
}

/* Rows of n positions, padded with -1; returns the positions with a row cut. */
NN_INLINE size_t nn_batch(int32_t *white, int32_t *black, size_t width, const df_board *boards,
                          size_t n, const df_nnue_set *set, const df__nnue_tables *tb,
                          const df__sliders sl)
{
    size_t cut = 0;
    for (size_t i = 0; i < n; i++) {
        bool over = false;
        for (int c = 0; c < DF_COLORS; c++) {
            int32_t *row = (c ? black : white) + i * width;
            const size_t got = nn_features(row, width, &boards[i], (df_color)c, set, tb, sl);
            for (size_t j = got; j < width; j++) row[j] = -1;
            over |= got > width;
        }
        cut += over;
    }
    return cut;
}

/* One instance of each per lookup method (MG_SLIDERS), the method a constant inside. */
#define NN_DEFINE(name, method)                                                                    \
    static size_t nn_features_##name(int32_t *out, size_t room, const df_board *b, df_color persp, \
                                     const df_nnue_set *set, const df__nnue_tables *tb)            \
    {                                                                                              \
        return nn_features(out, room, b, persp, set, tb, method);                                  \
    }                                                                                              \
    static size_t nn_batch_##name(int32_t *white, int32_t *black, size_t width,                    \
                                  const df_board *boards, size_t n, const df_nnue_set *set,        \
                                  const df__nnue_tables *tb)                                       \
    {                                                                                              \
        return nn_batch(white, black, width, boards, n, set, tb, method);                          \
    }
MG_SLIDERS(NN_DEFINE)
#undef NN_DEFINE

/* The set must be valid (nnue/features.c checks it). */
static size_t k_nnue_features(int32_t *out, size_t room, const df_board *b, df_color persp,
                              const df_nnue_set *set)
{
    const df__nnue_tables *tb = df__nnue_tables_get();
    switch (df__sliders_active()) {
#define NN_CALL(name, method)                                                                      \
    case method:                                                                                   \
        return nn_features_##name(out, room, b, persp, set, tb);
        MG_SLIDERS(NN_CALL)
#undef NN_CALL
    default:
        __builtin_unreachable(); /* df__sliders_active names a compiled method */
    }
}

static size_t k_nnue_batch(int32_t *white, int32_t *black, size_t width, const df_board *boards,
                           size_t n, const df_nnue_set *set)
{
    const df__nnue_tables *tb = df__nnue_tables_get();
    switch (df__sliders_active()) {
#define NN_CALL(name, method)                                                                      \
    case method:                                                                                   \
        return nn_batch_##name(white, black, width, boards, n, set, tb);
        MG_SLIDERS(NN_CALL)
#undef NN_CALL
    default:
        __builtin_unreachable(); /* df__sliders_active names a compiled method */
    }
}
