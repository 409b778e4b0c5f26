/* SPDX-License-Identifier: MIT */
/* The PGN reader on files as other programs write them: byte order marks, games of tags and no
 * moves, repeated tags, CRLF, comments wrapped over lines, null moves with suffixes, NAGs
 * without digits, errors whose line must be inside their game; and the tag filter. Each file
 * is checked as a transcript of every game (index, Event, moves, result, error and its line,
 * warning): exactly, so that a game lost or merged with the next shows, the good games around
 * a bad spot included. The same transcript must come out of one reader fed byte by byte, of
 * 1, 2 and 4 threads on a file of many copies (cuts fall everywhere), and of .zst and .gz. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "cmdline.h"
#include "dft.h"
#include "filter_cases.h"
#include "pgngen.h"

/* ---- transcripts ---- */

/* One game's line, without its index: "Event | ok e2e4 e7e5 | 1-0 | warning". */
static void put_game(cmd_text *t, const df_pgn_game *g, const cmd_text *moves)
{
    uint32_t n = 0;
    const char *event = df_pgn_tag_value(g, "Event", &n);
    if (!event) event = "-", n = 1;
    cmd_text_put(t, event, n);
    cmd_text_puts(t, " |");
    if (g->error)
        cmd_text_putf(t, " error line %llu: %s", (unsigned long long)g->error_line, g->error);
    else if (g->skipped)
        cmd_text_putf(t, " skipped %s", g->skipped);
    else {
        cmd_text_puts(t, " ok");
        cmd_text_put(t, moves->len ? moves->text : "", moves->len);
        cmd_text_puts(t, " | ");
        cmd_text_puts(t, g->has_result ? df_result_string(g->result) : "none");
    }
    if (g->warning) cmd_text_putf(t, " | %s", g->warning);
    cmd_text_puts(t, "\n");
}

/* A sink: the lines of a run of games, each game's moves gathered first. */
typedef struct {
    cmd_text lines, moves;
    uint64_t *index; /* the game of each line, counted in the run */
    size_t n, cap;
} transcript;

static void tr_ply(void *ctx, const df_pgn_game *g, const df_pgn_ply *p)
{
    transcript *t = ctx;
    char uci[DF_UCI_MAX];
    (void)g;
    df_move_to_uci(uci, p->before, p->move);
    /* puts, not putf: formatting was a large part of this test's time. */
    cmd_text_puts(&t->moves, " ");
    cmd_text_puts(&t->moves, p->move == DF_MOVE_NONE ? "0000" : uci);
}

static df_pgn_action tr_end(void *ctx, const df_pgn_game *g)
{
    transcript *t = ctx;
    if (t->n == t->cap) t->index = realloc(t->index, (t->cap = t->cap ? 2 * t->cap : 64) * 8);
    t->index[t->n++] = g->index;
    put_game(&t->lines, g, &t->moves);
    t->moves.len = 0;
    return DF_PGN_READ;
}

static void tr_free(transcript *t)
{
    cmd_text_free(&t->lines);
    cmd_text_free(&t->moves);
    free(t->index);
}

/* Numbers a run's lines from first: "#12 Event | ...". */
static void tr_append(cmd_text *all, const transcript *t, uint64_t first)
{
    const char *line = t->lines.text;
    for (size_t i = 0; i < t->n; i++) {
        const char *end = strchr(line, '\n');
        cmd_text_putf(all, "#%llu ", (unsigned long long)(first + t->index[i]));
        cmd_text_put(all, line, (size_t)(end - line + 1));
        line = end + 1;
    }
}

/* The transcript of text fed to one reader in pieces of `piece` bytes (0: whole). */
static char *read_pieces(const char *text, size_t len, size_t piece, const df_pgn_filter *f,
                         df_pgn_stats *stats)
{
    transcript t = {0};
    const df_pgn_visitor v = {NULL, tr_ply, tr_end, &t};
    df_pgn_reader *r = df_pgn_reader_new();
    df_pgn_reader_set_filter(r, f);
    df_pgn_reader_reset(r, DF_PGN_STANDARD, 0, 1, 0);
    for (size_t at = 0; at < len; at += piece ? piece : len)
        assert_int_equal(
            DF_OK, df_pgn_feed(r, text + at, piece && len - at > piece ? piece : len - at, &v));
    assert_int_equal(DF_OK, df_pgn_finish(r, &v));
    if (stats) *stats = df_pgn_reader_stats(r);
    df_pgn_reader_free(r);
    cmd_text all = {0};
    tr_append(&all, &t, 0);
    tr_free(&t);
    cmd_text_puts(&all, "");
    return all.text;
}

static void *sink_open(void *ctx)
{
    (void)ctx;
    return calloc(1, sizeof(transcript));
}
static int sink_deliver(void *ctx, void *sink, uint64_t first_game)
{
    tr_append(ctx, sink, first_game);
    return 0;
}
static void sink_drop(void *ctx, void *sink)
{
    (void)ctx;
    tr_free(sink);
    free(sink);
}

static unsigned usable_threads(unsigned threads) { return getenv("DFT_NO_THREADS") ? 1 : threads; }

/* The transcript of a file read on threads. */
static char *read_path(const char *path, unsigned threads, const df_pgn_filter *f)
{
    df_source *src;
    assert_int_equal(DF_OK, df_source_open(&src, path));
    cmd_text all = {0};
    const df_pgn_sinks sinks = {
        sink_open, {NULL, tr_ply, tr_end, NULL}, sink_deliver, sink_drop, &all};
    assert_int_equal(DF_OK, df_pgn_read_threaded(src, DF_PGN_STANDARD, f, usable_threads(threads),
                                                 &sinks, NULL));
    df_source_close(src);
    cmd_text_puts(&all, "");
    return all.text;
}

