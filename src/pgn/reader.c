/* SPDX-License-Identifier: MIT */
/* The streaming PGN reader (pgn.h): a byte-level state machine that can stop and resume at any
 * byte, so input may come in pieces of any size, and memory stays bounded whatever the input.
 * Tokens are resolved with the library's SAN reader (no move generation) and made with
 * copy-make; a ply is handed to the visitor when the next token shows that no comment of its
 * own follows (its evaluation and clock come in that comment). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dirfill.h"
#include "backend.h"
#include "chess/make_move.h"
#include "scalar/byte_search.h"
#include "eval_clock.h"
#include "internal.h"

/* Where the scanner stands. */
enum {
    ST_OUT,          /* between games */
    ST_TAGS,         /* a game's tag section, between tag pairs */
    ST_TAG_NAME,     /* after '[' */
    ST_TAG_PRE,      /* after the name, before the value's '"' */
    ST_TAG_VALUE,    /* in the value */
    ST_TAG_ESCAPE,   /* after a '\' in the value */
    ST_TAG_POST,     /* after the value, before ']' */
    ST_TAG_JUNK,     /* a malformed tag pair: skipped to ']' or the end of the line */
    ST_MOVES,        /* movetext, between tokens */
    ST_TOKEN,        /* in a movetext token */
    ST_COMMENT,      /* in {...} of the main line */
    ST_LINE_COMMENT, /* ; to the end of the line, or a % escape line */
    ST_VARIATION,    /* in (...), depth r->depth */
    ST_VAR_COMMENT,  /* in {...} inside a variation */
    ST_BINARY        /* a game that is not PGN text: lines skipped to a tag's '[' and letter */
};

/* Where the comment scanner stands with respect to a [%...] command (eval_clock.h). */
enum df__command_state {
    CMD_NONE,    /* comment text */
    CMD_BRACKET, /* after a '[' */
    CMD_TEXT     /* after "[%": the command's text is captured */
};

/* A UTF-8 byte order mark, skipped at the input's start and at a line's start between games.
 * The reader's bom counts its bytes matched so far; BOM_SETTLED: none is looked for. */
static const char df__bom[3] = {'\xef', '\xbb', '\xbf'};
enum { BOM_SETTLED = sizeof df__bom };

struct df_pgn_reader {
    unsigned flags;
    int state, after_line; /* after_line: where a line comment returns */
    uint64_t offset, line; /* offset of feed_base (during a feed), line of the next byte */
    const char *feed_base; /* the feed's first byte: offsets are counted from it */
    bool line_start;       /* the next byte starts a line */
    bool stopped;
    uint8_t bom;                /* bytes of a UTF-8 byte order mark matched, or BOM_SETTLED */
    bool bracket_at_line_start; /* a comment or variation line began with '[' */
    df_pgn_stats stats;
    uint64_t next_game;

    /* The token in progress. */
    char tok[DF_PGN_TOKEN_MAX + 1];
    uint32_t tok_len;
    bool tok_long;
    uint64_t tok_line, tok_offset;

    /* The game's tags: names and values in the arena, and the line each starts on. */
    char arena[DF_PGN_TAG_BYTES];
    uint32_t arena_used, tag_start, name_len;
    df_pgn_tag tags[DF_PGN_TAGS_MAX];
    uint64_t tag_line[DF_PGN_TAGS_MAX];
    bool tags_full;
    /* Newlines since the section's last tag: a '[' after a blank line may start a new game,
     * known once its name is read (tag_name_done); where that '[' stood. */
    uint32_t tag_newlines;
    bool maybe_new_game;
    uint64_t bracket_offset, bracket_line;

    enum df__command_state cmd_state; /* a [%...] command in a comment */
    char cmd[48];
    uint32_t cmd_len;
    /* A comment read in the comment state: its first bytes, for a referee's evaluation at its
     * start (df__pgn_engine_comment), until lead_done. */
    char lead[DF__ENGINE_COMMENT_MAX];
    uint32_t lead_len;
    bool lead_done;
    uint64_t comment_start; /* the offset of its first byte */
    uint32_t depth;         /* variation depth */
    uint64_t open_line;     /* line of the '(' or '{' the scanner is inside of */

    /* The game. */
    bool open, in_movetext, replay, skipping, filtered;
    bool not_text; /* the game's error says it is not PGN text */
    bool skim;     /* the movetext is only scanned for the game's end (filtered, header-only) */
    df_pgn_game game;
    df_board board;
    char error[192], skipped[96], warning[160];
    const df_pgn_filter *filter; /* kept by a reset */
    df_board start_position[2];  /* the standard start, parsed once: [chess960] */
    bool start_parsed[2];

    /* The ply waiting for its comment. */
    bool pending;
    df_pgn_ply ply;
    df_board before;
    char san[DF_PGN_TOKEN_MAX + 1];
};

df_pgn_reader *df_pgn_reader_new(void)
{
    df_pgn_reader *r = malloc(sizeof *r);
    if (r) {
        r->filter = NULL;
        r->start_parsed[0] = r->start_parsed[1] = false;
        df_pgn_reader_reset(r, DF_PGN_STANDARD, 0, 1, 0);
    }
    return r;
}

void df_pgn_reader_free(df_pgn_reader *r) { free(r); }

void df_pgn_reader_reset(df_pgn_reader *r, unsigned flags, uint64_t first_game, uint64_t first_line,
                         uint64_t first_offset)
{
    memset(r, 0, offsetof(df_pgn_reader, tok));
    r->flags = flags;
    r->state = ST_OUT;
    r->line = first_line ? first_line : 1;
    r->offset = first_offset;
    r->line_start = true;
    r->next_game = first_game;
    r->open = r->pending = r->skim = false;
    r->tok_len = 0;
    r->depth = 0;
    r->cmd_state = CMD_NONE;
    /* A byte order mark is looked for at the input's start, not in a piece of its middle. */
    r->bom = first_offset == 0 ? 0 : BOM_SETTLED;
}

void df_pgn_reader_set_filter(df_pgn_reader *r, const df_pgn_filter *f) { r->filter = f; }

df_pgn_stats df_pgn_reader_stats(const df_pgn_reader *r) { return r->stats; }

uint64_t df__pgn_next_game(const df_pgn_reader *r) { return r->next_game; }

uint64_t df__pgn_line(const df_pgn_reader *r) { return r->line; }

void df__pgn_set_next_game(df_pgn_reader *r, uint64_t next) { r->next_game = next; }

bool df__pgn_cut_ok(const df_pgn_reader *r)
{
    if (!r->line_start) return false;
    switch (r->state) {
    case ST_OUT:
    case ST_MOVES:
    case ST_VARIATION:
    case ST_VAR_COMMENT:
    case ST_BINARY:
        return true;
    case ST_COMMENT:
        return r->cmd_state != CMD_TEXT; /* a '[' inside a [%...] command is its text */
    default:
        return false; /* a tag section: '[' is another tag of the same game */
    }
}

bool df_pgn_reader_between_games(const df_pgn_reader *r) { return !r->open && r->state == ST_OUT; }

/* ---- the game ---- */

/* The first error of the game stops its replay; the rest of it is only scanned. */
static void game_error(df_pgn_reader *r, uint64_t line, const char *fmt, ...)
{
    if (r->game.error) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->error, sizeof r->error, fmt, ap);
    va_end(ap);
    r->game.error = r->error;
    r->game.error_line = line;
    r->skipping = true;
}

