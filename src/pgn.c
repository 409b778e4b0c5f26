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
#include "make_move.h"
#include "pgn_internal.h"

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
    ST_VAR_COMMENT   /* in {...} inside a variation */
};

struct df_pgn_reader {
    unsigned flags;
    int state, after_line; /* after_line: where a line comment returns */
    uint64_t offset, line; /* of the next byte */
    bool line_start;       /* the next byte starts a line */
    bool stopped;
    bool bracket_at_line_start; /* a comment or variation line began with '[' */
    df_pgn_stats stats;
    uint64_t next_game;

    /* The token in progress. */
    char tok[DF_PGN_TOKEN_MAX + 1];
    uint32_t tok_len;
    bool tok_long;
    uint64_t tok_line, tok_offset;

    /* The game's tags: names and values in the arena. */
    char arena[DF_PGN_TAG_BYTES];
    uint32_t arena_used, tag_start, name_len;
    df_pgn_tag tags[DF_PGN_TAGS_MAX];
    bool tags_full;

    /* A [%...] command in a comment: 0 none, 1 after '[', 2 capturing after "[%". */
    int cmd_state;
    char cmd[48];
    uint32_t cmd_len;
    uint32_t depth; /* variation depth */

    /* The game. */
    bool open, in_movetext, replay, skipping;
    df_pgn_game game;
    df_board board;
    char error[192], skipped[96];

    /* The ply waiting for its comment. */
    bool pending;
    df_pgn_ply ply;
    df_board before;
    char san[DF_PGN_TOKEN_MAX + 1];
};

df_pgn_reader *df_pgn_reader_new(void)
{
    df_pgn_reader *r = malloc(sizeof *r);
    if (r) df_pgn_reader_reset(r, DF_PGN_STANDARD, 0, 1, 0);
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
    r->open = r->pending = false;
    r->tok_len = 0;
    r->depth = 0;
    r->cmd_state = 0;
}

df_pgn_stats df_pgn_reader_stats(const df_pgn_reader *r) { return r->stats; }

uint64_t df__pgn_next_game(const df_pgn_reader *r) { return r->next_game; }

bool df_pgn_reader_between_games(const df_pgn_reader *r) { return !r->open && r->state == ST_OUT; }

const char *df_pgn_tag_value(const df_pgn_game *g, const char *name, uint32_t *len)
{
    const size_t n = strlen(name);
    for (uint32_t i = 0; i < g->ntags; i++)
        if (g->tags[i].name_len == n && !memcmp(g->tags[i].name, name, n)) {
            if (len) *len = g->tags[i].value_len;
            return g->tags[i].value;
        }
    return NULL;
}

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

/* The token's error: which ply, which token, why. */
static void token_error(df_pgn_reader *r, const char *why)
{
    game_error(r, r->tok_line, "ply %u \"%.*s\": %s", r->game.plies + 1, (int)r->tok_len, r->tok,
               why);
}

