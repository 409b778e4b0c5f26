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
    "                   [--where EXPR]... [FILE...]\n"
    "       dirfill pgn --json --positions [--min-ply N] [--max-ply N] [--min-clock SECONDS]\n"
    "                   [--require-eval] [--where EXPR]... [FILE...]\n"
    "       dirfill pgn --count-by FIELD[,FIELD...] [--csv | --json] [--validate]\n"
    "                   [--where EXPR]... [FILE...]\n"
    "\n"
    "Reads chess games in PGN from each FILE in order (standard input without one; a name\n"
    "ending in .zst or .gz is decompressed as it is read), checks and plays every move of each\n"
    "game's main line, and writes what it read.\n"
    "  --json        one JSON object per game: game, headers, start, uci, san, eval, clock,\n"
    "                result, end (docs/cli.md); a game with an error: game, error, line,\n"
    "                headers; a game of another variant: game, skipped\n"
    "  --positions   with --json, one object per position before each move instead: game,\n"
    "                ply, fen, uci, san, result (eval, clock when the move has them)\n"
    "  --min-ply N, --max-ply N\n"
    "                with --positions, only positions of plies N or more, N or fewer\n"
    "  --min-clock SECONDS\n"
    "                with --positions, only positions whose side to move has SECONDS or more\n"
    "                left: the [%clk] of its own last move, TimeControl's base before it has\n"
    "                moved (none: the position is left out)\n"
    "  --require-eval  with --positions, only positions whose move has an [%eval]\n"
    "  --headers     tags and results only: the movetext is skimmed for the game's end, not\n"
    "                read (fastest; with --json: game, headers, result)\n"
    "  --chess960    every game is Chess960 (a Variant tag can also say so)\n"
    "  --threads N   read on N threads (0, the default: one per CPU); output stays in input\n"
    "                order\n"
    "  --where EXPR  only games whose fields match: FIELD OP VALUE, FIELD a tag or one of Speed\n"
    "                BaseSeconds Increment AvgElo MinElo MaxElo EloDiff EloBin Year Month Bot\n"
    "                (from the tags: docs/cli.md), OP one of = != < <= > >= (numbers compare as\n"
    "                numbers) ^= (prefix); repeatable, all must hold (--where 'WhiteElo>=2000'\n"
    "                --where 'Speed=blitz'); the other games' moves are not read, and they are\n"
    "                counted as filtered\n"
    "  --count-by FIELD[,FIELD...]\n"
    "                no games out: a table of the kept games per value of the fields (tags or\n"
    "                derived fields, as in --where), at the speed of --headers; sorted by the\n"
    "                values (numbers as numbers, speeds by duration), (none) where a game has no\n"
    "                value; aligned text, --csv, or --json (one object per group)\n"
    "  --validate    with --count-by, count only games whose every move is legal, and their\n"
    "                plies\n"
    "Without --json or --count-by: one line per FILE: games (every game found: kept,\n"
    "filtered, errors, skipped), positions (of kept games), megabytes, seconds, MB/s. Exit\n"
    "status 1 when a game had an error or a file could not be read, 2 for a malformed or\n"
    "contradictory option or EXPR or standard output that is an input, else 0.\n";

typedef struct {
    bool json, positions;
    unsigned flags, threads;
    const df_pgn_filter *filter;            /* --where, or NULL */
    df_pgn_position_filter position_filter; /* --min-ply, --max-ply, --min-clock, --require-eval */
    uint64_t game_base;                     /* games of the earlier files */
    const char *file;                       /* the file's name, when more than one is read */
} pgn_options;

/* ---- a sink: the JSON of a run of games, and the game in progress ---- */

typedef struct {
    char uci[DF_UCI_MAX], san[DF_SAN_MAX];
    df_pgn_eval_kind eval_kind;
    int32_t mate;
    double pawns;
    bool has_clock;
    double clock;
    char fen[DF_FEN_MAX]; /* --positions: the position before the move */
    bool passes;          /* --positions: the position passes the position filter */
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
    uint64_t positions;   /* of kept games */
    df_pgn_clocks clocks; /* of the game in progress, for the position filter */
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
    if (s->o->positions) {
        df_fen_format(r->fen, sizeof r->fen, p->before, DF_FEN_STANDARD);
        r->passes = df_pgn_position_passes(&s->o->position_filter, &s->clocks, g, p);
    }
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
        cmd_text_json(b, o->file, strlen(o->file));
    }
}

