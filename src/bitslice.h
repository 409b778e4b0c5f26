/* Internal: bit-sliced (carry-save) counting of disjoint-per-source attack sets. */
#ifndef DF_SRC_BITSLICE_H
#define DF_SRC_BITSLICE_H

#include "dirfill/board.h"

/* Adds n one-bit sets into DF_COUNT_BITS planes with full adders taken in FIFO order, so the
 * adders form a balanced tree (short dependency chains) rather than a ripple. in[] is used
 * as scratch and must hold 2 * n entries. */
static inline void df__bitslice_count(df_bb planes[DF_COUNT_BITS], df_bb *in, int n)
{
    df_bb carries[32];
    for (int k = 0; k < DF_COUNT_BITS; k++) {
        int head = 0, tail = n, nc = 0;
        while (tail - head >= 3) {
            df_bb a = in[head], b = in[head + 1], c = in[head + 2], u = a ^ b;
            head += 3;
            in[tail++] = u ^ c;
            carries[nc++] = (a & b) | (u & c);
        }
        if (tail - head == 2) {
            planes[k] = in[head] ^ in[head + 1];
            carries[nc++] = in[head] & in[head + 1];
        } else {
            planes[k] = tail > head ? in[head] : 0;
        }
        for (int i = 0; i < nc; i++) in[i] = carries[i];
        n = nc;
    }
}

#endif
