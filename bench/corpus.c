/* The benchmark corpora, built at start-up from fixed seeds, so every run and every
 * machine times the same positions:
 *   middlegame  random legal playouts from the start position and the CPW test positions,
 *               kept between plies 10 and 60 while at least 20 pieces and 4 sliders stand;
 *   endgame     random legal placements of the two kings and 2 to 6 other pieces (side not
 *               to move never in check);
 *   games       every position along random legal playouts from the six CPW perft
 *               positions, as a game or a perft tree visits them (checks and pins at the
 *               rate play produces). */
#include <stdlib.h>
#include <string.h>

#include "../app/cpw_positions.h"
#include "../app/movegen.h"
#include "bench.h"

static uint64_t state;
static uint64_t rnd(void)
{
    uint64_t z = (state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static df_board parse(const char *fen)
{
    df_board b;
    df_fen_parse(&b, fen, strlen(fen), NULL);
    return b;
}

static bool rich(const df_board *b)
{
    const df_bb sliders = b->piece[DF_BISHOP] | b->piece[DF_ROOK] | b->piece[DF_QUEEN];
    return df_popcount(df_board_occupied(b)) >= 20 && df_popcount(sliders) >= 4;
}

/* Random playouts; keep(b, ply) decides which positions enter the corpus. */
static void playouts(bench_corpus *c, size_t count, bool middlegame)
{
    size_t n = 0;
    while (n < count) {
        const size_t start =
            middlegame ? (rnd() % 2 ? 0 : rnd() % CPW_POSITIONS) : rnd() % CPW_POSITIONS;
        df_board b = parse(cpw_positions[start].fen);
        for (int ply = 0; ply < 80 && n < count; ply++) {
            mg_list list;
            mg_generate(&b, &list);
            if (!list.count) break;
            if (middlegame) {
                if (!rich(&b) && ply > 10) break;
                if (ply >= 10 && rnd() % 3 == 0) c->boards[n++] = b;
            } else {
                c->boards[n++] = b;
            }
            mg_make(&b, list.moves[rnd() % (uint64_t)list.count]);
        }
    }
    c->count = n;
}

static void placements(bench_corpus *c, size_t count)
{
    size_t n = 0;
    while (n < count) {
        df_board b;
        memset(&b, 0, sizeof b);
        b.ep = DF_SQUARE_NONE;
        b.fullmove = 60;
        b.stm = (uint8_t)(rnd() & 1);
        const int others = 2 + (int)(rnd() % 5);
        for (int i = 0; i < others + 2; i++) {
            int sq;
            do sq = (int)(rnd() & 63);
            while ((df_board_occupied(&b) >> sq) & 1);
            const int color = i < 2 ? i : (int)(rnd() & 1);
            static const int kinds[8] = {DF_PAWN,   DF_PAWN, DF_PAWN, DF_KNIGHT,
                                         DF_BISHOP, DF_ROOK, DF_ROOK, DF_QUEEN};
            int type = i < 2 ? DF_KING : kinds[rnd() % 8];
            if (type == DF_PAWN && (sq < 8 || sq >= 56)) type = DF_ROOK;
            b.color[color] |= df_square_bb(sq);
            b.piece[type] |= df_square_bb(sq);
        }
        const int them = b.stm ^ 1, ek = df_board_king(&b, them);
        if (df_attackers_to(&b, ek, df_board_occupied(&b)) & b.color[b.stm]) continue;
        if (df_king_attacks(b.color[0] & b.piece[DF_KING]) & b.color[1] & b.piece[DF_KING])
            continue;
        c->boards[n++] = b;
    }
    c->count = n;
}

void corpus_build(bench_corpus out[CORPUS_COUNT], size_t count)
{
    static const char *const names[CORPUS_COUNT] = {"middlegame", "endgame", "games"};
    static const char *const how[CORPUS_COUNT] = {
        "random legal playouts from the start and CPW positions, plies 10-60, >= 20 pieces",
        "random legal placements of both kings and 2-6 other pieces",
        "every position of random legal playouts from the six CPW perft positions"};
    for (int i = 0; i < CORPUS_COUNT; i++) {
        out[i].name = names[i];
        out[i].how = how[i];
        out[i].boards = calloc(count, sizeof(df_board));
        out[i].count = 0;
    }
    state = UINT64_C(0xd1f111c0);
    playouts(&out[CORPUS_MIDDLEGAME], count, true);
    placements(&out[CORPUS_ENDGAME], count);
    playouts(&out[CORPUS_GAMES], count, false);
}

void corpus_free(bench_corpus out[CORPUS_COUNT])
{
    for (int i = 0; i < CORPUS_COUNT; i++) free(out[i].boards);
}