static void put_headers(cmd_text *b, const df_pgn_game *g)
{
    cmd_text_puts(b, ", \"headers\": {");
    for (uint32_t i = 0; i < g->ntags; i++) {
        if (i) cmd_text_puts(b, ", ");
        cmd_text_json(b, g->tags[i].name, g->tags[i].name_len);
        cmd_text_puts(b, ": ");
        cmd_text_json(b, g->tags[i].value, g->tags[i].value_len);
    }
    cmd_text_puts(b, "}");
    if (g->warning) {
        cmd_text_puts(b, ", \"warning\": ");
        cmd_text_json(b, g->warning, strlen(g->warning));
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
    if (!g->error && !g->skipped) s->positions += g->plies;
    if (!o->json) return DF_PGN_READ;
    if (s->failed) {
        b->failed = true;
        return DF_PGN_STOP;
    }
    if (g->skipped) {
        put_game_key(s, g);
        cmd_text_puts(b, ", \"skipped\": ");
        cmd_text_json(b, g->skipped, strlen(g->skipped));
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
        cmd_text_json(b, g->error, strlen(g->error));
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
            if (!r->passes) continue;
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
    uint64_t positions;
    bool write_failed;
} file_run;

static void *sink_open_run(void *ctx) { return sink_open(&((file_run *)ctx)->o); }

/* In input order: the sink's JSON to standard output, each object numbered now, its counts to
 * the file's. */
static int sink_deliver(void *ctx, void *p, uint64_t first_game)
{
    file_run *run = ctx;
    const sink *s = p;
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
    df_source *src;
    const df_status opened = df_source_open(&src, path);
    if (opened != DF_OK) return cmd_open_error("pgn", path, opened);
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
    int status = stats.errors ? EXIT_BAD_INPUT : 0;
    if (s == DF_ERR_IO) {
        const char *why = df_source_error(src);
        status = cmd_input_error("pgn", "%s: %s", name, why ? why : "cannot read it");
    }
    df_source_close(src);
    if (run.write_failed) return EXIT_BAD_INPUT; /* cmd_finish_output says why */
    if (!o->json) {
        const double mb = (double)stats.bytes / 1e6;
        printf("%s: %llu games, %llu kept, %llu filtered, %llu errors, %llu skipped, %llu "
               "positions, %.1f MB, %.3f s, %.1f MB/s\n",
               name, (unsigned long long)stats.games, (unsigned long long)stats.kept,
               (unsigned long long)stats.filtered, (unsigned long long)stats.errors,
               (unsigned long long)stats.skipped, (unsigned long long)run.positions, mb, seconds,
               seconds > 0 ? mb / seconds : 0.0);
    }
    return status;
}

/* Everything the command line says, before any file is read. */
typedef struct {
    pgn_options o;
    count_options count;
    const char *count_by; /* --count-by, or NULL */
    bool csv, validate;
    const char **files, **where;
    int nfiles, nwhere;
} pgn_command;

/* --min-clock's SECONDS: digits with at most one '.', nothing else. */
static bool parse_seconds(const char *text, double *out)
{
    size_t digits = 0, dots = 0, i = 0;
    for (; text[i]; i++) {
        if (text[i] == '.')
            dots++;
        else if (text[i] >= '0' && text[i] <= '9')
            digits++;
        else
            return false;
    }
    if (!digits || dots > 1 || i > 30) return false;
    *out = strtod(text, NULL);
    return true;
}

/* An option with a value at argv[*i]: 1 when it was one (taken), 0 when not, or -EXIT_USAGE. */
static int value_option(pgn_command *c, int argc, char **argv, int *i)
{
    static const char *const names[] = {"--where",   "--threads", "--count-by",
                                        "--min-ply", "--max-ply", "--min-clock"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        const char *value;
        const int got = cmd_value("pgn", argc, argv, i, names[k], &value);
        if (got <= 0) {
            if (got < 0) return got;
            continue;
        }
        unsigned long n = 0;
        df_pgn_position_filter *pf = &c->o.position_filter;
        switch (k) {
        case 0:
            c->where[c->nwhere++] = value;
            return 1;
        case 1:
            if (!cmd_parse_count(value, 0, 256, &n))
                return -cmd_usage_error("pgn", "--threads takes 0 (one per CPU) to 256, not '%s'",
                                        value);
            c->o.threads = (unsigned)n;
            return 1;
        case 2:
            c->count_by = value;
            return 1;
        case 3:
        case 4:
            if (!cmd_parse_count(value, 0, UINT32_MAX, &n))
                return -cmd_usage_error("pgn", "%s takes a ply, 0 or more, not '%s'", names[k],
                                        value);
            if (k == 3)
                pf->min_ply = (uint32_t)n;
            else
                pf->max_ply = (uint32_t)n;
            pf->conditions |= k == 3 ? DF_PGN_MIN_PLY : DF_PGN_MAX_PLY;
            return 1;
        default:
            if (!parse_seconds(value, &pf->min_clock))
                return -cmd_usage_error("pgn", "--min-clock takes seconds (30, 0.5), not '%s'",
                                        value);
            pf->conditions |= DF_PGN_MIN_CLOCK;
            return 1;
        }
    }
    return 0;
}

/* The options that do not combine, each pair said by name: 0, or EXIT_USAGE after a message. */
static int check_combinations(const pgn_command *c)
{
    const pgn_options *o = &c->o;
    const bool headers = o->flags & DF_PGN_HEADERS_ONLY;
    const unsigned pf = o->position_filter.conditions;
    const char *position_option = pf & DF_PGN_MIN_PLY     ? "--min-ply"
                                  : pf & DF_PGN_MAX_PLY   ? "--max-ply"
                                  : pf & DF_PGN_MIN_CLOCK ? "--min-clock"
                                                          : "--require-eval";
    if (c->count_by && o->positions)
        return cmd_usage_error("pgn", "--count-by and --positions do not combine: a count "
                                      "writes no positions");
    if (c->count_by && pf)
        return cmd_usage_error("pgn",
                               "--count-by and %s do not combine: a count writes no "
                               "positions",
                               position_option);
    if (c->csv && !c->count_by)
        return cmd_usage_error("pgn", "--csv is the format of --count-by's table: give "
                                      "--count-by too");
    if (c->csv && o->json)
        return cmd_usage_error("pgn", "--csv and --json do not combine: give one format");
    if (c->validate && !c->count_by)
        return cmd_usage_error("pgn", "--validate goes with --count-by (without it every game "
                                      "is validated but with --headers)");
    if (c->validate && headers)
        return cmd_usage_error("pgn", "--validate and --headers do not combine: --headers reads "
                                      "no move");
    if (headers && o->positions)
        return cmd_usage_error("pgn", "--headers and --positions do not combine: --headers "
                                      "reads no move, so no position");
    if (o->positions && !o->json)
        return cmd_usage_error("pgn", "--positions writes JSON: give --json too");
    if (pf && !o->positions)
        return cmd_usage_error("pgn", "%s chooses positions: give --json --positions too",
                               position_option);
    if (pf & DF_PGN_MIN_PLY && pf & DF_PGN_MAX_PLY &&
        o->position_filter.min_ply > o->position_filter.max_ply)
        return cmd_usage_error("pgn", "--min-ply %u is above --max-ply %u: no position passes",
                               o->position_filter.min_ply, o->position_filter.max_ply);
    return c->count_by ? pgn_count_check(c->count_by) : 0;
}

/* The command line into c: GO_ON, else the exit status (0 after --help, a usage error). */
enum { GO_ON = -1 };
static int parse_command(pgn_command *c, int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        const int got = value_option(c, argc, argv, &i);
        if (got < 0) return -got;
        if (got) continue;
        /* --help (0) ends the command as a usage error does. */
        if (cmd_is(argv[i], "--json"))
            c->o.json = true;
        else if (cmd_is(argv[i], "--positions"))
            c->o.positions = true;
        else if (cmd_is(argv[i], "--headers"))
            c->o.flags |= DF_PGN_HEADERS_ONLY;
        else if (cmd_is(argv[i], "--chess960"))
            c->o.flags |= DF_PGN_CHESS960;
        else if (cmd_is(argv[i], "--csv"))
            c->csv = true;
        else if (cmd_is(argv[i], "--validate"))
            c->validate = true;
        else if (cmd_is(argv[i], "--require-eval"))
            c->o.position_filter.conditions |= DF_PGN_REQUIRE_EVAL;
        else if (argv[i][0] == '-' && argv[i][1])
            return cmd_help_or_unknown("pgn", argv[i], help);
        else
            c->files[c->nfiles++] = argv[i];
    }
    const int status = check_combinations(c);
    return status ? status : GO_ON;
}

int cmd_pgn(int argc, char **argv, const char *backend)
{
    (void)backend;
    pgn_command c;
    memset(&c, 0, sizeof c);
    /* files and --where expressions: at most argc of each */
    c.files = calloc(2 * (size_t)argc + 1, sizeof *c.files);
    if (!c.files) return cmd_input_error("pgn", "out of memory");
    c.where = c.files + argc;
    int status = parse_command(&c, argc, argv);
    df_pgn_filter *filter = NULL;
    char why[DF_PGN_FILTER_ERROR_MAX];
    const df_status made =
        status != GO_ON ? DF_OK : df_pgn_filter_new(&filter, c.where, (size_t)c.nwhere, why);
    if (made != DF_OK)
        status = made == DF_ERR_ARGUMENT ? cmd_usage_error("pgn", "--where %s", why)
                                         : cmd_input_error("pgn", "out of memory");
    if (status != GO_ON) {
        free(c.files);
        return status;
    }
    c.o.filter = c.nwhere ? filter : NULL;
    if (!c.nfiles) c.files[c.nfiles++] = "-";
    /* Standard output that is an input: the shell emptied it, and writing would read back
     * what is written. */
    status = cmd_check_output("pgn", NULL, NULL, c.files, (size_t)c.nfiles);
    if (!status && c.count_by) {
        c.count =
            (count_options){c.count_by,  c.csv ? COUNT_CSV : c.o.json ? COUNT_JSON : COUNT_TEXT,
                            c.validate,  c.o.flags,
                            c.o.threads, c.o.filter};
        status = pgn_count(&c.count, c.files, c.nfiles);
    } else if (!status) {
        uint64_t games = 0;
        for (int i = 0; i < c.nfiles && !ferror(stdout); i++)
            status |= read_one(c.files[i], &c.o, c.nfiles > 1, &games);
    }
    df_pgn_filter_free(filter);
    free(c.files);
    return status;
}