/* The error of token t[0, n): which ply, which token, why. */
static void not_text(df_pgn_reader *r, uint64_t line, char c, bool skip_lines);
static const char *control_in(const char *t, uint32_t n);

static void token_error(df_pgn_reader *r, const char *t, uint32_t n, const char *why)
{
    const char *control = control_in(t, n);
    if (control)
        not_text(r, r->tok_line, *control, false);
    else
        game_error(r, r->tok_line, "ply %u \"%.*s\": %s", r->game.plies + 1, (int)n, t, why);
}

/* Whether c is a control byte that no text holds: C0 but white space and the Ctrl-Z that ends
 * old DOS files. UTF-8 and Latin-1 bytes are text. */
static bool is_control(char c)
{
    const unsigned char u = (unsigned char)c;
    return u < 0x20 && !(u >= '\t' && u <= '\r') && u != 0x1a;
}

/* The first control byte of t[0, n), or NULL. */
static const char *control_in(const char *t, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (is_control(t[i])) return t + i;
    return NULL;
}

/* A control byte c stood where a game's first token, a tag name or a tag's punctuation was
 * wanted, or in a bad token: the game is not PGN text (a binary file, a compressed one without
 * its extension, UTF-16), which its error says whatever it said before. Where that is read the
 * same way in every mode (the start of a game or of its movetext, its tag section), the rest of
 * the game is passed over to a line that starts a tag (skip_lines): a binary file is a game or a
 * few, not one per '[' in it. A bad token is found only where moves are read, so it changes the
 * message alone, and a header-only read (df_pgn_find_cuts) ends every game where a full read
 * ends it. */
static void not_text(df_pgn_reader *r, uint64_t line, char c, bool skip_lines)
{
    snprintf(r->error, sizeof r->error, "not PGN text: control byte 0x%02x",
             (unsigned)(unsigned char)c);
    r->game.error = r->error;
    r->game.error_line = line;
    r->skipping = r->not_text = true;
    if (skip_lines) r->state = ST_BINARY;
}

/* A game begins with the byte at offset. */
static void game_open(df_pgn_reader *r, uint64_t offset)
{
    memset(&r->game, 0, sizeof r->game);
    r->game.index = r->next_game++;
    r->game.line = r->line;
    r->game.offset = offset;
    r->game.tags = r->tags;
    r->open = true;
    r->in_movetext = r->skipping = r->pending = r->filtered = r->maybe_new_game = r->skim = false;
    r->not_text = false;
    r->replay = !(r->flags & DF_PGN_LEX_ONLY);
    r->arena_used = 0;
    r->tags_full = false;
    r->tag_newlines = 0;
    r->depth = 0;
    r->tok_line = r->line; /* the last token's line, for an error at the game's end */
}

static bool value_is(const char *v, uint32_t n, const char *want)
{
    if (n != strlen(want)) return false;
    for (uint32_t i = 0; i < n; i++) {
        char c = v[i];
        if (c >= 'A' && c <= 'Z') c = (char)(c + 32);
        if (c != want[i]) return false;
    }
    return true;
}

/* The Variant tag's values read as chess (the case ignored), as other programs write them:
 * lichess "From Position", python-chess "chess" and "fischerrandom". */
static const char *const df__standard_names[] = {"standard", "normal", "chess", "from position",
                                                 NULL};
static const char *const df__chess960_names[] = {"chess960",      "chess 960",      "fischerandom",
                                                 "fischerrandom", "fischer random", NULL};

static bool value_in(const char *v, uint32_t n, const char *const *names)
{
    while (*names && !value_is(v, n, *names)) names++;
    return *names != NULL;
}

/* The tags are read: the variant, the start position, then the visitor's begin. */
static void tags_done(df_pgn_reader *r, const df_pgn_visitor *v)
{
    r->in_movetext = true;
    df_pgn_game *g = &r->game;
    /* The filter first: a game it rejects is not validated at all. */
    if (r->filter && !df_pgn_filter_matches(r->filter, g)) {
        r->filtered = r->skim = true;
        r->replay = false;
        return;
    }
    const int variant_tag = df__pgn_tag_index(g, "Variant", 7);
    const char *variant = variant_tag < 0 ? NULL : g->tags[variant_tag].value;
    uint32_t vlen = variant_tag < 0 ? 0 : g->tags[variant_tag].value_len, flen = 0;
    g->chess960 = (r->flags & DF_PGN_CHESS960) != 0;
    if (variant && vlen) {
        if (value_in(variant, vlen, df__chess960_names))
            g->chess960 = true;
        else if (!value_in(variant, vlen, df__standard_names)) {
            snprintf(r->skipped, sizeof r->skipped, "variant %.*s", (int)(vlen > 64 ? 64 : vlen),
                     variant);
            g->skipped = r->skipped;
            r->replay = false;
        }
    }
    const int fen_tag = df__pgn_tag_index(g, "FEN", 3);
    const char *fen = fen_tag < 0 ? NULL : g->tags[fen_tag].value;
    const uint64_t fen_line = fen_tag < 0 ? g->line : r->tag_line[fen_tag];
    flen = fen_tag < 0 ? 0 : g->tags[fen_tag].value_len;
    const df_fen_flags flags = g->chess960 ? DF_FEN_CHESS960 : DF_FEN_STANDARD;
    df_fen_error err;
    if (!fen) {
        if (!r->start_parsed[g->chess960])
            df_fen_parse(&r->start_position[g->chess960], DF_FEN_START, sizeof DF_FEN_START - 1,
                         flags, NULL);
        r->start_parsed[g->chess960] = true;
        g->start = r->start_position[g->chess960];
    } else if (df_fen_parse(&g->start, fen, flen, flags, &err) != DF_OK) {
        df_fen_parse(&g->start, DF_FEN_START, sizeof DF_FEN_START - 1, flags, NULL);
        if (!g->skipped) game_error(r, fen_line, "bad FEN tag: %s", err.message);
    } else if (!df_board_playable(&g->start) && !g->skipped) {
        game_error(r, fen_line, "bad FEN tag: the side not to move is in check");
    }
    r->board = g->start;
    g->board = g->start;
    if (v && v->begin) {
        const df_pgn_action a = v->begin(v->ctx, g);
        if (a == DF_PGN_SKIP) r->replay = false;
        if (a == DF_PGN_STOP) r->stopped = true;
    }
    if (r->flags & DF_PGN_HEADERS_ONLY) r->replay = false, r->skim = true;
}

static void emit_pending(df_pgn_reader *r, const df_pgn_visitor *v)
{
    if (!r->pending) return;
    r->pending = false;
    if (v && v->ply) v->ply(v->ctx, &r->game, &r->ply);
}

static void game_close(df_pgn_reader *r, const df_pgn_visitor *v, uint64_t end_offset)
{
    if (!r->in_movetext) tags_done(r, v);
    r->open = false;
    r->stats.games++;
    if (r->filtered) { /* numbered, counted, unseen */
        r->stats.filtered++;
        return;
    }
    emit_pending(r, v);
    df_pgn_game *g = &r->game;
    g->end_offset = end_offset;
    g->end_line = r->line;
    g->board = r->board;
    r->stats.skipped += g->skipped != NULL;
    r->stats.errors += g->error && !g->skipped;
    r->stats.kept += !g->error && !g->skipped;
    r->stats.plies += g->plies;
    if (v && v->end && v->end(v->ctx, g) == DF_PGN_STOP) r->stopped = true;
}

