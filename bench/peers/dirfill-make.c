/* SPDX-License-Identifier: MIT */
/* dirfill's copy-make (or gives-check) on the moves chess-library-make.cpp makes (or asks
 * about): every legal move of every position of a file (one FEN a line), the Polyglot key of
 * each child folded in (or the checking moves counted: the same count as the peer's). Build:
 *   cc -O2 -std=c11 dirfill-make.c $(pkg-config --cflags --libs dirfill)  (or -I include
 *   -L build/release -ldirfill)
 * Run: dirfill_make FENS [REPS [check]]: the median ns per move over REPS (default 11) of
 * df_make_move, or with "check" of df_gives_check. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dirfill.h"

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc < 2) return 2;
    FILE *f = fopen(argv[1], "r");
    if (!f) return perror(argv[1]), 1;
    const int reps = argc > 2 ? atoi(argv[2]) : 11;
    const bool check = argc > 3 && strcmp(argv[3], "check") == 0;
    if (reps < 1 || reps > 101) return 2;
    size_t n = 0, cap = 0, total = 0;
    df_board *boards = NULL;
    df_move_list *moves = NULL;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0]) continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            boards = realloc(boards, cap * sizeof *boards);
            moves = realloc(moves, cap * sizeof *moves);
            if (!boards || !moves) return 1;
        }
        if (df_fen_parse(&boards[n], line, strlen(line), DF_FEN_STANDARD, NULL) != DF_OK) {
            fprintf(stderr, "bad FEN: %s\n", line);
            return 1;
        }
        df_generate_legal(&moves[n], &boards[n]);
        total += moves[n].count;
        n++;
    }
    fclose(f);
    double ns[101];
    uint64_t fold = 0;
    for (int r = 0; r < reps; r++) {
        const double t0 = now_ns();
        for (size_t i = 0; i < n; i++)
            for (uint32_t m = 0; m < moves[i].count; m++) {
                if (check) {
                    fold += df_gives_check(&boards[i], moves[i].moves[m]) != 0;
                    continue;
                }
                df_board child;
                df_make_move(&child, &boards[i], moves[i].moves[m]);
                fold = (fold << 1 | fold >> 63) ^ child.key;
            }
        ns[r] = (now_ns() - t0) / (double)total;
    }
    qsort(ns, (size_t)reps, sizeof ns[0], by_value);
    printf("%.2f ns per move, %zu moves, fold %016llx\n", ns[reps / 2], total,
           (unsigned long long)fold);
    free(boards);
    free(moves);
    return 0;
}
