/* SPDX-License-Identifier: MIT */
/* df_source on what is not a regular file: a FIFO opened without waiting for a writer and
 * read as its bytes come, with the games of a file of the same bytes (one thread and more); a
 * directory refused as it is opened; interrupts (df_source_set_interrupt) that reach a read
 * waiting on a FIFO whose writer stays open, the endless bytes of /dev/zero, a plain file and
 * a function, with a signal that stops the wait no error when there is an interrupt to ask. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "dft.h"

/* Two games; the input repeats them (small enough for a pipe's buffer: a write never waits). */
static const char GAMES[] =
    "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n"
    "[Event \"b\"]\n[Result \"0-1\"]\n\n1. d4 d5 2. c4 e6 0-1\n\n";
enum { COPIES = 300 };

static char *games_text(size_t *len)
{
    const size_t one = sizeof GAMES - 1;
    char *t = malloc(COPIES * one + 1);
    assert_non_null(t);
    for (int i = 0; i < COPIES; i++) memcpy(t + i * one, GAMES, one);
    *len = COPIES * one;
    t[*len] = '\0';
    return t;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static char *temp_path(const char *suffix)
{
    static int n;
    char *path = malloc(128);
    snprintf(path, 128, "/tmp/dirfill-source-%d-%d%s", (int)getpid(), n++, suffix);
    return path;
}

static char *fifo(void)
{
    char *path = temp_path(".fifo");
    assert_int_equal(0, mkfifo(path, 0600));
    return path;
}

/* The thread counts a read may use: one where there are none (DFT_NO_THREADS, as test_pgn). */
static unsigned usable_threads(unsigned threads) { return getenv("DFT_NO_THREADS") ? 1 : threads; }

/* ---- games counted through df_pgn_read_threaded's sinks ---- */

typedef struct {
    long games, plies;
} counts;

static df_pgn_action count_end(void *ctx, const df_pgn_game *g)
{
    counts *c = ctx;
    c->games++;
    c->plies += g->plies;
    return DF_PGN_READ;
}

static void *count_open(void *ctx)
{
    (void)ctx;
    return calloc(1, sizeof(counts));
}

static int count_deliver(void *ctx, void *sink, uint64_t first_game)
{
    counts *all = ctx, *part = sink;
    assert_int_equal(all->games, first_game);
    all->games += part->games;
    all->plies += part->plies;
    return 0;
}

static void count_drop(void *ctx, void *sink)
{
    (void)ctx;
    free(sink);
}

static df_status read_counts(df_source *src, unsigned threads, counts *out)
{
    memset(out, 0, sizeof *out);
    const df_pgn_sinks sinks = {
        count_open, {NULL, NULL, count_end, NULL}, count_deliver, count_drop, out};
    return df_pgn_read_threaded(src, DF_PGN_STANDARD, NULL, usable_threads(threads), &sinks, NULL);
}

/* ---- interrupts ---- */

typedef struct {
    double at; /* requested from then on */
    long calls;
} deadline;

static bool past(void *ctx)
{
    deadline *d = ctx;
    d->calls++;
    return now() >= d->at;
}

static df_interrupt interrupt_after(deadline *d, double seconds)
{
    d->at = now() + seconds;
    d->calls = 0;
    return (df_interrupt){past, d};
}

/* ---- tests ---- */

static void test_directory_refused_at_open(void **state)
{
    (void)state;
    df_source *src = NULL;
    errno = 0;
    assert_int_equal(DF_ERR_IO, df_source_open(&src, "/tmp"));
    assert_int_equal(EISDIR, errno);
    assert_null(src);
    assert_int_equal(DF_ERR_IO, df_source_open(&src, "/nonexistent/games.pgn"));
    assert_int_equal(ENOENT, errno);
}

/* The former names (pgn.h, deprecated until 0.7) are the df_source calls: the same bytes, counts
 * and errors, on a file and on a function, and the type is the same. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static void test_former_names_are_the_source_calls(void **state)
{
    (void)state;
    char path[] = "/tmp/dft-former-XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal((ssize_t)(sizeof GAMES - 1), write(fd, GAMES, sizeof GAMES - 1));
    close(fd);
    df_pgn_source *old = NULL;
    df_source *now_ = NULL;
    assert_int_equal(DF_OK, df_pgn_source_open(&old, path));
    assert_int_equal(DF_OK, df_source_open(&now_, path));
    char a[256], b[256];
    const long na = df_pgn_source_read(old, a, sizeof a), nb = df_source_read(now_, b, sizeof b);
    assert_int_equal(sizeof GAMES - 1, na);
    assert_int_equal(nb, na);
    assert_memory_equal(a, b, (size_t)na);
    assert_int_equal(df_source_consumed(now_), df_pgn_source_consumed(old));
    assert_int_equal(0, df_pgn_source_read(old, a, sizeof a));
    assert_null(df_pgn_source_error(old));
    df_pgn_source_close(old);
    df_source_close(now_);
    unlink(path);
    assert_int_equal(DF_ERR_IO, df_pgn_source_open(&old, path));

    dft_memory m = {GAMES, sizeof GAMES - 1, 0, 0, 10};
    old = df_pgn_source_from_function(dft_memory_read, &m);
    assert_non_null(old);
    df_pgn_source_set_interrupt(old, NULL);
    assert_int_equal(10, df_pgn_source_read(old, a, sizeof a));
    assert_int_equal(-1, df_pgn_source_read(old, a, sizeof a));
    assert_string_equal("the input function failed", df_pgn_source_error(old));
    df_pgn_source_close(old);
}
#pragma GCC diagnostic pop

/* A source that fails inside a game (a truncated .zst does): the games before it, and the one
 * it cuts short as an error of its own, whatever the threads; nothing read is dropped. */
static void test_error_inside_a_game_keeps_the_cut_game(void **state)
{
    (void)state;
    size_t len;
    char *text = games_text(&len);
    const size_t one = sizeof GAMES - 1, whole = 2 * COPIES / 3; /* pairs of games before it */
    const char *inside = strstr(text + whole * one, "2. Nf3");   /* the next game's movetext */
    assert_non_null(inside);
    const size_t pieces[] = {1000, 4096, 1 << 20};
    for (size_t i = 0; i < sizeof pieces / sizeof *pieces; i++) {
        df_pgn_stats stats[2];
        for (unsigned threads = 1; threads <= 2; threads++) {
            dft_memory m = {text, len, 0, pieces[i], (size_t)(inside - text)};
            df_source *src = df_source_from_function(dft_memory_read, &m);
            assert_non_null(src);
            counts got;
            memset(&got, 0, sizeof got);
            const df_pgn_sinks sinks = {
                count_open, {NULL, NULL, count_end, NULL}, count_deliver, count_drop, &got};
            df_pgn_stats *st = &stats[threads - 1];
            assert_int_equal(DF_ERR_IO, df_pgn_read_threaded(src, DF_PGN_STANDARD, NULL,
                                                             usable_threads(threads), &sinks, st));
            df_source_close(src);
            if (st->games != 2 * whole + 1 || st->errors != 1 || got.games != (long)st->games)
                fail_msg("reads of %zu bytes, %u thread(s): %llu games (%ld seen), %llu errors; "
                         "want %zu games, the last an error",
                         pieces[i], threads, (unsigned long long)st->games, got.games,
                         (unsigned long long)st->errors, 2 * whole + 1);
        }
        assert_int_equal(stats[0].plies, stats[1].plies);
        assert_int_equal(stats[0].bytes, stats[1].bytes);
    }
    free(text);
}

static void test_fifo_read_as_its_bytes_come(void **state)
{
    (void)state;
    size_t len;
    char *text = games_text(&len);
    char *plain = temp_path(".pgn");
    FILE *f = fopen(plain, "wb");
    assert_int_equal(len, fwrite(text, 1, len, f));
    fclose(f);
    df_source *src;
    assert_int_equal(DF_OK, df_source_open(&src, plain));
    counts want;
    assert_int_equal(DF_OK, read_counts(src, 1, &want));
    df_source_close(src);
    assert_int_equal(2 * COPIES, want.games);

    const unsigned threads[] = {1, 2};
    for (int i = 0; i < 2; i++) {
        char *path = fifo();
        const double start = now();
        assert_int_equal(DF_OK, df_source_open(&src, path)); /* no writer yet */
        assert_true(now() - start < 1);
        const int w = open(path, O_WRONLY | O_NONBLOCK); /* a reader is there: no wait */
        assert_true(w >= 0);
        assert_int_equal((long)len, write(w, text, len));
        close(w);
        counts got;
        assert_int_equal(DF_OK, read_counts(src, threads[i], &got));
        assert_int_equal(want.games, got.games);
        assert_int_equal(want.plies, got.plies);
        assert_int_equal(len, df_source_consumed(src));
        df_source_close(src);
        unlink(path);
        free(path);
    }
    /* A read gives what is there, not all it asked for, while the writer stays. */
    char *path = fifo();
    assert_int_equal(DF_OK, df_source_open(&src, path));
    const int w = open(path, O_WRONLY | O_NONBLOCK);
    assert_int_equal(100, write(w, text, 100));
    char buf[4096];
    assert_int_equal(100, df_source_read(src, buf, sizeof buf));
    assert_memory_equal(text, buf, 100);
    close(w);
    assert_int_equal(0, df_source_read(src, buf, sizeof buf)); /* the writer went: the end */
    df_source_close(src);
    unlink(path);
    free(path);
    unlink(plain);
    free(plain);
    free(text);
}

static void test_interrupt_reaches_a_waiting_read(void **state)
{
    (void)state;
    size_t len;
    char *text = games_text(&len);
    const unsigned threads[] = {1, 2};
    for (int i = 0; i < 2; i++) {
        /* A writer that wrote games and stays open: the read waits for more. */
        char *path = fifo();
        df_source *src;
        assert_int_equal(DF_OK, df_source_open(&src, path));
        const int w = open(path, O_WRONLY | O_NONBLOCK);
        assert_int_equal((long)len, write(w, text, len));
        deadline d;
        const df_interrupt in = interrupt_after(&d, 0.1);
        df_source_set_interrupt(src, &in);
        counts got;
        assert_int_equal(DF_ERR_IO, read_counts(src, threads[i], &got));
        const double late = now() - d.at;
        print_message("threads %u: stopped %.3f s after the request\n", threads[i], late);
        assert_true(late >= 0 && late < 0.5);
        assert_string_equal("interrupted", df_source_error(src));
        assert_true(got.games <= 2 * COPIES);
        char buf[16];
        assert_int_equal(-1, df_source_read(src, buf, sizeof buf)); /* and stays stopped */
        close(w);
        df_source_close(src);
        unlink(path);
        free(path);
    }
    /* No writer ever comes. */
    char *path = fifo();
    df_source *src;
    assert_int_equal(DF_OK, df_source_open(&src, path));
    deadline d;
    const df_interrupt in = interrupt_after(&d, 0.1);
    df_source_set_interrupt(src, &in);
    char buf[16];
    assert_int_equal(-1, df_source_read(src, buf, sizeof buf));
    assert_true(now() - d.at < 0.5);
    assert_true(d.calls >= 3); /* asked while it waited, not only before */
    df_source_close(src);
    unlink(path);
    free(path);
    free(text);
}

static void test_interrupt_reaches_a_busy_read(void **state)
{
    (void)state;
    /* Bytes without end that are no PGN: the reader never reaches a game's end. */
    const unsigned threads[] = {1, 2};
    for (int i = 0; i < 2; i++) {
        df_source *src;
        assert_int_equal(DF_OK, df_source_open(&src, "/dev/zero"));
        deadline d;
        const df_interrupt in = interrupt_after(&d, 0.1);
        df_source_set_interrupt(src, &in);
        counts got;
        assert_int_equal(DF_ERR_IO, read_counts(src, threads[i], &got));
        const double late = now() - d.at;
        print_message("/dev/zero, threads %u: stopped %.3f s after the request, %llu bytes\n",
                      threads[i], late, (unsigned long long)df_source_consumed(src));
        assert_true(late >= 0 && late < 0.5);
        assert_string_equal("interrupted", df_source_error(src));
        df_source_close(src);
    }
    /* A plain file and a function: asked before each read; NULL takes the interrupt away. */
    df_source *src;
    assert_int_equal(DF_OK, df_source_open(&src, "/dev/null"));
    deadline d;
    df_interrupt in = interrupt_after(&d, 0);
    df_source_set_interrupt(src, &in);
    char buf[16];
    assert_int_equal(-1, df_source_read(src, buf, sizeof buf));
    assert_string_equal("interrupted", df_source_error(src));
    df_source_close(src);
    assert_int_equal(DF_OK, df_source_open(&src, "/dev/null"));
    df_source_set_interrupt(src, &in);
    df_source_set_interrupt(src, NULL);
    assert_int_equal(0, df_source_read(src, buf, sizeof buf));
    df_source_close(src);
}

static long count_calls(void *ctx, char *buf, size_t size)
{
    (void)buf, (void)size;
    ++*(long *)ctx;
    return 0;
}

static void test_interrupt_of_a_function_source(void **state)
{
    (void)state;
    long calls = 0;
    df_source *src = df_source_from_function(count_calls, &calls);
    deadline d;
    const df_interrupt in = interrupt_after(&d, 0);
    df_source_set_interrupt(src, &in);
    char buf[16];
    assert_int_equal(-1, df_source_read(src, buf, sizeof buf));
    assert_int_equal(0, calls); /* never asked for bytes */
    assert_string_equal("interrupted", df_source_error(src));
    df_source_close(src);
}

static void on_alarm(int sig) { (void)sig; }

/* A signal that stops a waiting read: an error without an interrupt (as a read of stdio's
 * reports it), nothing with one, which alone says when to stop. */
static void test_signal_during_a_wait(void **state)
{
    (void)state;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm; /* no SA_RESTART: the wait stops with EINTR */
    sigaction(SIGALRM, &sa, &old);
    for (int with_interrupt = 0; with_interrupt < 2; with_interrupt++) {
        char *path = fifo();
        df_source *src;
        assert_int_equal(DF_OK, df_source_open(&src, path));
        const int w = open(path, O_WRONLY | O_NONBLOCK); /* open, and never writes */
        deadline d;
        const df_interrupt in = interrupt_after(&d, 0.3);
        if (with_interrupt) df_source_set_interrupt(src, &in);
        const struct itimerval once = {{0, 0}, {0, 50000}};
        setitimer(ITIMER_REAL, &once, NULL);
        const double start = now();
        char buf[16];
        assert_int_equal(-1, df_source_read(src, buf, sizeof buf));
        const double waited = now() - start;
        print_message("interrupt %d: %s after %.3f s\n", with_interrupt, df_source_error(src),
                      waited);
        if (with_interrupt) {
            assert_string_equal("interrupted", df_source_error(src));
            assert_true(waited > 0.2); /* went on waiting after the signal */
        } else {
            assert_non_null(strstr(df_source_error(src), "Interrupted system call"));
            assert_true(waited < 0.2);
        }
        close(w);
        df_source_close(src);
        unlink(path);
        free(path);
    }
    sigaction(SIGALRM, &old, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_directory_refused_at_open),
        cmocka_unit_test(test_former_names_are_the_source_calls),
        cmocka_unit_test(test_fifo_read_as_its_bytes_come),
        cmocka_unit_test(test_error_inside_a_game_keeps_the_cut_game),
        cmocka_unit_test(test_interrupt_reaches_a_waiting_read),
        cmocka_unit_test(test_interrupt_reaches_a_busy_read),
        cmocka_unit_test(test_interrupt_of_a_function_source),
        cmocka_unit_test(test_signal_during_a_wait),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
