/* SPDX-License-Identifier: MIT */
/* Random games written as PGN (pgngen.h). */
#include "pgngen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "splitmix64.h"

void pgngen_text_free(pgngen_text *t) { cmd_text_free(t); }

void pgngen_truth_free(pgngen_truth *g)
{
    free(g->moves);
    free(g->eval_kind);
    free(g->mate);
    free(g->pawns);
    free(g->clock);
    memset(g, 0, sizeof *g);
}

/* One in `in` chance. */
static bool chance(uint64_t *rng, unsigned in) { return splitmix64_next(rng) % in == 0; }

/* White space between tokens: a space mostly, in SPACING style also breaks and tabs. */
static bool gap(pgngen_text *t, uint64_t *rng, unsigned style)
{
    if (!(style & PGNGEN_SPACING)) return cmd_text_puts(t, " ");
    static const char *const gaps[] = {" ", " ", " ", "\n", "  ", "\t", "\r\n", " \n "};
    return cmd_text_putf(t, "%s", gaps[splitmix64_next(rng) % 8]);
}

/* A side line of a few random moves from b (not made on the main line), nested now and then. */
static bool variation(pgngen_text *t, uint64_t *rng, const df_board *b, unsigned style, int depth)
{
    bool ok = cmd_text_puts(t, "(");
    df_board cur = *b;
    const int n = 1 + (int)(splitmix64_next(rng) % 5);
    for (int i = 0; i < n && ok; i++) {
        df_move_list list;
        df_generate_legal(&list, &cur);
        if (!list.count) break;
        const df_move m = list.moves[splitmix64_next(rng) % list.count];
        char san[DF_SAN_MAX];
        df_move_to_san(san, &cur, m);
        if (i == 0 || cur.stm == DF_WHITE)
            ok = cmd_text_putf(t, "%u%s ", cur.fullmove, cur.stm == DF_WHITE ? "." : "...");
        ok = ok && cmd_text_putf(t, "%s ", san);
        if (chance(rng, 3)) ok = ok && cmd_text_puts(t, "{a side comment (with parens) } ");
        if (depth < 3 && chance(rng, 4)) ok = ok && variation(t, rng, &cur, style, depth + 1);
        df_make_move(&cur, &cur, m);
    }
    return ok && cmd_text_puts(t, ") ");
}

static bool grow(pgngen_truth *g, uint32_t cap)
{
    g->moves = realloc(g->moves, cap * sizeof *g->moves);
    g->eval_kind = realloc(g->eval_kind, cap * sizeof *g->eval_kind);
    g->mate = realloc(g->mate, cap * sizeof *g->mate);
    g->pawns = realloc(g->pawns, cap * sizeof *g->pawns);
    g->clock = realloc(g->clock, cap * sizeof *g->clock);
    return g->moves && g->eval_kind && g->mate && g->pawns && g->clock;
}

