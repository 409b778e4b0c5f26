/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the legal move generator on fuzzed boards (castling rights and en passant
 * included) against the slow reference generator, on every backend this machine runs; perft
 * to depth 2 equal to the reference's count; every move made by copy-make equal to the
 * reference's make with its key. Any disagreement aborts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dft.h"
#include "fuzz_board.h"
#include "reference.h"

static int by_value(const void *a, const void *b)
{
    return (int)*(const df_move *)a - (int)*(const df_move *)b;
}

/* Leaf nodes to depth 2 by the reference alone. */
static uint64_t ref_perft2(const df_board *b)
{
    static df_move moves[DF_MAX_MOVES], replies[DF_MAX_MOVES];
    const int n = ref_legal_moves(b, moves);
    uint64_t nodes = 0;
    for (int i = 0; i < n; i++) {
        df_board c;
        ref_make_move(&c, b, moves[i]);
        nodes += (uint64_t)ref_legal_moves(&c, replies);
    }
    return nodes;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    df_board b;
    if (!fuzz_board(&b, data, size) || !df_board_playable(&b)) return 0;
    static df_move ref[DF_MAX_MOVES];
    const int n = ref_legal_moves(&b, ref);
    qsort(ref, (size_t)n, sizeof ref[0], by_value);
    const uint64_t nodes2 = ref_perft2(&b);
    for (size_t i = 0; i < dft_backend_count(); i++) {
        dft_use(dft_backend_at(i));
        df_move_list list;
        df_generate_legal(&list, &b);
        if ((int)list.count != n || df_count_legal(&b) != list.count) abort();
        qsort(list.moves, list.count, sizeof list.moves[0], by_value);
        if (memcmp(ref, list.moves, (size_t)n * sizeof ref[0])) abort();
        uint64_t nodes;
        if (df_perft(&nodes, &b, 2) != DF_OK || nodes != nodes2) abort();
    }
    for (int i = 0; i < n; i++) {
        df_board got, want;
        df_make_move(&got, &b, ref[i]);
        ref_make_move(&want, &b, ref[i]);
        if (memcmp(got.color, want.color, sizeof got.color) ||
            memcmp(got.piece, want.piece, sizeof got.piece) || got.key != want.key ||
            got.castling != want.castling || got.ep != want.ep)
            abort();
    }
    return 0;
}
