/* SPDX-License-Identifier: MIT */
/* SVG pictures of a position and its attack information (svg.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dirfill.h"

/* Appends to a caller's buffer with snprintf rules: len counts every byte asked for, at most
 * size - 1 are stored, and the text is always terminated. */
typedef struct {
    char *buf;
    size_t size, len;
} df__svg_out;

static void df__put(df__svg_out *w, const char *fmt, ...)
{
    char *at = w->len < w->size ? w->buf + w->len : NULL;
    const size_t room = at ? w->size - w->len : 0;
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(at, room, fmt, ap);
    va_end(ap);
    if (n > 0) w->len += (size_t)n;
}

/* ---- overlay names ---- */

static bool df__word(const char **p, const char *end, const char *word)
{
    const size_t n = strlen(word);
    if ((size_t)(end - *p) < n || memcmp(*p, word, n) || (*p + n < end && p[0][n] != '.'))
        return false;
    *p += n;
    if (*p < end) (*p)++; /* the dot */
    return true;
}

/* One name of the list, [start, end): adds it to o, or returns false. */
static bool df__overlay(df_svg_options *o, const char *p, const char *end)
{
    static const char *const flags[] = {"pins", "checkers", "check_block", "discoverers"};
    bool *const targets[] = {&o->pins, &o->checkers, &o->check_block, &o->discoverers};
    for (int i = 0; i < 4; i++)
        if ((size_t)(end - p) == strlen(flags[i]) && !memcmp(p, flags[i], strlen(flags[i]))) {
            *targets[i] = true;
            return true;
        }
    enum { COUNTS, TWICE, RAYS, XRAYS, NONE };
    const int kind = df__word(&p, end, "counts")  ? COUNTS
                     : df__word(&p, end, "twice") ? TWICE
                     : df__word(&p, end, "rays")  ? RAYS
                     : df__word(&p, end, "xrays") ? XRAYS
                                                  : NONE;
    if (kind == NONE) return false;
    unsigned colors = 3, dirs = 0xff;
    if (df__word(&p, end, "white"))
        colors = 1u << DF_WHITE;
    else if (df__word(&p, end, "black"))
        colors = 1u << DF_BLACK;
    if ((kind == RAYS || kind == XRAYS) && p < end) {
        int found = -1;
        for (int d = 0; d < DF_DIRS; d++) {
            const char *name = df_dir_name((df_dir)d);
            if ((size_t)(end - p) == strlen(name) && !memcmp(p, name, strlen(name))) found = d;
        }
        if (found < 0) return false;
        dirs = 1u << found;
        p = end;
    }
    if (p != end) return false;
    if (kind == COUNTS) o->counts |= colors;
    if (kind == TWICE) o->twice |= colors;
    for (int c = 0; (kind == RAYS || kind == XRAYS) && c < DF_COLORS; c++)
        if ((colors >> c) & 1) (kind == RAYS ? o->rays : o->xrays)[c] |= dirs;
    return true;
}

df_status df_svg_parse_overlays(df_svg_options *o, const char *text, size_t len, size_t *bad)
{
    if (!o || (!text && len)) return DF_ERR_ARGUMENT;
    df_svg_options next = *o;
    for (size_t i = 0; i < len;) {
        size_t j = i;
        while (j < len && text[j] != ',') j++;
        size_t a = i, b = j;
        while (a < b && text[a] == ' ') a++;
        while (b > a && text[b - 1] == ' ') b--;
        if (a < b && !df__overlay(&next, text + a, text + b)) {
            if (bad) *bad = a;
            return DF_ERR_ARGUMENT;
        }
        i = j + 1;
    }
    *o = next;
    return DF_OK;
}

/* ---- drawing ---- */

typedef struct {
    df__svg_out *w;
    double s, left, top; /* square size and the board's corner */
    bool flipped;
} df__canvas;

/* Top-left corner of square sq. */
static void df__corner(const df__canvas *c, df_square sq, double *x, double *y)
{
    const int f = df_file_of(sq), r = df_rank_of(sq);
    *x = c->left + (c->flipped ? 7 - f : f) * c->s;
    *y = c->top + (c->flipped ? r : 7 - r) * c->s;
}

