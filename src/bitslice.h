/* Internal: bit-sliced (carry-save) counting of disjoint-per-source attack sets. */
#ifndef DF_SRC_BITSLICE_H
#define DF_SRC_BITSLICE_H

#include "dirfill/board.h"

/* Full adder on bitboards: three one-bit inputs per square give a sum and a carry. */
#define DF__FA(a, b, c, sum, carry)                                                                \
    do {                                                                                           \
        const df_bb u_ = (a) ^ (b);                                                                \
        sum = u_ ^ (c);                                                                            \
        carry = ((a) & (b)) | (u_ & (c));                                                          \
    } while (0)

/* Counts, per square, how many of the 19 sets hold it (one side's 8 ray directions,
 * 8 knight jumps, 2 pawn directions and the king: at most 19), as DF_COUNT_BITS planes.
 * A fixed carry-save tree: 13 full adders and 2 half adders, four levels deep. */
static inline void df__count19(df_bb planes[DF_COUNT_BITS], const df_bb in[19])
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
