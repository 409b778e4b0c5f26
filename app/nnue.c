/* SPDX-License-Identifier: MIT */
/* dirfill nnue: NNUE training data (.binpack, .plain, .bin, bullet's .bf, .marlin, .vf and .txt,
 * PGN, FEN lines) read into entries and their feature indices as JSON Lines, a summary line, or
 * a file of any format but PGN. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nnue_run.h"

static const char help[] =
    "usage: dirfill nnue [--features SET] [--threads N] [--json] [--no-eval-ok]\n"
    "                    [--score-units stockfish|cp] [--skip SPEC] [--shuffle N] [--seed N]\n"
    "                    FILE...\n"
    "       dirfill nnue --fens [--features SET] [--threads N] --json\n"
    "       dirfill nnue --write OUT [--threads N] [--no-eval-ok] [--skip SPEC] [--shuffle N]\n"
    "                    [--seed N] FILE...\n"
    "\n"
    "Reads NNUE training data: each FILE by its extension, .binpack (Stockfish's chunks of move\n"
    "chains), .plain, .bin (40-byte records), bullet's .bf (ChessBoard), .marlin\n"
    "(MarlinFormat), .vf (viriformat games), .txt (FEN | score | result lines) or PGN (.pgn:\n"
    "every position before a move of a game with a result, its score the move's [%eval] from\n"
    "the side to move's view in Stockfish's internal units, a mate 32000 - plies), each also as\n"
    ".zst or .gz. Entries of .bf, .marlin and .txt have no move (\"-\").\n"
    "  --features SET  the input set: Full_Threats+PP_3Wide+HalfKAv2_hm (the default),\n"
    "                  HalfKAv2_hm, Full_Threats, PP_3Wide, or parts of it joined by '+';\n"
    "                  none: no indices (the entries alone, to time reading)\n"
    "  --json          one JSON object per entry: fen, move, score, ply, result, white, black\n"
    "                  (each perspective's active indices, ascending)\n"
    "  --threads N     compute on N threads (0, the default: one per CPU); the output is the\n"
    "                  same for any N\n"
    "  --no-eval-ok    PGN: keep positions whose move has no [%eval] (score 32002, none)\n"
    "  --score-units U PGN: stockfish (the default: the centipawns Stockfish prints turned\n"
    "                  back into its internal units, as Stockfish-generated data holds them)\n"
    "                  or cp (centipawns as written)\n"
    "  --fens          read fen<TAB>score<TAB>ply<TAB>result lines on standard input (move \"-\")\n"
    "  --write OUT     convert to OUT: .binpack, .plain, .bin, .bf, .marlin, .vf or .txt by\n"
    "                  its extension (written to a temporary file renamed to OUT when whole;\n"
    "                  never one of the FILEs); the summary says what OUT's format dropped\n"
    "  --skip SPEC     leave entries out as nnue-pytorch's loader does: SPEC is 'default' (its\n"
    "                  Python defaults), 'none' (every option off) or either followed by\n"
    "                  ,KEY=VALUE items with its names (filtered, wld_filtered,\n"
    "                  random_fen_skipping, early_fen_skipping, soft_early_fen_skipping,\n"
    "                  simple_eval_skipping, pc_y0..pc_y4, ply_x1..ply_x4, ply_y1..ply_y4);\n"
    "                  without a base, items change the defaults\n"
    "  --shuffle N     give the entries in a random order, as nnue-pytorch's loader does:\n"
    "                  pieces of the FILEs (a .binpack chunk, 1 MiB of another format) picked\n"
    "                  at random by the bytes left of each fill a buffer of N entries (about\n"
    "                  100 bytes each), which is shuffled and given, then the next; 0, the\n"
    "                  default: the FILEs' order. With --write: a shuffled copy (a shuffled\n"
    "                  .binpack is larger: few entries still follow one another's move)\n"
    "  --seed N        the seed of --skip's and --shuffle's draws (5489, the default, is\n"
    "                  nnue-pytorch's); the same seed gives the same entries in the same order\n"
    "Without --json: one line, entries, errors, entries/s (with --skip: the entries kept, those\n"
    "skipped, errors, and entries read per second), and with PGN the positions dropped by\n"
    "reason; with --json a last line counts them. A PGN file that gives no entry is an error\n"
    "saying why. An error (a bad chunk, record, game\n"
    "or line) names its file and byte offset, and reading goes on after it. Exit status 1 when\n"
    "an input had an error or could not be read, 2 for a malformed option or an output that is\n"
    "an input, else 0.\n";

/* ---- inputs ---- */

