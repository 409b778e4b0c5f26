/* SPDX-License-Identifier: MIT */
/* The .plain text form: records of `key value` lines (fen, move, score, ply, result; others
 * ignored, any order) ended by a line `e`, as Sopel97's converter writes and reads them. A bad
 * record is one error naming its line; reading goes on after its `e`. */
#include <stdlib.h>
#include <string.h>

#include "nnue/internal.h"

/* Whether c is a control byte that no text holds: C0 but the white space \t to \r. */
static bool is_control(unsigned char c) { return c < 0x20 && !(c >= '\t' && c <= '\r'); }

/* The next line (internal.h), read as .plain and bullet's text form read lines. */
long df__nnue_next_line(df_nnue_reader *r, uint64_t *start)
{
    df__nnue_input *in = &r->in;
    size_t n = 0;
    bool long_line = false, any = false;
    *start = in->offset;
    for (;;) {
        const size_t got = df__nnue_peek(in, 1);
        if (!got) {
            /* A line cut by a read error is no line of the file: read_any says the error. */
            if (!any || in->failed) return -1;
            break;
        }
        any = true;
        const unsigned char *p = in->buf + in->pos;
        const size_t avail = in->len - in->pos;
        const unsigned char *nl = memchr(p, '\n', avail);
        const size_t take = nl ? (size_t)(nl - p) : avail;
        const size_t keep = n + take < DF__PLAIN_LINE_MAX ? take : DF__PLAIN_LINE_MAX - 1 - n;
        memcpy(r->line + n, p, keep);
        n += keep;
        long_line |= keep < take;
        df__nnue_consume(in, take + (nl != NULL));
        if (nl) break;
    }
    r->records++;
    size_t lead = 0;
    if (!long_line) {
        while (n && (r->line[n - 1] == '\r' || r->line[n - 1] == ' ' || r->line[n - 1] == '\t'))
            n--;
        while (lead < n && (r->line[lead] == ' ' || r->line[lead] == '\t')) lead++;
        memmove(r->line, r->line + lead, n - lead);
    }
    n -= lead;
    r->line[n] = 0;
    r->line_len = n;
    r->control = -1;
    for (size_t i = 0; i < n; i++)
        if (is_control((unsigned char)r->line[i])) {
            r->control = (long)i;
            break;
        }
    return long_line ? -2 : (long)n;
}

/* A whole decimal number (optional sign) from min to max. */
static bool parse_int(const char *s, long min, long max, long *out)
{
    char *end;
    if (!*s) return false;
    const long v = strtol(s, &end, 10);
    if (*end || v < min || v > max) return false;
    *out = v;
    return true;
}

enum { KEY_FEN, KEY_MOVE, KEY_SCORE, KEY_PLY, KEY_RESULT, KEYS };
static const char *const key_names[KEYS] = {"fen", "move", "score", "ply", "result"};

