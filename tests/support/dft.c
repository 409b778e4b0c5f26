#include "dft.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/backend.h"

extern const df__backend df__backend_avx2emu;

uint64_t dft_seed = UINT64_C(0x5eed0f0d1f111e5);
static uint64_t dft_state;

void dft_srand(uint64_t seed) { dft_state = seed; }

uint64_t dft_rand(void)
{
    uint64_t z = (dft_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

df_bb dft_rand_bb(void)
{
    uint64_t r = dft_rand();
    switch (dft_rand() & 7) {
    case 0:
        return r & dft_rand() & dft_rand() & dft_rand();
    case 1:
        return r & dft_rand() & dft_rand();
    case 2:
        return r & dft_rand();
    case 3:
        return r;
    case 4:
        return r | dft_rand();
    case 5:
        return UINT64_C(1) << (r & 63);
    case 6:
        return (UINT64_C(1) << (r & 63)) | (UINT64_C(1) << ((r >> 8) & 63));
    default:
        return (0 - (dft_rand() & 1)) ^ (r & dft_rand() & dft_rand());
    }
}

void dft_rand_board(df_board *b)
{
    memset(b, 0, sizeof *b);
    b->ep = DF_SQUARE_NONE;
    b->fullmove = 1;
    /* Kings one step apart in one board of 64: not legal, but analysed like any other. */
    int wk = (int)(dft_rand() & 63), bk;
    const bool adjacent = (dft_rand() & 63) == 0;
    do bk = (int)(dft_rand() & 63);
    while (bk == wk || adjacent != ((df_king_attacks(df_square_bb(wk)) >> bk) & 1));
    b->color[0] = df_square_bb(wk);
    b->color[1] = df_square_bb(bk);
    b->piece[DF_KING] = b->color[0] | b->color[1];
    int density = 4 + (int)(dft_rand() % 40);
    for (int sq = 0; sq < 64; sq++) {
        if ((b->piece[DF_KING] >> sq) & 1) continue;
        if ((int)(dft_rand() % 64) >= density) continue;
        int type = (int)(dft_rand() % 5), color = (int)(dft_rand() & 1);
        if (type == DF_PAWN && (sq < 8 || sq >= 56)) type = DF_QUEEN - (int)(dft_rand() % 3);
        b->color[color] |= df_square_bb(sq);
        b->piece[type] |= df_square_bb(sq);
    }
    b->stm = (uint8_t)(dft_rand() & 1);
}

void dft_report_bb(const char *file, int line, const char *what, df_bb expected, df_bb actual,
                   const char *fmt, ...)
{
    char ctx[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx, sizeof ctx, fmt, ap);
    va_end(ap);
    print_error("%s:%d: %s differs (%s; backend %s; seed 0x%llx)\n", file, line, what, ctx,
                dft_backend(), (unsigned long long)dft_seed);
    print_error("  expected 0x%016llx        actual 0x%016llx\n", (unsigned long long)expected,
                (unsigned long long)actual);
    for (int rank = 7; rank >= 0; rank--) {
        char row[80];
        int n = snprintf(row, sizeof row, "  %d ", rank + 1);
        for (int f = 0; f < 8; f++)
            n += snprintf(row + n, sizeof row - n, " %c",
                          (expected >> (rank * 8 + f)) & 1 ? '1' : '.');
        n += snprintf(row + n, sizeof row - n, "       %d ", rank + 1);
        for (int f = 0; f < 8; f++)
            n += snprintf(row + n, sizeof row - n, " %c",
                          (actual >> (rank * 8 + f)) & 1 ? '1' : '.');
        print_error("%s\n", row);
    }
    print_error("     a b c d e f g h          a b c d e f g h\n");
}

static const df__backend *dft_tested;

void dft_setup_backend(void)
{
    const char *seed = getenv("DFT_SEED");
    if (seed) dft_seed = strtoull(seed, NULL, 0);
    dft_srand(dft_seed);
    const char *want = getenv("DIRFILL_BACKEND");
    if (want && strcmp(want, "avx2emu") == 0) {
        df__backend_force(&df__backend_avx2emu);
    } else if (want && strcmp(want, "auto") != 0) {
        df_status s = df_backend_select(want);
        if (s == DF_ERR_UNSUPPORTED_BACKEND) {
            printf("SKIPPED: this CPU cannot run the %s backend\n", want);
            exit(77);
        }
        if (s != DF_OK) {
            fprintf(stderr, "unknown backend %s\n", want);
            exit(1);
        }
    }
    dft_tested = df__backend_active();
    printf("backend under test: %s, seed 0x%llx\n", dft_tested->name, (unsigned long long)dft_seed);
}

const char *dft_backend(void) { return dft_tested ? dft_tested->name : df_backend_name(); }

df_board dft_fen(const char *fen)
{
    df_board b;
    df_fen_error err;
    if (df_fen_parse(&b, fen, strlen(fen), &err) != DF_OK) {
        print_error("bad test FEN \"%s\": %s\n", fen, err.message);
        fail();
    }
    return b;
}