/* ---- tokens ---- */

/* Whether the n bytes of t are all digits / all '!' or '?'. */
static bool all_digits(const char *t, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (t[i] < '0' || t[i] > '9') return false;
    return n > 0;
}

static bool all_annotation(const char *t, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (t[i] != '!' && t[i] != '?') return false;
    return n > 0;
}

static bool is_result(const char *t, uint32_t n, df_result *out)
{
    if (n == 3 && !memcmp(t, "1-0", 3)) return *out = DF_RESULT_WHITE_WINS, true;
    if (n == 3 && !memcmp(t, "0-1", 3)) return *out = DF_RESULT_BLACK_WINS, true;
    if (n == 7 && !memcmp(t, "1/2-1/2", 7)) return *out = DF_RESULT_DRAW, true;
    if (n == 1 && t[0] == '*') return *out = DF_RESULT_NONE, true;
    return false;
}

/* A token of n <= DF_PGN_TOKEN_MAX bytes copied with two overlapping moves of 16, 8 or 4
 * bytes, each within the token: a SAN is a few bytes, shorter than a call to memcpy. */
static inline void copy_token(char *dst, const char *src, uint32_t n)
{
    if (n >= 16) {
        memcpy(dst, src, 16);
        memcpy(dst + n - 16, src + n - 16, 16);
    } else if (n >= 8) {
        memcpy(dst, src, 8);
        memcpy(dst + n - 8, src + n - 8, 8);
    } else if (n >= 4) {
        memcpy(dst, src, 4);
        memcpy(dst + n - 4, src + n - 4, 4);
    } else {
        for (uint32_t i = 0; i < n; i++) dst[i] = src[i];
    }
}

/* Whether c can start a SAN move other than a null move: a file (a pawn's move) or a piece's
 * or castling's capital. No other token does — a result, a NAG, a move number, an annotation,
 * "--" or "Z0" — so most tokens, moves, go straight to the move's resolution. */
static inline bool san_move_start(char c)
{
    enum {
        CAPITALS = 1 << ('N' - 'A') | 1 << ('B' - 'A') | 1 << ('R' - 'A') | 1 << ('Q' - 'A') |
                   1 << ('K' - 'A') | 1 << ('O' - 'A')
    };
    const unsigned file = (unsigned)(unsigned char)c - 'a',
                   capital = (unsigned)(unsigned char)c - 'A';
    return file < 8 || (capital < 26 && (CAPITALS >> capital & 1));
}

static void token_done(df_pgn_reader *r, const df_pgn_visitor *v, const char *t, uint32_t n,
                       bool long_token);

/* A main-line token that san_move_start does not take for a move, or any token of skimmed
 * movetext: returns true when it is dealt with (a result, a NAG, a move number, an annotation,
 * an error), else false with *null_move saying whether it is "--" or "Z0". */
static bool token_not_a_move(df_pgn_reader *r, const df_pgn_visitor *v, const char *t, uint32_t n,
                             bool long_token, bool *null_move)
{
    df_result result;
    if (!long_token && is_result(t, n, &result)) {
        r->game.result = result;
        r->game.has_result = true;
        game_close(r, v, r->tok_offset + n);
        r->state = ST_OUT;
        return true;
    }
    /* Skimmed movetext (filtered, header-only) is only looked at for the game's end: the few
     * tokens the skimmer hands over (one cut by the end of a piece of input, say) are neither
     * counted nor checked, so what a game says does not depend on where its input was cut. */
    if (r->skim) return true;
    if (long_token) {
        token_error(r, t, DF_PGN_TOKEN_MAX, "token longer than 32 bytes");
        return true;
    }
    if (t[0] == '$') {
        /* A NAG ends before the first byte after the '$' that is not a digit (PGN 8.2.4):
         * "$1Nc6" is two tokens. */
        uint32_t d = 1;
        while (d < n && (unsigned)(t[d] - '0') < 10) d++;
        if (d == 1) {
            token_error(r, t, n, "a NAG is '$' and digits");
        } else if (d < n) {
            r->tok_offset += d;
            token_done(r, v, t + d, n - d, false);
        }
        return true;
    }
    if (all_digits(t, n) || all_annotation(t, n)) return true;
    /* A null move takes annotation suffixes like any move: --? Z0! */
    uint32_t core = n;
    while (core > 2 && (t[core - 1] == '!' || t[core - 1] == '?')) core--;
    *null_move = (core == 2 && (!memcmp(t, "--", 2) || !memcmp(t, "Z0", 2)));
    return false;
}

/* A complete main-line token t[0, n) (in the input, or copied to r->tok when it spanned two
 * feeds); longer than DF_PGN_TOKEN_MAX when `long_token`. */
static void token_done(df_pgn_reader *r, const df_pgn_visitor *v, const char *t, uint32_t n,
                       bool long_token)
{
    r->tok_len = 0;
    bool null_move = false;
    if ((long_token || r->skim || !san_move_start(t[0])) &&
        token_not_a_move(r, v, t, n, long_token, &null_move))
        return;
    if (r->game.plies == DF_PGN_PLIES_MAX) {
        token_error(r, t, n, "more plies than a game can have (DF_PGN_PLIES_MAX)");
        return;
    }
    if (!r->replay || r->skipping) {
        /* After an error, a token of control bytes says what the game is. */
        const char *control = r->skipping && !r->not_text ? control_in(t, n) : NULL;
        if (control) not_text(r, r->tok_line, *control, false);
        r->game.plies++;
        return;
    }
    df_move m = DF_MOVE_NONE;
    if (null_move) {
        if (df_checkers(&r->board)) {
            token_error(r, t, n, "a null move while in check");
            return;
        }
    } else if (df_move_from_san(&m, &r->board, t, n) != DF_OK) {
        char why[48];
        snprintf(why, sizeof why, "%s move", df_move_from_san_error(&r->board, t, n));
        token_error(r, t, n, why);
        return;
    }
    /* The ply and its comments' commands are kept only for a visitor that takes plies: a
     * summary of a file (validation alone) skips reading every [%eval] and [%clk]. */
    if (v && v->ply) {
        emit_pending(r, v);
        r->before = r->board;
        copy_token(r->san, t, n);
        r->ply = (df_pgn_ply){.before = &r->before,
                              .move = m,
                              .ply = r->game.plies,
                              .san = r->san,
                              .san_len = n,
                              .line = r->tok_line};
        r->pending = true;
    }
    if (null_move)
        df_make_null_move(&r->board, &r->board);
    else
        df__make_move(&r->board, &r->board, m, true);
    r->game.plies++;
}

/* ---- tags ---- */

static void tag_begin(df_pgn_reader *r)
{
    r->tag_start = r->arena_used;
    r->name_len = 0;
    r->bracket_line = r->line;
}

static void tag_put(df_pgn_reader *r, char c)
{
    if (r->arena_used < DF_PGN_TAG_BYTES)
        r->arena[r->arena_used++] = c;
    else
        r->tags_full = true;
}

/* tag_put of n bytes at once. */
static void tag_put_bytes(df_pgn_reader *r, const char *p, size_t n)
{
    const size_t room = DF_PGN_TAG_BYTES - r->arena_used;
    memcpy(r->arena + r->arena_used, p, n < room ? n : room);
    r->arena_used += (uint32_t)(n < room ? n : room);
    r->tags_full |= n > room;
}