static void write_path(const char *path, const char *data, size_t len)
{
    if (strstr(path, ".gz")) {
        gzFile f = gzopen(path, "wb");
        assert_int_equal((int)len, gzwrite(f, data, (unsigned)len));
        assert_int_equal(Z_OK, gzclose(f));
        return;
    }
    char *z = NULL;
    if (strstr(path, ".zst")) {
        const size_t cap = ZSTD_compressBound(len);
        z = malloc(cap);
        len = ZSTD_compress(z, cap, data, len, 3);
        assert_false(ZSTD_isError(len));
        data = z;
    }
    FILE *f = fopen(path, "wb");
    assert_int_equal(len, fwrite(data, 1, len, f));
    assert_int_equal(0, fclose(f));
    free(z);
}

/* text copied `copies` times, and (want: not NULL) the transcript of one copy renumbered for
 * each: the expected transcript of the whole when no line number is in it. */
static void repeat(cmd_text *text, cmd_text *want, const char *one, const char *one_want,
                   int copies, uint64_t games_per_copy)
{
    for (int c = 0; c < copies; c++) {
        cmd_text_puts(text, one);
        for (const char *line = one_want; want && *line;) {
            const char *end = strchr(line, '\n');
            unsigned long long index;
            int skip = 0;
            sscanf(line, "#%llu %n", &index, &skip);
            /* Lines in a later copy: shifted by the copy's games and lines. */
            cmd_text_putf(want, "#%llu %.*s\n", index + (unsigned long long)c * games_per_copy,
                          (int)(end - line - skip), line + skip);
            line = end + 1;
        }
    }
    cmd_text_puts(text, "");
    if (want) cmd_text_puts(want, "");
}

static void expect_equal(const char *what, const char *want, const char *got)
{
    if (!strcmp(want, got)) return;
    /* The first line that differs (a transcript can be long). */
    size_t i = 0, line = 0;
    for (; want[i] == got[i]; i++) line = want[i] == '\n' ? i + 1 : line;
    const char *w_end = strchr(want + line, '\n'), *g_end = strchr(got + line, '\n');
    fail_msg("%s: from byte %zu:\n--- want\n%.*s\n--- got\n%.*s", what, line,
             w_end ? (int)(w_end - want - line) : (int)strlen(want + line), want + line,
             g_end ? (int)(g_end - got - line) : (int)strlen(got + line), got + line);
}

/* ---- the cases ---- */

typedef struct {
    const char *name, *pgn, *want; /* want: the transcript of one reader */
} real_case;