static void df__square_rect(const df__canvas *c, df_square sq, double inset, const char *attrs)
{
    double x, y;
    df__corner(c, sq, &x, &y);
    df__put(c->w, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" %s/>\n", x + inset,
            y + inset, c->s - 2 * inset, c->s - 2 * inset, attrs);
}

static void df__circle(const df__canvas *c, df_square sq, double dx, double dy, double radius,
                       const char *attrs)
{
    double x, y;
    df__corner(c, sq, &x, &y);
    df__put(c->w, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" %s/>\n", x + dx * c->s, y + dy * c->s,
            radius * c->s, attrs);
}

static void df__line(const df__canvas *c, df_square a, df_square b, const char *color)
{
    double xa, ya, xb, yb;
    df__corner(c, a, &xa, &ya);
    df__corner(c, b, &xb, &yb);
    df__put(c->w,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
            "stroke-width=\"%.1f\" stroke-linecap=\"round\" opacity=\"0.8\"/>\n",
            xa + c->s / 2, ya + c->s / 2, xb + c->s / 2, yb + c->s / 2, color, c->s * 0.07);
}

/* The colours of the overlays, one per side (white's, black's). */
static const char *const df__side_fill[2] = {"#2f5fd0", "#d03030"};
static const char *const df__side_frame[2] = {"#1c3a8a", "#8a1c1c"};

static void df__pieces(const df__canvas *c, const df_board *b)
{
    /* The solid glyphs for both colours (a white one filled white, outlined black), each with
     * U+FE0E so no viewer draws an emoji. */
    static const char *const glyphs[DF_PIECE_TYPES] = {"\u265f", "\u265e", "\u265d",
                                                       "\u265c", "\u265b", "\u265a"};
    for (df_bb occ = df_board_occupied(b); occ;) {
        const df_square sq = df_pop_lsb(&occ);
        const bool white = df_has(b->color[DF_WHITE], sq);
        double x, y;
        df__corner(c, sq, &x, &y);
        df__put(c->w,
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" text-anchor=\"middle\" "
                "fill=\"%s\" stroke=\"%s\" stroke-width=\"%.1f\">%s\ufe0e</text>\n",
                x + c->s / 2, y + c->s * 0.82, c->s * 0.8, white ? "#ffffff" : "#111111",
                white ? "#111111" : "#eeeeee", c->s * 0.025, glyphs[df_board_type_at(b, sq)]);
    }
}