static void tag_end(df_pgn_reader *r)
{
    df_pgn_game *g = &r->game;
    if (r->tags_full || g->ntags == DF_PGN_TAGS_MAX) {
        game_error(r, r->line, "tags too long (more than %d pairs or %d bytes)", DF_PGN_TAGS_MAX,
                   DF_PGN_TAG_BYTES);
        r->arena_used = r->tag_start;
        return;
    }
    r->tag_newlines = 0;
    /* A name repeated in one section: the first value stays (no reader of the game sees two),
     * and the game says so. */
    const char *name = r->arena + r->tag_start;
    if (df__pgn_tag_index(g, name, r->name_len) >= 0) {
        if (!g->warning) {
            snprintf(r->warning, sizeof r->warning,
                     "tag %.*s repeated at line %llu: the first value is kept",
                     (int)(r->name_len > 64 ? 64 : r->name_len), name,
                     (unsigned long long)r->bracket_line);
            g->warning = r->warning;
        }
        r->arena_used = r->tag_start;
        return;
    }
    r->tag_line[g->ntags] = r->bracket_line;
    df_pgn_tag *t = &r->tags[g->ntags++];
    t->name = name;
    t->name_len = r->name_len;
    t->value = t->name + r->name_len;
    t->value_len = r->arena_used - r->tag_start - r->name_len;
}

static const char *const df__roster[] = {"Event", "Site",  "Date",  "Round",
                                         "White", "Black", "Result"};

/* A tag's name is read. When its '[' followed a blank line in the section, the tag begins a
 * new game if the section is complete (the seven roster tags) or already has that name (a
 * game of tags and no moves, then the next game): the open game ends before the '[', and the
 * name moves to the new game's arena. */
static void tag_name_done(df_pgn_reader *r, const df_pgn_visitor *v)
{
    if (!r->maybe_new_game) return;
    r->maybe_new_game = false;
    const df_pgn_game *g = &r->game;
    bool split = df__pgn_tag_index(g, r->arena + r->tag_start, r->name_len) >= 0;
    size_t roster = 0;
    while (!split && roster < sizeof df__roster / sizeof df__roster[0] &&
           df__pgn_tag_index(g, df__roster[roster], strlen(df__roster[roster])) >= 0)
        roster++;
    if (!split && roster < sizeof df__roster / sizeof df__roster[0]) return;
    const uint32_t start = r->tag_start, n = r->name_len;
    const uint64_t line = r->line, bracket_line = r->bracket_line;
    r->line = bracket_line; /* the new game's first line */
    game_close(r, v, r->bracket_offset);
    if (r->stopped) return;
    game_open(r, r->bracket_offset);
    r->line = line;
    memmove(r->arena, r->arena + start, n);
    r->arena_used = n;
    r->tag_start = 0;
    r->name_len = n;
    r->bracket_line = bracket_line;
}

/* ---- the scanner ---- */

/* Byte classes: what a byte does between tokens. Every byte not named here (letters, digits,
 * - + # = / ! ? : and any other byte, junk included) continues a movetext token. */
enum {
    C_TOKEN,
    C_SPACE,
    C_NEWLINE,
    C_DOT,
    C_LBRACE,
    C_RBRACE,
    C_LPAREN,
    C_RPAREN,
    C_LBRACKET,
    C_RBRACKET,
    C_SEMI,
    C_DOLLAR,
    C_STAR
};
static const unsigned char df__class[256] = {
    [' '] = C_SPACE,    ['\t'] = C_SPACE,   ['\r'] = C_SPACE, ['\f'] = C_SPACE,
    ['\v'] = C_SPACE,   ['\n'] = C_NEWLINE, ['.'] = C_DOT,    ['{'] = C_LBRACE,
    ['}'] = C_RBRACE,   ['('] = C_LPAREN,   [')'] = C_RPAREN, ['['] = C_LBRACKET,
    [']'] = C_RBRACKET, [';'] = C_SEMI,     ['$'] = C_DOLLAR, ['*'] = C_STAR};

static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

static bool is_blank(char c) { return df__class[(unsigned char)c] == C_SPACE; }

/* The stream offset of p during a feed. */
static uint64_t offset_of(const df_pgn_reader *r, const char *p)
{
    return r->offset + (uint64_t)(p - r->feed_base);
}

/* Starts a new game at the '[' at offset (the byte after it is scanned next, as the tag's
 * name). */
static void new_game_at_bracket(df_pgn_reader *r, const df_pgn_visitor *v, uint64_t offset)
{
    if (r->open) game_close(r, v, offset);
    if (r->stopped) return;
    game_open(r, offset);
    tag_begin(r);
    r->state = ST_TAG_NAME;
}

/* A '[' at offset began a line inside an unclosed comment or variation and a letter, the name
 * of a tag, follows: the game was cut short (said so, if it is open), and a new one starts. */
static void recover(df_pgn_reader *r, const df_pgn_visitor *v, const char *what, uint64_t offset)
{
    if (r->open)
        game_error(r, r->open_line, "unclosed %s: a new game starts at line %llu", what,
                   (unsigned long long)r->line);
    new_game_at_bracket(r, v, offset);
}

/* The main-line token [p, q), whole in this piece of input. */
static void token_at(df_pgn_reader *r, const df_pgn_visitor *v, const char *p, const char *q)
{
    const size_t n = (size_t)(q - p);
    r->tok_line = r->line;
    r->tok_offset = offset_of(r, p);
    r->line_start = false;
    token_done(r, v, p, (uint32_t)(n < DF_PGN_TOKEN_MAX + 1 ? n : DF_PGN_TOKEN_MAX),
               n > DF_PGN_TOKEN_MAX);
}

/* A whole tag pair after its '[' — a name, blanks, a quoted value without '\\' or a newline,
 * blanks, ']' — in this piece of input, as the tag states would read it a byte a round: returns
 * the byte after the ']', or NULL (nothing read) when p does not start one, which leaves every
 * other case (an escape, a pair cut by the end of the input, an error) to the states. */
static const char *tag_pair(df_pgn_reader *r, const df_pgn_visitor *v, const char *p,
                            const char *end)
{
    const char *name_end = p;
    while (name_end < end && is_name_char(*name_end)) name_end++;
    const char *q = name_end;
    while (q < end && is_blank(*q)) q++;
    if (name_end == p || q == name_end || q == end || *q != '"') return NULL;
    const char *value = q + 1, *value_end = df__find3(value, end, '"', '\\', '\n');
    if (value_end == end || *value_end != '"') return NULL;
    q = value_end + 1;
    while (q < end && is_blank(*q)) q++;
    if (q == end || *q != ']') return NULL;
    tag_put_bytes(r, p, (size_t)(name_end - p));
    r->name_len += (uint32_t)(name_end - p);
    tag_name_done(r, v);
    if (r->stopped) return name_end;
    tag_put_bytes(r, value, (size_t)(value_end - value));
    tag_end(r);
    r->state = ST_TAGS;
    r->line_start = false;
    return q + 1;
}

/* ---- skimming: movetext that is not read ---- */

/* Movetext of a game that is not read (filtered out, or header-only reading), from a place
 * between tokens: only what can end the game or change the scanner's state stops it — a
 * comment, a variation, a line comment, a tag, a '%' line, a result — and newlines are
 * counted. Returns where the scanner goes on (it reads that byte as it always does), or end. */
