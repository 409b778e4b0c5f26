/* SPDX-License-Identifier: MIT */
#define _DEFAULT_SOURCE /* scandir, alphasort */
#include "dft.h"

#include <dirent.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "lookup/lookup.h"
#include "nnue/mt19937_64.h"
#include "splitmix64.h"

#if DFT_EMULATED
extern const df__backend df__backend_avx2emu, df__backend_avx512emu;
#endif

uint64_t dft_seed = UINT64_C(0x5eed0f0d1f111e5);
static uint64_t dft_state;

void dft_srand(uint64_t seed) { dft_state = seed; }

uint64_t dft_rand(void) { return splitmix64_next(&dft_state); }

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
    uint64_t pieces[12] = {0};
    /* Kings one step apart in one board of 64: not legal, but analysed like any other. */
    const df_square wk = (df_square)(dft_rand() & 63);
    const bool adjacent = (dft_rand() & 63) == 0;
    df_square bk;
    do bk = (df_square)(dft_rand() & 63);
    while (bk == wk || adjacent != df_has(df_king_table[wk], bk));
    pieces[df_piece_index(DF_WHITE, DF_KING)] = df_square_bb(wk);
    pieces[df_piece_index(DF_BLACK, DF_KING)] = df_square_bb(bk);
    const int density = 4 + (int)(dft_rand() % 40);
    for (int s = 0; s < 64; s++) {
        const df_square sq = (df_square)s;
        if (sq == wk || sq == bk || (int)(dft_rand() % 64) >= density) continue;
        df_piece_type type = (df_piece_type)(dft_rand() % 5);
        const df_color color = (df_color)(dft_rand() & 1);
        if (type == DF_PAWN && df_has(DF_RANK_1 | DF_RANK_8, sq))
            type = (df_piece_type)(DF_QUEEN - (int)(dft_rand() % 3));
        pieces[df_piece_index(color, type)] |= df_square_bb(sq);
    }
    if (df_board_from_pieces(b, pieces, (df_color)(dft_rand() & 1)) != DF_OK) abort();
}

void dft_rand_game_position(df_board *b)
{
    static const char *const starts[] = {
        DF_FEN_START,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 1",
        "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 0 1",
        "rkr5/8/8/8/8/8/8/RKR5 w ACac - 0 1",
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
    };
    const size_t n = sizeof starts / sizeof starts[0], pick = dft_rand() % n;
    *b = pick >= 6 ? dft_fen960(starts[pick]) : dft_fen(starts[pick]);
    const int plies = (int)(dft_rand() % 60);
    for (int ply = 0; ply < plies; ply++) {
        df_move_list list;
        df_generate_legal(&list, b);
        if (!list.count) break;
        /* Prefer the rare moves now and then, so that they happen often enough. */
        df_move m = list.moves[dft_rand() % list.count];
        if (dft_rand() % 4 == 0)
            for (uint32_t i = 0; i < list.count; i++)
                if (df_move_kind_of(list.moves[i]) != DF_MOVE_NORMAL) m = list.moves[i];
        df_make_move(b, b, m);
    }
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
            n += snprintf(row + n, sizeof row - (size_t)n, " %c",
                          (expected >> (rank * 8 + f)) & 1 ? '1' : '.');
        n += snprintf(row + n, sizeof row - (size_t)n, "       %d ", rank + 1);
        for (int f = 0; f < 8; f++)
            n += snprintf(row + n, sizeof row - (size_t)n, " %c",
                          (actual >> (rank * 8 + f)) & 1 ? '1' : '.');
        print_error("%s\n", row);
    }
    print_error("     a b c d e f g h          a b c d e f g h\n");
}

/* The registry's supported backends, then the emulated builds (which run anywhere). */
static const df__backend **dft_all;
static size_t dft_nall;
static const char *dft_tested;

