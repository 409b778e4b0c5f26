/* SPDX-License-Identifier: MIT */
/* dirfill pgn: games or positions of PGN files as JSON Lines, or a summary per file. The games
 * are read on threads by the library (df_pgn_read_threaded); each run of games is written into
 * a sink of its own and the sinks are printed in input order. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"

static const char help[] =
    "usage: dirfill pgn [--json] [--positions | --headers] [--chess960] [--threads N]\n"
    "                  [--where EXPR]... [FILE...]\n"
    "\n"
    "Reads chess games in PGN from each FILE in order (standard input without one; a name\n"
    "ending in .zst or .gz is decompressed as it is read), checks and plays every move of each\n"
    "game's main line, and writes what it read.\n"
    "  --json        one JSON object per game: game, headers, start, uci, san, eval, clock,\n"
    "                result, end (docs/cli.md); a game with an error: game, error, line,\n"
    "                headers; a game of another variant: game, skipped\n"
    "  --positions   with --json, one object per position before each move instead: game,\n"
    "                ply, fen, uci, san, result (eval, clock when the move has them)\n"
    "  --headers     tags and results only: the movetext is skimmed for the game's end, not\n"
    "                read (fastest; with --json: game, headers, result)\n"
    "  --chess960    every game is Chess960 (a Variant tag can also say so)\n"
    "  --threads N   read on N threads (0, the default: one per CPU); output stays in input\n"
    "                order\n"
    "  --where EXPR  only games whose tags match: TAG OP VALUE, OP one of = != < <= > >=\n"
    "                (numbers compare as numbers) ^= (prefix); repeatable, all must hold\n"
    "                (--where 'WhiteElo>=2000' --where 'TimeControl^=600'); the other games'\n"
    "                moves are not read, and they are counted as filtered\n"
    "Without --json: one line per FILE: games, positions, errors, skipped, filtered,\n"
    "megabytes, seconds, MB/s. Exit status 1 when a game had an error or a file could not be\n"
    "read, 2 for a malformed option or EXPR, else 0.\n";

typedef struct {
    bool json, positions;
    unsigned flags, threads;
    const df_pgn_filter *filter; /* --where, or NULL */
    uint64_t game_base;          /* games of the earlier files */
    const char *file;            /* the file's name, when more than one is read */
} pgn_options;

/* A JSON string of UTF-8 text: valid UTF-8 as it is, control characters escaped, a byte that is
 * no UTF-8 as \u00XX (read as Latin-1, as old PGN files are written). */
static void put_json_text(cmd_text *b, const char *s, size_t n)
{
    cmd_text_put(b, "\"", 1);
    for (size_t i = 0; i < n;) {
        const unsigned char c = (unsigned char)s[i];
        size_t len = c < 0x80                ? 1
                     : c >= 0xc2 && c < 0xe0 ? 2
                     : c >= 0xe0 && c < 0xf0 ? 3
                     : c >= 0xf0 && c < 0xf5 ? 4
                                             : 0;
        for (size_t k = 1; k < len; k++)
            if (i + k >= n || ((unsigned char)s[i + k] & 0xc0) != 0x80) len = 0;
        if (len > 1) {
            cmd_text_put(b, s + i, len);
            i += len;
            continue;
        }
        if (c == '"' || c == '\\') {
            const char esc[2] = {'\\', (char)c};
            cmd_text_put(b, esc, 2);
        } else if (c < 0x20 || c >= 0x7f) {
            cmd_text_putf(b, "\\u%04x", c);
        } else {
            cmd_text_put(b, s + i, 1);
        }
        i++;
    }
    cmd_text_put(b, "\"", 1);
}

/* ---- a sink: the JSON of a run of games, and the game in progress ---- */

typedef struct {
    char uci[DF_UCI_MAX], san[DF_SAN_MAX];
    df_pgn_eval_kind eval_kind;
    int32_t mate;
    double pawns;
    bool has_clock;
    double clock;
    char fen[DF_FEN_MAX]; /* --positions: the position before the move */
} ply_record;

/* A JSON object of the sink's text: the game it belongs to (counted in the sink) and where its
 * text, all but the leading {"game": N, starts. */
typedef struct {
    uint64_t game;
    size_t start;
} object_start;

typedef struct {
    const pgn_options *o;
    cmd_text out;
    object_start *objects;
    size_t nobjects, objects_cap;
    ply_record *plies;
    uint32_t nplies, cap;
    bool failed;
    uint64_t games, errors, skipped, positions;
} sink;

static void *sink_open(void *ctx)
{
    sink *s = calloc(1, sizeof *s);
    if (s) s->o = ctx;
    return s;
}

