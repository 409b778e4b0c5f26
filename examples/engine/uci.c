/* SPDX-License-Identifier: MIT */
/* The UCI protocol: commands read on the main thread, the search on a thread of its own so that
 * stop, isready and quit are answered while it runs. Every move sent is one of the position's
 * legal moves (df_move_is_legal), and every go gets a bestmove: 0000 when there is no legal
 * move. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

static struct {
    df_board board;     /* the position after the moves (when has_position) */
    bool has_position;  /* false after an invalid position command (set_position) */
    df_history history; /* the positions before it */
    bool chess960;
    int overhead_ms;
    pthread_t thread;
    bool searching;
    search_limits limits;
} uci = {.overhead_ms = 30};

static void *search_thread(void *arg)
{
    (void)arg;
    df_move ponder;
    const df_move best = search(&uci.limits, &ponder);
    /* go infinite: the answer waits for stop. */
    while (uci.limits.infinite && !atomic_load(&search_stop)) {
        const struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    char text[DF_UCI_MAX] = "0000";
    if (best != DF_MOVE_NONE && df_move_is_legal(&uci.limits.root, best))
        df_move_to_uci(text, &uci.limits.root, best);
    else if (best != DF_MOVE_NONE) {
        /* Never an illegal move: the first legal one instead (this should not happen). */
        df_move_list list;
        df_generate_legal(&list, &uci.limits.root);
        if (list.count) df_move_to_uci(text, &uci.limits.root, list.moves[0]);
    }
    printf("bestmove %s\n", text);
    fflush(stdout);
    return NULL;
}

static void stop_search(void)
{
    if (!uci.searching) return;
    atomic_store(&search_stop, true);
    pthread_join(uci.thread, NULL);
    uci.searching = false;
}

/* Whether text has the shape of a UCI move (e2e4, e7e8q), legal or not: to tell a GUI whether
 * it sent something that is not a move at all or a move this position does not allow. */
static bool uci_move_shaped(const char *m)
{
    const size_t n = strlen(m);
    return (n == 4 || (n == 5 && strchr("qrbn", m[4]))) && m[0] >= 'a' && m[0] <= 'h' &&
           m[1] >= '1' && m[1] <= '8' && m[2] >= 'a' && m[2] <= 'h' && m[3] >= '1' && m[3] <= '8';
}

/* position [startpos | fen FEN] [moves M...]. What an invalid command leaves
 * (examples/engine/README.md), answered with an info string either way so that no go searches a
 * position the GUI did not mean without a word:
 * - no startpos/fen, text after startpos, a FEN the library rejects or one where the side not
 *   to move is in check: no position at all; go then answers bestmove 0000 (a GUI that sent a
 *   bad position learns it at once, rather than from a move in some earlier game);
 * - a move that is not UCI notation or not legal where it stands: the position after the moves
 *   before it (the game as far as it is legal, which is what other engines keep), the rest
 *   ignored. */
static void set_position(char *args)
{
    uci.has_position = false;
    const df_fen_flags flags = uci.chess960 ? DF_FEN_CHESS960 : DF_FEN_STANDARD;
    while (*args == ' ' || *args == '\t') args++;
    char *moves = strstr(args, " moves");
    if (moves && moves[6] != 0 && moves[6] != ' ' && moves[6] != '\t') moves = NULL;
    if (moves) *moves = 0;
    for (size_t n = strlen(args); n && (args[n - 1] == ' ' || args[n - 1] == '\t');) args[--n] = 0;
    df_board b;
    df_fen_error err;
    if (!strcmp(args, "startpos")) {
        df_fen_parse(&b, DF_FEN_START, strlen(DF_FEN_START), flags, NULL);
    } else if (!strncmp(args, "fen", 3) && (args[3] == ' ' || args[3] == 0)) {
        if (df_fen_parse(&b, args + 3, strlen(args + 3), flags, &err) != DF_OK) {
            printf("info string position: bad FEN: %s; no position until the next valid one\n",
                   err.message);
            return;
        }
        if (!df_board_playable(&b)) {
            printf("info string position: bad FEN: the side not to move is in check; no "
                   "position until the next valid one\n");
            return;
        }
    } else {
        printf("info string position: 'startpos' or 'fen FEN', then 'moves ...', expected; no "
               "position until the next valid one\n");
        return;
    }
    df_history_init(&uci.history);
    if (moves) {
        char *save;
        int ply = 0;
        for (char *m = strtok_r(moves + 6, " \t", &save); m; m = strtok_r(NULL, " \t", &save)) {
            df_move move;
            ply++;
            if (df_move_from_uci(&move, &b, m, strlen(m)) != DF_OK) {
                char fen[DF_FEN_MAX];
                df_fen_format(fen, sizeof fen, &b, flags);
                printf("info string position: move %d '%s' is %s; the position is the one "
                       "before it, %s, and the moves after it are ignored\n",
                       ply, m, uci_move_shaped(m) ? "not legal there" : "not UCI notation", fen);
                break;
            }
            df_history_push(&uci.history, &b);
            df_make_move(&b, &b, move);
        }
    }
    uci.board = b;
    uci.has_position = true;
}

/* The value after a keyword of a go command, or -1. */
static long long go_value(const char *args, const char *key)
{
    const char *p = args;
    const size_t n = strlen(key);
    while ((p = strstr(p, key))) {
        if ((p == args || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0)) return atoll(p + n);
        p += n;
    }
    return -1;
}

static void go(const char *args)
{
    stop_search();
    if (!uci.has_position) {
        /* Never a search of a position the GUI did not set (set_position). */
        printf("info string go: no position (the last position command was invalid)\n"
               "bestmove 0000\n");
        return;
    }
    search_limits *l = &uci.limits;
    memset(l, 0, sizeof *l);
    l->root = uci.board;
    l->history = uci.history;
    l->infinite = strstr(args, "infinite") != NULL;
    const long long depth = go_value(args, "depth"), nodes = go_value(args, "nodes");
    const long long movetime = go_value(args, "movetime");
    const bool white = uci.board.stm == DF_WHITE;
    const long long time = go_value(args, white ? "wtime" : "btime");
    const long long inc = go_value(args, white ? "winc" : "binc");
    const long long togo = go_value(args, "movestogo");
    if (depth > 0) l->max_depth = (int)(depth < MAX_PLY - 1 ? depth : MAX_PLY - 1);
    if (nodes > 0) l->max_nodes = (uint64_t)nodes;
    if (movetime > 0) {
        l->soft_ms = l->hard_ms = movetime > uci.overhead_ms ? movetime - uci.overhead_ms : 1;
    } else if (time >= 0) {
        /* A share of the time left and most of the increment; never closer to the flag than
         * the overhead. */
        const long long left = time > uci.overhead_ms ? time - uci.overhead_ms : 1;
        const long long share = left / (togo > 0 ? togo + 1 : 30) + (inc > 0 ? inc * 3 / 4 : 0);
        l->soft_ms = share * 6 / 10 > 1 ? share * 6 / 10 : 1;
        l->hard_ms = share * 3 < left / 2 ? share * 3 : left / 2;
        if (l->hard_ms < 1) l->hard_ms = 1;
    }
    atomic_store(&search_stop, false);
    uci.searching = pthread_create(&uci.thread, NULL, search_thread, NULL) == 0;
    if (!uci.searching) search_thread(NULL);
}

static void set_option(const char *args)
{
    const char *name = strstr(args, "name "), *value = strstr(args, " value ");
    if (!name || !value) return;
    name += 5;
    value += 7;
    const size_t n = (size_t)(strstr(args, " value ") - name);
    if (n == 4 && !strncmp(name, "Hash", 4)) {
        if (!tt_resize((size_t)atoll(value))) printf("info string Hash: out of memory\n");
    } else if (n == 12 && !strncmp(name, "UCI_Chess960", 12)) {
        uci.chess960 = !strcmp(value, "true");
    } else if (n == 13 && !strncmp(name, "Move Overhead", 13)) {
        uci.overhead_ms = atoi(value);
    }
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    eval_init();
    tt_resize(16);
    df_fen_parse(&uci.board, DF_FEN_START, strlen(DF_FEN_START), DF_FEN_STANDARD, NULL);
    df_history_init(&uci.history);
    uci.has_position = true; /* the start position until a position command */
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, stdin)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
        char *cmd = line;
        while (*cmd == ' ') cmd++;
        if (!strcmp(cmd, "uci")) {
            printf("id name dfengine %s\nid author the dirfill authors\n"
                   "option name Hash type spin default 16 min 1 max 4096\n"
                   "option name UCI_Chess960 type check default false\n"
                   "option name Move Overhead type spin default 30 min 0 max 5000\nuciok\n",
                   df_version());
        } else if (!strcmp(cmd, "isready")) {
            printf("readyok\n");
        } else if (!strcmp(cmd, "ucinewgame")) {
            stop_search();
            tt_clear();
        } else if (!strncmp(cmd, "setoption", 9)) {
            stop_search();
            set_option(cmd);
        } else if (!strncmp(cmd, "position", 8) && (cmd[8] == 0 || cmd[8] == ' ')) {
            stop_search();
            set_position(cmd + 8 + (cmd[8] == ' '));
        } else if (!strncmp(cmd, "go", 2) && (cmd[2] == 0 || cmd[2] == ' ')) {
            go(cmd + 2);
        } else if (!strcmp(cmd, "stop")) {
            stop_search();
        } else if (!strcmp(cmd, "quit")) {
            break;
        } else if (*cmd) {
            printf("info string unknown command: %s\n", cmd);
        }
        fflush(stdout);
    }
    stop_search();
    free(line);
    return 0;
}