static void dft_list_backends(void)
{
    if (dft_nall) return;
    size_t n;
    const df__backend *const *registry = df__backend_registry(&n);
#if DFT_EMULATED
    static const df__backend *const emulated[] = {&df__backend_avx2emu, &df__backend_avx512emu};
    const size_t nemulated = sizeof emulated / sizeof emulated[0];
#else
    static const df__backend *const emulated[1] = {NULL};
    const size_t nemulated = 0; /* the sanitizer presets build none (tests/CMakeLists.txt) */
#endif
    dft_all = malloc((n + nemulated) * sizeof *dft_all);
    if (!dft_all) abort();
    for (size_t i = 0; i < n; i++)
        if (registry[i]->cpu_supports()) dft_all[dft_nall++] = registry[i];
    for (size_t i = 0; i < nemulated; i++) dft_all[dft_nall++] = emulated[i];
}

size_t dft_backend_count(void)
{
    dft_list_backends();
    return dft_nall;
}

const char *dft_backend_at(size_t i)
{
    dft_list_backends();
    return i < dft_nall ? dft_all[i]->name : NULL;
}

/* The backend of that name, emulated builds included (the registry does not list them). */
static const df__backend *dft_find(const char *name)
{
    dft_list_backends();
    for (size_t i = 0; i < dft_nall; i++)
        if (strcmp(dft_all[i]->name, name) == 0) return dft_all[i];
    return NULL;
}

void dft_use(const char *label)
{
    const df__backend *b = dft_find(label);
    if (!b) {
        fprintf(stderr, "dft_use: no backend %s here\n", label);
        abort();
    }
    df__backend_force(b);
}

void dft_setup_backend(void)
{
    const char *seed = getenv("DFT_SEED");
    if (seed) dft_seed = strtoull(seed, NULL, 0);
    dft_srand(dft_seed);
    const char *want = getenv("DIRFILL_BACKEND");
    const df_status s = want ? df_backend_select(want) : DF_OK;
    if (s == DF_ERR_UNKNOWN_BACKEND && dft_find(want)) {
        dft_use(want);
    } else if (s == DF_ERR_UNSUPPORTED_BACKEND) {
        printf("SKIPPED: this CPU cannot run the %s backend\n", want);
        exit(77);
    } else if (s != DF_OK) {
        printf("SKIPPED: this build or CPU has no %s backend\n", want);
        exit(77);
    }
    const df__backend *tested = df__backend_resolve();
    dft_tested = tested->name;
    printf("backend under test: %s, seed 0x%llx\n", dft_tested, (unsigned long long)dft_seed);
}

bool dft_pext_is_fast(int vendor, unsigned family, bool bmi2)
{
    const df__cpu_desc cpu = {(df__cpu_vendor)vendor, family, bmi2};
    return df__pext_is_fast(&cpu);
}

const char *dft_lookup_for(int vendor, unsigned family, bool bmi2)
{
    const df__cpu_desc cpu = {(df__cpu_vendor)vendor, family, bmi2};
    return df__lookup_for(&cpu)->name;
}

const char *dft_lookup_auto(void)
{
    const df__cpu_desc cpu = df__cpu_describe();
    return df__lookup_for(&cpu)->name;
}

size_t dft_lookup_count(void)
{
    size_t n;
    df__lookup_registry(&n);
    return n;
}

const char *dft_lookup_at(size_t i, bool *supported)
{
    size_t n;
    const df__lookup *const *all = df__lookup_registry(&n);
    *supported = all[i]->cpu_supports();
    return all[i]->name;
}

const char *dft_backend(void) { return dft_tested ? dft_tested : df_backend_name(); }

static df_board dft_parse(const char *fen, df_fen_flags flags)
{
    df_board b;
    df_fen_error err;
    if (df_fen_parse(&b, fen, strlen(fen), flags, &err) != DF_OK) {
        print_error("bad test FEN \"%s\": %s\n", fen, err.message);
        fail();
    }
    return b;
}

