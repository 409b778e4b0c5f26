/* SPDX-License-Identifier: MIT */
/* df_pgn_find_cuts: every part between cuts, read alone by a reader reset at its cut, gives
 * exactly the games of the whole input's reader that begin in it (index, line, offset, plies,
 * result, error), for targets everywhere in generated games of every style, with errors,
 * games without results, a blank line inside a tag section, comments that span blank lines,
 * CRLF; cuts obey the threaded reader's rule; targets out of order are refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dft.h"
#include "pgngen.h"

typedef struct {
    uint64_t index, line, offset, end_offset;
    uint32_t plies;
    int result;
    bool error;
} seen;

typedef struct {
    seen *g;
    size_t n, cap;
} seen_list;

static df_pgn_action on_end(void *ctx, const df_pgn_game *g)
{
    seen_list *l = ctx;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->g = realloc(l->g, l->cap * sizeof *l->g);
        assert_non_null(l->g);
    }
    l->g[l->n++] = (seen){g->index, g->line,        g->offset,       g->end_offset,
                          g->plies, (int)g->result, g->error != NULL};
    return DF_PGN_READ;
}

/* The games of text[from, to) read alone from cut c (the whole input: c = {0, 1, 0}). */
static seen_list read_part(const char *text, uint64_t from, uint64_t to, df_pgn_cut c)
{
    seen_list l = {NULL, 0, 0};
    df_pgn_reader *r = df_pgn_reader_new();
    assert_non_null(r);
    df_pgn_reader_reset(r, DF_PGN_STANDARD, c.game, c.line, c.offset);
    const df_pgn_visitor v = {NULL, NULL, on_end, &l};
    assert_int_equal(df_pgn_feed(r, text + from, (size_t)(to - from), &v), DF_OK);
    assert_int_equal(df_pgn_finish(r, &v), DF_OK);
    df_pgn_reader_free(r);
    return l;
}

static long read_text(void *ctx, char *buf, size_t size)
{
    const char **at = ctx;
    size_t n = strlen(*at);
    if (n > size) n = size;
    if (n > 7) n = n / 2 + 1; /* odd pieces: cuts are found across block ends */
    memcpy(buf, *at, n);
    *at += n;
    return (long)n;
}

static void find(const char *text, const uint64_t *targets, size_t n, df_pgn_cut *cuts)
{
    const char *at = text;
    df_source *src = df_source_from_function(read_text, &at);
    assert_non_null(src);
    assert_int_equal(df_pgn_find_cuts(src, targets, n, cuts), DF_OK);
    df_source_close(src);
}

/* Cuts for targets spread over text, each part read alone against the whole. */
static void check_parts(const char *text, size_t parts, bool expect_inner_cuts)
{
    const uint64_t size = strlen(text);
    uint64_t *targets = calloc(parts + 1, sizeof *targets);
    df_pgn_cut *cuts = calloc(parts + 1, sizeof *cuts);
    for (size_t i = 0; i <= parts; i++) targets[i] = size * i / parts;
    find(text, targets, parts + 1, cuts);
    seen_list whole = read_part(text, 0, size, (df_pgn_cut){0, 1, 0});
    size_t next = 0, inner = 0;
    for (size_t i = 0; i < parts; i++) {
        assert_true(cuts[i].offset >= targets[i] && cuts[i].offset <= cuts[i + 1].offset);
        if (cuts[i].offset > 0 && cuts[i].offset < size) {
            inner++;
            const char *c = text + cuts[i].offset; /* the threaded reader's rule */
            assert_true(c[0] == '[' && c[-1] == '\n' && (c[-2] == '\n' || c[-2] == '\r'));
        }
        seen_list part = read_part(text, cuts[i].offset, cuts[i + 1].offset, cuts[i]);
        for (size_t j = 0; j < part.n; j++, next++) {
            assert_true(next < whole.n);
            const seen *a = &part.g[j], *b = &whole.g[next];
            assert_int_equal(a->index, b->index);
            assert_int_equal(a->line, b->line);
            assert_int_equal(a->offset, b->offset);
            assert_int_equal(a->end_offset, b->end_offset);
            assert_int_equal(a->plies, b->plies);
            assert_int_equal(a->result, b->result);
            assert_int_equal(a->error, b->error);
        }
        free(part.g);
    }
    assert_int_equal(next, whole.n); /* none dropped, none twice */
    assert_int_equal(cuts[parts].offset, size);
    assert_int_equal(cuts[parts].game, whole.n);
    if (expect_inner_cuts) assert_true(inner >= parts / 2);
    free(whole.g);
    free(targets);
    free(cuts);
}

