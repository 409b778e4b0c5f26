/* SPDX-License-Identifier: MIT */
/* Fields derived from a game's tags (pgn.h): Speed and the clock's parts from TimeControl, the
 * ratings' average, bounds, difference and bin from WhiteElo and BlackElo, Year and Month from
 * UTCDate or Date, Bot from the titles. Each is read from the tag section alone, so a filter or a
 * count decides on it before any move is read. */
#include <string.h>

#include "dirfill.h"

static const char *const df__field_names[DF_PGN_FIELD_COUNT] = {
    [DF_PGN_FIELD_SPEED] = "Speed",
    [DF_PGN_FIELD_BASE_SECONDS] = "BaseSeconds",
    [DF_PGN_FIELD_INCREMENT] = "Increment",
    [DF_PGN_FIELD_AVG_ELO] = "AvgElo",
    [DF_PGN_FIELD_MIN_ELO] = "MinElo",
    [DF_PGN_FIELD_MAX_ELO] = "MaxElo",
    [DF_PGN_FIELD_ELO_DIFF] = "EloDiff",
    [DF_PGN_FIELD_ELO_BIN] = "EloBin",
    [DF_PGN_FIELD_YEAR] = "Year",
    [DF_PGN_FIELD_MONTH] = "Month",
    [DF_PGN_FIELD_BOT] = "Bot"};

static const char *const df__speed_names[] = {"ultrabullet", "bullet",    "blitz",
                                              "rapid",       "classical", "correspondence"};

df_pgn_field df_pgn_field_of(const char *name)
{
    for (int f = DF_PGN_FIELD_TAG + 1; f < DF_PGN_FIELD_COUNT; f++)
        if (name && !strcmp(name, df__field_names[f])) return (df_pgn_field)f;
    return DF_PGN_FIELD_TAG;
}

const char *df_pgn_field_name(df_pgn_field f)
{
    return f > DF_PGN_FIELD_TAG && f < DF_PGN_FIELD_COUNT ? df__field_names[f] : NULL;
}

const char *df_pgn_speed_name(df_pgn_speed s)
{
    return (unsigned)s <= DF_PGN_SPEED_CORRESPONDENCE ? df__speed_names[s] : NULL;
}

/* The tags the fields are made of, found in one pass over a game's tags. */
enum {
    T_TIME_CONTROL,
    T_WHITE_ELO,
    T_BLACK_ELO,
    T_UTC_DATE,
    T_DATE,
    T_WHITE_TITLE,
    T_BLACK_TITLE,
    T_COUNT
};
typedef struct {
    const char *v[T_COUNT]; /* NULL: the game has no such tag */
    uint32_t n[T_COUNT];
} df__sources;

/* Whether the tag's name is literal (a memcmp of a constant length, which compilers inline). */
#define DF__NAMED(t, literal) (!memcmp((t)->name, literal, sizeof literal - 1))

static void df__gather(const df_pgn_game *g, df__sources *s)
{
    memset(s->v, 0, sizeof s->v);
    for (uint32_t i = 0; i < g->ntags; i++) {
        const df_pgn_tag *t = &g->tags[i];
        int k = T_COUNT;
        switch (t->name_len) { /* one branch a tag, most of them no source */
        case 4:
            k = DF__NAMED(t, "Date") ? T_DATE : T_COUNT;
            break;
        case 7:
            k = DF__NAMED(t, "UTCDate") ? T_UTC_DATE : T_COUNT;
            break;
        case 8:
            k = DF__NAMED(t, "WhiteElo")   ? T_WHITE_ELO
                : DF__NAMED(t, "BlackElo") ? T_BLACK_ELO
                                           : T_COUNT;
            break;
        case 10:
            k = DF__NAMED(t, "WhiteTitle")   ? T_WHITE_TITLE
                : DF__NAMED(t, "BlackTitle") ? T_BLACK_TITLE
                                             : T_COUNT;
            break;
        case 11:
            k = DF__NAMED(t, "TimeControl") ? T_TIME_CONTROL : T_COUNT;
            break;
        default:
            break;
        }
        if (k < T_COUNT && !s->v[k]) {
            s->v[k] = t->value;
            s->n[k] = t->value_len;
        }
    }
}

/* Whether v[0, n) is 1 to 9 decimal digits; *out their value. Nine digits keep every sum below
 * of exact doubles and ints. */
static bool df__digits(const char *v, uint32_t n, uint32_t *out)
{
    if (!n || n > 9) return false;
    uint32_t x = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (v[i] < '0' || v[i] > '9') return false;
        x = x * 10 + (uint32_t)(v[i] - '0');
    }
    *out = x;
    return true;
}

/* TimeControl "BASE+INCREMENT" or "BASE", in seconds. */
static bool df__time_control(const df__sources *s, uint32_t *base, uint32_t *increment)
{
    const char *v = s->v[T_TIME_CONTROL];
    const uint32_t n = s->n[T_TIME_CONTROL];
    if (!v) return false;
    uint32_t plus = 0;
    while (plus < n && v[plus] != '+') plus++;
    *increment = 0;
    return df__digits(v, plus, base) &&
           (plus == n || df__digits(v + plus + 1, n - plus - 1, increment));
}

/* Lichess's rule: the estimated duration base + 40 increments, in seconds; "-" (no clock) is
 * correspondence. */
