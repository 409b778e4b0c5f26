/* The rectangular in-between and line tables, as compile-time constants: no init call,
 * no race, read-only data shared by every process that maps the library. */
#include "dirfill/between.h"

/* Line through a and b: the rank, file, diagonal or anti-diagonal holding both. */
#define DF__LINE(a, b)                                                                             \
    ((a) == (b)                                     ? DF_EMPTY                                     \
     : ((a)&7) == ((b)&7)                           ? DF_FILE_A << ((a)&7)                         \
     : ((a) >> 3) == ((b) >> 3)                     ? DF_RANK_1 << ((a)&56)                        \
     : ((a)&7) - ((a) >> 3) == ((b)&7) - ((b) >> 3) ? DF_DIAGONAL_OF(a)                            \
     : ((a)&7) + ((a) >> 3) == ((b)&7) + ((b) >> 3) ? DF_ANTI_DIAGONAL_OF(a)                       \
                                                    : DF_EMPTY)

#define DF__ROW8(F, a, b0)                                                                         \
    F(a, b0), F(a, b0 + 1), F(a, b0 + 2), F(a, b0 + 3), F(a, b0 + 4), F(a, b0 + 5), F(a, b0 + 6),  \
        F(a, b0 + 7)
#define DF__ROW(F, a)                                                                              \
    {                                                                                              \
        DF__ROW8(F, a, 0), DF__ROW8(F, a, 8), DF__ROW8(F, a, 16), DF__ROW8(F, a, 24),              \
            DF__ROW8(F, a, 32), DF__ROW8(F, a, 40), DF__ROW8(F, a, 48), DF__ROW8(F, a, 56)         \
    }
#define DF__ROWS8(F, a0)                                                                           \
    DF__ROW(F, a0), DF__ROW(F, a0 + 1), DF__ROW(F, a0 + 2), DF__ROW(F, a0 + 3),                    \
        DF__ROW(F, a0 + 4), DF__ROW(F, a0 + 5), DF__ROW(F, a0 + 6), DF__ROW(F, a0 + 7)
#define DF__TABLE(F)                                                                               \
    {                                                                                              \
        DF__ROWS8(F, 0), DF__ROWS8(F, 8), DF__ROWS8(F, 16), DF__ROWS8(F, 24), DF__ROWS8(F, 32),    \
            DF__ROWS8(F, 40), DF__ROWS8(F, 48), DF__ROWS8(F, 56)                                   \
    }

const df_bb df_between_table[64][64] = DF__TABLE(DF_BETWEEN_CALC);
const df_bb df_line_table[64][64] = DF__TABLE(DF__LINE);