/* What a PGN file's positions that are no entries say of it, when it gave none: the main
 * reason, or NULL. */
static const char *none_why(const df_nnue_pgn_counts *c, char *why, size_t size)
{
    if (c->entries) return NULL;
    if (!c->games)
        snprintf(why, size, "no game in it");
    else if (c->no_eval)
        snprintf(why, size,
                 "no [%%eval] or engine comment in %llu games (--no-eval-ok keeps "
                 "such positions, unscored)",
                 (unsigned long long)c->games);
    else if (c->no_result)
        snprintf(why, size, "no game of %llu has a result", (unsigned long long)c->games);
    else
        snprintf(why, size, "%llu games and none gives a position", (unsigned long long)c->games);
    return why;
}

/* The files of a run and what their hooks say to it. */
typedef struct {
    nnue_run *run;
    const char *const *files;
    const df_nnue_format *kinds;
    int status;
} files_ctx;

/* The stream's open hook: the program's own message for a file that cannot be opened. */
static df_nnue_reader *open_file(void *ctx, size_t k)
{
    files_ctx *c = ctx;
    df_nnue_reader *r;
    const df_status opened = df_nnue_reader_open(&r, c->files[k], c->kinds[k]);
    if (opened == DF_OK) return r;
    c->run->errors++;
    c->status |= cmd_open_error("nnue", c->files[k], opened);
    return NULL;
}

/* The stream's close hook: a PGN file's positions that are no entries counted, and a PGN file
 * read whole that gave none an error saying why. */
static void close_file(void *ctx, size_t k, df_nnue_reader *r, bool whole)
{
    files_ctx *c = ctx;
    nnue_run *run = c->run;
    if (c->kinds[k] == DF_NNUE_PGN) {
        df_nnue_pgn_counts n;
        df_nnue_reader_pgn_counts(r, &n);
        run->pgn_files++;
        run->dropped.games += n.games;
        run->dropped.no_eval += n.no_eval;
        run->dropped.no_result += n.no_result;
        run->dropped.null_moves += n.null_moves;
        run->dropped.in_errors += n.in_errors;
        run->dropped.skipped_games += n.skipped_games;
        char why[160];
        if (whole && none_why(&n, why, sizeof why)) {
            char message[224];
            snprintf(message, sizeof message, "no entries: %s", why);
            nnue_error(run, c->files[k], message, 0, NULL, 0);
        }
    }
    df_nnue_reader_free(r);
}

/* Every file's entries and errors, in the stream's order, to the output or the writer. */
static int read_files(nnue_run *run, df_nnue_stream_options *o, const char *const *files,
                      const df_nnue_format *kinds, int n)
{
    static const char *const where_key[DF_NNUE_FORMATS] = {"chunk",  "line",   "record", "game",
                                                           "record", "record", "game",   "line"};
    files_ctx c = {run, files, kinds, 0};
    df_nnue_stream_input *inputs = calloc((size_t)n + 1, sizeof *inputs);
    if (!inputs) return cmd_input_error("nnue", "out of memory");
    for (int k = 0; k < n; k++) inputs[k] = (df_nnue_stream_input){files[k], kinds[k], 0};
    o->open = open_file;
    o->close = close_file;
    o->ctx = &c;
    df_nnue_stream *s;
    const df_status made = df_nnue_stream_new(&s, inputs, (size_t)n, o);
    free(inputs);
    if (made != DF_OK) return cmd_input_error("nnue", "out of memory");
    df_nnue_entry e;
    df_nnue_error err;
    size_t k = 0;
    for (df_nnue_next got; (got = df_nnue_stream_next(s, &e, &err, &k)) != DF_NNUE_END;) {
        if (got == DF_NNUE_ERROR && k < (size_t)n)
            nnue_error(run, files[k], err.message, err.offset, where_key[kinds[k]], err.where);
        else if (got == DF_NNUE_ERROR)
            c.status |= cmd_input_error("nnue", "%s", err.message);
        else if (!nnue_take(run, files[k], &e, e.move != DF_MOVE_NONE))
            break;
    }
    df_nnue_stream_counts counts;
    df_nnue_stream_counts_of(&counts, s);
    run->skipped = counts.skipped;
    df_nnue_stream_free(s);
    return c.status;
}