/* Every case is read as written, then with CRLF line ends (the same transcript). */
static const real_case cases[] = {
    {"a game of tags and no moves, then a blank line and the next game",
     "[Event \"a\"]\n[Result \"*\"]\n\n[Event \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n",
     "#0 a | ok | none\n#1 b | ok e2e4 e7e5 | 1-0\n"},
    {"its FEN does not leak into the next game",
     "[Event \"a\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n[Event \"b\"]\n\n1. d4 d5 *\n",
     "#0 a | ok | none\n#1 b | ok d2d4 d7d5 | *\n"},
    {"three games of no moves in a row, the last at the end of the input",
     "[Event \"a\"]\n\n[Event \"b\"]\n\n[Event \"c\"]\n",
     "#0 a | ok | none\n#1 b | ok | none\n#2 c | ok | none\n"},
    {"a complete roster then a blank line: the next tag is a new game",
     "[Event \"a\"]\n[Site \"s\"]\n[Date \"d\"]\n[Round \"1\"]\n[White \"w\"]\n[Black \"b\"]\n"
     "[Result \"*\"]\n\n[WhiteElo \"2000\"]\n1. e4 *\n",
     "#0 a | ok | none\n#1 - | ok e2e4 | *\n"},
    {"a blank line after [Event] (ChessBase) continues the section",
     "[Event \"a\"]\n\n[Site \"s\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n", "#0 a | ok e2e4 | 1-0\n"},
    {"a repeated tag without a blank line: the first value, and a warning",
     "[Event \"a\"]\n[White \"first\"]\n[White \"second\"]\n[Event \"again\"]\n1. e4 *\n",
     "#0 a | ok e2e4 | * | tag White repeated at line 3: the first value is kept\n"},
    {"a byte order mark", "\xef\xbb\xbf[Event \"bom\"]\n\n1. e4 *\n\n[Event \"next\"]\n1. d4 *\n",
     "#0 bom | ok e2e4 | *\n#1 next | ok d2d4 | *\n"},
    {"half a byte order mark is text: an error of its own game", "\xef\xbb[Event \"x\"]\n1. e4 *\n",
     "#0 - | error line 1: ply 1 \"\xef\xbb\": not SAN move\n#1 x | ok e2e4 | *\n"},
    {"null moves with suffixes", "[Event \"n\"]\n1. e4 Z0! 2. d4 --? 3. c4 Z0!? *\n",
     "#0 n | ok e2e4 0000 d2d4 0000 c2c4 0000 | *\n"},
    {"a NAG without digits, between good games",
     "[Event \"a\"]\n1. e4 $1 *\n\n[Event \"b\"]\n1. e4\ne5 $ 2. Nf3 *\n\n[Event \"c\"]\n1. d4 *\n",
     "#0 a | ok e2e4 | *\n#1 b | error line 6: ply 3 \"$\": a NAG is '$' and digits\n"
     "#2 c | ok d2d4 | *\n"},
    {"a bad FEN names the FEN tag's line",
     "[Event \"a\"]\n1. e4 *\n\n[Event \"b\"]\n[Site \"s\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n"
     "\n1. e4 *\n\n[Event \"c\"]\n1. d4 *\n",
     "#0 a | ok e2e4 | *\n#1 b | error line 6: bad FEN tag: piece placement: white has 0 kings, "
     "not exactly one\n"
     "#2 c | ok d2d4 | *\n"},
    {"a variation never closed names its '('",
     "[Event \"a\"]\n1. e4 e5\n2. Nf3 (2. f4\nexf4 3. Nf3\n\n[Event \"b\"]\n1. d4 *\n",
     "#0 a | error line 3: unclosed variation: a new game starts at line 6\n#1 b | ok d2d4 | *\n"},
    {"a comment never closed names its '{'",
     "[Event \"a\"]\n1. e4 {a comment\nwrapped over\nlines\n[Event \"b\"]\n1. d4 *\n",
     "#0 a | error line 2: unclosed comment: a new game starts at line 5\n#1 b | ok d2d4 | *\n"},
    {"a game cut short names its last token",
     "[Event \"a\"]\n1. e4 *\n\n[Event \"b\"]\n1. e4 e5\n2. Nf3\n\n\n",
     "#0 a | ok e2e4 | *\n#1 b | error line 6: the input ends before the game's result "
     "(truncated)\n"},
    {"movetext and no result, then a blank line and tags",
     "[Event \"a\"]\n1. e4 e5\n\n[Event \"b\"]\n1. d4 *\n",
     "#0 a | ok e2e4 e7e5 | none\n#1 b | ok d2d4 | *\n"},
    {"comments wrapped over lines, with a command split from its text",
     "[Event \"w\"]\n1. e4 {a long comment\nover two lines [%eval\n0.3]} e5 {[%clk 0:01:00]\n} *\n",
     "#0 w | ok e2e4 e7e5 | *\n"},
    /* Found by a differential campaign against python-chess. */
    {"a % escape line inside a variation, holding a brace and a parenthesis",
     "[Event \"a\"]\n1. e4 (1. d4\n% escaped: { and (\nd5) e5 *\n\n[Event \"b\"]\n1. c4 *\n",
     "#0 a | ok e2e4 e7e5 | *\n#1 b | ok c2c4 | *\n"},
    {"a byte order mark at a line's start between games (files joined by cat)",
     "[Event \"a\"]\n1. e4 *\n\n\xef\xbb\xbf[Event \"b\"]\n1. d4 *\n",
     "#0 a | ok e2e4 | *\n#1 b | ok d2d4 | *\n"},
    {"half a byte order mark between games is text: an error of its own game",
     "[Event \"a\"]\n1. e4 *\n\xef\xbb[Event \"b\"]\n1. d4 *\n",
     "#0 a | ok e2e4 | *\n#1 - | error line 3: ply 1 \"\xef\xbb\": not SAN move\n"
     "#2 b | ok d2d4 | *\n"},
    {"a NAG glued to the next move is two tokens",
     "[Event \"a\"]\n1. e4 e5 2. Nf3$1Nc6 3. Bb5$14 a6 *\n",
     "#0 a | ok e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 | *\n"},
    {"a backslash before anything but a quote or a backslash is kept",
     "[Event \"C:\\Games \\\"x\\\" \\\\\"]\n1. e4 *\n", "#0 C:\\Games \"x\" \\ | ok e2e4 | *\n"},
    {"a comment between tag pairs leaves the section open",
     "[Event \"a\"]\n[Site \"s\"] {imported}\n[Result \"1-0\"]\n\n1. e4 1-0\n\n"
     "[Event \"b\"]\n{before the first move} 1. d4 *\n\n[Event \"c\"]\n{never closed\n"
     "[Event \"d\"]\n1. c4 *\n",
     "#0 a | ok e2e4 | 1-0\n#1 b | ok d2d4 | *\n"
     "#2 c | error line 11: unclosed comment: a new game starts at line 12\n#3 d | ok c2c4 | *\n"},
    {"Variant names other programs write: chess, fischerrandom",
     "[Event \"s\"]\n[Variant \"chess\"]\n1. e4 *\n\n[Event \"f\"]\n[Variant \"fischerrandom\"]\n"
     "[FEN \"r4kr1/pppppppp/8/8/8/8/PPPPPPPP/R4KR1 w KQkq - 0 1\"]\n1. O-O O-O *\n",
     "#0 s | ok e2e4 | *\n#1 f | ok f1g1 f8g8 | *\n"},
    /* Not PGN text: a control byte where a game, its movetext, a tag name or a tag's
     * punctuation starts passes the game's lines over to a line that starts a tag (a result, a
     * '[' inside a line or before no letter do not end it); one in a move names the game so. */
    {"a binary file: one game, then the text after it",
     "\x1f\x8b\x08junk [x] 1-0 ( {\n[1 not a tag\n[Event \"b\"]\n1. d4 *\n",
     "#0 - | error line 1: not PGN text: control byte 0x1f\n#1 b | ok d2d4 | *\n"},
    {"Latin-1 and UTF-8 in tag values read; a control byte in a tag name is no text",
     "[Event \"M\xfcller \xc3\xa9\"]\n1. e4 *\n\n[Ev\x01nt \"x\"]\n1. e4 1-0\n[Event \"c\"]\n"
     "1. d4 *\n",
     "#0 M\xfcller \xc3\xa9 | ok e2e4 | *\n#1 - | error line 4: not PGN text: control byte 0x01\n"
     "#2 c | ok d2d4 | *\n"},
    {"control bytes at the movetext's start, after a tag's name and after its value",
     "[Event \"a\"]\n\x02\x03 1. e4 *\n\n[Event \"b\"]\n[Site\x04\"s\"]\n[Event \"c\"]\n"
     "[Site \"s\"\x05]\n1-0\n[Event \"d\"]\n1. d4 *\n",
     "#0 a | error line 2: not PGN text: control byte 0x02\n"
     "#1 b | error line 5: not PGN text: control byte 0x04\n"
     "#2 c | error line 7: not PGN text: control byte 0x05\n#3 d | ok d2d4 | *\n"},
    {"a control byte in a move, or after an error: the game ends as ever",
     "[Event \"a\"]\n1. e4 e\x06x *\n\n[Event \"b\"]\n1. e4 Ke3 \x07 e5 1-0\n[Event \"c\"]\n"
     "1. d4 *\n",
     "#0 a | error line 2: not PGN text: control byte 0x06\n"
     "#1 b | error line 5: not PGN text: control byte 0x07\n#2 c | ok d2d4 | *\n"},
};

/* With CRLF line ends: the same games (a "\r" is white space). */
static char *crlf(const char *s)
{
    cmd_text t = {0};
    for (; *s; s++) cmd_text_put(&t, *s == '\n' ? "\r\n" : s, *s == '\n' ? 2 : 1);
    cmd_text_puts(&t, "");
    return t.text;
}

static uint64_t count_games(const char *transcript)
{
    uint64_t n = 0;
    for (; *transcript; transcript++) n += *transcript == '\n';
    return n;
}

