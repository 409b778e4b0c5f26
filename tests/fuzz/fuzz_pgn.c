/* SPDX-License-Identifier: MIT */
/* libFuzzer target: any bytes through the PGN reader, whole and in pieces whose sizes the
 * first byte picks. Nothing may fault; every replayed move must be one the move generator
 * lists for the position before it, every board valid; the callbacks must be the same however
 * the input is cut; games, kept, errors and bytes must add up. Header-only reading and a tag filter
 * (its expression the input's first line) skim the movetext: they must find the same games,
 * at the same places, as the full read, and the filter must keep exactly the games it
 * matches. A visitor without a ply callback (no ply kept, no comment's command read) must see
 * the same games, errors and final positions. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dirfill.h"

typedef struct {
    uint64_t digest, bounds; /* bounds: where the games are, what they hold */
    uint64_t outcome;        /* what each game came to: plies, error, final position */
    uint64_t games, errors, kept, plies;
    const df_pgn_filter *filter;
    bool without_plies;
} seen;

static uint64_t mix64(uint64_t h, uint64_t x) { return (h ^ x) * UINT64_C(0x100000001b3); }

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
    if (s->filter && !df_pgn_filter_matches(s->filter, g)) abort();
    s->games++;
    s->errors += g->error && !g->skipped; /* a skipped game counts as skipped alone */
    s->kept += !g->error && !g->skipped;
    s->bounds = mix64(s->bounds, g->index);
    s->bounds = mix64(s->bounds, g->line);
    s->bounds = mix64(s->bounds, g->end_line);
    s->bounds = mix64(s->bounds, g->offset);
    s->bounds = mix64(s->bounds, g->end_offset);
    s->bounds = mix64(s->bounds, (uint64_t)g->has_result << 8 | (uint64_t)g->result);
    s->bounds = mix64(s->bounds, g->ntags);
    if (!df_board_is_valid(&g->board) || g->end_offset < g->offset) abort();
    s->outcome = mix64(s->outcome, s->bounds);
    s->outcome = mix64(s->outcome, g->plies);
    s->outcome = mix64(s->outcome, g->board.key);
    s->outcome = mix64(s->outcome, g->error ? g->error_line : 0);
    for (const char *e = g->error; e && *e; e++) s->outcome = mix64(s->outcome, (uint8_t)*e);
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
    df_pgn_reader_set_filter(r, s->filter);
    df_pgn_reader_reset(r, flags, 0, 1, 0);
    const df_pgn_visitor v = {NULL, s->without_plies ? NULL : on_ply, on_end, s};
    for (size_t at = 0; at < size; at += piece)
        df_pgn_feed(r, (const char *)data + at, size - at < piece ? size - at : piece, &v);
    df_pgn_finish(r, &v);
    const df_pgn_stats st = df_pgn_reader_stats(r);
    if (st.games != s->games + st.filtered || st.errors != s->errors || st.kept != s->kept ||
        st.games != st.kept + st.filtered + st.errors + st.skipped || st.bytes != size)
        abort();
    df_pgn_reader_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const size_t piece = 1 + data[0] % 7;
    const unsigned flags = data[0] & 0x80 ? DF_PGN_CHESS960 : DF_PGN_STANDARD;
    seen whole = {0}, cut = {0};
    read_all(&whole, data + 1, size - 1, size, flags);
    read_all(&cut, data + 1, size - 1, piece, flags);
    if (whole.digest != cut.digest || whole.plies != cut.plies) abort();
    seen plain = {0}, plain_cut = {0};
    plain.without_plies = plain_cut.without_plies = true;
    read_all(&plain, data + 1, size - 1, size, flags);
    read_all(&plain_cut, data + 1, size - 1, piece, flags);
    if (plain.outcome != whole.outcome || plain_cut.outcome != whole.outcome) abort();
    /* Lexing alone finds the same games and results. */
    seen lexed = {0};
    read_all(&lexed, data + 1, size - 1, size, flags | DF_PGN_LEX_ONLY);
    if (lexed.games != whole.games) abort();
    /* Header-only reading: the same games at the same places, whatever the pieces. */
    seen headers = {0}, headers_cut = {0};
    read_all(&headers, data + 1, size - 1, size, flags | DF_PGN_HEADERS_ONLY);
    read_all(&headers_cut, data + 1, size - 1, piece, flags | DF_PGN_HEADERS_ONLY);
    if (headers.bounds != whole.bounds || headers_cut.bounds != whole.bounds) abort();
    /* A filter from the first line ("%w WhiteElo>=2000", say): it keeps what it matches (each
     * kept game checked in on_end) and the games it drops are counted (read_all). */
    const char *text = (const char *)data + 1, *nl = memchr(text, '\n', size - 1);
    if (size > 4 && !memcmp(text, "%w ", 3) && nl) {
        char expr[256];
        const size_t n =
            (size_t)(nl - text - 3) < sizeof expr - 1 ? (size_t)(nl - text - 3) : sizeof expr - 1;
        memcpy(expr, text + 3, n);
        expr[n] = '\0';
        const char *e = expr;
        df_pgn_filter *f = NULL;
        if (df_pgn_filter_new(&f, &e, 1, NULL) == DF_OK) {
            seen kept = {0}, kept_cut = {0};
            kept.filter = kept_cut.filter = f;
            read_all(&kept, data + 1, size - 1, size, flags);
            read_all(&kept_cut, data + 1, size - 1, piece, flags);
            if (kept.digest != kept_cut.digest || kept.games > whole.games) abort();
        } else if (f) {
            abort();
        }
        df_pgn_filter_free(f);
    }
    return 0;
}