static void test_generated_games(void **state)
{
    (void)state;
    static const unsigned styles[] = {0, PGNGEN_EVALS | PGNGEN_CLOCKS, PGNGEN_ALL};
    for (size_t s = 0; s < sizeof styles / sizeof styles[0]; s++) {
        pgngen_text text = {0};
        uint64_t rng = 12345 + s;
        df_board start = dft_fen(DF_FEN_START);
        for (int i = 0; i < 300; i++)
            assert_true(pgngen_game(&text, &rng, &start, false, 10 + (uint32_t)(rng % 80),
                                    styles[s], (uint64_t)i, NULL));
        check_parts(text.text, 1, false);
        check_parts(text.text, 7, true);
        check_parts(text.text, 64, true);
        pgngen_text_free(&text);
    }
}

static void test_hand_written(void **state)
{
    (void)state;
    static const char *const texts[] = {
        /* no results: each game ends at the next one's tags */
        "[Event \"a\"]\n\n1. e4 e5\n\n[Event \"b\"]\n\n1. d4\n\n[Event \"c\"]\n\n1. c4 c5 2. Nf3\n",
        /* a blank line inside a tag section: no cut there */
        "[Event \"a\"]\n\n[Site \"s\"]\n\n1. e4 1-0\n\n[Event \"b\"]\n[Site \"t\"]\n\n1. d4 0-1\n\n"
        "[Event \"c\"]\n\n1. Nf3 *\n",
        /* a comment across blank lines with a tag-like line in it; an error; CRLF */
        "[Event \"a\"]\r\n\r\n1. e4 {see\r\n\r\n[Event \"x\"] here} e5 1-0\r\n\r\n[Event "
        "\"b\"]\r\n\r\n"
        "1. e4 e5 2. Ke3 *\r\n\r\n[Event \"c\"]\r\n\r\n1. d4 d5 1/2-1/2\r\n",
        /* tags and no moves, a byte order mark */
        "\xef\xbb\xbf[Event \"a\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"?\"]\n[White \"?\"]\n"
        "[Black \"?\"]\n[Result \"*\"]\n\n[Event \"b\"]\n\n1. e4 *\n\n[Event \"c\"]\n\n1. d4 *\n",
    };
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++)
        for (size_t parts = 1; parts <= 40; parts++) check_parts(texts[t], parts, false);
}

static void test_arguments(void **state)
{
    (void)state;
    const uint64_t bad[2] = {10, 5}, none[1] = {0};
    df_pgn_cut cuts[2];
    const char *text = "[Event \"a\"]\n\n1. e4 *\n", *at = text;
    df_source *src = df_source_from_function(read_text, &at);
    assert_int_equal(df_pgn_find_cuts(src, bad, 2, cuts), DF_ERR_ARGUMENT);
    assert_int_equal(df_pgn_find_cuts(NULL, none, 1, cuts), DF_ERR_ARGUMENT);
    assert_int_equal(df_pgn_find_cuts(src, none, 1, cuts), DF_OK);
    assert_int_equal(cuts[0].offset, 0);
    assert_int_equal(cuts[0].game, 0);
    df_source_close(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generated_games),
        cmocka_unit_test(test_hand_written),
        cmocka_unit_test(test_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
