/* SPDX-License-Identifier: MIT */
/* bullet's text form: a line `FEN | score | result` a position, the score in centipawns and the
 * result (1.0 won, 0.5 drawn, 0.0 lost) both from White's view, as bulletformat's parser reads
 * them. No move; the ply is the FEN's move number's. A bad line is one error naming it; reading
 * goes on at the next. */
#include <stdlib.h>
#include <string.h>

#include "nnue/internal.h"

/* s[0, n) without the spaces and tabs around it. */
static const char *trim(const char *s, size_t *n)
{
    while (*n && (*s == ' ' || *s == '\t')) s++, (*n)--;
    while (*n && (s[*n - 1] == ' ' || s[*n - 1] == '\t')) (*n)--;
    return s;
}

static bool is(const char *s, size_t n, const char *word)
{
    return strlen(word) == n && !memcmp(s, word, n);
}

/* The result bulletformat's parser reads, White's view: 1, 0, -1; or 2 for none. */
static int white_result(const char *s, size_t n)
{
    if (is(s, n, "1.0") || is(s, n, "[1.0]") || is(s, n, "1")) return 1;
    if (is(s, n, "0.5") || is(s, n, "[0.5]") || is(s, n, "1/2")) return 0;
    if (is(s, n, "0.0") || is(s, n, "[0.0]") || is(s, n, "0")) return -1;
    return 2;
}

/* The entry of a line; NULL, or why not (in why, *kind its kind). */
static const char *parse(df_nnue_entry *out, const char *line, char *why, size_t size,
                         df_nnue_error_kind *kind)
{
    *kind = DF_NNUE_ERR_FIELD;
    const char *field[3];
    size_t len[3];
    const char *p = line;
    for (int k = 0; k < 3; k++) {
        const char *bar = strchr(p, '|');
        if ((k < 2 && !bar) || (k == 2 && bar)) return "not FEN | score | result";
        field[k] = p;
        len[k] = bar ? (size_t)(bar - p) : strlen(p);
        field[k] = trim(field[k], &len[k]);
        if (bar) p = bar + 1;
    }
    /* A FEN of placement and side alone, which bulletformat's parser reads too, has no rights,
     * no en passant, counters 0 and 1. */
    char fen[DF__PLAIN_LINE_MAX];
    int words = 0;
    for (size_t i = 0; i < len[0]; i++)
        words += field[0][i] != ' ' && field[0][i] != '\t' &&
                 (i == 0 || field[0][i - 1] == ' ' || field[0][i - 1] == '\t');
    const int n =
        snprintf(fen, sizeof fen, "%.*s%s", (int)len[0], field[0], words == 2 ? " - - 0 1" : "");
    df_fen_error fe;
    /* Shredder-FEN or X-FEN castling is a Chess960 position's (a writer's of such rights). */
    if (df_fen_parse(&out->pos, fen, (size_t)n, DF_FEN_STANDARD, &fe) != DF_OK &&
        (fe.kind != DF_FEN_CASTLING ||
         df_fen_parse(&out->pos, fen, (size_t)n, DF_FEN_CHESS960, &fe) != DF_OK)) {
        *kind = DF_NNUE_ERR_POSITION;
        snprintf(why, size, "FEN: %s", fe.message);
        return why;
    }
    const char *bad = df__nnue_position_error(&out->pos);
    if (bad) {
        *kind = DF_NNUE_ERR_POSITION;
        snprintf(why, size, "FEN: %s", bad);
        return why;
    }
    char number[24], *end;
    const size_t l = len[1] < sizeof number - 1 ? len[1] : sizeof number - 1;
    memcpy(number, field[1], l);
    number[l] = 0;
    const long score = strtol(number, &end, 10);
    if (!l || l != len[1] || *end || score < INT16_MIN || score > INT16_MAX) {
        snprintf(why, size, "score '%.*s' is not a number from -32768 to 32767",
                 (int)(len[1] < 24 ? len[1] : 24), field[1]);
        return why;
    }
    const int result = white_result(field[2], len[2]);
    if (result == 2) {
        snprintf(why, size, "result '%.*s' is not 1.0, 0.5 or 0.0 (also 1, 1/2, 0, [1.0]...)",
                 (int)(len[2] < 24 ? len[2] : 24), field[2]);
        return why;
    }
    const bool black = df_board_stm(&out->pos) == DF_BLACK;
    out->move = DF_MOVE_NONE;
    out->score = black ? df__nnue_flip_score((int16_t)score) : (int16_t)score;
    out->ply = df__nnue_ply_of(&out->pos);
    out->result = (int8_t)(black ? -result : result);
    out->ep_as_stored = 0; /* a FEN's square goes through nnue-pytorch's rule */
    return NULL;
}

df_nnue_next df__bullet_text_next(df_nnue_reader *r, df_nnue_entry *out, df_nnue_error *err)
{
    for (;;) {
        uint64_t start;
        const long n = df__nnue_next_line(r, &start);
        if (n == -1) return DF_NNUE_END;
        if (n == 0) continue;
        char why[160];
        df_nnue_error_kind kind = DF_NNUE_ERR_FIELD;
        const char *bad = why;
        if (n == -2)
            snprintf(why, sizeof why, "a line longer than %d bytes", DF__PLAIN_LINE_MAX - 1);
        else if (r->control >= 0)
            snprintf(why, sizeof why, "control byte 0x%02x at byte %ld of the line",
                     (unsigned char)r->line[r->control], r->control + 1);
        else
            bad = parse(out, r->line, why, sizeof why, &kind);
        if (!bad) return DF_NNUE_ENTRY;
        df__nnue_fail(err, kind, start, r->records, "line %llu at byte %llu: %s",
                      (unsigned long long)r->records, (unsigned long long)start, bad);
        return DF_NNUE_ERROR;
    }
}

df_status df__bullet_text_write(df_nnue_writer *w, const df_nnue_entry *e, df_nnue_error *err)
{
    char text[DF_FEN_MAX + 32], fen[DF_FEN_MAX];
    df_nnue_entry_fen(fen, sizeof fen, e);
    const bool black = df_board_stm(&e->pos) == DF_BLACK;
    const int result = black ? -e->result : e->result;
    const int n = snprintf(text, sizeof text, "%s | %d | %s\n", fen,
                           black ? df__nnue_flip_score(e->score) : e->score,
                           result > 0 ? "1.0"
                           : result   ? "0.0"
                                      : "0.5");
    if (!df__nnue_put(&w->out, text, (size_t)n)) {
        df__nnue_fail(err, DF_NNUE_ERR_IO, 0, w->entries - 1, "the output could not be written");
        return DF_ERR_IO;
    }
    df__nnue_lost(w, (e->move != DF_MOVE_NONE ? DF__LOST_MOVE : 0) |
                         (e->ply != df__nnue_ply_of(&e->pos) ? DF__LOST_PLY : 0));
    return DF_OK;
}