static void check_everywhere(const char *name, const char *pgn, const char *want,
                             const df_pgn_filter *f)
{
    const size_t len = strlen(pgn);
    char what[160];
    for (size_t piece = 0; piece <= 3; piece++) {
        char *got = read_pieces(pgn, len, piece, f, NULL);
        snprintf(what, sizeof what, "%s (pieces of %zu bytes)", name, piece);
        expect_equal(what, want, got);
        free(got);
    }
    /* Copies of it in a file of about 700 KB, so that the threaded reader cuts it (in runs of
     * 512 KB) at places that differ from case to case. Errors name lines, which differ from
     * copy to copy, so the threaded reads are compared with one reader on the same text. The
     * sanitizer builds, which run fewer iterations, take every third or every fifth case
     * here: these files are most of the test's time under the sanitizers. */
    static unsigned calls;
    const unsigned stride = DFT_ITERATIONS >= 1000000 ? 1 : DFT_ITERATIONS >= 100000 ? 3 : 5;
    if (calls++ % stride) return;
    cmd_text text = {0};
    repeat(&text, NULL, pgn, want, (int)(700000 / len) + 1, 0);
    char *single = read_pieces(text.text, text.len, 0, f, NULL);
    static const struct {
        const char *suffix;
        unsigned threads[3];
    } files[] = {{".pgn", {1, 2, 4}}, {".pgn.zst", {2}}, {".pgn.gz", {3}}};
    for (size_t k = 0; k < 3; k++) {
        char path[96];
        snprintf(path, sizeof path, "/tmp/dirfill-real-%d%s", (int)getpid(), files[k].suffix);
        write_path(path, text.text, text.len);
        unsigned read = 0; /* the thread counts read (without threads, 1, 2 and 4 are all 1) */
        for (size_t t = 0; t < 3 && files[k].threads[t]; t++) {
            if (read & 1u << usable_threads(files[k].threads[t])) continue;
            read |= 1u << usable_threads(files[k].threads[t]);
            char *got = read_path(path, files[k].threads[t], f);
            snprintf(what, sizeof what, "%s (%u threads, %s)", name, files[k].threads[t],
                     files[k].suffix);
            expect_equal(what, single, got);
            free(got);
        }
        unlink(path);
    }
    free(single);
    cmd_text_free(&text);
}

/* ---- match referees' files ---- */

typedef struct {
    df_pgn_ply plies[400];
    df_color mover[400];
    int n;
} referee_plies;

static void keep_referee_ply(void *ctx, const df_pgn_game *g, const df_pgn_ply *p)
{
    (void)g;
    referee_plies *l = ctx;
    assert_true(l->n < 400);
    l->mover[l->n] = df_board_stm(p->before);
    l->plies[l->n++] = *p;
}

/* The first comment after each main-line move of a referee's PGN (no variations there),
 * found by hand: its text into texts[k] ("" for none), k counting plies over the file. */
static int referee_comments(const char *text, char texts[][64], int max)
{
    int n = 0;
    bool in_tags = false;
    for (const char *p = text; *p;) {
        if (*p == '[' && (p == text || p[-1] == '\n')) in_tags = true;
        if (in_tags) {
            p = strchr(p, '\n');
            if (!p) break;
            in_tags = p[1] == '[';
            p++;
            continue;
        }
        if (*p == '{') {
            const char *close = strchr(p, '}');
            assert_non_null(close);
            if (n && !texts[n - 1][0])
                snprintf(texts[n - 1], 64, "%.*s", (int)(close - p - 1 < 63 ? close - p - 1 : 63),
                         p + 1);
            p = close + 1;
            continue;
        }
        if (*p == ' ' || *p == '\n') {
            p++;
            continue;
        }
        const char *q = p;
        while (*q && *q != ' ' && *q != '\n' && *q != '{') q++;
        const bool number = (unsigned)(*p - '0') < 10 && q[-1] == '.';
        const bool result = !strncmp(p, "1-0", 3) || !strncmp(p, "0-1", 3) ||
                            !strncmp(p, "1/2-1/2", 7) || *p == '*';
        if (!number && !result) {
            assert_true(n < max);
            texts[n++][0] = 0;
        }
        p = q;
    }
    return n;
}

/* Files cutechess-cli and fastchess wrote of this project's engine's games (tests/data): every
 * move's evaluation is its comment's score read by sscanf here, White's view after the move,
 * mates in moves after it; a move whose comment has none ({book}, {/0 0.669s}, {1.2s}, none)
 * has none. Whole and a byte at a time. */
static void test_referee_files(void **state)
{
    (void)state;
    static const char *const files[] = {"referee-fastchess.pgn", "referee-cutechess.pgn"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", DFT_DATA_DIR, files[f]);
        size_t len;
        char *text = dft_read_file(path, &len);
        static char texts[400][64];
        const int n = referee_comments(text, texts, 400);
        for (size_t piece = 0; piece < 2; piece++) {
            static referee_plies l;
            l.n = 0;
            const df_pgn_visitor v = {NULL, keep_referee_ply, NULL, &l};
            df_pgn_reader *r = df_pgn_reader_new();
            for (size_t at = 0; at < len; at += piece ? 1 : len)
                assert_int_equal(DF_OK, df_pgn_feed(r, text + at, piece ? 1 : len, &v));
            assert_int_equal(DF_OK, df_pgn_finish(r, &v));
            df_pgn_reader_free(r);
            assert_int_equal(n, l.n);
            int scored = 0, mates = 0;
            for (int k = 0; k < n; k++) {
                const df_pgn_ply *p = &l.plies[k];
                const int sign = l.mover[k] == DF_WHITE ? 1 : -1;
                char sign_c;
                unsigned plies, depth;
                double pawns, seconds;
                char tail[64] = "";
                df_pgn_eval_kind kind = DF_PGN_EVAL_NONE;
                double want_pawns = 0;
                int want_mate = 0;
                if (sscanf(texts[k], "%cM%u/%u %lfs%63[^\n]", &sign_c, &plies, &depth, &seconds,
                           tail) >= 4 &&
                    (sign_c == '+' || sign_c == '-') && (!tail[0] || tail[0] == ',')) {
                    kind = DF_PGN_EVAL_MATE;
                    const int mover_mates = sign_c == '+' ? 1 : -1;
                    want_mate = sign * mover_mates * (int)(plies / 2);
                    mates++;
                } else if (texts[k][0] != '/' &&
                           (sscanf(texts[k], "%lf/%u %lfs%63[^\n]", &pawns, &depth, &seconds,
                                   tail) >= 3 ||
                            (tail[0] = 0,
                             sscanf(texts[k], "%lf %lfs%63[^\n]", &pawns, &seconds, tail) >= 2)) &&
                           strchr(texts[k], '.') && (!tail[0] || tail[0] == ',')) {
                    kind = DF_PGN_EVAL_PAWNS;
                    want_pawns = sign * pawns;
                    scored++;
                }
                bool ok = p->eval_kind == kind;
                if (ok && kind == DF_PGN_EVAL_PAWNS) ok = p->pawns == want_pawns;
                if (ok && kind == DF_PGN_EVAL_MATE) ok = p->mate == want_mate;
                if (!ok)
                    fail_msg("%s ply %d {%s}: kind %d pawns %g mate %d, wanted %d %g %d", files[f],
                             k, texts[k], p->eval_kind, p->pawns, p->mate, kind, want_pawns,
                             want_mate);
            }
            assert_true(scored > n / 2 && mates > 0);
        }
        free(text);
    }
}