df_nnue_next df__plain_next(df_nnue_reader *r, df_nnue_entry *out, df_nnue_error *err)
{
    unsigned seen = 0;
    char move[16] = "";
    long value[KEYS] = {0};
    uint64_t first_line = 0, first_offset = 0;
    for (;;) {
        uint64_t start;
        const long n = df__nnue_next_line(r, &start);
        const uint64_t line = r->records;
        if (n == -1) {
            if (!seen || r->plain_skip || r->in.failed) return DF_NNUE_END;
            df__nnue_fail(err, DF_NNUE_ERR_TRUNCATED, first_offset, first_line,
                          "line %llu at byte %llu: the input ends inside the record begun here "
                          "(no line e)",
                          (unsigned long long)first_line, (unsigned long long)first_offset);
            return DF_NNUE_ERROR;
        }
        if (n == 0) continue;
        if (!seen && !r->plain_skip) {
            first_line = line;
            first_offset = start;
        }
        if (n == 1 && r->line[0] == 'e') {
            if (r->plain_skip) {
                r->plain_skip = false;
                continue;
            }
            for (int k = 0; k < KEYS; k++)
                if (!(seen >> k & 1)) {
                    df__nnue_fail(err, DF_NNUE_ERR_FIELD, first_offset, first_line,
                                  "line %llu at byte %llu: the record begun here has no %s",
                                  (unsigned long long)first_line, (unsigned long long)first_offset,
                                  key_names[k]);
                    return DF_NNUE_ERROR;
                }
            if (df_move_from_uci(&out->move, &out->pos, move, strlen(move)) != DF_OK) {
                char fen[DF_FEN_MAX];
                df_nnue_fen(fen, sizeof fen, &out->pos);
                df__nnue_fail(err, DF_NNUE_ERR_ILLEGAL, first_offset, first_line,
                              "line %llu at byte %llu: move %s is not legal in %s",
                              (unsigned long long)first_line, (unsigned long long)first_offset,
                              move, fen);
                return DF_NNUE_ERROR;
            }
            out->score = (int16_t)value[KEY_SCORE];
            out->ply = (uint16_t)value[KEY_PLY];
            out->result = (int8_t)value[KEY_RESULT];
            out->ep_as_stored = 0; /* a FEN's square goes through nnue-pytorch's rule */
            return DF_NNUE_ENTRY;
        }
        if (r->plain_skip) continue;
        char why[160] = "";
        df_nnue_error_kind kind = DF_NNUE_ERR_FIELD;
        bool not_text = false;
        /* The key: the bytes before the first space or tab (a control byte is no separator). */
        size_t key_len = 0;
        while (key_len < r->line_len && r->line[key_len] != ' ' && r->line[key_len] != '\t')
            key_len++;
        int k = 0;
        while (k < KEYS &&
               (strlen(key_names[k]) != key_len || memcmp(r->line, key_names[k], key_len)))
            k++;
        if (r->control >= 0 && (size_t)r->control < key_len) {
            not_text = true;
            snprintf(why, sizeof why, "control byte 0x%02x in a key: not text",
                     (unsigned char)r->line[r->control]);
        } else if (k == KEYS) {
            continue; /* a key of another program, whatever its value and length */
        } else if (n == -2) {
            seen |= 1u << k;
            snprintf(why, sizeof why, "%s: a line longer than %d bytes", key_names[k],
                     DF__PLAIN_LINE_MAX - 1);
        } else if (r->control >= 0) {
            seen |= 1u << k;
            snprintf(why, sizeof why, "%s: control byte 0x%02x at byte %ld of its line",
                     key_names[k], (unsigned char)r->line[r->control], r->control + 1);
        } else {
            const char *v = r->line + key_len;
            v += strspn(v, " \t");
            seen |= 1u << k;
            static const long limits[KEYS][2] = {
                {0, 0}, {0, 0}, {INT16_MIN, INT16_MAX}, {0, UINT16_MAX}, {-1, 1}};
            df_fen_error fe;
            if (k == KEY_FEN) {
                kind = DF_NNUE_ERR_POSITION;
                const char *bad = NULL;
                if (df_fen_parse(&out->pos, v, strlen(v), DF_FEN_STANDARD, &fe) != DF_OK)
                    snprintf(why, sizeof why, "fen: %s", fe.message);
                else if ((bad = df__nnue_position_error(&out->pos)))
                    snprintf(why, sizeof why, "fen: %s", bad);
            } else if (k == KEY_MOVE) {
                if (strlen(v) >= sizeof move)
                    snprintf(why, sizeof why, "move: not a UCI move");
                else
                    strcpy(move, v);
            } else if (!parse_int(v, limits[k][0], limits[k][1], &value[k])) {
                snprintf(why, sizeof why, "%s: '%.40s' is not a number from %ld to %ld",
                         key_names[k], v, limits[k][0], limits[k][1]);
            }
        }
        if (*why) {
            df__nnue_fail(err, kind, start, line, "line %llu at byte %llu: %s",
                          (unsigned long long)line, (unsigned long long)start, why);
            /* A bad value spoils its record, whose lines are passed over up to its e; a line that
             * is no text at all may be the e itself, so the next record starts after it. */
            r->plain_skip = !not_text;
            return DF_NNUE_ERROR;
        }
    }
}

df_status df__plain_write(df_nnue_writer *w, const df_nnue_entry *e, df_nnue_error *err)
{
    char text[DF_FEN_MAX + 96], fen[DF_FEN_MAX], uci[DF_UCI_MAX];
    df_nnue_entry_fen(fen, sizeof fen, e);
    df_move_to_uci(uci, &e->pos, e->move);
    const int n = snprintf(text, sizeof text, "fen %s\nmove %s\nscore %d\nply %u\nresult %d\ne\n",
                           fen, uci, e->score, e->ply, e->result);
    if (df__nnue_put(&w->out, text, (size_t)n)) return DF_OK;
    df__nnue_fail(err, DF_NNUE_ERR_IO, 0, w->entries - 1, "the output could not be written");
    return DF_ERR_IO;
}