static const char *skim_moves(df_pgn_reader *r, const char *p, const char *end)
{
    const char *const floor = p; /* a token found below starts here at the earliest */
    const bool floor_line_start = r->line_start;
    for (;;) {
        /* Whole 64-byte blocks, on the backend's vectors (pgn/skim_tpl.h). */
        if (end - p >= 64)
            p += df__backend_active()->pgn_skim(
                p, end, p > floor ? p[-1] == '\n' : floor_line_start, &r->line);
        if (p < end && (p > floor ? p[-1] == '\n' : floor_line_start) && *p == '%') break;
        const char *q = p == end ? end : df__find_skim(p, end);
        if (q == end) {
            /* A token at the end of this piece of input may go on in the next, a '-' in it:
             * the scanner reads it from its start. */
            while (q > floor && df__class[(unsigned char)q[-1]] == C_TOKEN) q--;
            if (q > floor && q[-1] == '$') q--;
            p = q;
            break;
        }
        if (*q == '\n') {
            r->line++;
            p = q + 1;
            continue;
        }
        if (*q == '{') {
            /* A comment that closes on its line: passed over here (see skim_comment). */
            const char *close = df__find3(q + 1, end, '}', '\n', '\n');
            p = q;
            if (close == end || *close != '}') break;
            p = close + 1;
            continue;
        }
        p = q;
        if (*q != '-') break;
        /* A '-': the token around it, unless it is a result, is passed over. */
        const char *t0 = q, *t1 = q + 1;
        while (t0 > floor && df__class[(unsigned char)t0[-1]] == C_TOKEN) t0--;
        if (t0 > floor && t0[-1] == '$') t0--; /* a NAG's '$' begins its token */
        while (t1 < end && df__class[(unsigned char)*t1] == C_TOKEN) t1++;
        df_result result;
        p = t0;
        if (t1 == end || is_result(t0, (uint32_t)(t1 - t0), &result)) break;
        p = t1;
    }
    /* The last byte passed over says whether the scanner stands at a line start. */
    r->line_start = p > floor ? p[-1] == '\n' : floor_line_start;
    return p;
}

/* A comment of a game that is not read: to its '}', newlines counted, a [%...] command passed
 * over when it closes on its line within the bytes the reader keeps of one. What the scanner
 * treats in a way of its own is left to it (it reads that byte next): a '[' that starts a line
 * (the recovery rule), a command that does not close so (a newline or a '[' may be its text). */
static const char *skim_comment(df_pgn_reader *r, const char *p, const char *end)
{
    /* A comment that closes before its line ends is passed over whole: with no line start in
     * it the recovery rule cannot apply, and its commands end with it. */
    if (p < end && !(r->line_start && *p == '[')) {
        const char *q = df__find3(p, end, '}', '\n', '\n');
        if (q < end && *q == '}') {
            /* Even with no text before it (this piece may start at the '}', after the
             * comment's newline): a '%' after it starts no escape line. */
            r->line_start = false;
            r->state = ST_MOVES;
            return q + 1;
        }
    }
    while (p < end && !(r->line_start && *p == '[')) {
        const char *q = df__find3(p, end, '}', '\n', '[');
        if (q > p) r->line_start = false;
        if (q == end) return end;
        if (*q == '[') {
            if (q + 1 == end) return q;
            if (q[1] == '%') {
                const char *limit =
                    end - q - 2 > (ptrdiff_t)sizeof r->cmd ? q + 2 + sizeof r->cmd : end;
                const char *close = df__find3(q + 2, limit, ']', '}', '\n');
                if (close == limit || *close != ']') return q;
                q = close;
            }
            r->line_start = false;
            p = q + 1;
            continue;
        }
        r->line_start = *q == '\n';
        if (*q == '}') {
            r->state = ST_MOVES;
            return q + 1;
        }
        r->line++;
        p = q + 1;
    }
    return p;
}

/* Whether a comment's first byte may start a referee's evaluation: a sign or a digit. Most
 * comments (lichess's "{ [%eval") are passed over on it. */
static inline bool may_be_engine(const df_pgn_reader *r, char c)
{
    return r->pending && r->ply.eval_kind == DF_PGN_EVAL_NONE &&
           (c == '+' || c == '-' || (unsigned)(c - '0') < 10);
}

/* The whole comment t[0, len), read at once: a referee's evaluation at its start for the
 * pending ply, when it has none yet (a [%eval] command of the same comment, read after, wins). */
static inline void engine_comment(df_pgn_reader *r, const char *t, size_t len)
{
    if (len && may_be_engine(r, *t)) df__pgn_engine_comment(t, len, true, &r->ply);
}

/* comment_on_line for a comment that closes within the 64 bytes from its '{' at p (end - p >=
 * 64): from the block's bits, with no loop over its bytes and a branch per command rather than
 * a search for each bracket. Returns the byte after its '}', NULL as comment_on_line does, or
 * p when its end is not in the block. */
static const char *comment_in_block(df_pgn_reader *r, const char *p)
{
    const df__comment_bits b = df__comment_block(p);
    const uint64_t ends = b.end & ~UINT64_C(1);
    if (!ends) return p;
    const unsigned close = (unsigned)__builtin_ctzll(ends);
    if (p[close] != '}') return NULL;
    if (!r->pending) return p + close + 1;
    engine_comment(r, p + 1, close - 1);
    const uint64_t inside = ((UINT64_C(1) << close) - 1) & ~UINT64_C(1);
    for (uint64_t opens = b.lbracket & inside; opens;) {
        const unsigned q = (unsigned)__builtin_ctzll(opens); /* q + 1 <= close <= 63 */
        opens &= opens - 1;
        if (p[q + 1] != '%') continue;
        const uint64_t shuts = b.rbracket & inside & ~((UINT64_C(2) << q) - 1);
        if (!shuts) break; /* a command that the '}' cuts: not one */
        const unsigned cmd_end = (unsigned)__builtin_ctzll(shuts);
        if (cmd_end - (q + 2) > sizeof r->cmd) return NULL;
        if (r->pending) df__pgn_read_command(p + q + 2, cmd_end - (q + 2), &r->ply);
        opens &= ~((UINT64_C(1) << cmd_end) - 1);
    }
    return p + close + 1;
}

/* A comment at p (its '{') that closes on its line in this piece of input, read at once: the
 * [%...] commands that close inside it go to the pending ply, as the comment state gives them.
 * Returns the byte after its '}', or NULL when it is not such a comment — a newline in it
 * (where the recovery rule may apply), its end in a later piece, a command longer than the
 * reader keeps — which the comment state then reads from its '{' (a command given twice gives
 * the same values). Most comments of real files are one line, and this spares them two rounds
 * of the state switch. */
static const char *comment_on_line(df_pgn_reader *r, const char *p, const char *end)
{
    if (end - p >= 64) {
        const char *q = comment_in_block(r, p);
        if (q != p) return q;
    }
    const char *close = df__find3(p + 1, end, '}', '\n', '\n');
    if (close == end || *close != '}') return NULL;
    if (!r->pending) return close + 1;
    engine_comment(r, p + 1, (size_t)(close - (p + 1)));
    /* Inline, not memchr: a comment is a few dozen bytes, shorter than a call; the vectors
     * may read on to the end of the piece. */
    for (const char *q = p + 1; (q = df__find3_in(q, close, end, '[', '[', '[')) != close;) {
        if (q + 1 == close || q[1] != '%') {
            q++;
            continue;
        }
        const char *cmd = q + 2, *cmd_end = df__find3_in(cmd, close, end, ']', ']', ']');
        if (cmd_end == close) break; /* a command that the '}' cuts: not one */
        if ((size_t)(cmd_end - cmd) > sizeof r->cmd) return NULL;
        if (r->pending) df__pgn_read_command(cmd, (size_t)(cmd_end - cmd), &r->ply);
        q = cmd_end + 1;
    }
    return close + 1;
}

