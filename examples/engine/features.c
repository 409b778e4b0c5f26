/* SPDX-License-Identifier: MIT */
/* dfengine_features: the evaluation's features of positions, for the tuner (tune/), from the
 * engine's own eval.c, so that the tuner fits exactly what the engine computes.
 *
 *   dfengine_features --names   the terms, one a line: "name mg eg" (the compiled weights)
 *   dfengine_features           positions on standard input, features on standard output
 *
 * A position is 13 little-endian uint64: the 12 bitboards in df_piece_index order (white P N
 * B R Q K, then black: the `pieces` column of dirfill.pgn_batches) and the side to move (0
 * white, 1 black). Its answer is 3 + EVAL_FEATURES little-endian int32: a status (1 quiet: not
 * in check and no capture that wins material by SEE, which a static evaluation can judge; 0
 * not quiet; -1 not a playable board, the rest 0), the divisor, evaluate's value, and the
 * features (engine.h: eval_features). Castling and en passant are not read: the evaluation
 * does not look at them. */
#include <stdio.h>
#include <string.h>

#include "engine.h"

enum { IN_WORDS = 13, OUT_WORDS = 3 + EVAL_FEATURES, BATCH = 1024 };

/* Whether the side to move can only lose by capturing: a position a static evaluation can be
 * asked about (Texel tuning's quiet positions). */
static bool quiet(const df_board *b)
{
    if (df_checkers(b)) return false;
    df_move_list captures;
    df_generate_captures(&captures, b);
    for (uint32_t i = 0; i < captures.count; i++)
        if (df_see_ge(b, captures.moves[i], 1)) return false;
    return true;
}

static void answer(const uint64_t in[IN_WORDS], int32_t out[OUT_WORDS])
{
    memset(out, 0, OUT_WORDS * sizeof out[0]);
    df_board b;
    if (in[12] > 1 || df_board_from_pieces(&b, in, (df_color)in[12]) != DF_OK ||
        !df_board_playable(&b)) {
        out[0] = -1;
        return;
    }
    out[0] = quiet(&b);
    out[1] = eval_features(&b, out + 3);
    out[2] = evaluate(&b);
}

int main(int argc, char **argv)
{
    eval_init();
    if (argc == 2 && !strcmp(argv[1], "--names")) {
        for (int t = 0; t < EVAL_TERMS; t++)
            printf("%s %d %d\n", eval_term_names[t], eval_weights[2 * t], eval_weights[2 * t + 1]);
        return 0;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: dfengine_features [--names] (positions on standard input)\n");
        return 2;
    }
    /* Little-endian in and out: x86-64 and aarch64, the machines the tuner runs on. */
    static uint64_t in[BATCH][IN_WORDS];
    static int32_t out[BATCH][OUT_WORDS];
    size_t n;
    while ((n = fread(in, sizeof in[0], BATCH, stdin)) > 0) {
        for (size_t i = 0; i < n; i++) answer(in[i], out[i]);
        if (fwrite(out, sizeof out[0], n, stdout) != n) return 1;
    }
    return ferror(stdin) ? 1 : 0;
}