/* ---- --fens: fen<TAB>score<TAB>ply<TAB>result lines ---- */

/* One line into *e; NULL, or why it is not an entry. */
static const char *fen_line(df_nnue_entry *e, const char *s, size_t len, char *why, size_t size)
{
    const char *field[4];
    size_t flen[4];
    int n = 0;
    for (const char *p = s, *end = s + len; n < 4; n++) {
        const char *tab = memchr(p, '\t', (size_t)(end - p));
        field[n] = p;
        flen[n] = (size_t)((tab ? tab : end) - p);
        if (!tab) {
            n++;
            break;
        }
        p = tab + 1;
        if (n == 3) return "more than 4 tab-separated fields";
    }
    if (n != 4) return "not fen<TAB>score<TAB>ply<TAB>result";
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)s[i] < 0x20 && s[i] != '\t') {
            snprintf(why, size, "control byte 0x%02x at byte %zu of the line", (unsigned char)s[i],
                     i + 1);
            return why;
        }
    df_fen_error fe;
    if (df_fen_parse(&e->pos, field[0], flen[0], DF_FEN_STANDARD, &fe) != DF_OK) {
        snprintf(why, size, "bad FEN: %s", fe.message);
        return why;
    }
    const int pieces = df_popcount(df_board_occupied(&e->pos));
    if (pieces > DF_NNUE_PIECES_MAX) {
        snprintf(why, size, "%d pieces (the formats hold at most %d)", pieces, DF_NNUE_PIECES_MAX);
        return why;
    }
    static const char *const names[3] = {"score", "ply", "result"};
    static const long limits[3][2] = {{INT16_MIN, INT16_MAX}, {0, UINT16_MAX}, {-1, 1}};
    long v[3];
    for (int k = 0; k < 3; k++) {
        char text[24];
        char *end;
        const size_t l = flen[k + 1] < sizeof text - 1 ? flen[k + 1] : sizeof text - 1;
        memcpy(text, field[k + 1], l);
        text[l] = 0;
        v[k] = strtol(text, &end, 10);
        if (!l || *end || l != flen[k + 1] || v[k] < limits[k][0] || v[k] > limits[k][1]) {
            snprintf(why, size, "%s is not a number from %ld to %ld", names[k], limits[k][0],
                     limits[k][1]);
            return why;
        }
    }
    e->move = DF_MOVE_NONE;
    e->score = (int16_t)v[0];
    e->ply = (uint16_t)v[1];
    e->result = (int8_t)v[2];
    e->ep_as_stored = 0; /* a FEN's square goes through nnue-pytorch's rule */
    return NULL;
}

static int read_fens(nnue_run *run)
{
    cmd_lines lines;
    cmd_lines_init(&lines, stdin);
    int got;
    while ((got = cmd_lines_next(&lines)) > 0) {
        size_t len = lines.len;
        while (len && lines.buf[len - 1] == '\r') len--;
        if (!len && !lines.too_long) continue;
        char why[160];
        df_nnue_entry e;
        const char *bad = lines.too_long ? "a line longer than 4096 bytes: not an entry"
                                         : fen_line(&e, lines.buf, len, why, sizeof why);
        if (!bad) {
            if (!nnue_take(run, "-", &e, false)) break;
            continue;
        }
        run->errors++;
        if (!run->json) {
            fprintf(stderr, "dirfill nnue: line %ld: %s\n", lines.number, bad);
            continue;
        }
        cmd_text line = {0};
        cmd_text_puts(&line, "{\"error\": ");
        json_text_string(&line, bad, strlen(bad));
        cmd_text_puts(&line, ", \"input\": ");
        json_text_string(&line, lines.buf, lines.len);
        cmd_text_puts(&line, "}\n");
        nnue_out_line(run->out, &line);
        cmd_text_free(&line);
    }
    if (got < 0) return cmd_input_error("nnue", "cannot read standard input: %s", strerror(errno));
    return 0;
}

