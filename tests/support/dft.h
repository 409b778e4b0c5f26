/* SPDX-License-Identifier: MIT */
/* Test support: seeded random inputs, 8x8 diagrams on failure, backends (the compiled ones
 * and the emulated builds), test data. The only include directory of the tests besides the
 * public headers. */
#ifndef DFT_H
#define DFT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "dirfill.h"

/* DFT_SANITIZED: built with a sanitizer (GCC says so with __SANITIZE_*__, clang with
 * __has_feature), which reserves more address space than a test's resource limit allows. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define DFT_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                         \
    __has_feature(memory_sanitizer)
#define DFT_SANITIZED 1
#endif
#endif

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
/* The n-th output (from 1) of the skip predicate's generator (src/nnue/mt19937_64.h) seeded
 * with seed. */
uint64_t dft_mt19937_64_nth(uint64_t seed, unsigned n);
/* The first n outputs of std::mt19937_64 seeded with seed, into out. */
void dft_mt19937_64_first(uint64_t *out, size_t n, uint64_t seed);

/* A random board with one king per side (adjacent in one board of 64), any side to move,
 * density from sparse to crowded; castling and en passant empty; key computed. */
void dft_rand_board(df_board *b);
/* A random position reached by legal play: from a CPW position or a Chess960 start, a random
 * number of random legal moves (castling, en passant and promotions all happen). */
void dft_rand_game_position(df_board *b);
/* A playable position: reached in play when i is odd, else a random board; false when that
 * board is not playable (the caller skips it). */
bool dft_rand_playable(df_board *b, long i);

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

/* Selects the backend named by DIRFILL_BACKEND for the whole run; "avx2emu" and "avx512emu"
 * are the SIMDe builds without the ISA flags. Exits 77 (CTest: skipped) with the reason when
 * the CPU cannot run it. Call first in main. */
void dft_setup_backend(void);
/* The name of the backend the run checks. */
const char *dft_backend(void);
/* Every backend this CPU runs, emulated ones included: how many, and the name of each. */
size_t dft_backend_count(void);
const char *dft_backend_at(size_t i);
/* Makes every dispatched call use the named backend (any of dft_backend_at). */
void dft_use(const char *name);

/* The lookup rule (src/lookup/lookup.c) for a CPU described by hand: vendor 0 other,
 * 1 Intel, 2 AMD; family as cpuid displays it. Whether PEXT counts as fast there, and the
 * name of the method "auto" picks. */
bool dft_pext_is_fast(int vendor, unsigned family, bool bmi2);
const char *dft_lookup_for(int vendor, unsigned family, bool bmi2);
/* The method "auto" picks on this CPU. */
const char *dft_lookup_auto(void);
/* Every compiled lookup method: how many, the name of each and whether this CPU runs it. */
size_t dft_lookup_count(void);
const char *dft_lookup_at(size_t i, bool *supported);

/* A board from a FEN (standard or Chess960), failing the test on a bad one. */
df_board dft_fen(const char *fen);
df_board dft_fen960(const char *fen);

/* One entry of a perft suite file: a FEN and its node counts, nodes[d] at depth d. */
typedef struct dft_epd {
    char fen[128];
    uint64_t nodes[8];
} dft_epd;
/* Reads tests/data/<name> (`FEN ;D1 20 ;D2 400 ...` lines); returns the entries (free them). */
dft_epd *dft_epd_load(const char *name, size_t *count);

/* size bytes whose address is offset bytes past a multiple of 64 (offset a multiple of 8):
 * heap buffers aligned exactly as a caller's malloc or numpy may give them. Free *base. */
void *dft_alloc_at(size_t size, size_t offset, void **base);

/* Memory read through a function (df_source_from_function, df_nnue_reader_from_function):
 * at most piece bytes a read (0: all that is asked), and an error (-1) from byte fail_at on
 * (DFT_NEVER: none). */
enum { DFT_NEVER = -1 };
typedef struct {
    const void *p;
    size_t len, pos, piece, fail_at;
} dft_memory;
long dft_memory_read(void *ctx, char *buf, size_t size);

/* The whole file at path, NUL-terminated (its bytes in *len), in new memory (a cmocka failure
 * when it cannot be read). */
char *dft_read_file(const char *path, size_t *len);

/* The names in folder, sorted, joined by spaces ("" when empty), into out. */
void dft_folder_names(const char *folder, char *out, size_t size);
/* Fails the test unless folder holds exactly the names want lists (dft_folder_names' form). */
void dft_assert_folder(const char *folder, const char *want);

#endif