static bool df__speed(const df__sources *s, double *out)
{
    uint32_t base, increment;
    if (s->v[T_TIME_CONTROL] && s->n[T_TIME_CONTROL] == 1 && s->v[T_TIME_CONTROL][0] == '-') {
        *out = DF_PGN_SPEED_CORRESPONDENCE;
        return true;
    }
    if (!df__time_control(s, &base, &increment)) return false;
    static const uint32_t below[] = {30, 180, 480, 1500}; /* ultrabullet .. rapid */
    const uint64_t estimate = base + 40 * (uint64_t)increment;
    int k = DF_PGN_SPEED_ULTRABULLET;
    while (k < DF_PGN_SPEED_CLASSICAL && estimate >= below[k]) k++;
    *out = k;
    return true;
}

/* Both ratings, when both tags hold a whole number. */
static bool df__elos(const df__sources *s, double *white, double *black)
{
    uint32_t w, b;
    if (!s->v[T_WHITE_ELO] || !s->v[T_BLACK_ELO] ||
        !df__digits(s->v[T_WHITE_ELO], s->n[T_WHITE_ELO], &w) ||
        !df__digits(s->v[T_BLACK_ELO], s->n[T_BLACK_ELO], &b))
        return false;
    *white = w;
    *black = b;
    return true;
}

/* Part [at, at + n) of a PGN date "YYYY.MM.DD": false when malformed, *known false for '?'s. */
static bool df__date_part(const char *v, uint32_t at, uint32_t n, bool *known, uint32_t *out)
{
    *known = v[at] != '?';
    for (uint32_t i = at; i < at + n; i++)
        if (*known ? v[i] < '0' || v[i] > '9' : v[i] != '?') return false;
    return !*known || df__digits(v + at, n, out);
}

/* Year (part 0) or Month (part 1) of UTCDate when the game has that tag, else of Date. */
static bool df__date(const df__sources *s, int part, double *out)
{
    const int tag = s->v[T_UTC_DATE] ? T_UTC_DATE : T_DATE;
    const char *v = s->v[tag];
    uint32_t year = 0, month = 0, day = 0;
    bool known[3];
    if (!v || s->n[tag] != 10 || v[4] != '.' || v[7] != '.' ||
        !df__date_part(v, 0, 4, &known[0], &year) || !df__date_part(v, 5, 2, &known[1], &month) ||
        !df__date_part(v, 8, 2, &known[2], &day))
        return false;
    if ((known[1] && (month < 1 || month > 12)) || (known[2] && (day < 1 || day > 31)))
        return false;
    if (!known[part]) return false;
    *out = part ? month : year;
    return true;
}

static bool df__is_bot(const df__sources *s, int tag)
{
    const char *v = s->v[tag];
    return v && s->n[tag] == 3 && (v[0] | 32) == 'b' && (v[1] | 32) == 'o' && (v[2] | 32) == 't';
}

/* Field f from the gathered tags. */
static bool df__value(const df__sources *s, df_pgn_field f, double *value)
{
    double w, b;
    uint32_t base, increment;
    switch (f) {
    case DF_PGN_FIELD_SPEED:
        return df__speed(s, value);
    case DF_PGN_FIELD_BASE_SECONDS:
    case DF_PGN_FIELD_INCREMENT:
        if (!df__time_control(s, &base, &increment)) return false;
        *value = f == DF_PGN_FIELD_BASE_SECONDS ? base : increment;
        return true;
    case DF_PGN_FIELD_AVG_ELO:
    case DF_PGN_FIELD_MIN_ELO:
    case DF_PGN_FIELD_MAX_ELO:
    case DF_PGN_FIELD_ELO_DIFF:
    case DF_PGN_FIELD_ELO_BIN:
        if (!df__elos(s, &w, &b)) return false;
        *value = f == DF_PGN_FIELD_AVG_ELO   ? (w + b) / 2
                 : f == DF_PGN_FIELD_MIN_ELO ? (w < b ? w : b)
                 : f == DF_PGN_FIELD_MAX_ELO ? (w > b ? w : b)
                 : f == DF_PGN_FIELD_ELO_DIFF
                     ? w - b
                     : (double)(((uint64_t)w + (uint64_t)b) / 400 * 200); /* avg floored to 200 */
        return true;
    case DF_PGN_FIELD_YEAR:
    case DF_PGN_FIELD_MONTH:
        return df__date(s, f == DF_PGN_FIELD_MONTH, value);
    case DF_PGN_FIELD_BOT:
        *value = df__is_bot(s, T_WHITE_TITLE) || df__is_bot(s, T_BLACK_TITLE);
        return true;
    default:
        return false;
    }
}

bool df_pgn_field_value(const df_pgn_game *g, df_pgn_field f, double *value)
{
    if (f <= DF_PGN_FIELD_TAG || f >= DF_PGN_FIELD_COUNT) return false;
    df__sources s;
    df__gather(g, &s);
    return df__value(&s, f, value);
}

unsigned df_pgn_field_values(const df_pgn_game *g, const df_pgn_field *fields, size_t n,
                             double *values)
{
    df__sources s;
    df__gather(g, &s);
    unsigned known = 0;
    for (size_t i = 0; i < n && i < 32; i++)
        known |= (unsigned)df__value(&s, fields[i], &values[i]) << i;
    return known;
}