/* The byte c at p was consumed (the line counts follow it): the next one is p + 1. */
static inline const char *consumed(df_pgn_reader *r, const char *p, char c)
{
    r->line_start = c == '\n';
    r->line += c == '\n';
    return p + 1;
}

/* Each scan_* function below reads a run of bytes in one state and returns where the next
 * round starts: after the byte that changed the state (consumed), or at a byte the next state
 * must see again. r->line counts the newlines consumed, r->line_start says whether the last
 * byte consumed was one. */

/* Between games, in a tag section between tag pairs, and in movetext between tokens: white
 * space and the main line's tokens, fast. Runs of them are read here, each token where it
 * stands, without a round of the scanner each. */
static const char *scan_between_tokens(df_pgn_reader *r, const char *p, const char *end,
                                       const df_pgn_visitor *v)
{
    bool line_start = r->line_start;
    char c = *p;
    int cls = df__class[(unsigned char)c];
    for (;;) {
        if (cls == C_SPACE || cls == C_NEWLINE || cls == C_DOT) {
            const char *q = p;
            const uint64_t line = r->line;
            for (; q < end; q++) {
                cls = df__class[(unsigned char)*q];
                if (cls == C_NEWLINE)
                    r->line++;
                else if (cls != C_SPACE && cls != C_DOT)
                    break;
            }
            if (q > p) r->line_start = q[-1] == '\n';
            if (r->state == ST_TAGS) r->tag_newlines += (uint32_t)(r->line - line);
            p = q;
            if (p == end || r->state != ST_MOVES || r->skim) return p;
            c = *p;
            line_start = r->line_start;
        }
        if (cls == C_LBRACE && r->state == ST_MOVES && !r->skim) {
            const char *q = comment_on_line(r, p, end);
            if (!q) break; /* for the comment state */
            r->line_start = false;
            p = q;
            if (p == end) return p;
            c = *p;
            line_start = false;
            cls = df__class[(unsigned char)c];
            continue;
        }
        if (r->state != ST_MOVES || cls != C_TOKEN || (c == '%' && line_start)) break;
        const char *q = p + 1;
        while (q < end && df__class[(unsigned char)*q] == C_TOKEN) q++;
        if (q == end) break; /* it may go on in the next piece: read below */
        if (q - p <= DF_PGN_TOKEN_MAX && all_digits(p, (uint32_t)(q - p))) {
            /* A move number: nothing to do (token_done) but to be the last token, whose line
             * a game without its result names, as when it is read in pieces. */
            r->line_start = false;
            r->tok_line = r->line;
        } else {
            token_at(r, v, p, q);
        }
        p = q;
        if (r->state != ST_MOVES || r->stopped) return p;
        c = *p;
        line_start = false;
        cls = df__class[(unsigned char)c];
    }
    if ((c == '%' && line_start) || cls == C_SEMI) {
        r->after_line = r->state;
        r->state = ST_LINE_COMMENT;
        return consumed(r, p, c);
    }
    if (cls == C_LBRACKET) {
        if (r->state == ST_TAGS) {
            tag_begin(r);
            r->maybe_new_game = r->tag_newlines >= 2 && line_start;
            r->bracket_offset = offset_of(r, p);
            r->state = ST_TAG_NAME;
        } else {
            new_game_at_bracket(r, v, offset_of(r, p));
        }
        return consumed(r, p, c);
    }
    if (cls == C_LBRACE && r->state != ST_MOVES) {
        /* A comment between games belongs to none; one between tag pairs (not PGN, but
         * written) leaves the section open: the tags after it are the same game's. */
        r->state = ST_VAR_COMMENT;
        r->depth = 0;
        r->open_line = r->line;
        return consumed(r, p, c);
    }
    if (r->state == ST_OUT && line_start && c == df__bom[0] && r->feed_base != df__bom) {
        /* A byte order mark at a line's start between games: files joined by cat. Its bytes
         * are skipped; when the input's piece ends inside it, the next feed goes on matching it
         * as at the input's start (bom_unmatched reads them as text after all if they are not
         * one, with this test off). */
        size_t k = 1;
        while (k < BOM_SETTLED && p + k < end && p[k] == df__bom[k]) k++;
        if (k == BOM_SETTLED || p + k == end) {
            r->bom = (uint8_t)k;
            return p + k;
        }
    }
    const bool starts = r->state == ST_OUT || !r->in_movetext;
    if (r->state == ST_OUT) game_open(r, offset_of(r, p));
    if (starts && is_control(c)) not_text(r, r->line, c, false);
    if (!r->in_movetext) tags_done(r, v);
    if (r->stopped) return consumed(r, p, c);
    if (starts && is_control(c)) {
        r->state = ST_BINARY;
        return consumed(r, p, c);
    }
    r->state = ST_MOVES;
    if (cls == C_LBRACE) {
        r->state = ST_COMMENT;
        r->cmd_state = CMD_NONE;
        r->open_line = r->line;
        r->lead_len = 0;
        r->lead_done = !(end - p > 1 ? may_be_engine(r, p[1]) : r->pending);
        r->comment_start = offset_of(r, p) + 1;
    } else if (cls == C_LPAREN) {
        r->state = ST_VARIATION;
        r->depth = 1;
        r->open_line = r->line;
    } else if (cls == C_RPAREN || cls == C_RBRACE || cls == C_RBRACKET) {
        r->tok_line = r->line;
        token_error(r, p, 1, cls == C_RPAREN ? "')' without '('" : "unexpected bracket");
    } else {
        /* A token: '*' is one (a result), '$' starts one (a NAG). Read where it stands when
         * it ends in this piece of input (the usual case), else copied. The delimiter after it
         * is scanned again, between tokens. */
        const char *q = p + 1;
        if (cls != C_STAR)
            while (q < end && df__class[(unsigned char)*q] == C_TOKEN) q++;
        if (q == end && cls != C_STAR) {
            const size_t n = (size_t)(q - p);
            r->tok_line = r->line;
            r->tok_offset = offset_of(r, p);
            r->line_start = false;
            r->tok_len = (uint32_t)(n < DF_PGN_TOKEN_MAX ? n : DF_PGN_TOKEN_MAX);
            memcpy(r->tok, p, r->tok_len);
            r->tok_long = n > DF_PGN_TOKEN_MAX;
            r->state = ST_TOKEN;
        } else {
            token_at(r, v, p, q);
        }
        return q;
    }
    return consumed(r, p, c);
}

/* The rest of a token that began in an earlier piece of input; its delimiter is scanned
 * again, between tokens. */
static const char *scan_token_rest(df_pgn_reader *r, const char *p, const char *end,
                                   const df_pgn_visitor *v)
{
    const char *q = p;
    while (q < end && df__class[(unsigned char)*q] == C_TOKEN) q++;
    const size_t n = (size_t)(q - p), room = DF_PGN_TOKEN_MAX - r->tok_len;
    memcpy(r->tok + r->tok_len, p, n < room ? n : room);
    r->tok_len += (uint32_t)(n < room ? n : room);
    r->tok_long |= n > room;
    if (n) r->line_start = false;
    if (q == end) return q;
    r->state = ST_MOVES;
    token_done(r, v, r->tok, r->tok_len, r->tok_long);
    return q;
}