static void test_real_files(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        check_everywhere(cases[i].name, cases[i].pgn, cases[i].want, NULL);
        /* CRLF: the same transcript, but for a byte order mark's half (its error names the
         * token, which is the same) — every case reads the same. */
        char *windows = crlf(cases[i].pgn);
        char name[128];
        snprintf(name, sizeof name, "%s, CRLF", cases[i].name);
        check_everywhere(name, windows, cases[i].want, NULL);
        free(windows);
    }
}

/* The copies of a file whose every copy ends its last game: the renumbered transcript. */
static void test_copies_renumbered(void **state)
{
    (void)state;
    const real_case *c = &cases[0];
    cmd_text text = {0}, want = {0};
    repeat(&text, &want, c->pgn, c->want, 30000, count_games(c->want));
    char *got = read_pieces(text.text, text.len, 0, NULL, NULL);
    expect_equal("copies", want.text, got);
    free(got);
    cmd_text_free(&text);
    cmd_text_free(&want);
}

/* ---- filters ---- */

static df_pgn_filter *filter_of(const char *const *exprs, size_t n)
{
    df_pgn_filter *f = NULL;
    char why[DF_PGN_FILTER_ERROR_MAX];
    if (df_pgn_filter_new(&f, exprs, n, why) != DF_OK) fail_msg("filter: %s", why);
    return f;
}

/* Which of the games below a filter keeps, as their Event letters. */
static const char filter_games[] =
    "[Event \"a\"]\n[WhiteElo \"2100\"]\n[TimeControl \"600+5\"]\n[Site \"Lichess\"]\n1. e4 *\n\n"
    "[Event \"b\"]\n[WhiteElo \"1999\"]\n[TimeControl \"60+0\"]\n1. d4 *\n\n"
    "[Event \"c\"]\n[WhiteElo \"?\"]\n1. c4 *\n\n"
    "[Event \"d\"]\n1. Nf3 *\n\n"
    "[Event \"e\"]\n[WhiteElo \"2000\"]\n[WhiteElo \"1000\"]\n1. g3 *\n\n"
    "[Event \"f\"]\n[WhiteElo \"2000.5\"]\n[TimeControl \"600\"]\n1. e4 e5 2. Ke2 Ke7 *\n\n"
    "[Event \"g\"]\n[WhiteElo \"3000\"]\n1. e4 e5 2. Ke3 *\n";

static void kept(const char *const *exprs, size_t n, const char *want_events)
{
    df_pgn_filter *f = filter_of(exprs, n);
    df_pgn_stats stats;
    char *got = read_pieces(filter_games, sizeof filter_games - 1, 0, f, &stats);
    char events[16] = {0};
    size_t k = 0;
    for (const char *line = got; *line; line = strchr(line, '\n') + 1) {
        const char *e = strchr(line, ' ') + 1;
        if (k < sizeof events - 1) events[k++] = *e;
    }
    if (strcmp(events, want_events))
        fail_msg("--where %s%s%s: kept '%s', want '%s'", exprs[0], n > 1 ? " ... " : "",
                 n > 1 ? exprs[n - 1] : "", events, want_events);
    assert_int_equal(7, stats.games);
    assert_int_equal(7 - strlen(want_events), stats.filtered);
    /* The same on threads and byte by byte. */
    check_everywhere("filtered", filter_games, got, f);
    free(got);
    df_pgn_filter_free(f);
}

static void test_filter_operators(void **state)
{
    (void)state;
    const char *q[4];
#define KEEP(want, ...)                                                                            \
    do {                                                                                           \
        const char *e[] = {__VA_ARGS__};                                                           \
        kept(e, sizeof e / sizeof e[0], want);                                                     \
    } while (0)
    /* Numbers as numbers ("1999" < "2000" < "2000.5" < "2100"); "?" is no number, so compared as
     * text ('?' sorts after '2'); the repeated tag's first value (2000) counts; no tag: out. */
    KEEP("acefg", "WhiteElo>=2000");
    KEEP("acfg", "WhiteElo>2000");
    KEEP("b", "WhiteElo<2000");
    KEEP("be", "WhiteElo<=2000");
    KEEP("e", "WhiteElo=2000");
    KEEP("e", "WhiteElo = 2000.0");
    KEEP("abcdfg", "WhiteElo!=2000"); /* a game without the tag passes != alone */
    KEEP("c", "WhiteElo=?");
    KEEP("af", "TimeControl^=600");
    KEEP("a", "TimeControl^=600", "WhiteElo>=2000", "Site=\"Lichess\"");
    KEEP("", "Site=lichess"); /* case-sensitive */
    KEEP("abcdefg", "Event>=a");
    KEEP("d", "Event=d");
    KEEP("abcdefg"); /* no expression: every game */
    /* A kept game is validated (g: an illegal move, reported); a filtered one is not (g
     * filtered: no error). */
    q[0] = "Event=g";
    df_pgn_filter *f = filter_of(q, 1);
    char *got = read_pieces(filter_games, sizeof filter_games - 1, 0, f, NULL);
    expect_equal("a kept game is validated", "#6 g | error line 31: ply 3 \"Ke3\": illegal move\n",
                 got);
    free(got);
    df_pgn_filter_free(f);
    q[0] = "Event!=g";
    f = filter_of(q, 1);
    df_pgn_stats stats;
    got = read_pieces(filter_games, sizeof filter_games - 1, 0, f, &stats);
    assert_null(strstr(got, "error"));
    assert_int_equal(0, stats.errors);
    assert_int_equal(1, stats.filtered);
    free(got);
    df_pgn_filter_free(f);
#undef KEEP
}