static void sink_drop(void *ctx, void *p)
{
    (void)ctx;
    sink *s = p;
    cmd_text_free(&s->out);
    free(s->objects);
    free(s->plies);
    free(s);
}

static df_pgn_action on_begin(void *ctx, const df_pgn_game *g)
{
    (void)g;
    ((sink *)ctx)->nplies = 0;
    return DF_PGN_READ;
}

static void on_ply(void *ctx, const df_pgn_game *g, const df_pgn_ply *p)
{
    (void)g;
    sink *s = ctx;
    if (s->nplies == s->cap) {
        const uint32_t cap = s->cap ? 2 * s->cap : 256;
        ply_record *grown = realloc(s->plies, cap * sizeof *grown);
        if (!grown) {
            s->failed = true;
            return;
        }
        s->plies = grown;
        s->cap = cap;
    }
    ply_record *r = &s->plies[s->nplies++];
    if (p->move == DF_MOVE_NONE) {
        memcpy(r->uci, "0000", 5);
        memcpy(r->san, "--", 3);
    } else {
        df_move_to_uci(r->uci, p->before, p->move);
        df_move_to_san(r->san, p->before, p->move);
    }
    r->eval_kind = p->eval_kind;
    r->mate = p->mate;
    r->pawns = p->pawns;
    r->has_clock = p->has_clock;
    r->clock = p->clock;
    if (s->o->positions) df_fen_format(r->fen, sizeof r->fen, p->before, DF_FEN_STANDARD);
}

/* Starts an object of game g: the game's number is written when the sink is delivered (a
 * threaded read knows it only then). */
static void put_game_key(sink *s, const df_pgn_game *g)
{
    cmd_text *b = &s->out;
    const pgn_options *o = s->o;
    if (s->nobjects == s->objects_cap) {
        const size_t cap = s->objects_cap ? 2 * s->objects_cap : 64;
        object_start *grown = realloc(s->objects, cap * sizeof *grown);
        if (!grown) {
            b->failed = true;
            return;
        }
        s->objects = grown;
        s->objects_cap = cap;
    }
    s->objects[s->nobjects++] = (object_start){g->index, b->len};
    if (o->file) {
        cmd_text_puts(b, ", \"file\": ");
        put_json_text(b, o->file, strlen(o->file));
    }
}

static void put_headers(cmd_text *b, const df_pgn_game *g)
{
    cmd_text_puts(b, ", \"headers\": {");
    for (uint32_t i = 0; i < g->ntags; i++) {
        if (i) cmd_text_puts(b, ", ");
        put_json_text(b, g->tags[i].name, g->tags[i].name_len);
        cmd_text_puts(b, ": ");
        put_json_text(b, g->tags[i].value, g->tags[i].value_len);
    }
    cmd_text_puts(b, "}");
    if (g->warning) {
        cmd_text_puts(b, ", \"warning\": ");
        put_json_text(b, g->warning, strlen(g->warning));
    }
}

static void put_uci(cmd_text *b, const ply_record *r) { cmd_text_putf(b, "\"%s\"", r->uci); }

static void put_san(cmd_text *b, const ply_record *r) { cmd_text_putf(b, "\"%s\"", r->san); }

static void put_eval(cmd_text *b, const ply_record *r)
{
    if (r->eval_kind == DF_PGN_EVAL_MATE)
        cmd_text_putf(b, "\"#%d\"", r->mate);
    else if (r->eval_kind == DF_PGN_EVAL_PAWNS)
        cmd_text_putf(b, "%.15g", r->pawns);
    else
        cmd_text_puts(b, "null");
}

static void put_clock(cmd_text *b, const ply_record *r)
{
    if (r->has_clock)
        cmd_text_putf(b, "%.10g", r->clock);
    else
        cmd_text_puts(b, "null");
}

/* A list of one field of the plies, each written by put (put_uci, put_san, put_eval,
 * put_clock). */
static void put_list(cmd_text *b, const sink *s, const char *key,
                     void (*put)(cmd_text *, const ply_record *))
{
    cmd_text_putf(b, ", \"%s\": [", key);
    for (uint32_t i = 0; i < s->nplies; i++) {
        if (i) cmd_text_puts(b, ", ");
        put(b, &s->plies[i]);
    }
    cmd_text_puts(b, "]");
}