df_board dft_fen(const char *fen) { return dft_parse(fen, DF_FEN_STANDARD); }
df_board dft_fen960(const char *fen) { return dft_parse(fen, DF_FEN_CHESS960); }

dft_epd *dft_epd_load(const char *name, size_t *count)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", DFT_DATA_DIR, name);
    FILE *f = fopen(path, "r");
    if (!f) {
        print_error("cannot open %s\n", path);
        fail();
    }
    dft_epd *out = NULL;
    size_t n = 0, cap = 0;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        if (n == cap) out = realloc(out, (cap = cap ? 2 * cap : 64) * sizeof *out);
        dft_epd *e = &out[n++];
        memset(e, 0, sizeof *e);
        char *semi = strchr(line, ';');
        if (!semi) fail_msg("no counts in %s: %s", path, line);
        snprintf(e->fen, sizeof e->fen, "%.*s", (int)(semi - line), line);
        for (char *p = semi; p; p = strchr(p + 1, ';')) {
            int depth;
            unsigned long long nodes;
            if (sscanf(p, ";D%d %llu", &depth, &nodes) != 2 || depth < 1 || depth > 7)
                fail_msg("bad count in %s: %s", path, p);
            e->nodes[depth] = nodes;
        }
    }
    fclose(f);
    *count = n;
    return out;
}

long dft_memory_read(void *ctx, char *buf, size_t size)
{
    dft_memory *m = ctx;
    if (m->pos >= m->fail_at) return -1;
    size_t k = m->len - m->pos;
    if (k > size) k = size;
    if (m->piece && k > m->piece) k = m->piece;
    if (m->pos + k > m->fail_at) k = m->fail_at - m->pos;
    if (!k) return 0; /* p may be null, and null + 0 is undefined */
    memcpy(buf, (const char *)m->p + m->pos, k);
    m->pos += k;
    return (long)k;
}

void *dft_alloc_at(size_t size, size_t offset, void **base)
{
    *base = aligned_alloc(64, ((size + offset + 63) / 64) * 64);
    assert_non_null(*base);
    return (char *)*base + offset;
}

bool dft_rand_playable(df_board *b, long i)
{
    if (i & 1) {
        dft_rand_game_position(b);
        return true;
    }
    dft_rand_board(b);
    return df_board_playable(b);
}

uint64_t dft_mt19937_64_nth(uint64_t seed, unsigned n)
{
    df__mt19937_64 g;
    df__mt_seed(&g, seed);
    uint64_t x = 0;
    for (unsigned i = 0; i < n; i++) x = df__mt_next(&g);
    return x;
}

void dft_mt19937_64_first(uint64_t *out, size_t n, uint64_t seed)
{
    df__mt19937_64 g;
    df__mt_seed(&g, seed);
    for (size_t i = 0; i < n; i++) out[i] = df__mt_next(&g);
}

void dft_folder_names(const char *folder, char *out, size_t size)
{
    struct dirent **list;
    const int n = scandir(folder, &list, NULL, alphasort);
    assert_true(n >= 0);
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        if (strcmp(list[i]->d_name, ".") && strcmp(list[i]->d_name, ".."))
            snprintf(out + strlen(out), size - strlen(out), "%s%s", out[0] ? " " : "",
                     list[i]->d_name);
        free(list[i]);
    }
    free(list);
}

void dft_assert_folder(const char *folder, const char *want)
{
    char names[1024];
    dft_folder_names(folder, names, sizeof names);
    if (strcmp(names, want)) fail_msg("%s holds '%s', not '%s'", folder, names, want);
}

char *dft_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    char *text = NULL;
    size_t n = 0, cap = 0, got;
    do {
        if (n + 4096 + 1 > cap) {
            cap = 2 * (n + 4096 + 1);
            text = realloc(text, cap);
            assert_non_null(text);
        }
        got = fread(text + n, 1, cap - n - 1, f);
        n += got;
    } while (got);
    fclose(f);
    text[n] = 0;
    *len = n;
    return text;
}