/* A tag pair after its '[': the name, the quoted value with its escapes, the ']'. */
static const char *scan_tag(df_pgn_reader *r, const char *p, const char *end,
                            const df_pgn_visitor *v)
{
    const char c = *p;
    switch (r->state) {
    case ST_TAG_NAME:
        if (r->name_len == 0) {
            const char *q = tag_pair(r, v, p, end);
            if (q) return q;
        }
        if (is_name_char(c)) {
            tag_put(r, c);
            r->name_len++;
            break;
        }
        if (r->name_len) {
            tag_name_done(r, v);
            if (r->stopped) break;
        }
        if (is_blank(c) && r->name_len) {
            r->state = ST_TAG_PRE;
        } else if (is_control(c)) {
            not_text(r, r->line, c, true);
        } else if (!is_blank(c)) {
            game_error(r, r->line, "tag: '%c' in a tag name", c >= 32 && c < 127 ? c : '?');
            r->state = c == '\n' ? ST_TAGS : ST_TAG_JUNK;
        }
        break;
    case ST_TAG_PRE:
        if (c == '"')
            r->state = ST_TAG_VALUE;
        else if (is_control(c))
            not_text(r, r->line, c, true);
        else if (!is_blank(c)) {
            game_error(r, r->line, "tag %.*s: no quoted value", (int)r->name_len,
                       r->arena + r->tag_start);
            r->state = c == '\n' ? ST_TAGS : ST_TAG_JUNK;
        }
        break;
    case ST_TAG_VALUE: {
        /* The value's bytes up to a quote or a backslash, fast. */
        const char *q = p;
        while (q < end && *q != '"' && *q != '\\') {
            r->line += *q == '\n';
            q++;
        }
        const size_t n = (size_t)(q - p);
        tag_put_bytes(r, p, n);
        if (n) r->line_start = q[-1] == '\n';
        if (q == end) return q;
        r->state = *q == '\\' ? ST_TAG_ESCAPE : ST_TAG_POST;
        return consumed(r, q, *q);
    }
    case ST_TAG_ESCAPE:
        /* Only '\\' and '"' are escapes; before anything else the backslash is kept as written
         * (a Windows path in a Source tag). */
        if (c != '"' && c != '\\') tag_put(r, '\\');
        tag_put(r, c);
        r->state = ST_TAG_VALUE;
        break;
    case ST_TAG_POST:
        if (c == ']') {
            tag_end(r);
            r->state = ST_TAGS;
        } else if (is_control(c)) {
            not_text(r, r->line, c, true);
        } else if (!is_blank(c)) {
            game_error(r, r->line, "tag %.*s: no ']' after the value", (int)r->name_len,
                       r->arena + r->tag_start);
            r->state = c == '\n' ? ST_TAGS : ST_TAG_JUNK;
        }
        break;
    default: /* ST_TAG_JUNK */
        if (c == ']' || c == '\n') r->state = ST_TAGS;
        break;
    }
    return consumed(r, p, c);
}

/* A line of a comment or variation that starts with '[' and a letter is a tag: a new game
 * (recover). true when c was that letter, taken as the tag name's first byte. */
static bool bracket_starts_a_game(df_pgn_reader *r, const df_pgn_visitor *v, const char *p,
                                  const char *what)
{
    r->bracket_at_line_start = false;
    if (!is_letter(*p)) return false;
    recover(r, v, what, offset_of(r, p) - 1);
    if (!r->stopped) {
        tag_put(r, *p);
        r->name_len++;
    }
    return true;
}

/* A comment of the main line, {...}: its text in a loop of its own, its [%...] commands
 * captured for the ply before it. A newline, the closing '}' and a '[' at the start of a line
 * are left to the end of the loop (line counts, recovery). */
/* The comment state's first bytes of a comment, from p (the next one to read) on in this
 * piece: kept until the comment closes, a newline (no referee writes one), or enough of them
 * for a referee's evaluation, which is then read from them. Their end may lie ahead of p: the
 * state machine goes back over bytes copied already. */
static void collect_lead(df_pgn_reader *r, const char *p, const char *end)
{
    const uint64_t ahead = r->comment_start + r->lead_len - offset_of(r, p);
    const char *q = p + ahead;
    while (q < end && r->lead_len < sizeof r->lead && *q != '}' && *q != '\n')
        r->lead[r->lead_len++] = *q++;
    if (q < end && *q == '\n') {
        r->lead_done = true;
    } else if (q < end && *q == '}') {
        r->lead_done = true;
        if (r->lead_len && may_be_engine(r, r->lead[0]))
            df__pgn_engine_comment(r->lead, r->lead_len, true, &r->ply);
    } else if (r->lead_len == sizeof r->lead) {
        r->lead_done = true;
        if (may_be_engine(r, r->lead[0]))
            df__pgn_engine_comment(r->lead, r->lead_len, false, &r->ply);
    }
}

static const char *scan_comment(df_pgn_reader *r, const char *p, const char *end,
                                const df_pgn_visitor *v)
{
    bool line_start = r->line_start;
    char c = *p;
    if (!r->lead_done) collect_lead(r, p, end);
    if (r->bracket_at_line_start && bracket_starts_a_game(r, v, p, "comment"))
        return consumed(r, p, c);
    for (;;) {
        if (r->cmd_state == CMD_NONE) {
            /* Comment text up to '}', '[' or a newline, fast. */
            const char *q = df__find3(p, end, '}', '[', '\n');
            if (q > p) r->line_start = line_start = false;
            p = q;
            /* "[%" not at a line start: a command begins (a round of the loop a byte
             * otherwise). */
            if (end - q > 2 && q[0] == '[' && q[1] == '%' && !line_start) {
                r->cmd_state = CMD_TEXT;
                r->cmd_len = 0;
                p = q + 2;
                continue;
            }
        } else if (r->cmd_state == CMD_TEXT) {
            /* A command's text ("eval 0.17") up to ']', '}' or a newline: read where it stands
             * when its ']' is in this piece of input (the usual case). */
            if (r->cmd_len == 0) {
                const char *q = df__find3(p, end, ']', '}', '\n');
                if (q < end && *q == ']' && (size_t)(q - p) <= sizeof r->cmd) {
                    if (r->pending) df__pgn_read_command(p, (size_t)(q - p), &r->ply);
                    r->cmd_state = CMD_NONE;
                    r->line_start = line_start = false;
                    p = q + 1;
                    if (p == end) return p;
                    continue;
                }
            }
            /* Else copied, a byte that does not fit left to the test below. */
            const char *q = p;
            const size_t room = sizeof r->cmd - r->cmd_len;
            while (q < end && (size_t)(q - p) < room && *q != ']' && *q != '}' && *q != '\n') q++;
            memcpy(r->cmd + r->cmd_len, p, (size_t)(q - p));
            r->cmd_len += (uint32_t)(q - p);
            if (q > p) r->line_start = line_start = false;
            p = q;
        }
        if (p == end) return p;
        c = *p;
        if (c == '}') {
            r->state = ST_MOVES;
            return consumed(r, p, c);
        }
        if (r->cmd_state == CMD_TEXT) {
            if (c == ']') {
                if (r->pending) df__pgn_read_command(r->cmd, r->cmd_len, &r->ply);
                r->cmd_state = CMD_NONE;
            } else if (r->cmd_len < sizeof r->cmd) {
                r->cmd[r->cmd_len++] = c;
            } else {
                r->cmd_state = CMD_NONE; /* too long for a command we read */
            }
        } else if (c == '[') {
            r->cmd_state = CMD_BRACKET;
            r->bracket_at_line_start = line_start;
        } else {
            r->cmd_state = r->cmd_state == CMD_BRACKET && c == '%' ? CMD_TEXT : CMD_NONE;
            r->cmd_len = 0;
        }
        if (c == '\n' || r->bracket_at_line_start) return consumed(r, p, c);
        r->line_start = line_start = false; /* c consumed here */
        if (++p == end) return p;
    }
}

