/* SPDX-License-Identifier: MIT */
/* Internal: bit-sliced (carry-save) counting of disjoint-per-source attack sets. */
#ifndef DF_SRC_FILL_BITSLICE_H
#define DF_SRC_FILL_BITSLICE_H

#include "dirfill.h"

/* The 19 sets one side's attacker count adds up, by index: in one direction each square has
 * at most one attacker, so each set holds each square at most once. */
enum {
    DF__IN_RAYS = 0,       /* 8 ray directions, indexed by df_dir */
    DF__IN_KNIGHT = 8,     /* 8 knight jumps */
    DF__IN_PAWN_EAST = 16, /* pawn captures toward the h-file */
    DF__IN_PAWN_WEST = 17, /* toward the a-file */
    DF__IN_KING = 18,      /* the king */
    DF__COUNT_INPUTS = 19
};

/* Full adder on bitboards: three one-bit inputs per square give a sum and a carry. */
#define DF__FA(a, b, c, sum, carry)                                                                \
    do {                                                                                           \
        const df_bb u_ = (a) ^ (b);                                                                \
        sum = u_ ^ (c);                                                                            \
        carry = ((a) & (b)) | (u_ & (c));                                                          \
    } while (0)

/* Counts, per square, how many of the 19 sets hold it, as DF_COUNT_BITS planes. A fixed
 * carry-save tree: 14 full adders and 2 half adders. */
static inline void df__count19(df_bb planes[DF_COUNT_BITS], const df_bb in[DF__COUNT_INPUTS])
{
    df_bb s1, s2, s3, s4, s5, s6, c1, c2, c3, c4, c5, c6;
    DF__FA(in[0], in[1], in[2], s1, c1);
    DF__FA(in[3], in[4], in[5], s2, c2);
    DF__FA(in[6], in[7], in[8], s3, c3);
    DF__FA(in[9], in[10], in[11], s4, c4);
    DF__FA(in[12], in[13], in[14], s5, c5);
    DF__FA(in[15], in[16], in[17], s6, c6);
    df_bb t1, t2, d1, d2, d3;
    DF__FA(s1, s2, s3, t1, d1);
    DF__FA(s4, s5, s6, t2, d2);
    DF__FA(t1, t2, in[18], planes[0], d3);
    df_bb u1, u2, u3, e1, e2, e3, e4;
    DF__FA(c1, c2, c3, u1, e1);
    DF__FA(c4, c5, c6, u2, e2);
    DF__FA(d1, d2, d3, u3, e3);
    DF__FA(u1, u2, u3, planes[1], e4);
    df_bb v1, f1;
    DF__FA(e1, e2, e3, v1, f1);
    planes[2] = v1 ^ e4;
    const df_bb f2 = v1 & e4;
    planes[3] = f1 ^ f2;
    planes[4] = f1 & f2;
}

#endif
