/* SPDX-License-Identifier: MIT */
/* dirfill moves: the legal moves of each position, with SAN, SEE and check. */
#include <stdlib.h>
#include <string.h>

#include "app.h"

static const char help[] =
    "usage: dirfill moves [--json] [--chess960] [--fen FEN]\n"
    "\n"
    "The legal moves of each position (--fen, or one FEN a line on standard input, as for\n"
    "analyze), sorted by UCI notation.\n"
    "  --json       {\"fen\", \"hash\" (Polyglot), \"moves\": [{\"uci\", \"san\", \"see\", "
    "\"check\"}]}\n"
    "  --chess960   Chess960 castling: Shredder-FEN or X-FEN castling fields, castling\n"
    "               written as the king taking its own rook (e1h1); no hash\n"
    "Without --json: one line per position, the moves in SAN separated by spaces.\n"
    "Positions whose side not to move is in check are errors, like bad FENs.\n";

typedef struct {
    char uci[DF_UCI_MAX], san[DF_SAN_MAX];
    int see;
    bool check;
} listed_move;

typedef struct {
    bool json;
} moves_options;

static int by_uci(const void *a, const void *b)
{
    return strcmp(((const listed_move *)a)->uci, ((const listed_move *)b)->uci);
}

static void moves_one(const df_board *b, void *ctx)
{
    const moves_options *o = ctx;
    static listed_move listed[DF_MAX_MOVES];
    df_move_list list;
    df_generate_legal(&list, b);
    for (uint32_t i = 0; i < list.count; i++) {
        const df_move m = list.moves[i];
        listed_move *l = &listed[i];
        df_move_to_uci(l->uci, b, m);
        df_move_to_san(l->san, b, m);
        l->see = df_see(b, m);
        l->check = df_gives_check(b, m) != DF_CHECK_NONE;
    }
    qsort(listed, list.count, sizeof listed[0], by_uci);
    if (!o->json) {
        for (uint32_t i = 0; i < list.count; i++) printf("%s%s", i ? " " : "", listed[i].san);
        putchar('\n');
        return;
    }
    char fen[DF_FEN_MAX];
    df_fen_format(fen, sizeof fen, b, DF_FEN_STANDARD);
    fputs("{\"fen\": ", stdout);
    json_string(stdout, fen, strlen(fen));
    if (!b->chess960) printf(", \"hash\": \"0x%016llx\"", (unsigned long long)b->key);
    fputs(", \"moves\": [", stdout);
    for (uint32_t i = 0; i < list.count; i++)
        printf("%s{\"uci\": \"%s\", \"san\": \"%s\", \"see\": %d, \"check\": %s}", i ? ", " : "",
               listed[i].uci, listed[i].san, listed[i].see, listed[i].check ? "true" : "false");
    fputs("]}\n", stdout);
}

int cmd_moves(int argc, char **argv, const char *backend)
{
    (void)backend;
    moves_options o = {false};
    df_fen_flags flags = DF_FEN_STANDARD;
    const char *fen = NULL;
    for (int i = 0; i < argc; i++) {
        const int got = cmd_value("moves", argc, argv, &i, "--fen", &fen);
        if (got < 0) return -got;
        if (got) continue;
        if (cmd_is(argv[i], "--json"))
            o.json = true;
        else if (cmd_is(argv[i], "--chess960"))
            flags = DF_FEN_CHESS960;
        else
            return cmd_help_or_unknown("moves", argv[i], help);
    }
    const position_loop loop = {"moves", o.json, flags, true, moves_one, &o};
    return run_positions(&loop, fen);
}