/* ';' to the end of the line, or a '%' escape line: skipped to its newline, which is consumed
 * here. */
static const char *scan_line_comment(df_pgn_reader *r, const char *p, const char *end)
{
    const char *q = memchr(p, '\n', (size_t)(end - p));
    if (!q) {
        r->line_start = false;
        return end;
    }
    r->state = r->after_line;
    return consumed(r, q, '\n');
}

/* A variation (...) at depth r->depth, or a comment inside one (or between games, or between
 * tag pairs, at depth 0): skipped a byte at a time, a '[' at a line's start watched for. */
static const char *scan_variation(df_pgn_reader *r, const char *p, const df_pgn_visitor *v)
{
    const bool line_start = r->line_start;
    const char c = *p;
    if (r->bracket_at_line_start &&
        bracket_starts_a_game(r, v, p, r->state == ST_VARIATION ? "variation" : "comment"))
        return consumed(r, p, c);
    if (r->state == ST_VAR_COMMENT) {
        if (c == '}')
            r->state = r->depth         ? ST_VARIATION
                       : !r->open       ? ST_OUT
                       : r->in_movetext ? ST_MOVES
                                        : ST_TAGS;
        else if (c == '[' && line_start)
            r->bracket_at_line_start = true;
    } else if (c == '(') {
        r->depth++;
    } else if (c == ')') {
        if (--r->depth == 0) r->state = ST_MOVES;
    } else if (c == '{') {
        r->state = ST_VAR_COMMENT;
    } else if (c == ';' || (c == '%' && line_start)) { /* as in the main line */
        r->after_line = ST_VARIATION;
        r->state = ST_LINE_COMMENT;
    } else if (c == '[' && line_start) {
        r->bracket_at_line_start = true;
    }
    return consumed(r, p, c);
}

/* A game that is not PGN text: lines passed over whole until one starts with '[' and a letter,
 * which starts a game (the recovery rule's line, where threads may cut the input). */
static const char *scan_binary(df_pgn_reader *r, const char *p, const char *end,
                               const df_pgn_visitor *v)
{
    const char c = *p;
    if (r->bracket_at_line_start && bracket_starts_a_game(r, v, p, "binary"))
        return consumed(r, p, c);
    if (r->line_start && c == '[') {
        r->bracket_at_line_start = true;
        return consumed(r, p, c);
    }
    const char *q = memchr(p, '\n', (size_t)(end - p));
    if (!q) {
        r->line_start = false;
        return end;
    }
    return consumed(r, q, '\n');
}

/* The reader's state machine over [p, end): a round per run of bytes of one state. */
static void scan(df_pgn_reader *r, const char *p, const char *end, const df_pgn_visitor *v)
{
    while (p < end && !r->stopped) {
        if (r->skim) {
            if (r->state == ST_MOVES)
                p = skim_moves(r, p, end);
            else if (r->state == ST_COMMENT && r->cmd_state == CMD_NONE &&
                     !r->bracket_at_line_start)
                p = skim_comment(r, p, end);
            if (p == end) break;
        }
        switch (r->state) {
        case ST_OUT:
        case ST_TAGS:
        case ST_MOVES:
            p = scan_between_tokens(r, p, end, v);
            break;
        case ST_TOKEN:
            p = scan_token_rest(r, p, end, v);
            break;
        case ST_COMMENT:
            p = scan_comment(r, p, end, v);
            break;
        case ST_LINE_COMMENT:
            p = scan_line_comment(r, p, end);
            break;
        case ST_VARIATION:
        case ST_VAR_COMMENT:
            p = scan_variation(r, p, v);
            break;
        case ST_BINARY:
            p = scan_binary(r, p, end, v);
            break;
        default:
            p = scan_tag(r, p, end, v);
            break;
        }
    }
}

/* The n bytes of a byte order mark matched at the input's start were not one after all: they
 * are read as text (they stood at offset r->offset - n). */
static void bom_unmatched(df_pgn_reader *r, const df_pgn_visitor *v, uint8_t n)
{
    r->bom = BOM_SETTLED;
    if (!n) return;
    r->offset -= n;
    r->feed_base = df__bom;
    scan(r, df__bom, df__bom + n, v);
    r->offset += n;
}

df_status df_pgn_feed(df_pgn_reader *r, const char *data, size_t len, const df_pgn_visitor *v)
{
    if (r->stopped) return DF_ERR_INTERRUPTED;
    r->stats.bytes += len;
    size_t skip = 0; /* bytes of a byte order mark at the input's start */
    if (r->bom < BOM_SETTLED) {
        const uint8_t before = r->bom;
        while (r->bom < BOM_SETTLED && skip < len && data[skip] == df__bom[r->bom])
            r->bom++, skip++;
        if (r->bom < BOM_SETTLED && skip < len) { /* not a mark: its bytes are text */
            bom_unmatched(r, v, before);
            skip = 0;
        }
    }
    r->feed_base = data;
    scan(r, data + skip, data + len, v);
    r->offset += len;
    return r->stopped ? DF_ERR_INTERRUPTED : DF_OK;
}

df_status df_pgn_finish(df_pgn_reader *r, const df_pgn_visitor *v)
{
    if (r->stopped) return DF_ERR_INTERRUPTED;
    if (r->bom < BOM_SETTLED) bom_unmatched(r, v, r->bom);
    if (r->state == ST_TOKEN) {
        r->state = ST_MOVES;
        token_done(r, v, r->tok, r->tok_len, r->tok_long);
    }
    if (r->open && !r->stopped) {
        static const char *const where[] = {
            [ST_TAG_NAME] = "a tag",       [ST_TAG_PRE] = "a tag",
            [ST_TAG_VALUE] = "a tag",      [ST_TAG_ESCAPE] = "a tag",
            [ST_TAG_POST] = "a tag",       [ST_TAG_JUNK] = "a tag",
            [ST_COMMENT] = "a comment",    [ST_VARIATION] = "a variation",
            [ST_VAR_COMMENT] = "a comment"};
        const char *inside =
            (size_t)r->state < sizeof where / sizeof where[0] ? where[r->state] : NULL;
        /* The line named is inside the game: the '(' or '{' left open, the last token. */
        const bool opened =
            r->state == ST_COMMENT || r->state == ST_VARIATION || r->state == ST_VAR_COMMENT;
        if (inside)
            game_error(r, opened ? r->open_line : r->line, "the input ends inside %s (truncated)",
                       inside);
        else if (r->state != ST_TAGS) /* tags and no movetext: a game of no moves */
            game_error(r, r->tok_line, "the input ends before the game's result (truncated)");
        game_close(r, v, r->offset);
    }
    r->state = ST_OUT;
    return r->stopped ? DF_ERR_INTERRUPTED : DF_OK;
}
