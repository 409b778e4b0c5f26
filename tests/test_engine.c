/* SPDX-License-Identifier: MIT */
/* The example engine (examples/engine) in a scripted UCI session, the way a referee drives it:
 * the handshake, positions with move lists, legal best moves, stop during go infinite, mates,
 * stalemate and repetition draws, Chess960 castling. The library is the referee here: every
 * move the engine sends is checked with df_move_from_uci on the position it was asked about. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dft.h"

#ifndef DFT_ENGINE
#error "DFT_ENGINE: the path of dfengine"
#endif

typedef struct {
    pid_t pid;
    int in, out; /* the engine's standard input (we write) and output (we read) */
    char buf[1 << 16];
    size_t len;
} engine;

static int64_t now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

static void start(engine *e)
{
    int to[2], from[2];
    assert_int_equal(pipe(to), 0);
    assert_int_equal(pipe(from), 0);
    e->pid = fork();
    assert_true(e->pid >= 0);
    if (e->pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[0]), close(to[1]), close(from[0]), close(from[1]);
        execl(DFT_ENGINE, DFT_ENGINE, (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    e->in = to[1];
    e->out = from[0];
    e->len = 0;
}

static void send(engine *e, const char *fmt, ...)
{
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    assert_true(n > 0 && (size_t)n < sizeof line - 1);
    line[n++] = '\n';
    assert_int_equal(write(e->in, line, (size_t)n), n);
}

/* The next line the engine writes (without its newline), or fails after timeout_ms. */
static void next_line(engine *e, char *line, size_t size, int timeout_ms)
{
    const int64_t deadline = now_us() + (int64_t)timeout_ms * 1000;
    for (;;) {
        char *nl = memchr(e->buf, '\n', e->len);
        if (nl) {
            const size_t n = (size_t)(nl - e->buf);
            assert_true(n < size);
            memcpy(line, e->buf, n);
            line[n] = 0;
            memmove(e->buf, nl + 1, e->len - n - 1);
            e->len -= n + 1;
            return;
        }
        const int64_t left = deadline - now_us();
        if (left <= 0) fail_msg("the engine said nothing for %d ms", timeout_ms);
        struct pollfd p = {e->out, POLLIN, 0};
        const int r = poll(&p, 1, (int)(left / 1000) + 1);
        if (r < 0 && errno == EINTR) continue;
        assert_true(r >= 0);
        if (r == 0) continue;
        assert_true(e->len < sizeof e->buf);
        const ssize_t got = read(e->out, e->buf + e->len, sizeof e->buf - e->len);
        if (got <= 0) fail_msg("the engine closed its output (crashed or quit)");
        e->len += (size_t)got;
    }
}

/* Reads lines until one starts with prefix; the last "info ... score" seen goes to score. */
static void expect(engine *e, const char *prefix, char *line, size_t size, char *score,
                   int timeout_ms)
{
    for (;;) {
        next_line(e, line, size, timeout_ms);
        const char *s = strstr(line, " score ");
        if (score && !strncmp(line, "info ", 5) && s) {
            const char *end = strstr(s + 7, " nodes");
            const size_t n = end ? (size_t)(end - s - 7) : strlen(s + 7);
            memcpy(score, s + 7, n < 31 ? n : 31);
            score[n < 31 ? n : 31] = 0;
        }
        if (!strncmp(line, prefix, strlen(prefix))) return;
    }
}

static void stop_engine(engine *e)
{
    send(e, "quit");
    close(e->in);
    int status = 0;
    for (int i = 0; i < 500 && waitpid(e->pid, &status, WNOHANG) == 0; i++) usleep(10000);
    if (waitpid(e->pid, &status, WNOHANG) == 0) {
        kill(e->pid, SIGKILL);
        waitpid(e->pid, &status, 0);
        fail_msg("the engine did not exit on quit");
    }
    close(e->out);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Asks for a move and returns it as UCI text in move (checked legal on b by the library). */
static df_move best_move(engine *e, const df_board *b, const char *go, char *score, char *text)
{
    char line[4096];
    send(e, "go %s", go);
    expect(e, "bestmove ", line, sizeof line, score, 60000);
    sscanf(line + 9, "%7s", text);
    df_move m = DF_MOVE_NONE;
    if (strcmp(text, "0000") && df_move_from_uci(&m, b, text, strlen(text)) != DF_OK)
        fail_msg("illegal move %s in %s", text, line);
    return m;
}

static void handshake(engine *e)
{
    char line[4096];
    send(e, "uci");
    next_line(e, line, sizeof line, 5000);
    assert_string_equal(strtok(line, " "), "id");
    bool hash = false, chess960 = false;
    for (;;) {
        next_line(e, line, sizeof line, 5000);
        if (!strcmp(line, "uciok")) break;
        hash |= strstr(line, "option name Hash type spin") != NULL;
        chess960 |= strstr(line, "option name UCI_Chess960 type check") != NULL;
    }
    assert_true(hash && chess960);
    send(e, "isready");
    next_line(e, line, sizeof line, 5000);
    assert_string_equal(line, "readyok");
}

/* An info string naming the problem with the last position command: the next line. */
static void expect_position_error(engine *e, const char *what)
{
    char line[4096];
    next_line(e, line, sizeof line, 5000);
    if (strncmp(line, "info string position: ", 22) || !strstr(line, what))
        fail_msg("expected an info string with '%s', got '%s'", what, line);
}

/* go after a position command left no position: an info string and bestmove 0000, not a
 * search of the position before it (examples/engine/README.md: no position until the next valid
 * one). */
static void expect_no_position(engine *e)
{
    char line[4096];
    send(e, "go depth 1");
    next_line(e, line, sizeof line, 5000);
    assert_non_null(strstr(line, "info string go: no position"));
    next_line(e, line, sizeof line, 5000);
    assert_string_equal(line, "bestmove 0000");
}

static void test_handshake_and_errors(void **state)
{
    (void)state;
    engine e;
    start(&e);
    handshake(&e);
    char line[4096], score[32], text[8];
    /* Each invalid position follows a valid one, the mate in one of the fool's mate: a go that
     * searched the stale position would answer d8h4 instead of 0000. */
    const char *mate = "position startpos moves f2f3 e7e5 g2g4";
    const char *bad[][2] = {
        {"position fen 8/8/8/8/8/8/8/8 w - - 0 1", "bad FEN: piece placement"}, /* no kings */
        {"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "bad FEN"},
        {"position fen", "bad FEN"},
        {"position fen 4k3/8/8/8/8/8/8/3KK3 w - - 0 1 moves e1e2", "bad FEN"}, /* two kings */
        {"position fen 4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1", "side not to move is in check"},
        {"position", "'startpos' or 'fen FEN'"},
        {"position startpos e2e4", "'startpos' or 'fen FEN'"}, /* "moves" left out */
        {"position moves e2e4", "'startpos' or 'fen FEN'"},
        {"position startfen", "'startpos' or 'fen FEN'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        send(&e, "%s", mate);
        send(&e, "%s", bad[i][0]);
        expect_position_error(&e, bad[i][1]);
        expect_no_position(&e);
    }
    /* A valid position after an invalid one is searched again. */
    df_board b = dft_fen("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
    send(&e, "%s", mate);
    best_move(&e, &b, "depth 2", score, text);
    assert_string_equal(text, "d8h4");

    /* A move that is not legal, or not a move at all: the position before it, said so. */
    b = dft_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    send(&e, "position startpos moves e2e4 e7e4 d2d4");
    expect_position_error(&e, "move 2 'e7e4' is not legal there; the position is the one "
                              "before it, rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b");
    best_move(&e, &b, "depth 2", score, text); /* legal for black after e2e4 */
    send(&e, "position startpos moves e2e4 e7e5q");
    expect_position_error(&e, "move 2 'e7e5q' is not legal there");
    best_move(&e, &b, "depth 2", score, text);
    send(&e, "position startpos moves e2e4 xyz e7e5");
    expect_position_error(&e, "move 2 'xyz' is not UCI notation");
    best_move(&e, &b, "depth 2", score, text);
    /* The history is the legal prefix's: e2e4 was played from the start position. */
    b = dft_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    send(&e, "position startpos moves e4e5");
    expect_position_error(&e, "move 1 'e4e5' is not legal there");
    best_move(&e, &b, "depth 2", score, text);

    /* Spaces around the words are accepted. */
    send(&e, "position   startpos  moves  e2e4 ");
    b = dft_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    best_move(&e, &b, "depth 2", score, text);

    send(&e, "frobnicate");
    next_line(&e, line, sizeof line, 5000);
    assert_non_null(strstr(line, "unknown command"));
    send(&e, "setoption name Hash value 1");
    send(&e, "ucinewgame");
    send(&e, "isready");
    next_line(&e, line, sizeof line, 5000);
    assert_string_equal(line, "readyok");
    stop_engine(&e);
}

/* go depth 4 on positions reached by random play, given as FEN plus a move list: every answer
 * is legal where it is played, and the move list was applied (a wrong position would make
 * some answers illegal). */
static void test_legal_answers(void **state)
{
    (void)state;
    engine e;
    start(&e);
    handshake(&e);
    dft_srand(dft_seed);
    for (int game = 0; game < 24; game++) {
        df_board start_board;
        dft_rand_game_position(&start_board);
        if (start_board.chess960) continue; /* Chess960 has its own test */
        char fen[DF_FEN_MAX];
        df_fen_format(fen, sizeof fen, &start_board, DF_FEN_STANDARD);
        char moves[2048] = "";
        size_t used = 0;
        df_board b = start_board;
        for (int ply = 0; ply < 12; ply++) {
            df_move_list list;
            df_generate_legal(&list, &b);
            if (list.count == 0) break;
            const df_move m = list.moves[dft_rand() % list.count];
            char uci[DF_UCI_MAX];
            df_move_to_uci(uci, &b, m);
            used += (size_t)snprintf(moves + used, sizeof moves - used, " %s", uci);
            df_make_move(&b, &b, m);
        }
        send(&e, "position fen %s moves%s", fen, moves);
        char score[32] = "", text[8];
        const df_move m = best_move(&e, &b, "depth 4", score, text);
        df_move_list list;
        df_generate_legal(&list, &b);
        if (list.count == 0)
            assert_string_equal(text, "0000");
        else
            assert_int_not_equal(m, DF_MOVE_NONE);
    }
    stop_engine(&e);
}

/* stop during go infinite: the bestmove arrives within 50 ms (the median of five), and it is
 * legal; isready is answered while the search runs. */
static void test_stop_infinite(void **state)
{
    (void)state;
    engine e;
    start(&e);
    handshake(&e);
    const char *fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8";
    const df_board b = dft_fen(fen);
    int64_t waits[5];
    for (int i = 0; i < 5; i++) {
        char line[4096], text[8];
        send(&e, "position fen %s", fen);
        send(&e, "go infinite");
        usleep(100000 + 50000 * (useconds_t)i);
        send(&e, "isready");
        expect(&e, "readyok", line, sizeof line, NULL, 5000);
        const int64_t t0 = now_us();
        send(&e, "stop");
        expect(&e, "bestmove ", line, sizeof line, NULL, 5000);
        waits[i] = now_us() - t0;
        sscanf(line + 9, "%7s", text);
        df_move m;
        assert_int_equal(df_move_from_uci(&m, &b, text, strlen(text)), DF_OK);
    }
    /* A stop at once after go is answered too (the fallback move). */
    char line[4096], text[8];
    send(&e, "go infinite");
    send(&e, "stop");
    expect(&e, "bestmove ", line, sizeof line, NULL, 5000);
    sscanf(line + 9, "%7s", text);
    df_move m;
    assert_int_equal(df_move_from_uci(&m, &b, text, strlen(text)), DF_OK);
    stop_engine(&e);
    for (int i = 1; i < 5; i++)
        for (int j = i; j > 0 && waits[j] < waits[j - 1]; j--) {
            const int64_t t = waits[j];
            waits[j] = waits[j - 1];
            waits[j - 1] = t;
        }
    print_message("stop answered in %lld us (median of 5)\n", (long long)waits[2]);
    assert_true(waits[2] < 50000);
}

/* Whether the side to move in b is checkmated. */
static bool mated(const df_board *b)
{
    df_move_list list;
    df_generate_legal(&list, b);
    return list.count == 0 && df_checkers(b);
}

/* Whether m gives mate in two on b: every reply allows a mate in one. */
static bool mate_in_two(const df_board *b, df_move m)
{
    df_board after;
    df_make_move(&after, b, m);
    df_move_list replies;
    df_generate_legal(&replies, &after);
    if (replies.count == 0) return false;
    for (uint32_t i = 0; i < replies.count; i++) {
        df_board reply;
        df_make_move(&reply, &after, replies.moves[i]);
        df_move_list ours;
        df_generate_legal(&ours, &reply);
        bool found = false;
        for (uint32_t k = 0; k < ours.count && !found; k++) {
            df_board end;
            df_make_move(&end, &reply, ours.moves[k]);
            found = mated(&end);
        }
        if (!found) return false;
    }
    return true;
}

static void test_mates(void **state)
{
    (void)state;
    engine e;
    start(&e);
    handshake(&e);
    char score[32], text[8];
    /* Mate in one, the position given by a move list (the fool's mate). */
    df_board b = dft_fen("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
    send(&e, "position startpos moves f2f3 e7e5 g2g4");
    df_move m = best_move(&e, &b, "depth 4", score, text);
    assert_string_equal(text, "d8h4");
    assert_string_equal(score, "mate 1");
    /* Mate in two (a sacrifice first). */
    const char *two = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
    b = dft_fen(two);
    send(&e, "position fen %s", two);
    m = best_move(&e, &b, "depth 6", score, text);
    assert_string_equal(score, "mate 2");
    assert_true(mate_in_two(&b, m));
    /* Mated and stalemated: no legal move, bestmove 0000. */
    b = dft_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    send(&e, "position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    best_move(&e, &b, "depth 3", score, text);
    assert_string_equal(text, "0000");
    b = dft_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    send(&e, "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    best_move(&e, &b, "movetime 50", score, text);
    assert_string_equal(text, "0000");
    stop_engine(&e);
}

/* Stalemate and repetition score as draws: a winning side avoids both, a losing side takes
 * the repetition. */
static void test_draws(void **state)
{
    (void)state;
    engine e;
    start(&e);
    handshake(&e);
    char score[32], text[8];
    /* The black king has no square: taking the free bishop stalemates. A search that scored
     * stalemate by its material (a bishop up) would take it (this test fails for such a build). */
    df_board b = dft_fen("k7/8/1Q6/8/8/5K2/6b1/8 w - - 0 1");
    send(&e, "position fen k7/8/1Q6/8/8/5K2/6b1/8 w - - 0 1");
    df_move m = best_move(&e, &b, "depth 6", score, text);
    df_board after;
    df_make_move(&after, &b, m);
    df_move_list replies;
    df_generate_legal(&replies, &after);
    assert_true(replies.count > 0 || df_checkers(&after));
    assert_true(!strncmp(score, "cp ", 3) ? atoi(score + 3) > 500 : !strncmp(score, "mate ", 5));

    /* Threefold repetition from the game's history. Black, a queen down, has one move that
     * repeats a position a third time (Kh8) and takes it: a draw, scored 0. */
    const char *fen = "6k1/8/8/8/8/8/8/K2Q4 b - - 0 1";
    const char *line = "g8h8 d1e1 h8g8 e1d1 g8h8 d1e1 h8g8 e1d1";
    b = dft_fen(fen);
    send(&e, "position fen %s moves %s", fen, line);
    best_move(&e, &b, "depth 6", score, text);
    assert_string_equal(text, "g8h8");
    assert_string_equal(score, "cp 0");
    /* White, winning, will not repeat: after g8h8 the move d1e1 would be a repetition. */
    b = dft_fen("7k/8/8/8/8/8/8/K2Q4 w - - 1 2");
    send(&e, "position fen %s moves g8h8 d1e1 h8g8 e1d1 g8h8", fen);
    best_move(&e, &b, "depth 6", score, text);
    assert_string_not_equal(text, "d1e1");
    assert_true(!strncmp(score, "cp ", 3) ? atoi(score + 3) > 500 : !strncmp(score, "mate ", 5));
    stop_engine(&e);
}

/* Chess960: castling read and written as the king taking its own rook; here it is the only
 * mate in one (the rook checks on d1). Standard castling moves stay king-two-squares (e1g1). */
static void test_chess960(void **state)
{
    (void)state;
    engine e;
    start(&e);
    handshake(&e);
    char score[32], text[8];
    send(&e, "setoption name UCI_Chess960 value true");
    df_board b = dft_fen960("2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1");
    send(&e, "position fen 2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1");
    best_move(&e, &b, "depth 3", score, text);
    assert_string_equal(text, "b1a1");
    assert_string_equal(score, "mate 1");
    /* A castling move in a move list, then a legal answer in the castled position. */
    b = dft_fen960("2rkr3/2p1p3/8/8/8/8/8/2KR4 b - - 1 1");
    send(&e, "position fen 2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1 moves b1a1");
    best_move(&e, &b, "depth 2", score, text);
    assert_string_equal(text, "0000"); /* mated */
    send(&e, "setoption name UCI_Chess960 value false");
    b = dft_fen("r3k2r/8/8/8/8/8/8/4K2R w Kkq - 0 1");
    send(&e, "position fen r3k2r/8/8/8/8/8/8/4K2R w Kkq - 0 1 moves e1g1 e8c8");
    b = dft_fen("2kr3r/8/8/8/8/8/8/5RK1 w - - 2 2");
    best_move(&e, &b, "depth 3", score, text);
    stop_engine(&e);
}

int main(void)
{
    if (getenv("DFT_NO_THREADS")) {
        /* The aarch64 preset under qemu-user: pthread_create never returns there, and the
         * engine searches on a thread of its own. */
        printf("skipped: DFT_NO_THREADS is set (no threads under this emulator)\n");
        return 77;
    }
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_handshake_and_errors),
        cmocka_unit_test(test_legal_answers),
        cmocka_unit_test(test_stop_infinite),
        cmocka_unit_test(test_mates),
        cmocka_unit_test(test_draws),
        cmocka_unit_test(test_chess960),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
