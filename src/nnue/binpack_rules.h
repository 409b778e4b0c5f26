/* SPDX-License-Identifier: MIT */
/* Internal: the .binpack rules its reader and writer share (nnue-pytorch's, SPEC a.4-a.5): the
 * stem's layout, zigzag numbers, index widths, their 16-bit move, and the destination sets a
 * movetext item indexes into. The sets must be exactly theirs (pseudo-legal, the en-passant
 * square df_nnue_ep_square keeps, the castling rights held): one square more or less changes a
 * width and every bit after it. */
#ifndef DF_SRC_NNUE_BINPACK_RULES_H
#define DF_SRC_NNUE_BINPACK_RULES_H

#include "nnue/internal.h"

enum {
    DF__STEM_BYTES = 32,                 /* occupancy, nibbles, move, score, ply+result, rule50 */
    DF__CHAIN_HEAD = DF__STEM_BYTES + 2, /* and the number of plies after it */
    DF__HEADER_BYTES = 8,                /* "BINP" and the little-endian size */
    DF__NIBBLE_EP_PAWN = 12,             /* a pawn that just moved two squares */
    DF__NIBBLE_WHITE_CASTLE_ROOK = 13,   /* a white rook with its castling right */
    DF__NIBBLE_BLACK_CASTLE_ROOK = 14,   /* a black rook with its castling right */
    DF__NIBBLE_BLACK_KING_TO_MOVE = 15,  /* the black king, black to move */
    DF__SCORE_BLOCK = 4,                 /* data bits of a score group (and one flag bit) */
    DF__SCORE_GROUPS_MAX = 4             /* groups of a 16-bit value */
};

/* Bits of an index in [0, n): 0 for n <= 1, else the bit length of n - 1. */
static inline unsigned df__bp_width(unsigned n)
{
    return n <= 1 ? 0u : 32u - (unsigned)__builtin_clz(n - 1);
}

static inline uint16_t df__bp_zigzag(int16_t v)
{
    return (uint16_t)((uint16_t)((uint16_t)v << 1) ^ (v < 0 ? 0xffffu : 0u));
}
static inline int16_t df__bp_unzigzag(uint16_t u) { return (int16_t)((u >> 1) ^ (0u - (u & 1u))); }

/* Their move kinds (normal, promotion, castle, en passant) are df_move's with the last two
 * swapped: the map is its own inverse. */
static inline unsigned df__bp_kind(unsigned kind) { return kind < 2 ? kind : kind ^ 1; }

/* Their 16-bit move: kind (15-14), from (13-8), to (7-2), promotion piece - knight (1-0). */
static inline uint16_t df__bp_move_pack(df_move m)
{
    const unsigned kind = df_move_kind_of(m);
    return (uint16_t)(df__bp_kind(kind) << 14 | (unsigned)df_move_from(m) << 8 |
                      (unsigned)df_move_to(m) << 2 |
                      (kind == DF_MOVE_PROMOTION ? (m >> 12) & 3 : 0));
}
static inline df_move df__bp_move_unpack(uint16_t p)
{
    const df_move_kind kind = (df_move_kind)df__bp_kind(p >> 14);
    return df_move_make((df_square)((p >> 8) & 63), (df_square)((p >> 2) & 63), kind,
                        (df_piece_type)(DF_KNIGHT + (p & 3)));
}

/* Where a pawn of us on from may go: captures of their pieces and of the en-passant square ep
 * (DF_SQUARE_NONE: none), the push to an empty square and from the start rank the double
 * push over two. */
static inline df_bb df__bp_pawn_targets(const df_board *b, df_square from, df_color us,
                                        df_square ep)
{
    const df_bb occ = df_board_occupied(b);
    df_bb d = df_pawn_table[us][from] & (b->color[us ^ 1] | (ep < 64 ? df_square_bb(ep) : 0));
    const int push = df_pawn_push_delta(us);
    const df_square one = (df_square)((int)from + push);
    if (!df_has(occ, one)) {
        d |= df_square_bb(one);
        if (df_rank_of(from) == (us ? 6 : 1) && !df_has(occ, (df_square)((int)one + push)))
            d |= df_square_bb((df_square)((int)one + push));
    }
    return d;
}

/* Where a knight, bishop, rook or queen of us on from may go: not onto its own pieces. */
static inline df_bb df__bp_piece_targets(const df_board *b, df_square from, df_piece_type t,
                                         df_color us)
{
    const df_bb occ = df_board_occupied(b);
    const df_bb reach = t == DF_KNIGHT   ? df_knight_table[from]
                        : t == DF_BISHOP ? df_square_bishop_attacks(from, occ)
                        : t == DF_ROOK   ? df_square_rook_attacks(from, occ)
                                         : df_square_queen_attacks(from, occ);
    return reach & ~b->color[us];
}

/* How many bytes of counts (each at most 64) are at most n (at most 63): (0x80 + n) - count
 * keeps its high bit exactly when count <= n, and borrows nothing from the next byte. */
static inline unsigned df__bp_bytes_at_most(uint64_t counts, unsigned n)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), highs = ones << 7;
    const uint64_t at_most = ((((uint64_t)n * ones) | highs) - counts) & highs;
    return (unsigned)((at_most >> 7) * ones >> 56);
}

/* The square of s's bit number n (lowest first, n below s's count): no loop, whose trip count
 * changes from item to item and whose exit is mispredicted. The bit's byte is the number of
 * bytes whose running count of bits is at most n; its place in the byte, likewise, from the
 * running counts of the byte's bits spread one to a byte. */
static inline df_square df__bp_nth(df_bb s, unsigned n)
{
    const uint64_t ones = UINT64_C(0x0101010101010101);
    uint64_t c = s - ((s >> 1) & UINT64_C(0x5555555555555555));
    c = (c & UINT64_C(0x3333333333333333)) + ((c >> 2) & UINT64_C(0x3333333333333333));
    c = (c + (c >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    const uint64_t running = c * ones;
    const unsigned byte = df__bp_bytes_at_most(running, n);
    const unsigned before = (unsigned)(running << 8 >> (8 * byte)) & 255;
    const uint64_t spread = (s >> (8 * byte) & 255) * ones & UINT64_C(0x8040201008040201);
    const uint64_t bits = ((spread + UINT64_C(0x7f7f7f7f7f7f7f7f)) >> 7 & ones) * ones;
    return (df_square)(8 * byte + df__bp_bytes_at_most(bits, n - before));
}

/* The position's castling rights of us: how many (0-2), and whether the long one is held. */
static inline unsigned df__bp_castlings(const df_board *b, df_color us)
{
    return (unsigned)df_popcount(b->castling & df_castle_rights_of(us));
}
static inline bool df__bp_long_right(const df_board *b, df_color us)
{
    return b->castling & (us ? DF_CASTLE_BQ : DF_CASTLE_WQ);
}

#endif