/* Every malformed expression of filter_cases.c is refused, its message naming it, saying why
 * and showing the nearest valid form where there is one (and none where there is none); every
 * valid one is taken. */
static void test_filter_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < dft_nbad_filters; i++) {
        const dft_bad_filter *bad = &dft_bad_filters[i];
        df_pgn_filter *f = NULL;
        char why[DF_PGN_FILTER_ERROR_MAX] = "";
        const df_status s = df_pgn_filter_new(&f, &bad->expr, 1, why);
        char quoted[96], shown[96];
        snprintf(quoted, sizeof quoted, "'%s'", bad->expr);
        snprintf(shown, sizeof shown, "did you mean '%s'?", bad->suggestion ? bad->suggestion : "");
        if (s != DF_ERR_ARGUMENT || f || !strstr(why, quoted) || !strstr(why, bad->why) ||
            (bad->suggestion ? !strstr(why, shown) : strstr(why, "did you mean") != NULL))
            fail_msg("'%s': status %d, message '%s'; want it named, '%s' and %s", bad->expr, s, why,
                     bad->why, bad->suggestion ? shown : "no suggestion");
        /* Among others, and without room for a message: refused the same. */
        const char *several[] = {"WhiteElo>=2000", bad->expr, "Event=a"};
        assert_int_equal(DF_ERR_ARGUMENT, df_pgn_filter_new(&f, several, 3, NULL));
        assert_null(f);
    }
    for (size_t i = 0; i < dft_ngood_filters; i++) {
        df_pgn_filter *f = NULL;
        char why[DF_PGN_FILTER_ERROR_MAX] = "";
        if (df_pgn_filter_new(&f, &dft_good_filters[i], 1, why) != DF_OK)
            fail_msg("'%s' is valid, but: %s", dft_good_filters[i], why);
        df_pgn_filter_free(f);
    }
    /* A message never outgrows its room, however long the expression. */
    char longest[400];
    memset(longest, 'W', sizeof longest - 8);
    memcpy(longest + sizeof longest - 8, "=>2000", 7);
    const char *e = longest;
    char why[DF_PGN_FILTER_ERROR_MAX + 8];
    memset(why, 'x', sizeof why);
    df_pgn_filter *f = NULL;
    assert_int_equal(DF_ERR_ARGUMENT, df_pgn_filter_new(&f, &e, 1, why));
    assert_true(strlen(why) < DF_PGN_FILTER_ERROR_MAX);
    assert_int_equal('x', why[DF_PGN_FILTER_ERROR_MAX]);
    const char *none[] = {NULL};
    assert_int_equal(DF_ERR_ARGUMENT, df_pgn_filter_new(&f, none, 1, NULL));
    assert_int_equal(DF_ERR_ARGUMENT, df_pgn_filter_new(NULL, none, 0, NULL));
    assert_true(df_pgn_filter_matches(NULL, NULL));
}

/* ---- generated games ---- */

/* Random games from the start position: in every style pgngen writes, of 1 to 120 plies
 * (every_style), or as lichess writes them, of 80 plies. */
static void generate(pgngen_text *text, uint64_t games, uint64_t seed, bool every_style)
{
    df_board start;
    df_fen_parse(&start, DF_FEN_START, sizeof DF_FEN_START - 1, DF_FEN_STANDARD, NULL);
    for (uint64_t i = 0; i < games; i++)
        assert_true(
            pgngen_game(text, &seed, &start, false, every_style ? 1 + (uint32_t)(i * 7 % 120) : 80,
                        every_style ? (unsigned)(i % 128) : PGNGEN_EVALS | PGNGEN_CLOCKS, i, NULL));
}

/* ---- skimming: the movetext of filtered games and of header-only reading ---- */

/* Where each game starts and ends, its tags and result: what a skimmed read must find exactly
 * as a full read does. */
static uint64_t where_plies; /* the plies of the games read_where saw */

static df_pgn_action where_end(void *ctx, const df_pgn_game *g)
{
    cmd_text *t = ctx;
    where_plies += g->plies;
    cmd_text_putf(t, "#%llu lines %llu-%llu bytes %llu-%llu result %d %d tags %u:",
                  (unsigned long long)g->index, (unsigned long long)g->line,
                  (unsigned long long)g->end_line, (unsigned long long)g->offset,
                  (unsigned long long)g->end_offset, (int)g->has_result, (int)g->result, g->ntags);
    for (uint32_t i = 0; i < g->ntags; i++)
        cmd_text_putf(t, " %.*s", (int)g->tags[i].value_len, g->tags[i].value);
    cmd_text_puts(t, "\n");
    return DF_PGN_READ;
}

static char *read_where(const char *text, size_t len, unsigned flags, const df_pgn_filter *f,
                        size_t piece)
{
    cmd_text t = {0};
    const df_pgn_visitor v = {NULL, NULL, where_end, &t};
    where_plies = 0;
    df_pgn_reader *r = df_pgn_reader_new();
    df_pgn_reader_set_filter(r, f);
    df_pgn_reader_reset(r, flags, 0, 1, 0);
    for (size_t at = 0; at < len; at += piece)
        df_pgn_feed(r, text + at, len - at < piece ? len - at : piece, &v);
    df_pgn_finish(r, &v);
    df_pgn_reader_free(r);
    cmd_text_puts(&t, "");
    return t.text;
}

