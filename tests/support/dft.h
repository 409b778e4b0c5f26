/* Test support: seeded random bitboards, 8x8 diagrams on failure, backend selection. */
#ifndef DFT_H
#define DFT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "dirfill.h"

#ifndef DFT_ITERATIONS
#define DFT_ITERATIONS 1000000
#endif

/* Seed of every random test; DFT_SEED in the environment overrides it. Printed on failure. */
extern uint64_t dft_seed;
void dft_srand(uint64_t seed);
uint64_t dft_rand(void);
/* A bitboard whose density varies call to call (sparse through dense), so fills both run
 * long and get blocked. */
df_bb dft_rand_bb(void);
/* A random board with one king per side (adjacent in one board of 64), any side to move,
 * density from sparse to crowded. */
void dft_rand_board(df_board *b);

/* Prints both boards as 8x8 diagrams side by side, with a context line and the seed. */
void dft_report_bb(const char *file, int line, const char *what, df_bb expected, df_bb actual,
                   const char *fmt, ...);
#define DFT_ASSERT_BB(expected, actual, ...)                                                       \
    do {                                                                                           \
        df_bb e_ = (expected), a_ = (actual);                                                      \
        if (e_ != a_) {                                                                            \
            dft_report_bb(__FILE__, __LINE__, #actual, e_, a_, __VA_ARGS__);                       \
            fail();                                                                                \
        }                                                                                          \
    } while (0)

/* Selects the backend named by DIRFILL_BACKEND for the whole run ("avx2emu": the SIMDe
 * build without -mavx2). Exits 77 (CTest: skipped) with the reason when the CPU cannot run
 * it. Call first in main. */
void dft_setup_backend(void);
/* The name of the backend the run checks. */
const char *dft_backend(void);

df_board dft_fen(const char *fen);

#endif
