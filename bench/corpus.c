/* SPDX-License-Identifier: MIT */
/* The benchmark corpora, built at start-up from fixed seeds, so every run and every
 * machine times the same positions:
 *   middlegame  random legal playouts from the start position and the CPW test positions,
 *               kept between plies 10 and 60 while at least 20 pieces and 4 sliders stand;
 *   endgame     random legal placements of the two kings and 2 to 6 other pieces (side not
 *               to move never in check);
 *   games       every position along random legal playouts from the six CPW perft
 *               positions, as a game or a perft tree visits them (checks and pins at the
 *               rate play produces); beside them, random legal games from the start
 *               position written as PGN (the pgn operation reads them). */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "pgngen.h"
#include "splitmix64.h"

/* Where the playouts start: the start position and the Chess Programming Wiki's perft
 * positions 2 to 6. */
static const char *const seed_fens[] = {
    DF_FEN_START,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
};
#define SEEDS (sizeof seed_fens / sizeof seed_fens[0])

static uint64_t state;
static uint64_t rnd(void) { return splitmix64_next(&state); }

static df_board parse(const char *fen)
{
    df_board b;
    df_fen_parse(&b, fen, strlen(fen), DF_FEN_STANDARD, NULL);
    return b;
}

static bool rich(const df_board *b)
{
    const df_bb sliders = b->piece[DF_BISHOP] | b->piece[DF_ROOK] | b->piece[DF_QUEEN];
    return df_popcount(df_board_occupied(b)) >= 20 && df_popcount(sliders) >= 4;
}

/* Random playouts; the middlegame keeps some positions of plies 10-60 of rich games. */
static void playouts(bench_corpus *c, size_t count, bool middlegame)
{
    size_t n = 0;
    while (n < count) {
        const size_t start = middlegame && rnd() % 2 ? 0 : rnd() % SEEDS;
        df_board b = parse(seed_fens[start]);
        for (int ply = 0; ply < 80 && n < count; ply++) {
            df_move_list list;
            df_generate_legal(&list, &b);
            if (!list.count) break;
            if (middlegame) {
                if (!rich(&b) && ply > 10) break;
                if (ply >= 10 && rnd() % 3 == 0) c->boards[n++] = b;
            } else {
                c->boards[n++] = b;
            }
            df_make_move(&b, &b, list.moves[rnd() % list.count]);
        }
    }
    c->count = n;
}

static void placements(bench_corpus *c, size_t count)
{
    static const df_piece_type kinds[8] = {DF_PAWN,   DF_PAWN, DF_PAWN, DF_KNIGHT,
                                           DF_BISHOP, DF_ROOK, DF_ROOK, DF_QUEEN};
    size_t n = 0;
    while (n < count) {
        uint64_t pieces[12] = {0};
        df_bb occ = 0;
        const int others = 2 + (int)(rnd() % 5);
        for (int i = 0; i < others + 2; i++) {
            df_square sq;
            do sq = (df_square)(rnd() & 63);
            while (df_has(occ, sq));
            const df_color color = (df_color)(i < 2 ? i : (int)(rnd() & 1));
            df_piece_type type = i < 2 ? DF_KING : kinds[rnd() % 8];
            if (type == DF_PAWN && df_has(DF_RANK_1 | DF_RANK_8, sq)) type = DF_ROOK;
            pieces[df_piece_index(color, type)] |= df_square_bb(sq);
            occ |= df_square_bb(sq);
        }
        df_board b;
        if (df_board_from_pieces(&b, pieces, (df_color)(rnd() & 1)) != DF_OK) continue;
        if (!df_board_playable(&b)) continue;
        b.fullmove = 60;
        c->boards[n++] = b;
    }
    c->count = n;
}

/* The inputs of the batch and per-move operations. */
static bool precompute(bench_corpus *c)
{
    c->sliders = malloc(c->count * sizeof *c->sliders);
    c->move_start = malloc((c->count + 1) * sizeof *c->move_start);
    if (!c->sliders || !c->move_start) return false;
    size_t total = 0;
    for (size_t i = 0; i < c->count; i++) total += df_count_legal(&c->boards[i]);
    c->moves = malloc((total ? total : 1) * sizeof *c->moves);
    if (!c->moves) return false;
    uint32_t at = 0;
    for (size_t i = 0; i < c->count; i++) {
        const df_board *b = &c->boards[i];
        const df_bb own = b->color[b->stm];
        c->sliders[i] =
            (df_sliders){own & (b->piece[DF_ROOK] | b->piece[DF_QUEEN]),
                         own & (b->piece[DF_BISHOP] | b->piece[DF_QUEEN]), ~df_board_occupied(b)};
        df_move_list list;
        df_generate_legal(&list, b);
        c->move_start[i] = at;
        memcpy(&c->moves[at], list.moves, list.count * sizeof list.moves[0]);
        at += list.count;
    }
    c->move_start[c->count] = at;
    return true;
}

/* Random legal games from the start position as PGN, written the way lichess exports them
 * (tags, [%eval] and [%clk] comments), one for every four positions of the corpus. */
static bool pgn_games(bench_corpus *c)
{
    const size_t games = c->count / 4 > 16 ? c->count / 4 : 16;
    c->game_start = malloc((games + 1) * sizeof *c->game_start);
    if (!c->game_start) return false;
    const df_board start = parse(DF_FEN_START);
    pgngen_text text = {0};
    for (size_t i = 0; i < games; i++) {
        c->game_start[i] = (uint32_t)text.len;
        if (!pgngen_game(&text, &state, &start, false, 60 + (uint32_t)(rnd() % 90),
                         PGNGEN_EVALS | PGNGEN_CLOCKS, i, NULL)) {
            pgngen_text_free(&text);
            return false;
        }
    }
    c->game_start[games] = (uint32_t)text.len;
    c->pgn = text.text;
    c->games = games;
    return true;
}

bool corpus_build(bench_corpus out[CORPUS_COUNT], size_t count)
{
    static const char *const names[CORPUS_COUNT] = {"middlegame", "endgame", "games"};
    static const char *const how[CORPUS_COUNT] = {
        "random legal playouts from the start and CPW positions, plies 10-60, >= 20 pieces",
        "random legal placements of both kings and 2-6 other pieces",
        "every position of random legal playouts from the six CPW perft positions"};
    memset(out, 0, CORPUS_COUNT * sizeof *out);
    for (int i = 0; i < CORPUS_COUNT; i++) {
        out[i].name = names[i];
        out[i].how = how[i];
        out[i].boards = calloc(count, sizeof(df_board));
        if (!out[i].boards) return false;
    }
    state = UINT64_C(0xd1f111c0);
    playouts(&out[CORPUS_MIDDLEGAME], count, true);
    placements(&out[CORPUS_ENDGAME], count);
    playouts(&out[CORPUS_GAMES], count, false);
    for (int i = 0; i < CORPUS_COUNT; i++)
        if (!precompute(&out[i])) return false;
    return pgn_games(&out[CORPUS_GAMES]);
}

void corpus_free(bench_corpus out[CORPUS_COUNT])
{
    for (int i = 0; i < CORPUS_COUNT; i++) {
        free(out[i].boards);
        free(out[i].sliders);
        free(out[i].moves);
        free(out[i].move_start);
        free(out[i].pgn);
        free(out[i].game_start);
    }
}

bench_input corpus_input(const bench_corpus *c)
{
    return (bench_input){c->boards, c->sliders, c->moves, c->move_start, c->pgn, c->game_start};
}