/* The lines of all whose game is kept by f (its White tag starts "W\1": games 1, 10-19, ...). */
static char *kept_lines(const char *all)
{
    cmd_text t = {0};
    for (const char *line = all; *line;) {
        const char *end = strchr(line, '\n') + 1;
        const char *tags = strstr(line, " tags ");
        if (tags && strstr(tags, " W\\1") && strstr(tags, " W\\1") < end)
            cmd_text_put(&t, line, (size_t)(end - line));
        line = end;
    }
    cmd_text_puts(&t, "");
    return t.text;
}

/* Header-only and filtered readings of text[0, len) on every backend, emulated ones included,
 * equal to the full reading (full) and to its kept games (want); no move is counted, where a
 * piece cuts a token or not. The skimmer's blocks are classified on each backend's vectors
 * (pgn/skim_tpl.h): the run's own backend reads every piece size, the others the first
 * `others` (whole blocks, pieces that cut them). */
static void skim_on_every_backend(const char *text, size_t len, const df_pgn_filter *f,
                                  const char *full, const char *want, const size_t *pieces,
                                  size_t npieces, size_t others)
{
    for (size_t b = 0; b < dft_backend_count(); b++) {
        dft_use(dft_backend_at(b));
        const bool own = !strcmp(dft_backend_at(b), dft_backend());
        char what[2][80];
        snprintf(what[0], sizeof what[0], "header-only reading (%s)", dft_backend_at(b));
        snprintf(what[1], sizeof what[1], "filtered reading (%s)", dft_backend_at(b));
        for (size_t k = 0; k < (own ? npieces : others); k++) {
            char *headers = read_where(text, len, DF_PGN_HEADERS_ONLY, NULL, pieces[k]);
            expect_equal(what[0], full, headers);
            assert_int_equal(0, where_plies);
            free(headers);
            char *filtered = read_where(text, len, DF_PGN_STANDARD, f, pieces[k]);
            expect_equal(what[1], want, filtered);
            free(filtered);
        }
    }
    dft_use(dft_backend());
}

static void test_skim_finds_the_same_games(void **state)
{
    (void)state;
    /* Generated games in every style (comments with commands, variations, line comments,
     * escape lines, odd line breaks, results), then the hand-written files. */
    pgngen_text text = {0};
    generate(&text, 300, 0x5eed, true);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) cmd_text_puts(&text, cases[i].pgn);
    const char *expr = "White^=W\\1";
    df_pgn_filter *f = NULL;
    assert_int_equal(DF_OK, df_pgn_filter_new(&f, &expr, 1, NULL));
    char *full = read_where(text.text, text.len, DF_PGN_STANDARD, NULL, text.len);
    assert_true(where_plies > 1000);
    char *want = kept_lines(full);
    assert_true(strlen(want) > 1000);
    const size_t pieces[] = {4096, text.len, 64, 13, 1, 2, 3, 5, 8};
    skim_on_every_backend(text.text, text.len, f, full, want, pieces,
                          sizeof pieces / sizeof pieces[0], 3);
    free(full);
    free(want);
    df_pgn_filter_free(f);
    pgngen_text_free(&text);
}

/* Movetext that the skimmer's 64-byte blocks must hand over to the byte-wise code: comments
 * over several lines, a '{' inside a comment, a '}' outside one, a '[' starting a line inside a
 * comment (a new game) or inside an unclosed command (text), '%' lines, a '%' after a '}'
 * that is not one (fuzz_pgn found it: a piece that starts at that '}'), variations, line
 * comments, results in comments, CRLF, a game of tags only. */
static const char skim_snippets[] =
    "[Event \"a\"]\n[White \"W\\\\1\"]\n\n"
    "1. e4 { a comment { with a brace\n that goes on [%eval 0.5] and\non } e5 2. Nf3 "
    "{[%clk 0:01:00\n]} Nc6 3. Bb5 } a6 4. O-O { 0-1 } Nf6 5. Re1 { long comment that runs "
    "over more than sixty-four bytes of text on one line, with [%eval -0.25] } 1-0\n\n"
    "[Event \"b\"]\n\n1. d4 { unclosed comment\n[Event \"c\"]\n[White \"W\\\\1\"]\n\n1. c4 c5 "
    "0-1\n\n"
    "[Event \"d\"]\n\n1. e4 { [%eval 0.1\n[Event \"e\"] } e5 1/2-1/2\n\n"
    "[Event \"f\"]\n\n1. e4\n% escape line 1-0 {\ne5 { comment\n% not an escape } 2. Nf3 *\n\n"
    "[Event \"g\"]\n[White \"W\\\\1\"]\n\n1. e4 (1. d4 { in a variation } d5 (1... Nf6)) e5 ; "
    "line comment { 1-0\n2. Nf3 $1 Nc6 3. Bc4 Bc5 4. O-O-O?? 1/2-1/2\n\n"
    "[Event \"h\"]\r\n[White \"W\\\\1\"]\r\n\r\n1. e4 {a comment\r\nover lines} e5 } 2. Nf3 {x}\r\n"
    "{y} Nc6 1-0\r\n\r\n"
    "[Event \"m\"]\n\n1. e4 {a\n}%not an escape: a '[' after it starts a game [Event \"n\"]\n"
    "[White \"W\\\\1\"]\n\n1. d4 1-0\n\n"
    "[Event \"i\"]\n[Result \"*\"]\n\n[Event \"j\"]\n\n1. e4 { no end to it\n"
    "[%eval 0.3] } e5 { [ not a tag }\n[Event \"k\"]\n1. d4 0-1\n\n"
    /* A comment over more than two blocks, a newline in each, with a '{' in it late: the skim
     * goes back to its '{' with the newlines before it, those of the blocks in between too. */
    "[Event \"o\"]\n\n1. e4 { a comment that runs on and on over\nthree blocks of sixty-four "
    "bytes, with a newline\nin each of them, the first, the second and\nthe third, and then a "
    "brace { in it } e5 1-0\n\n[Event \"p\"]\n[White \"W\\\\1\"]\n\n1. e4 1-0\n";