/* ---- the command ---- */

/* What OUT's format dropped of the entries written, on the summary line: never silent. */
static void print_losses(const df_nnue_losses *l, const char *out)
{
    const struct {
        uint64_t n;
        const char *what;
    } field[] = {{l->moves, "moves"},
                 {l->side_to_move, "sides to move"},
                 {l->castling, "castling rights"},
                 {l->en_passant, "en-passant squares"},
                 {l->halfmove, "half-move clocks"},
                 {l->fullmove, "move numbers"},
                 {l->ply, "plies"}};
    printf("; not kept by %s: %llu entries lost", out, (unsigned long long)l->entries);
    const char *sep = " ";
    for (size_t i = 0; i < sizeof field / sizeof *field; i++)
        if (field[i].n) {
            printf("%s%llu %s", sep, (unsigned long long)field[i].n, field[i].what);
            sep = ", ";
        }
}

/* The skip options of SPEC (--skip): a base, then KEY=VALUE items, comma-separated; false
 * after a usage message. */
static bool parse_skip(df_nnue_skip_options *o, const char *spec)
{
    const size_t len = strlen(spec);
    char *text = malloc(len + 1);
    if (!text) return false;
    memcpy(text, spec, len + 1);
    bool ok = true;
    char *rest = text;
    for (int item = 0; ok && rest; item++) {
        char *next = strchr(rest, ',');
        if (next) *next++ = '\0';
        char *eq = strchr(rest, '=');
        if (item == 0 && !eq && (!strcmp(rest, "default") || !strcmp(rest, "none"))) {
            *o = rest[0] == 'd' ? df_nnue_skip_defaults() : df_nnue_skip_none();
        } else if (!eq) {
            cmd_usage_error("nnue", "--skip: '%s' is not default, none or KEY=VALUE%s", rest,
                            item ? "" : " (the base, default or none, comes first)");
            ok = false;
        } else {
            *eq = '\0';
            if (df_nnue_skip_option_set(o, rest, eq + 1) != DF_OK) {
                cmd_usage_error("nnue",
                                "--skip: '%s=%s': not one of nnue-pytorch's skip options with a "
                                "value of its kind (see dirfill nnue --help)",
                                rest, eq + 1);
                ok = false;
            }
        }
        rest = next;
    }
    free(text);
    return ok;
}

