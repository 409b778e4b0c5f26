/* SPDX-License-Identifier: MIT */
/* NNUE training entries from generated games (nnue_games.h). */
#include "nnue_games.h"

#include <stdlib.h>
#include <string.h>

#include "dft.h"
#include "pgngen.h"
#include "splitmix64.h"

void dft_entries_add(dft_entries *es, const df_nnue_entry *e)
{
    if (es->n == es->cap) {
        es->cap = es->cap ? 2 * es->cap : 1024;
        es->e = realloc(es->e, es->cap * sizeof *es->e);
        assert_non_null(es->e);
    }
    es->e[es->n++] = *e;
}

void dft_entries_free(dft_entries *es)
{
    free(es->e);
    *es = (dft_entries){0};
}

void dft_game_entries(dft_entries *out, uint64_t *rng, int games, const dft_game_style *style)
{
    static const char *const starts960[] = {
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 1",
        "rkr5/8/8/8/8/8/8/RKR5 w ACac - 0 1"};
    pgngen_text text = {0};
    for (int g = 0; g < games; g++) {
        const df_board start =
            style->chess960 ? dft_fen960(starts960[g % 2]) : dft_fen(DF_FEN_START);
        pgngen_truth t;
        const uint32_t plies =
            style->min_plies + (uint32_t)(splitmix64_next(rng) % style->more_plies);
        assert_true(pgngen_game(&text, rng, &start, style->chess960, plies, 0, (uint64_t)g, &t));
        text.len = 0;
        const int white = t.result == DF_RESULT_WHITE_WINS   ? 1
                          : t.result == DF_RESULT_BLACK_WINS ? -1
                          : t.result == DF_RESULT_DRAW       ? 0
                                                             : (int)(splitmix64_next(rng) % 3) - 1;
        df_board b = start;
        for (uint32_t i = 0; i < t.plies; i++) {
            const df_nnue_entry e = {.pos = b,
                                     .move = t.moves[i],
                                     .score = style->score(rng),
                                     .ply = (uint16_t)i,
                                     .result = (int8_t)(b.stm ? -white : white)};
            if (!style->gap || splitmix64_next(rng) % style->gap) dft_entries_add(out, &e);
            df_make_move(&b, &b, t.moves[i]);
        }
        pgngen_truth_free(&t);
    }
    pgngen_text_free(&text);
}

void dft_mem_put(dft_mem *m, const void *data, size_t n)
{
    if (m->len + n > m->cap) {
        m->cap = (m->len + n) * 2 + 64;
        m->p = realloc(m->p, m->cap);
        assert_non_null(m->p);
    }
    memcpy(m->p + m->len, data, n);
    m->len += n;
}

long dft_mem_write(void *ctx, const char *buf, size_t n)
{
    dft_mem_put(ctx, buf, n);
    return (long)n;
}

dft_mem dft_nnue_write_all(df_nnue_format format, const df_nnue_entry *es, size_t n)
{
    dft_mem out = {0};
    df_nnue_writer *w = df_nnue_writer_to_function(format, dft_mem_write, &out);
    assert_non_null(w);
    for (size_t i = 0; i < n; i++) {
        df_nnue_error err;
        const df_status s = df_nnue_write(w, &es[i], &err);
        if (s != DF_OK) fail_msg("entry %zu: %s", i, err.message);
    }
    assert_int_equal(DF_OK, df_nnue_writer_close(w));
    return out;
}