static void test_skim_blocks_hand_over(void **state)
{
    (void)state;
    const char *expr = "White^=W\\1";
    df_pgn_filter *f = NULL;
    assert_int_equal(DF_OK, df_pgn_filter_new(&f, &expr, 1, NULL));
    /* Each construct at every offset in a block, after a run of plain lichess-style moves. */
    for (size_t pad = 0; pad < 64; pad++) {
        cmd_text text = {0};
        for (size_t i = 0; i < pad; i++) cmd_text_puts(&text, i % 9 == 8 ? "\n" : " ");
        for (int copy = 0; copy < 3; copy++) {
            cmd_text_puts(&text, skim_snippets);
            cmd_text_puts(&text, "\n[Event \"l\"]\n\n");
            for (int m = 0; m < 4; m++)
                cmd_text_puts(&text, "1. Nf3 { [%eval 0.17] [%clk 0:03:00] } Nf6 { [%clk 0:03:00] }"
                                     " 2. Ng1 { [%eval -0.1] } Ng8 ");
            /* A result cut by the end of a piece that the blocks read to its last byte. */
            for (int m = 0; m < 6; m++) cmd_text_puts(&text, "1. Nf3 Nf6 2. Ng1 Ng8 ");
            cmd_text_puts(&text, "1-0\n\n");
        }
        char *full = read_where(text.text, text.len, DF_PGN_STANDARD, NULL, text.len);
        char *want = kept_lines(full);
        const size_t pieces[] = {64, 100, 7, 128, text.len};
        skim_on_every_backend(text.text, text.len, f, full, want, pieces,
                              sizeof pieces / sizeof pieces[0], 2);
        free(full);
        free(want);
        free(text.text);
    }
    df_pgn_filter_free(f);
}

/* ---- the ply's SAN: the token as written ---- */

static void record_san(void *ctx, const df_pgn_game *g, const df_pgn_ply *p)
{
    (void)g;
    cmd_text_putf(ctx, "%.*s|", (int)p->san_len, p->san);
}

static void test_ply_san_as_written(void **state)
{
    (void)state;
    /* Tokens of 1 to 16 bytes (a SAN with its suffixes is at most 16), each where a piece of
     * input may cut it or not. */
    const char *sans[] = {"e4",       "e5!",         "Nf3!?",         "Nc6!!??",
                          "Bb5+!?!?", "a6?!?!?!?",   "Ba4+!?!?!?!?",  "Nf6!!!!!!!!!!!!!",
                          "O-O",      "Be7!?!?!?!?", "Re1!?!?!?!?!?", "b5!!!!!!!!!!!!!!"};
    cmd_text text = {0}, want = {0};
    cmd_text_puts(&text, "[Event \"s\"]\n\n");
    for (size_t i = 0; i < sizeof sans / sizeof sans[0]; i++) {
        if (i % 2 == 0) cmd_text_putf(&text, "%zu. ", i / 2 + 1);
        cmd_text_putf(&text, "%s { [%%eval 0.1] } ", sans[i]);
        cmd_text_putf(&want, "%s|", sans[i]);
    }
    cmd_text_puts(&text, "*\n");
    const size_t pieces[] = {1, 3, 7, text.len};
    for (size_t k = 0; k < sizeof pieces / sizeof pieces[0]; k++) {
        cmd_text got = {0};
        const df_pgn_visitor v = {NULL, record_san, NULL, &got};
        df_pgn_reader *r = df_pgn_reader_new();
        df_pgn_reader_reset(r, DF_PGN_STANDARD, 0, 1, 0);
        for (size_t at = 0; at < text.len; at += pieces[k])
            df_pgn_feed(r, text.text + at, text.len - at < pieces[k] ? text.len - at : pieces[k],
                        &v);
        df_pgn_finish(r, &v);
        df_pgn_reader_free(r);
        cmd_text_puts(&got, "");
        expect_equal("the plies' SAN", want.text, got.text);
        free(got.text);
    }
    free(text.text);
    free(want.text);
}

/* ---- one thread: sinks delivered as the read goes ---- */

static size_t most_games;

static int count_deliver(void *ctx, void *sink, uint64_t first_game)
{
    (void)first_game;
    const transcript *t = sink;
    if (t->n > most_games) most_games = t->n;
    (*(size_t *)ctx)++;
    return 0;
}

/* A read on the calling thread hands its games over in small sinks, not one sink of the whole
 * input (what the caller keeps, JSON or rows, stays bounded). */
static void test_one_thread_delivers_as_it_goes(void **state)
{
    (void)state;
    pgngen_text text = {0};
    generate(&text, 1500, 7, false);
    char path[96];
    snprintf(path, sizeof path, "/tmp/dirfill-real-%d-serial.pgn", (int)getpid());
    write_path(path, text.text, text.len);
    df_source *src;
    assert_int_equal(DF_OK, df_source_open(&src, path));
    size_t deliveries = 0;
    most_games = 0;
    const df_pgn_sinks sinks = {
        sink_open, {NULL, tr_ply, tr_end, NULL}, count_deliver, sink_drop, &deliveries};
    df_pgn_stats stats;
    assert_int_equal(DF_OK, df_pgn_read_threaded(src, DF_PGN_STANDARD, NULL, 1, &sinks, &stats));
    df_source_close(src);
    unlink(path);
    print_message("%zu bytes: %zu sinks, at most %zu games in one\n", text.len, deliveries,
                  most_games);
    assert_int_equal(1500, stats.games);
    assert_true(most_games <= 64); /* a piece is 64 KB: a few dozen games at most */
    assert_true(deliveries >= 1500 / 64);
    pgngen_text_free(&text);
}

int main(void)
{
    dft_setup_backend();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_files),
        cmocka_unit_test(test_referee_files),
        cmocka_unit_test(test_copies_renumbered),
        cmocka_unit_test(test_filter_operators),
        cmocka_unit_test(test_filter_errors),
        cmocka_unit_test(test_skim_finds_the_same_games),
        cmocka_unit_test(test_skim_blocks_hand_over),
        cmocka_unit_test(test_one_thread_delivers_as_it_goes),
        cmocka_unit_test(test_ply_san_as_written),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