bool pgngen_game(pgngen_text *out, uint64_t *rng, const df_board *start, bool chess960,
                 uint32_t max_plies, unsigned style, uint64_t index, pgngen_truth *truth)
{
    pgngen_truth local = {0};
    pgngen_truth *g = truth ? truth : &local;
    memset(g, 0, sizeof *g);
    g->start = *start;
    g->chess960 = chess960;
    if (!grow(g, max_plies ? max_plies : 1)) return false;
    static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "*"};
    df_board b = *start;
    /* Play first, so the Result tag can tell how the game ended. */
    uint32_t plies = 0;
    for (; plies < max_plies; plies++) {
        df_move_list list;
        df_generate_legal(&list, &b);
        if (!list.count) break;
        const df_move m = list.moves[splitmix64_next(rng) % list.count];
        g->moves[plies] = m;
        const uint64_t r = splitmix64_next(rng);
        g->eval_kind[plies] = (style & PGNGEN_EVALS) && r % 5 ? (r % 23 ? 1 : 2) : 0;
        g->mate[plies] = (int32_t)(r >> 8) % 9 + 1;
        if ((r >> 20) & 1) g->mate[plies] = -g->mate[plies];
        g->pawns[plies] = (float)((int)((r >> 24) % 2001) - 1000) / 100.0f;
        g->clock[plies] =
            (style & PGNGEN_CLOCKS) && (r >> 40) % 4 ? (double)((r >> 44) % 10800) : -1;
        df_make_move(&b, &b, m);
    }
    g->plies = plies;
    const df_outcome o = df_outcome_of(&b, NULL, false);
    g->result = o.termination ? o.result : (df_result)(splitmix64_next(rng) % 4);

    bool ok = cmd_text_putf(out,
                            "[Event \"dirfill generated \\\"playout\\\"\"]\n[Site \"?\"]\n"
                            "[Round \"%llu\"]\n[White \"W\\\\%llu\"]\n[Black \"Blåck\"]\n"
                            "[Result \"%s\"]\n",
                            (unsigned long long)index, (unsigned long long)index,
                            df_result_string(g->result));
    char fen[DF_FEN_MAX];
    df_fen_format(fen, sizeof fen, start, DF_FEN_STANDARD);
    if (chess960) ok = ok && cmd_text_puts(out, "[Variant \"Chess960\"]\n");
    if (strcmp(fen, DF_FEN_START) || chess960)
        ok = ok && cmd_text_putf(out, "[SetUp \"1\"]\n[FEN \"%s\"]\n", fen);
    ok = ok && cmd_text_puts(out, "\n");
    if ((style & PGNGEN_COMMENTS) && chance(rng, 3))
        ok = ok && cmd_text_puts(out, "{ before the moves }\n");
    b = *start;
    for (uint32_t i = 0; i < plies && ok; i++) {
        const df_move m = g->moves[i];
        if (b.stm == DF_WHITE)
            ok = cmd_text_putf(out, (style & PGNGEN_SPACING) && chance(rng, 3) ? "%u." : "%u. ",
                               b.fullmove);
        else if (i == 0 || ((style & PGNGEN_SPACING) && chance(rng, 4)))
            ok = cmd_text_putf(out, "%u... ", b.fullmove);
        char san[DF_SAN_MAX];
        df_move_to_san(san, &b, m);
        if ((style & PGNGEN_SPACING) && df_move_kind_of(m) == DF_MOVE_CASTLING && chance(rng, 2))
            for (char *c = san; *c; c++)
                if (*c == 'O') *c = '0';
        ok = ok && cmd_text_put(out, san, strlen(san));
        if ((style & PGNGEN_SUFFIXES) && chance(rng, 8)) {
            static const char *const s[] = {"!", "?", "!!", "??", "!?", "?!"};
            ok = ok && cmd_text_putf(out, "%s", s[splitmix64_next(rng) % 6]);
        }
        ok = ok && gap(out, rng, style);
        if ((style & PGNGEN_NAGS) && chance(rng, 10))
            ok = ok && cmd_text_putf(out, "$%u ", (unsigned)(splitmix64_next(rng) % 140));
        if (g->eval_kind[i] || g->clock[i] >= 0) {
            ok = ok && cmd_text_puts(out, "{");
            if (chance(rng, 2)) ok = ok && cmd_text_puts(out, " text ");
            if (g->eval_kind[i] == 1)
                ok = ok && cmd_text_putf(out, "[%%eval %.2f]", (double)g->pawns[i]);
            if (g->eval_kind[i] == 2)
                ok = ok && cmd_text_putf(out, " [%%eval #%d]", (int)g->mate[i]);
            if (g->clock[i] >= 0) {
                const int c = (int)g->clock[i];
                ok = ok &&
                     cmd_text_putf(out, " [%%clk %d:%02d:%02d] ", c / 3600, c / 60 % 60, c % 60);
            }
            ok = ok && cmd_text_puts(out, "}") && gap(out, rng, style);
        }
        if ((style & PGNGEN_COMMENTS) && chance(rng, 15))
            ok = ok && cmd_text_puts(out, "; a remark\n");
        if ((style & PGNGEN_COMMENTS) && chance(rng, 40))
            ok = ok && cmd_text_puts(out, "\n%escaped\n");
        if ((style & PGNGEN_VARIATIONS) && chance(rng, 7))
            ok = ok && variation(out, rng, &b, style, 0);
        df_make_move(&b, &b, m);
    }
    ok = ok && cmd_text_putf(out, "%s\n\n",
                             results[g->result == DF_RESULT_WHITE_WINS   ? 0
                                     : g->result == DF_RESULT_BLACK_WINS ? 1
                                     : g->result == DF_RESULT_DRAW       ? 2
                                                                         : 3]);
    if (!truth) pgngen_truth_free(&local);
    return ok;
}
