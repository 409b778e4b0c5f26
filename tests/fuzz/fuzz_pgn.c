/* SPDX-License-Identifier: MIT */
/* libFuzzer target: any bytes through the PGN reader, whole and in pieces whose sizes the
 * first byte picks. Nothing may fault; every replayed move must be one the move generator
 * lists for the position before it, every board valid; the callbacks must be the same however
 * the input is cut; games, errors and bytes must add up. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dirfill.h"

typedef struct {
    uint64_t digest;
    uint64_t games, errors, plies;
} seen;

static void mix(seen *s, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) s->digest = (s->digest ^ b[i]) * UINT64_C(0x100000001b3);
}

static void on_ply(void *ctx, const df_pgn_game *g, const df_pgn_ply *p)
{
    seen *s = ctx;
    (void)g;
    s->plies++;
    if (!df_board_is_valid(p->before)) abort();
    if (p->move != DF_MOVE_NONE) {
        df_move_list list;
        df_generate_legal(&list, p->before);
        bool listed = false;
        for (uint32_t i = 0; i < list.count; i++) listed |= list.moves[i] == p->move;
        if (!listed) abort();
    }
    mix(s, &p->move, sizeof p->move);
    mix(s, &p->line, sizeof p->line);
    mix(s, &p->eval_kind, sizeof p->eval_kind);
    mix(s, &p->has_clock, sizeof p->has_clock);
}

static df_pgn_action on_end(void *ctx, const df_pgn_game *g)
{
    seen *s = ctx;
    s->games++;
    s->errors += g->error != NULL;
    if (!df_board_is_valid(&g->board) || g->end_offset < g->offset) abort();
    mix(s, &g->index, sizeof g->index);
    mix(s, &g->plies, sizeof g->plies);
    mix(s, &g->result, sizeof g->result);
    mix(s, &g->end_offset, sizeof g->end_offset);
    if (g->error) mix(s, g->error, strlen(g->error));
    for (uint32_t i = 0; i < g->ntags; i++) mix(s, g->tags[i].value, g->tags[i].value_len);
    return DF_PGN_READ;
}

static void read_all(seen *s, const uint8_t *data, size_t size, size_t piece, unsigned flags)
{
    df_pgn_reader *r = df_pgn_reader_new();
    if (!r) abort();
    df_pgn_reader_reset(r, flags, 0, 1, 0);
    const df_pgn_visitor v = {NULL, on_ply, on_end, s};
    for (size_t at = 0; at < size; at += piece)
        df_pgn_feed(r, (const char *)data + at, size - at < piece ? size - at : piece, &v);
    df_pgn_finish(r, &v);
    const df_pgn_stats st = df_pgn_reader_stats(r);
    if (st.games != s->games || st.errors != s->errors || st.bytes != size) abort();
    df_pgn_reader_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const size_t piece = 1 + data[0] % 7;
    const unsigned flags = data[0] & 0x80 ? DF_PGN_CHESS960 : DF_PGN_STANDARD;
    seen whole = {0, 0, 0, 0}, cut = {0, 0, 0, 0};
    read_all(&whole, data + 1, size - 1, size, flags);
    read_all(&cut, data + 1, size - 1, piece, flags);
    if (whole.digest != cut.digest || whole.plies != cut.plies) abort();
    /* Lexing alone finds the same games and results. */
    seen lexed = {0, 0, 0, 0};
    read_all(&lexed, data + 1, size - 1, size, flags | DF_PGN_LEX_ONLY);
    if (lexed.games != whole.games) abort();
    return 0;
}