static df_pgn_action on_end(void *ctx, const df_pgn_game *g)
{
    sink *s = ctx;
    const pgn_options *o = s->o;
    cmd_text *b = &s->out;
    s->games++;
    s->errors += g->error != NULL;
    s->skipped += g->skipped != NULL;
    if (!g->error && !g->skipped) s->positions += g->plies;
    if (!o->json) return DF_PGN_READ;
    if (s->failed) {
        b->failed = true;
        return DF_PGN_STOP;
    }
    if (g->skipped) {
        put_game_key(s, g);
        cmd_text_puts(b, ", \"skipped\": ");
        put_json_text(b, g->skipped, strlen(g->skipped));
        cmd_text_puts(b, "}\n");
        return DF_PGN_READ;
    }
    if (o->flags & DF_PGN_HEADERS_ONLY && !g->error) {
        put_game_key(s, g);
        put_headers(b, g);
        cmd_text_putf(b, ", \"result\": \"%s\"}\n", df_result_string(g->result));
        return DF_PGN_READ;
    }
    if (g->error) {
        put_game_key(s, g);
        cmd_text_puts(b, ", \"error\": ");
        put_json_text(b, g->error, strlen(g->error));
        cmd_text_putf(b, ", \"line\": %llu", (unsigned long long)g->error_line);
        put_headers(b, g);
        cmd_text_puts(b, "}\n");
        return DF_PGN_READ;
    }
    const char *result = df_result_string(g->result);
    bool evals = false, clocks = false;
    for (uint32_t i = 0; i < s->nplies; i++) {
        evals |= s->plies[i].eval_kind != DF_PGN_EVAL_NONE;
        clocks |= s->plies[i].has_clock;
    }
    if (o->positions) {
        for (uint32_t i = 0; i < s->nplies; i++) {
            const ply_record *r = &s->plies[i];
            put_game_key(s, g);
            cmd_text_putf(
                b,
                ", \"ply\": %u, \"fen\": \"%s\", \"uci\": \"%s\", \"san\": \"%s\", \"result\": "
                "\"%s\"",
                i, r->fen, r->uci, r->san, result);
            if (r->eval_kind != DF_PGN_EVAL_NONE) {
                cmd_text_puts(b, ", \"eval\": ");
                put_eval(b, r);
            }
            if (r->has_clock) {
                cmd_text_puts(b, ", \"clock\": ");
                put_clock(b, r);
            }
            cmd_text_puts(b, "}\n");
        }
        return DF_PGN_READ;
    }
    char fen[DF_FEN_MAX];
    put_game_key(s, g);
    put_headers(b, g);
    df_fen_format(fen, sizeof fen, &g->start, DF_FEN_STANDARD);
    cmd_text_putf(b, ", \"start\": \"%s\"", fen);
    put_list(b, s, "uci", put_uci);
    put_list(b, s, "san", put_san);
    if (evals) put_list(b, s, "eval", put_eval);
    if (clocks) put_list(b, s, "clock", put_clock);
    df_fen_format(fen, sizeof fen, &g->board, DF_FEN_STANDARD);
    cmd_text_putf(b, ", \"result\": \"%s\", \"end\": \"%s\"}\n", result, fen);
    return DF_PGN_READ;
}

/* One file's read: the options and what its sinks add up to. */
typedef struct {
    pgn_options o;
    uint64_t games, errors, skipped, positions;
    bool write_failed;
} file_run;

static void *sink_open_run(void *ctx) { return sink_open(&((file_run *)ctx)->o); }

/* In input order: the sink's JSON to standard output, each object numbered now, its counts to
 * the file's. */
static int sink_deliver(void *ctx, void *p, uint64_t first_game)
{
    file_run *run = ctx;
    const sink *s = p;
    run->games += s->games;
    run->errors += s->errors;
    run->skipped += s->skipped;
    run->positions += s->positions;
    if (s->out.failed) {
        run->write_failed = true;
        return 1;
    }
    for (size_t i = 0; i < s->nobjects; i++) {
        const size_t start = s->objects[i].start;
        const size_t end = i + 1 < s->nobjects ? s->objects[i + 1].start : s->out.len;
        printf("{\"game\": %llu",
               (unsigned long long)(run->o.game_base + first_game + s->objects[i].game));
        if (fwrite(s->out.text + start, 1, end - start, stdout) != end - start) {
            run->write_failed = true;
            return 1;
        }
    }
    return ferror(stdout) != 0;
}