int cmd_nnue(int argc, char **argv, const char *backend)
{
    (void)backend;
    nnue_run run;
    memset(&run, 0, sizeof run);
    run.set = df_nnue_set_default();
    bool fens = false;
    const char *skip_spec = NULL, *seed_text = NULL;
    unsigned long shuffle = 0;
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    df_nnue_format *kinds = calloc((size_t)argc + 1, sizeof *kinds);
    int nfiles = 0, status = 0;
    if (!files || !kinds) {
        free(files);
        free(kinds);
        return cmd_input_error("nnue", "out of memory");
    }
#define USAGE(...)                                                                                 \
    do {                                                                                           \
        status = cmd_usage_error("nnue", __VA_ARGS__);                                             \
        goto done;                                                                                 \
    } while (0)
    for (int i = 0; i < argc; i++) {
        const char *value;
        int got = cmd_value("nnue", argc, argv, &i, "--features", &value);
        if (got > 0) {
            if (cmd_is(value, "none")) {
                run.set.count = 0; /* reading alone, for timing */
                continue;
            }
            if (df_nnue_set_parse(&run.set, value, strlen(value)) != DF_OK)
                USAGE("--features: '%s' is not HalfKAv2_hm (or nnue-pytorch's HalfKAv2_hm^), "
                      "Full_Threats, PP_3Wide or a '+'-joined list of them, each once",
                      value);
            continue;
        }
        if (got == 0) got = cmd_value("nnue", argc, argv, &i, "--threads", &value);
        if (got > 0) {
            unsigned long n;
            if (!cmd_parse_count(value, 0, 256, &n))
                USAGE("--threads takes 0 (one per CPU) to 256, not '%s'", value);
            run.threads = (unsigned)n;
            continue;
        }
        if (got == 0) got = cmd_value("nnue", argc, argv, &i, "--write", &value);
        if (got > 0) {
            run.write_path = value;
            continue;
        }
        if (got == 0) got = cmd_value("nnue", argc, argv, &i, "--skip", &value);
        if (got > 0) {
            skip_spec = value;
            continue;
        }
        if (got == 0) got = cmd_value("nnue", argc, argv, &i, "--score-units", &value);
        if (got > 0) {
            if (cmd_is(value, "stockfish"))
                run.pgn.units = DF_NNUE_UNITS_STOCKFISH;
            else if (cmd_is(value, "cp"))
                run.pgn.units = DF_NNUE_UNITS_CP;
            else
                USAGE("--score-units is stockfish or cp, not '%s'", value);
            continue;
        }
        if (got == 0) got = cmd_value("nnue", argc, argv, &i, "--shuffle", &value);
        if (got > 0) {
            if (!cmd_parse_count(value, 0, DF_NNUE_STREAM_SHUFFLE_MAX, &shuffle))
                USAGE("--shuffle takes 0 (the files' order) to %lu entries, not '%s'",
                      (unsigned long)DF_NNUE_STREAM_SHUFFLE_MAX, value);
            continue;
        }
        if (got == 0) got = cmd_value("nnue", argc, argv, &i, "--seed", &value);
        if (got > 0) {
            seed_text = value;
            continue;
        }
        if (got < 0) {
            status = -got;
            goto done;
        }
        if (cmd_is(argv[i], "--json"))
            run.json = true;
        else if (cmd_is(argv[i], "--no-eval-ok"))
            run.pgn.keep_no_eval = true;
        else if (cmd_is(argv[i], "--fens"))
            fens = true;
        else if (argv[i][0] == '-' && argv[i][1]) {
            status = cmd_help_or_unknown("nnue", argv[i], help);
            goto done;
        } else {
            if (!df_nnue_format_of(&kinds[nfiles], argv[i]))
                USAGE("%s: not .binpack, .plain, .bin, .bf, .marlin, .vf, .txt (also .zst, .gz) "
                      "or .pgn (.pgn.zst, .pgn.gz)",
                      argv[i]);
            files[nfiles++] = argv[i];
        }
    }
    df_nnue_format out_format = DF_NNUE_BINPACK;
    const size_t out_len = run.write_path ? strlen(run.write_path) : 0;
    if (run.write_path &&
        (!df_nnue_format_of(&out_format, run.write_path) || out_format == DF_NNUE_PGN ||
         (out_len > 4 && !strcmp(run.write_path + out_len - 4, ".zst")) ||
         (out_len > 3 && !strcmp(run.write_path + out_len - 3, ".gz"))))
        USAGE("--write %s: not .binpack, .plain, .bin, .bf, .marlin, .vf or .txt", run.write_path);
    if (run.write_path && (run.json || fens))
        USAGE("--write writes a file: not with --json or --fens");
    if (fens && nfiles) USAGE("--fens reads standard input: no FILE");
    if (!fens && !nfiles) USAGE("no FILE (see dirfill nnue --help)");
    if (skip_spec && fens) USAGE("--skip needs the moves played: not with --fens");
    if (shuffle && fens) USAGE("--shuffle orders FILEs' entries: not with --fens");
    if (seed_text && !skip_spec && !shuffle)
        USAGE("--seed seeds --skip's and --shuffle's draws: give one of them too");
    unsigned long long seed = 5489; /* nnue-pytorch's, so that its runs' skips are ours */
    df_nnue_skip_options skip = df_nnue_skip_defaults();
    if (seed_text) {
        char *end;
        errno = 0;
        seed = strtoull(seed_text, &end, 10);
        if (!*seed_text || *seed_text == '-' || *end || errno)
            USAGE("--seed takes a whole number from 0 to 2^64 - 1, not '%s'", seed_text);
    }
    if (skip_spec) {
        skip = df_nnue_skip_defaults();
        if (!parse_skip(&skip, skip_spec)) {
            status = EXIT_USAGE;
            goto done;
        }
        df_nnue_skip *trial = df_nnue_skip_new(&skip, seed);
        if (!trial) USAGE("--skip %s: soft_early_fen_skipping is at most 65536", skip_spec);
        df_nnue_skip_free(trial);
        run.skipping = true;
    }
    /* An output that is an input would be emptied before it is read. */
    static const char *const std_in[] = {"-"};
    if ((status = cmd_check_output("nnue", NULL, NULL, fens ? std_in : files,
                                   fens ? 1 : (size_t)nfiles)) ||
        (run.write_path &&
         (status = cmd_check_output("nnue", "--write", run.write_path, files, (size_t)nfiles))))
        goto done;
    if (run.write_path) {
        /* Written to a temporary file renamed into place at the close: an interrupt removes
         * it (a signal before its name is known waits). */
        cmd_interrupts_hold();
        const df_status opened = df_nnue_writer_open(&run.writer, run.write_path, out_format);
        const int why = errno;
        cmd_temp_guard(df_nnue_writer_temp_path(run.writer));
        if (opened != DF_OK) {
            status = cmd_input_error("nnue", "cannot create %s: %s", run.write_path, strerror(why));
            goto done;
        }
    } else if (!(run.out = nnue_out_new(&run.set, run.json, run.threads))) {
        status = cmd_input_error("nnue", "out of memory");
        goto done;
    }
    const double start = cmd_seconds();
    if (fens) status |= read_fens(&run);
    if (nfiles) {
        df_nnue_stream_options o = {0};
        o.shuffle = shuffle;
        o.skip = skip_spec ? &skip : NULL;
        o.seed = seed;
        o.pgn = run.pgn;
        status |= read_files(&run, &o, files, kinds, nfiles);
    }
    df_nnue_losses losses;
    df_nnue_writer_losses(run.writer, &losses);
    if (run.writer && df_nnue_writer_close(run.writer) != DF_OK)
        status = cmd_input_error("nnue", "cannot write %s: %s", run.write_path, strerror(errno));
    cmd_temp_guard(NULL);
    if (run.out && !nnue_out_finish(run.out)) status = EXIT_BAD_INPUT; /* main says why */
    const double seconds = cmd_seconds() - start;
    if (run.errors) status = EXIT_BAD_INPUT;
    const df_nnue_pgn_counts *d = &run.dropped;
    if (run.json && run.pgn_files && !ferror(stdout))
        printf("{\"pgn_positions_dropped\": {\"no_eval\": %llu, \"no_result\": %llu, "
               "\"null_moves\": %llu, \"in_errors\": %llu}, \"pgn_games\": %llu, "
               "\"pgn_games_skipped\": %llu}\n",
               (unsigned long long)d->no_eval, (unsigned long long)d->no_result,
               (unsigned long long)d->null_moves, (unsigned long long)d->in_errors,
               (unsigned long long)d->games, (unsigned long long)d->skipped_games);
    if (!run.json && run.skipping)
        printf("%llu entries, %llu skipped, %llu errors, %.0f entries/s",
               (unsigned long long)run.entries, (unsigned long long)run.skipped,
               (unsigned long long)run.errors,
               seconds > 0 ? (double)(run.entries + run.skipped) / seconds : 0.0);
    else if (!run.json)
        printf("%llu entries, %llu errors, %.0f entries/s", (unsigned long long)run.entries,
               (unsigned long long)run.errors, seconds > 0 ? (double)run.entries / seconds : 0.0);
    /* What PGN positions gave no entry, by reason: a file of games without evaluations is no
     * silent empty output. */
    if (!run.json && run.pgn_files)
        printf("; PGN positions dropped: %llu without an evaluation, %llu in games without a "
               "result, %llu null moves, %llu in games with an error",
               (unsigned long long)d->no_eval, (unsigned long long)d->no_result,
               (unsigned long long)d->null_moves, (unsigned long long)d->in_errors);
    if (!run.json && losses.entries) print_losses(&losses, run.write_path);
    if (!run.json) putchar('\n');
#undef USAGE
done:
    free(files);
    free(kinds);
    return status;
}