static void game_open(df_pgn_reader *r)
{
    memset(&r->game, 0, sizeof r->game);
    r->game.index = r->next_game++;
    r->game.line = r->line;
    r->game.offset = r->offset;
    r->game.tags = r->tags;
    r->open = true;
    r->in_movetext = r->skipping = r->pending = false;
    r->replay = !(r->flags & DF_PGN_LEX_ONLY);
    r->arena_used = 0;
    r->tags_full = false;
    r->depth = 0;
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

/* The tags are read: the variant, the start position, then the visitor's begin. */
static void tags_done(df_pgn_reader *r, const df_pgn_visitor *v)
{
    r->in_movetext = true;
    df_pgn_game *g = &r->game;
    uint32_t vlen = 0, flen = 0;
    const char *variant = df_pgn_tag_value(g, "Variant", &vlen);
    g->chess960 = (r->flags & DF_PGN_CHESS960) != 0;
    if (variant) {
        if (value_is(variant, vlen, "chess960") || value_is(variant, vlen, "fischerandom") ||
            value_is(variant, vlen, "chess 960") || value_is(variant, vlen, "fischer random"))
            g->chess960 = true;
        else if (!value_is(variant, vlen, "standard") && !value_is(variant, vlen, "normal") &&
                 !value_is(variant, vlen, "from position") && vlen) {
            snprintf(r->skipped, sizeof r->skipped, "variant %.*s", (int)(vlen > 64 ? 64 : vlen),
                     variant);
            g->skipped = r->skipped;
            r->replay = false;
        }
    }
    const char *fen = df_pgn_tag_value(g, "FEN", &flen);
    const df_fen_flags flags = g->chess960 ? DF_FEN_CHESS960 : DF_FEN_STANDARD;
    df_fen_error err;
    if (!fen)
        df_fen_parse(&g->start, DF_FEN_START, sizeof DF_FEN_START - 1, flags, NULL);
    else if (df_fen_parse(&g->start, fen, flen, flags, &err) != DF_OK) {
        df_fen_parse(&g->start, DF_FEN_START, sizeof DF_FEN_START - 1, flags, NULL);
        if (!g->skipped) game_error(r, g->line, "bad FEN tag: %s", err.message);
    } else if (!df_board_playable(&g->start) && !g->skipped) {
        game_error(r, g->line, "bad FEN tag: the side not to move is in check");
    }
    r->board = g->start;
    g->board = g->start;
    if (v && v->begin) {
        const df_pgn_action a = v->begin(v->ctx, g);
        if (a == DF_PGN_SKIP) r->replay = false;
        if (a == DF_PGN_STOP) r->stopped = true;
    }
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
    emit_pending(r, v);
    df_pgn_game *g = &r->game;
    g->end_offset = end_offset;
    g->end_line = r->line;
    g->board = r->board;
    r->stats.games++;
    r->stats.errors += g->error != NULL;
    r->stats.skipped += g->skipped != NULL;
    r->stats.plies += g->plies;
    r->open = false;
    if (v && v->end && v->end(v->ctx, g) == DF_PGN_STOP) r->stopped = true;
}

/* ---- tokens ---- */

/* A [%eval ...] or [%clk ...] command of a comment, for the ply it follows. */
static void comment_command(df_pgn_reader *r)
{
    if (!r->pending) return;
    const char *c = r->cmd, *end = r->cmd + r->cmd_len;
    df_pgn_ply *p = &r->ply;
    if (r->cmd_len > 5 && !memcmp(c, "eval ", 5)) {
        c += 5;
        while (c < end && *c == ' ') c++;
        char text[40];
        const size_t n = (size_t)(end - c) < sizeof text - 1 ? (size_t)(end - c) : sizeof text - 1;
        memcpy(text, c, n);
        text[n] = 0;
        char *stop;
        if (text[0] == '#') {
            const long mate = strtol(text + 1, &stop, 10);
            if (stop != text + 1 && (*stop == 0 || *stop == ',' || *stop == ' ')) {
                p->eval_kind = DF_PGN_EVAL_MATE;
                p->mate = (int32_t)mate;
            }
        } else {
            const double pawns = strtod(text, &stop);
            if (stop != text && (*stop == 0 || *stop == ',' || *stop == ' ') && pawns == pawns) {
                p->eval_kind = DF_PGN_EVAL_PAWNS;
                p->pawns = (float)pawns;
            }
        }
    } else if (r->cmd_len > 4 && !memcmp(c, "clk ", 4)) {
        c += 4;
        while (c < end && *c == ' ') c++;
        /* H:MM:SS or MM:SS, seconds may have a fraction. */
        double parts[3] = {0, 0, 0};
        int n = 0;
        bool ok = c < end;
        while (ok && c < end && n < 3) {
            char text[24];
            size_t k = 0;
            while (c < end && *c != ':' && k < sizeof text - 1) text[k++] = *c++;
            text[k] = 0;
            char *stop;
            parts[n++] = strtod(text, &stop);
            ok = k && *stop == 0 && parts[n - 1] >= 0;
            if (c < end && *c == ':') c++;
        }
        if (ok && c == end) {
            double seconds = 0;
            for (int i = 0; i < n; i++) seconds = seconds * 60 + parts[i];
            p->has_clock = true;
            p->clock = seconds;
        }
    }
}

static bool all_in(const char *t, uint32_t n, const char *set)
{
    for (uint32_t i = 0; i < n; i++)
        if (!strchr(set, t[i]) || !t[i]) return false;
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

/* A complete main-line token. */
static void token_done(df_pgn_reader *r, const df_pgn_visitor *v)
{
    const char *t = r->tok;
    const uint32_t n = r->tok_len;
    r->tok_len = 0;
    df_result result;
    if (r->tok_long) {
        r->tok_long = false;
        r->tok_len = DF_PGN_TOKEN_MAX;
        token_error(r, "token longer than 32 bytes");
        r->tok_len = 0;
        return;
    }
    if (is_result(t, n, &result)) {
        r->game.result = result;
        r->game.has_result = true;
        game_close(r, v, r->tok_offset + n);
        r->state = ST_OUT;
        return;
    }
    if (all_in(t, n, "0123456789") || t[0] == '$' || all_in(t, n, "!?")) return;
    const bool null_move = (n == 2 && (!memcmp(t, "--", 2) || !memcmp(t, "Z0", 2)));
    if (r->game.plies == DF_PGN_PLIES_MAX) {
        r->tok_len = n;
        token_error(r, "more plies than a game can have (DF_PGN_PLIES_MAX)");
        r->tok_len = 0;
        return;
    }
    if (!r->replay || r->skipping) {
        r->game.plies++;
        return;
    }
    df_move m = DF_MOVE_NONE;
    if (null_move) {
        if (df_checkers(&r->board)) {
            r->tok_len = n;
            token_error(r, "a null move while in check");
            r->tok_len = 0;
            return;
        }
    } else if (df_move_from_san(&m, &r->board, t, n) != DF_OK) {
        char why[48];
        snprintf(why, sizeof why, "%s move", df_move_from_san_error(&r->board, t, n));
        r->tok_len = n;
        token_error(r, why);
        r->tok_len = 0;
        return;
    }
    emit_pending(r, v);
    r->before = r->board;
    memcpy(r->san, t, n);
    r->ply = (df_pgn_ply){.before = &r->before,
                          .move = m,
                          .ply = r->game.plies,
                          .san = r->san,
                          .san_len = n,
                          .line = r->tok_line};
    r->pending = true;
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
}

static void tag_put(df_pgn_reader *r, char c)
{
    if (r->arena_used < DF_PGN_TAG_BYTES)
        r->arena[r->arena_used++] = c;
    else
        r->tags_full = true;
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
    df_pgn_tag *t = &r->tags[g->ntags++];
    t->name = r->arena + r->tag_start;
    t->name_len = r->name_len;
    t->value = t->name + r->name_len;
    t->value_len = r->arena_used - r->tag_start - r->name_len;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* Bytes that end a movetext token without being part of it. */
static bool ends_token(char c)
{
    return is_space(c) || c == '.' || c == '{' || c == '}' || c == '(' || c == ')' || c == '[' ||
           c == ']' || c == ';' || c == '$' || c == '*';
}

/* ---- the scanner ---- */

/* Starts a new game at a '[' (the byte after it is scanned next as the tag's name). */
static void new_game_at_bracket(df_pgn_reader *r, const df_pgn_visitor *v)
{
    if (r->open) game_close(r, v, r->offset);
    if (r->stopped) return;
    game_open(r);
    tag_begin(r);
    r->state = ST_TAG_NAME;
}

/* A '[' began a line inside an unclosed comment or variation, and c, the byte after it, is a
 * letter: the game was cut short; a new one starts. */
static void recover(df_pgn_reader *r, const df_pgn_visitor *v, const char *what)
{
    game_error(r, r->line, "unclosed %s: a new game starts at line %llu", what,
               (unsigned long long)r->line);
    r->offset--; /* the '[' */
    new_game_at_bracket(r, v);
    r->offset++;
}

static void scan(df_pgn_reader *r, const char *p, const char *end, const df_pgn_visitor *v)
{
    while (p < end && !r->stopped) {
        const char c = *p;
        const bool line_start = r->line_start;
        switch (r->state) {
        case ST_OUT:
        case ST_TAGS:
        case ST_MOVES:
            if (is_space(c)) break;
            if (c == '%' && line_start) {
                r->after_line = r->state;
                r->state = ST_LINE_COMMENT;
                break;
            }
            if (c == ';') {
                r->after_line = r->state;
                r->state = ST_LINE_COMMENT;
                break;
            }
            if (c == '[' && r->state != ST_TAGS) {
                new_game_at_bracket(r, v);
                break;
            }
            if (c == '[') {
                tag_begin(r);
                r->state = ST_TAG_NAME;
                break;
            }
            if (r->state == ST_OUT) {
                if (c == '{') { /* a comment between games belongs to none */
                    r->state = ST_VAR_COMMENT;
                    r->depth = 0;
                    break;
                }
                game_open(r);
            }
            if (!r->in_movetext) tags_done(r, v);
            if (r->stopped) break;
            r->state = ST_MOVES;
            if (c == '{') {
                r->state = ST_COMMENT;
                r->cmd_state = 0;
            } else if (c == '(') {
                r->state = ST_VARIATION;
                r->depth = 1;
            } else if (c == ')' || c == '}' || c == ']') {
                r->tok_len = 1;
                r->tok[0] = c;
                r->tok_line = r->line;
                token_error(r, c == ')' ? "')' without '('" : "unexpected bracket");
                r->tok_len = 0;
            } else if (c != '.') {
                /* A token: '*' and '$' start one (a result; a NAG), other delimiters do not. */
                r->tok[0] = c;
                r->tok_len = 1;
                r->tok_long = false;
                r->tok_line = r->line;
                r->tok_offset = r->offset;
                if (c == '*') {
                    token_done(r, v);
                    break;
                }
                r->state = ST_TOKEN;
            }
            break;
        case ST_TOKEN:
            if (!ends_token(c)) {
                if (r->tok_len < DF_PGN_TOKEN_MAX)
                    r->tok[r->tok_len++] = c;
                else
                    r->tok_long = true;
                break;
            }
            r->state = ST_MOVES;
            token_done(r, v);
            if (r->stopped) break;
            continue; /* the delimiter is scanned again, between tokens */
        case ST_TAG_NAME:
            if (is_name_char(c)) {
                tag_put(r, c);
                r->name_len++;
            } else if (is_space(c) && r->name_len) {
                r->state = ST_TAG_PRE;
            } else if (!is_space(c) || c == '\n') {
                game_error(r, r->line, "tag: '%c' in a tag name", c >= 32 && c < 127 ? c : '?');
                r->state = c == '\n' ? ST_TAGS : ST_TAG_JUNK;
            }
            break;
        case ST_TAG_PRE:
            if (c == '"')
                r->state = ST_TAG_VALUE;
            else if (!is_space(c) || c == '\n') {
                game_error(r, r->line, "tag %.*s: no quoted value", (int)r->name_len,
                           r->arena + r->tag_start);
                r->state = c == '\n' ? ST_TAGS : ST_TAG_JUNK;
            }
            break;
        case ST_TAG_VALUE:
            if (c == '\\')
                r->state = ST_TAG_ESCAPE;
            else if (c == '"')
                r->state = ST_TAG_POST;
            else
                tag_put(r, c);
            break;
        case ST_TAG_ESCAPE:
            tag_put(r, c);
            r->state = ST_TAG_VALUE;
            break;
        case ST_TAG_POST:
            if (c == ']') {
                tag_end(r);
                r->state = ST_TAGS;
            } else if (!is_space(c) || c == '\n') {
                game_error(r, r->line, "tag %.*s: no ']' after the value", (int)r->name_len,
                           r->arena + r->tag_start);
                r->state = c == '\n' ? ST_TAGS : ST_TAG_JUNK;
            }
            break;
        case ST_TAG_JUNK:
            if (c == ']' || c == '\n') r->state = ST_TAGS;
            break;
        case ST_COMMENT:
            if (r->bracket_at_line_start) {
                r->bracket_at_line_start = false;
                if (is_letter(c)) {
                    recover(r, v, "comment");
                    if (r->stopped) break;
                    tag_put(r, c);
                    r->name_len++;
                    break;
                }
            }
            if (c == '}') {
                r->state = ST_MOVES;
            } else if (r->cmd_state == 2) {
                if (c == ']') {
                    comment_command(r);
                    r->cmd_state = 0;
                } else if (r->cmd_len < sizeof r->cmd) {
                    r->cmd[r->cmd_len++] = c;
                } else {
                    r->cmd_state = 0; /* too long for a command we read */
                }
            } else if (c == '[') {
                r->cmd_state = 1;
                r->bracket_at_line_start = line_start;
            } else {
                r->cmd_state = r->cmd_state == 1 && c == '%' ? 2 : 0;
                r->cmd_len = 0;
            }
            break;
        case ST_LINE_COMMENT:
            if (c == '\n') r->state = r->after_line;
            break;
        case ST_VARIATION:
        case ST_VAR_COMMENT:
            if (r->bracket_at_line_start) {
                r->bracket_at_line_start = false;
                if (is_letter(c)) {
                    if (r->open)
                        recover(r, v, r->state == ST_VARIATION ? "variation" : "comment");
                    else { /* an unclosed comment between games */
                        r->offset--;
                        new_game_at_bracket(r, v);
                        r->offset++;
                    }
                    if (r->stopped) break;
                    tag_put(r, c);
                    r->name_len++;
                    break;
                }
            }
            if (r->state == ST_VAR_COMMENT) {
                if (c == '}')
                    r->state = r->depth ? ST_VARIATION : (r->open ? ST_MOVES : ST_OUT);
                else if (c == '[' && line_start)
                    r->bracket_at_line_start = true;
                break;
            }
            if (c == '(')
                r->depth++;
            else if (c == ')') {
                if (--r->depth == 0) r->state = ST_MOVES;
            } else if (c == '{')
                r->state = ST_VAR_COMMENT;
            else if (c == ';') {
                r->after_line = ST_VARIATION;
                r->state = ST_LINE_COMMENT;
            } else if (c == '[' && line_start)
                r->bracket_at_line_start = true;
            break;
        }
        r->line_start = c == '\n';
        r->line += c == '\n';
        r->offset++;
        p++;
    }
}

df_status df_pgn_feed(df_pgn_reader *r, const char *data, size_t len, const df_pgn_visitor *v)
{
    if (r->stopped) return DF_ERR_INTERRUPTED;
    r->stats.bytes += len;
    scan(r, data, data + len, v);
    return r->stopped ? DF_ERR_INTERRUPTED : DF_OK;
}

df_status df_pgn_finish(df_pgn_reader *r, const df_pgn_visitor *v)
{
    if (r->stopped) return DF_ERR_INTERRUPTED;
    if (r->state == ST_TOKEN) {
        r->state = ST_MOVES;
        token_done(r, v);
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
        if (inside)
            game_error(r, r->line, "the input ends inside %s (truncated)", inside);
        else
            game_error(r, r->line, "the input ends before the game's result (truncated)");
        game_close(r, v, r->offset);
    }
    r->state = ST_OUT;
    return r->stopped ? DF_ERR_INTERRUPTED : DF_OK;
}