/* Reads one file (or standard input: "-"); returns 0, or EXIT_BAD_INPUT. */
static int read_one(const char *path, pgn_options *o, bool named, uint64_t *games)
{
    const char *name = strcmp(path, "-") ? path : "standard input";
    df_pgn_source *src;
    const df_status opened = df_pgn_source_open(&src, path);
    if (opened == DF_ERR_UNSUPPORTED)
        return cmd_input_error("pgn", "%s: this build cannot decompress it (built without %s)",
                               name, strstr(path, ".gz") ? "zlib" : "libzstd");
    if (opened != DF_OK) return cmd_input_error("pgn", "cannot open %s: %s", name, strerror(errno));
    file_run run;
    memset(&run, 0, sizeof run);
    run.o = *o;
    run.o.game_base = *games;
    run.o.file = named ? path : NULL;
    /* Plies only for JSON: a summary asks the reader for none, which then reads no comment's
     * commands (pgn.h). */
    const df_pgn_sinks sinks = {sink_open_run,
                                {on_begin, o->json ? on_ply : NULL, on_end, NULL},
                                sink_deliver,
                                sink_drop,
                                &run};
    df_pgn_stats stats;
    const double start = cmd_seconds();
    const df_status s = df_pgn_read_threaded(src, o->flags, o->filter, o->threads, &sinks, &stats);
    const double seconds = cmd_seconds() - start;
    *games += stats.games;
    int status = run.errors ? EXIT_BAD_INPUT : 0;
    if (s == DF_ERR_IO) {
        const char *why = df_pgn_source_error(src);
        status = cmd_input_error("pgn", "%s: %s", name, why ? why : "cannot read it");
    }
    df_pgn_source_close(src);
    if (run.write_failed) return EXIT_BAD_INPUT; /* cmd_finish_output says why */
    if (!o->json) {
        const double mb = (double)stats.bytes / 1e6;
        printf("%s: %llu games, %llu positions, %llu errors, %llu skipped, %llu filtered, %.1f MB, "
               "%.3f s, %.1f MB/s\n",
               name, (unsigned long long)run.games, (unsigned long long)run.positions,
               (unsigned long long)run.errors, (unsigned long long)run.skipped,
               (unsigned long long)stats.filtered, mb, seconds, seconds > 0 ? mb / seconds : 0.0);
    }
    return status;
}

int cmd_pgn(int argc, char **argv, const char *backend)
{
    (void)backend;
    pgn_options o = {false, false, DF_PGN_STANDARD, 0, NULL, 0, NULL};
    /* files and --where expressions: at most argc of each */
    const char **files = calloc(2 * (size_t)argc + 1, sizeof *files), **where = files + argc;
    int nfiles = 0, nwhere = 0;
    if (!files) return cmd_input_error("pgn", "out of memory");
    for (int i = 0; i < argc; i++) {
        const char *value;
        int got = cmd_value("pgn", argc, argv, &i, "--where", &value);
        if (got > 0) {
            where[nwhere++] = value;
            continue;
        }
        if (got == 0) got = cmd_value("pgn", argc, argv, &i, "--threads", &value);
        if (got < 0) {
            free(files);
            return -got;
        }
        if (got) {
            unsigned long n;
            if (!cmd_parse_count(value, 0, 256, &n)) {
                free(files);
                return cmd_usage_error("pgn", "--threads takes 0 (one per CPU) to 256, not '%s'",
                                       value);
            }
            o.threads = (unsigned)n;
        } else if (cmd_is(argv[i], "--json"))
            o.json = true;
        else if (cmd_is(argv[i], "--positions"))
            o.positions = true;
        else if (cmd_is(argv[i], "--headers"))
            o.flags |= DF_PGN_HEADERS_ONLY;
        else if (cmd_is(argv[i], "--chess960"))
            o.flags |= DF_PGN_CHESS960;
        else if (argv[i][0] == '-' && argv[i][1]) {
            free(files);
            return cmd_help_or_unknown("pgn", argv[i], help);
        } else
            files[nfiles++] = argv[i];
    }
    if (o.positions && !o.json) {
        free(files);
        return cmd_usage_error("pgn", "--positions writes JSON: give --json too");
    }
    if (o.positions && o.flags & DF_PGN_HEADERS_ONLY) {
        free(files);
        return cmd_usage_error("pgn", "--headers reads no position: give --positions or --headers");
    }
    df_pgn_filter *filter = NULL;
    char why[DF_PGN_FILTER_ERROR_MAX];
    const df_status made = df_pgn_filter_new(&filter, where, (size_t)nwhere, why);
    if (made != DF_OK) {
        free(files);
        return made == DF_ERR_ARGUMENT ? cmd_usage_error("pgn", "--where %s", why)
                                       : cmd_input_error("pgn", "out of memory");
    }
    o.filter = nwhere ? filter : NULL;
    if (!nfiles) files[nfiles++] = "-";
    int status = 0;
    uint64_t games = 0;
    for (int i = 0; i < nfiles && !ferror(stdout); i++)
        status |= read_one(files[i], &o, nfiles > 1, &games);
    df_pgn_filter_free(filter);
    free(files);
    return status;
}