size_t df_svg_write(char *buf, size_t size, const df_board *b, const df_svg_options *opt)
{
    static const df_svg_options none = {0};
    const df_svg_options *o = opt ? opt : &none;
    df__svg_out w = {buf, size, 0};
    if (size) buf[0] = 0;
    const double total = o->size ? o->size : 400, margin = total / (8 + 0.45) * 0.45;
    const df__canvas c = {&w, (total - margin) / 8, margin, 0, o->flipped};
    df__put(&w,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Segoe UI Symbol, sans-serif\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n",
            total, total, total, total);
    for (int sq = 0; sq < 64; sq++)
        df__square_rect(&c, (df_square)sq, 0,
                        (df_file_of((df_square)sq) + df_rank_of((df_square)sq)) % 2
                            ? "fill=\"#f0d9b5\""
                            : "fill=\"#b58863\"");
    for (int i = 0; i < 8; i++) {
        const int file = o->flipped ? 7 - i : i, rank = o->flipped ? i : 7 - i;
        df__put(&w,
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" text-anchor=\"middle\" "
                "fill=\"#444\">%c</text>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" "
                "text-anchor=\"middle\" fill=\"#444\">%d</text>\n",
                c.left + (i + 0.5) * c.s, 8 * c.s + margin * 0.75, margin * 0.6, 'a' + file,
                margin / 2, (i + 0.5) * c.s + margin * 0.2, margin * 0.6, rank + 1);
    }

    df_attack_map map[2];
    df_attack_maps(map, b);
    for (int side = 0; side < DF_COLORS; side++) {
        if (!((o->counts >> side) & 1)) continue;
        for (df_bb set = map[side].all; set;) {
            const df_square sq = df_pop_lsb(&set);
            const int n = df_attack_count(&map[side], sq);
            char attrs[96];
            snprintf(attrs, sizeof attrs, "fill=\"%s\" fill-opacity=\"%.2f\"", df__side_fill[side],
                     n >= 5 ? 0.75 : 0.15 + 0.15 * n);
            df__square_rect(&c, sq, 0, attrs);
            double x, y;
            df__corner(&c, sq, &x, &y);
            df__put(&w,
                    "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" fill=\"%s\" "
                    "font-weight=\"bold\">%d</text>\n",
                    x + (side ? c.s * 0.78 : c.s * 0.06), y + c.s * 0.22, c.s * 0.2,
                    df__side_frame[side], n);
        }
    }
    for (int side = 0; side < DF_COLORS; side++) {
        if (!((o->twice >> side) & 1)) continue;
        char attrs[128];
        snprintf(attrs, sizeof attrs, "fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\"",
                 df__side_frame[side], c.s * 0.08);
        for (df_bb set = map[side].twice; set;)
            df__square_rect(&c, df_pop_lsb(&set), c.s * (0.05 + 0.1 * side), attrs);
    }
    for (int side = 0; side < DF_COLORS; side++)
        for (int d = 0; d < DF_DIRS; d++) {
            char attrs[128];
            snprintf(attrs, sizeof attrs, "fill=\"%s\"", df__side_fill[side]);
            if ((o->rays[side] >> d) & 1)
                for (df_bb set = map[side].rays.r[d]; set;)
                    df__circle(&c, df_pop_lsb(&set), side ? 0.7 : 0.3, 0.5, 0.08, attrs);
            snprintf(attrs, sizeof attrs,
                     "fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" stroke-dasharray=\"%.1f\"",
                     df__side_fill[side], c.s * 0.04, c.s * 0.08);
            if ((o->xrays[side] >> d) & 1)
                for (df_bb set = map[side].xrays.r[d]; set;)
                    df__circle(&c, df_pop_lsb(&set), 0.5, 0.5, 0.4, attrs);
        }

    df_king_safety_sets ks;
    df_king_safety(&ks, b);
    const df_color us = df_board_stm(b);
    const df_square king = df_board_king(b, us);
    const df_bb occ = df_board_occupied(b);
    if (o->check_block)
        for (df_bb set = ks.check_block; set;) {
            char attrs[64];
            snprintf(attrs, sizeof attrs, "fill=\"#f08c00\" fill-opacity=\"0.55\"");
            df__square_rect(&c, df_pop_lsb(&set), c.s * 0.3, attrs);
        }
    df__pieces(&c, b);
    if (o->pins)
        for (df_bb set = ks.pinned; set;) {
            const df_square sq = df_pop_lsb(&set);
            /* The pinner: the enemy slider on the king's line beyond the pinned piece. */
            const df_bb line = df_line(king, sq) & ks.pinners;
            for (df_bb p = line; p;) {
                const df_square pinner = df_pop_lsb(&p);
                if (df_has(df_between(king, pinner), sq) &&
                    !(df_between(king, pinner) & occ & ~df_square_bb(sq)))
                    df__line(&c, pinner, king, "#c81e1e");
            }
            char attrs[96];
            snprintf(attrs, sizeof attrs, "fill=\"none\" stroke=\"#c81e1e\" stroke-width=\"%.1f\"",
                     c.s * 0.07);
            df__circle(&c, sq, 0.5, 0.5, 0.45, attrs);
        }
    if (o->checkers)
        for (df_bb set = ks.checkers; set;) {
            const df_square sq = df_pop_lsb(&set);
            df__line(&c, sq, king, "#e03131");
            char attrs[96];
            snprintf(attrs, sizeof attrs, "fill=\"none\" stroke=\"#e03131\" stroke-width=\"%.1f\"",
                     c.s * 0.09);
            df__circle(&c, sq, 0.5, 0.5, 0.45, attrs);
        }
    if (o->discoverers)
        for (df_bb set = ks.discoverers; set;) {
            char attrs[96];
            snprintf(attrs, sizeof attrs, "fill=\"none\" stroke=\"#7b2cbf\" stroke-width=\"%.1f\"",
                     c.s * 0.07);
            df__circle(&c, df_pop_lsb(&set), 0.5, 0.5, 0.38, attrs);
        }
    df__put(&w, "</svg>\n");
    return w.len;
}
