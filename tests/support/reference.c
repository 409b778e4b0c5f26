/* SPDX-License-Identifier: MIT */
#include "reference.h"

#include <string.h>

static const int ref_df[8] = {0, 1, 1, -1, 0, -1, -1, 1};
static const int ref_dr[8] = {1, 1, 0, 1, -1, -1, 0, -1};

int ref_step(int sq, int d)
{
    int f = sq % 8 + ref_df[d], r = sq / 8 + ref_dr[d];
    return f < 0 || f > 7 || r < 0 || r > 7 ? -1 : r * 8 + f;
}

static bool has(df_bb bb, int sq) { return (bb >> sq) & 1; }
static df_bb bit(int sq) { return UINT64_C(1) << sq; }

df_bb ref_shift(df_bb bb, int d)
{
    df_bb out = 0;
    for (int sq = 0; sq < 64; sq++)
        if (has(bb, sq) && ref_step(sq, d) >= 0) out |= bit(ref_step(sq, d));
    return out;
}

df_bb ref_fill(df_bb gen, df_bb empty, int d)
{
    df_bb out = gen;
    for (int sq = 0; sq < 64; sq++) {
        if (!has(gen, sq)) continue;
        for (int s = ref_step(sq, d); s >= 0 && has(empty, s); s = ref_step(s, d)) out |= bit(s);
    }
    return out;
}

df_bb ref_ray(int sq, df_bb occ, int d)
{
    df_bb out = 0;
    for (int s = ref_step(sq, d); s >= 0; s = ref_step(s, d)) {
        out |= bit(s);
        if (has(occ, s)) break;
    }
    return out;
}

df_bb ref_ray_attacks(df_bb sliders, df_bb empty, int d)
{
    df_bb out = 0;
    for (int sq = 0; sq < 64; sq++)
        if (has(sliders, sq)) out |= ref_ray(sq, ~empty, d);
    return out;
}

df_bb ref_xray(int sq, df_bb occ, int d)
{
    int s = ref_step(sq, d);
    while (s >= 0 && !has(occ, s)) s = ref_step(s, d);
    return s < 0 ? 0 : ref_ray(s, occ, d);
}

static const int knight_off[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                     {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
static const int king_off[8][2] = {{0, 1},  {1, 1},   {1, 0},  {1, -1},
                                   {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}};

/* The squares at the offsets from sq that are on the board. */
static df_bb ref_offsets_from(int sq, const int (*off)[2], int n)
{
    df_bb out = 0;
    for (int i = 0; i < n; i++) {
        int f = sq % 8 + off[i][0], r = sq / 8 + off[i][1];
        if (f >= 0 && f < 8 && r >= 0 && r < 8) out |= bit(r * 8 + f);
    }
    return out;
}

static df_bb ref_offsets(df_bb from, const int (*off)[2], int n)
{
    df_bb out = 0;
    for (int sq = 0; sq < 64; sq++)
        if (has(from, sq)) out |= ref_offsets_from(sq, off, n);
    return out;
}

df_bb ref_knight(df_bb knights) { return ref_offsets(knights, knight_off, 8); }

df_bb ref_king(df_bb kings) { return ref_offsets(kings, king_off, 8); }

df_bb ref_pawn(df_bb pawns, int color, int east)
{
    const int off[1][2] = {{east ? 1 : -1, color ? -1 : 1}};
    return ref_offsets(pawns, off, 1);
}

/* Direction from a to b when they are aligned, else -1. */
static int ref_direction(int a, int b)
{
    for (int d = 0; d < 8; d++)
        for (int s = ref_step(a, d); s >= 0; s = ref_step(s, d))
            if (s == b) return d;
    return -1;
}

df_bb ref_between(int a, int b)
{
    int d = ref_direction(a, b);
    df_bb out = 0;
    if (d < 0) return 0;
    for (int s = ref_step(a, d); s != b; s = ref_step(s, d)) out |= bit(s);
    return out;
}

df_bb ref_line(int a, int b)
{
    int d = ref_direction(a, b);
    if (d < 0) return 0;
    return bit(a) | ref_ray(a, 0, d) | ref_ray(a, 0, d ^ 4);
}

df_bb ref_piece_attacks(int type, int color, int sq, df_bb occ)
{
    df_bb out = 0;
    switch (type) {
    /* One square's offsets, not ref_pawn/ref_knight/ref_king's walk over all 64 squares: the
     * oracle tests call this for every piece of every square they check (the walk was most of
     * their time). */
    case DF_PAWN: {
        const int off[2][2] = {{-1, color ? -1 : 1}, {1, color ? -1 : 1}};
        return ref_offsets_from(sq, off, 2);
    }
    case DF_KNIGHT:
        return ref_offsets_from(sq, knight_off, 8);
    case DF_KING:
        return ref_offsets_from(sq, king_off, 8);
    default:
        for (int d = 0; d < 8; d++)
            if (type == DF_QUEEN || (type == DF_ROOK) == (d % 2 == 0)) out |= ref_ray(sq, occ, d);
        return out;
    }
}

static bool moves_along(int type, int d)
{
    return type == DF_QUEEN || (type == DF_ROOK && d % 2 == 0) || (type == DF_BISHOP && d % 2);
}

void ref_attack_map(df_attack_map *m, const df_board *b, int color)
{
    const df_bb occ = df_board_occupied(b);
    int count[64] = {0};
    memset(m, 0, sizeof *m);
    for (int sq = 0; sq < 64; sq++) {
        if (!has(b->color[color], sq)) continue;
        int type = df_board_type_at(b, (df_square)sq);
        df_bb att = ref_piece_attacks(type, color, sq, occ);
        for (int t = 0; t < 64; t++) count[t] += has(att, t);
        m->all |= att;
        m->by_type[type] |= att;
        switch (type) {
        case DF_PAWN:
            m->pawn_east |= ref_pawn(bit(sq), color, 1);
            m->pawn_west |= ref_pawn(bit(sq), color, 0);
            break;
        case DF_KNIGHT:
        case DF_KING:
            break;
        default:
            for (int d = 0; d < 8; d++) {
                if (!moves_along(type, d)) continue;
                m->rays.r[d] |= ref_ray(sq, occ, d);
                m->xrays.r[d] |= ref_xray(sq, occ, d);
            }
        }
    }
    for (int t = 0; t < 64; t++) {
        for (int k = 0; k < DF_COUNT_BITS; k++)
            if ((count[t] >> k) & 1) m->count[k] |= bit(t);
        if (count[t] >= 2) m->twice |= bit(t);
    }
}

void ref_king_safety(df_king_safety_sets *ks, const df_board *b)
{
    const int us = b->stm, them = us ^ 1;
    const df_bb occ = df_board_occupied(b);
    memset(ks, 0, sizeof *ks);
    int ksq = df_board_king(b, us), eksq = df_board_king(b, them);
    for (int sq = 0; sq < 64; sq++) {
        if (!has(b->color[them], sq)) continue;
        int type = df_board_type_at(b, (df_square)sq);
        if (has(ref_piece_attacks(type, them, sq, occ), ksq)) ks->checkers |= bit(sq);
    }
    for (int d = 0; d < 8; d++) {
        /* From our king: first and second piece along d. */
        df_bb walked = 0;
        int first = -1, second = -1;
        for (int s = ref_step(ksq, d); s >= 0; s = ref_step(s, d)) {
            if (!has(occ, s)) {
                if (first < 0) walked |= bit(s);
                continue;
            }
            if (first < 0)
                first = s;
            else {
                second = s;
                break;
            }
        }
        /* A slider on the line that moves toward the king moves in direction d ^ 4. */
        if (first >= 0 && has(b->color[them], first) &&
            moves_along(df_board_type_at(b, (df_square)first), d))
            ks->check_block |= walked;
        if (first >= 0 && second >= 0 && has(b->color[us], first) && has(b->color[them], second) &&
            moves_along(df_board_type_at(b, (df_square)second), d)) {
            ks->pinned |= bit(first);
            ks->pinners |= bit(second);
        }
        /* From the enemy king: ours alone in front of one of our sliders. */
        first = second = -1;
        for (int s = ref_step(eksq, d); s >= 0; s = ref_step(s, d)) {
            if (!has(occ, s)) continue;
            if (first < 0)
                first = s;
            else {
                second = s;
                break;
            }
        }
        if (first >= 0 && second >= 0 && has(b->color[us], first) && has(b->color[us], second) &&
            moves_along(df_board_type_at(b, (df_square)second), d))
            ks->discoverers |= bit(first);
    }
}

df_bb ref_attackers_to(const df_board *b, int sq, df_bb occ)
{
    df_bb out = 0;
    for (int s = 0; s < 64; s++) {
        int type = df_board_type_at(b, (df_square)s);
        if (type == DF_PIECE_TYPES) continue;
        int color = (int)((b->color[DF_BLACK] >> s) & 1);
        if (has(ref_piece_attacks(type, color, s, occ), sq)) out |= bit(s);
    }
    return out;
}

void ref_attackers_to_all(df_bb out[64], const df_board *b, df_bb occ)
{
    memset(out, 0, 64 * sizeof *out);
    for (int s = 0; s < 64; s++) {
        int type = df_board_type_at(b, (df_square)s);
        if (type == DF_PIECE_TYPES) continue;
        int color = (int)((b->color[DF_BLACK] >> s) & 1);
        df_bb att = ref_piece_attacks(type, color, s, occ);
        for (int t = 0; t < 64; t++)
            if (has(att, t)) out[t] |= bit(s);
    }
}

/* ---- The engine layer, the obvious way ---------------------------------------------------- */

static int ref_type_at(const df_board *b, int sq) { return df_board_type_at(b, (df_square)sq); }

static void ref_put(df_board *b, int color, int type, int sq)
{
    b->color[color] |= bit(sq);
    b->piece[type] |= bit(sq);
}

static void ref_clear(df_board *b, int sq)
{
    for (int c = 0; c < 2; c++) b->color[c] &= ~bit(sq);
    for (int t = 0; t < DF_PIECE_TYPES; t++) b->piece[t] &= ~bit(sq);
}

uint64_t ref_polyglot_key(const df_board *b)
{
    uint64_t key = 0;
    for (int sq = 0; sq < 64; sq++) {
        int type = ref_type_at(b, sq);
        if (type == DF_PIECE_TYPES) continue;
        int white = has(b->color[DF_WHITE], sq);
        key ^= df_polyglot_random[64 * (2 * type + white) + sq];
    }
    for (int r = 0; r < 4; r++)
        if ((b->castling >> r) & 1) key ^= df_polyglot_random[768 + r];
    if (b->ep < 64) {
        /* A pawn of the side to move beside the pawn that just moved. */
        int victim = b->stm ? b->ep + 8 : b->ep - 8, beside = 0;
        for (int df = -1; df <= 1; df += 2) {
            int f = victim % 8 + df;
            if (f >= 0 && f < 8 && has(b->piece[DF_PAWN] & b->color[b->stm], victim + df))
                beside = 1;
        }
        if (beside) key ^= df_polyglot_random[772 + b->ep % 8];
    }
    if (b->stm == DF_WHITE) key ^= df_polyglot_random[780];
    return key;
}

/* The squares of a rank from a to b, both included. */
static df_bb ref_span(int a, int b)
{
    df_bb out = 0;
    for (int s = a < b ? a : b; s <= (a < b ? b : a); s++) out |= bit(s);
    return out;
}

/* The board after m, its key left as it was (a legality test needs no key). */
static void ref_make_board(df_board *out, const df_board *b, df_move m)
{
    df_board n = *b;
    const int us = b->stm, them = us ^ 1, from = df_move_from(m), to = df_move_to(m);
    const int kind = df_move_kind_of(m), type = ref_type_at(b, from);
    int capture = 0;
    n.ep = DF_SQUARE_NONE;
    if (kind == DF_MOVE_CASTLING) {
        const int right = 2 * us + (to < from), rank = us ? 56 : 0;
        ref_clear(&n, from);
        ref_clear(&n, to);
        ref_put(&n, us, DF_KING, rank + (to > from ? 6 : 2));
        ref_put(&n, us, DF_ROOK, rank + (to > from ? 5 : 3));
        (void)right;
    } else {
        if (kind == DF_MOVE_EN_PASSANT) {
            ref_clear(&n, us ? to + 8 : to - 8);
            capture = 1;
        }
        if (has(b->color[them], to)) capture = 1;
        ref_clear(&n, to);
        ref_clear(&n, from);
        ref_put(&n, us, kind == DF_MOVE_PROMOTION ? (int)df_move_promotion(m) : type, to);
        if (type == DF_PAWN && (to - from == 16 || from - to == 16)) {
            const int ep = (from + to) / 2;
            for (int df = -1; df <= 1; df += 2) {
                const int f = to % 8 + df;
                if (f >= 0 && f < 8 && has(n.piece[DF_PAWN] & n.color[them], to + df))
                    n.ep = (uint8_t)ep;
            }
        }
    }
    for (int r = 0; r < 4; r++) {
        if (!((b->castling >> r) & 1)) continue;
        const int owner = r >> 1;
        if ((type == DF_KING && owner == us) || b->castle_rook[r] == from ||
            b->castle_rook[r] == to)
            n.castling &= (uint8_t) ~(1 << r);
    }
    n.halfmove = type == DF_PAWN || capture ? 0 : b->halfmove + 1;
    n.fullmove = b->fullmove + (uint32_t)us;
    n.stm = (uint8_t)them;
    *out = n;
}

void ref_make_move(df_board *out, const df_board *b, df_move m)
{
    ref_make_board(out, b, m);
    out->key = ref_polyglot_key(out);
}

/* Whether a piece of by on occ attacks sq (by's pieces only: the other side's cannot). */
static int ref_attacked(const df_board *b, int sq, int by, df_bb occ)
{
    for (int s = 0; s < 64; s++) {
        if (!has(b->color[by] & occ, s)) continue;
        if (has(ref_piece_attacks(ref_type_at(b, s), by, s, occ), sq)) return 1;
    }
    return 0;
}

static void ref_add(df_move *out, int *n, const df_board *b, df_move m)
{
    df_board c;
    ref_make_board(&c, b, m);
    /* Legal when the mover's king is not attacked afterwards. */
    const int us = b->stm;
    int ksq = -1;
    for (int s = 0; s < 64; s++)
        if (has(c.color[us] & c.piece[DF_KING], s)) ksq = s;
    if (!ref_attacked(&c, ksq, us ^ 1, df_board_occupied(&c))) out[(*n)++] = m;
}

int ref_legal_moves(const df_board *b, df_move *out)
{
    const int us = b->stm, them = us ^ 1;
    const df_bb occ = df_board_occupied(b);
    int n = 0;
    for (int from = 0; from < 64; from++) {
        if (!has(b->color[us], from)) continue;
        const int type = ref_type_at(b, from);
        if (type == DF_PAWN) {
            const int up = us ? -8 : 8, last = us ? 0 : 7, start = us ? 6 : 1;
            df_bb targets = ref_pawn(bit(from), us, 0) | ref_pawn(bit(from), us, 1);
            targets &= b->color[them] & ~b->piece[DF_KING];
            if (!has(occ, from + up)) {
                targets |= bit(from + up);
                if ((from >> 3) == start && !has(occ, from + 2 * up)) targets |= bit(from + 2 * up);
            }
            for (int to = 0; to < 64; to++) {
                if (!has(targets, to)) continue;
                if ((to >> 3) == last)
                    for (int p = DF_KNIGHT; p <= DF_QUEEN; p++)
                        ref_add(out, &n, b,
                                df_move_make((df_square)from, (df_square)to, DF_MOVE_PROMOTION,
                                             (df_piece_type)p));
                else
                    ref_add(out, &n, b,
                            df_move_make((df_square)from, (df_square)to, DF_MOVE_NORMAL, DF_PAWN));
            }
            if (b->ep < 64 && has(ref_pawn(bit(from), us, 0) | ref_pawn(bit(from), us, 1), b->ep))
                ref_add(
                    out, &n, b,
                    df_move_make((df_square)from, (df_square)b->ep, DF_MOVE_EN_PASSANT, DF_PAWN));
            continue;
        }
        df_bb targets = ref_piece_attacks(type, us, from, occ) & ~b->color[us] & ~b->piece[DF_KING];
        for (int to = 0; to < 64; to++)
            if (has(targets, to))
                ref_add(out, &n, b,
                        df_move_make((df_square)from, (df_square)to, DF_MOVE_NORMAL, DF_PAWN));
    }
    /* Castling, by the Chess960 rule that standard chess obeys too. */
    int ksq = -1;
    for (int s = 0; s < 64; s++)
        if (has(b->color[us] & b->piece[DF_KING], s)) ksq = s;
    for (int r = 2 * us; r < 2 * us + 2; r++) {
        if (!((b->castling >> r) & 1)) continue;
        const int rook = b->castle_rook[r], rank = us ? 56 : 0;
        const int kto = rank + (r & 1 ? 2 : 6), rto = rank + (r & 1 ? 3 : 5);
        const df_bb must_be_empty =
            (ref_span(ksq, rook) | ref_span(ksq, kto) | ref_span(rook, rto)) & ~bit(ksq) &
            ~bit(rook);
        if (must_be_empty & occ) continue;
        int safe = 1;
        for (int s = 0; s < 64; s++)
            if (has(ref_span(ksq, kto), s) && ref_attacked(b, s, them, occ)) safe = 0;
        if (safe)
            ref_add(out, &n, b,
                    df_move_make((df_square)ksq, (df_square)rook, DF_MOVE_CASTLING, DF_PAWN));
    }
    return n;
}

/* The exchange after a capture on sq: side may capture with its least valuable attacker
 * (ties: the lowest square) or stop; what it gains at best, given that on_square stands
 * there. A king captures only when the other side then has no attacker left. */
static int ref_swap(const df_board *b, int sq, df_bb occ, int side, int on_square)
{
    const df_bb attackers = ref_attackers_to(b, sq, occ) & occ & b->color[side];
    if (!attackers) return 0;
    int from = -1, type = DF_PIECE_TYPES;
    for (int t = DF_PAWN; t <= DF_KING && from < 0; t++)
        for (int s = 0; s < 64 && from < 0; s++)
            if (has(attackers & b->piece[t], s)) from = s, type = t;
    if (type == DF_KING &&
        (ref_attackers_to(b, sq, occ & ~bit(from)) & occ & ~bit(from) & b->color[side ^ 1]))
        return 0;
    const int gain = df_see_value[on_square] - ref_swap(b, sq, occ & ~bit(from), side ^ 1, type);
    return gain > 0 ? gain : 0;
}

int ref_see(const df_board *b, df_move m)
{
    const int kind = df_move_kind_of(m), from = df_move_from(m), to = df_move_to(m);
    if (kind == DF_MOVE_CASTLING) return 0;
    df_bb occ = df_board_occupied(b) & ~bit(from);
    int captured = 0;
    if (kind == DF_MOVE_EN_PASSANT) {
        occ &= ~bit(b->stm ? to + 8 : to - 8);
        captured = df_see_value[DF_PAWN];
    } else if (has(b->color[b->stm ^ 1], to)) {
        captured = df_see_value[ref_type_at(b, to)];
    }
    return captured - ref_swap(b, to, occ, b->stm ^ 1, ref_type_at(b, from));
}

/* SAN by generate and match (what df_move_from_san did before it resolved candidates
 * directly): strip + # ! ?, castling as O-O or 0-0, a piece letter, a promotion with or
 * without '=', the destination last, then 'x' or ':', then file and rank disambiguation; a
 * pawn capture must name its file. */
int ref_move_from_san(const df_board *b, const char *t, size_t len, df_move *out)
{
    while (len &&
           (t[len - 1] == '+' || t[len - 1] == '#' || t[len - 1] == '!' || t[len - 1] == '?'))
        len--;
    if (len > 16) return -1;
    int castle = 0, piece = DF_PAWN, promotion = DF_PIECE_TYPES, file = -1, rank = -1;
    if ((len == 3 && (!memcmp(t, "O-O", 3) || !memcmp(t, "0-0", 3))) ||
        (len == 5 && (!memcmp(t, "O-O-O", 5) || !memcmp(t, "0-0-0", 5))))
        castle = len == 3 ? 1 : 2;
    size_t i = 0;
    int to = -1;
    if (!castle) {
        const char *pieces = "NBRQK";
        for (int k = 0; k < 5; k++)
            if (len && t[0] == pieces[k]) piece = DF_KNIGHT + k, i = 1;
        const char *promos = "NBRQ";
        for (int k = 0; k < 4 && len >= 2 && piece == DF_PAWN && promotion == DF_PIECE_TYPES; k++)
            if (t[len - 1] == promos[k]) {
                promotion = DF_KNIGHT + k;
                len -= t[len - 2] == '=' ? 2 : 1;
            }
        if (len < i + 2) return -1;
        const char f = t[len - 2], r = t[len - 1];
        if (f < 'a' || f > 'h' || r < '1' || r > '8') return -1;
        to = (r - '1') * 8 + (f - 'a');
        size_t end = len - 2;
        if (end > i && (t[end - 1] == 'x' || t[end - 1] == ':')) end--;
        for (; i < end; i++) {
            if (t[i] >= 'a' && t[i] <= 'h' && file < 0 && rank < 0)
                file = t[i] - 'a';
            else if (t[i] >= '1' && t[i] <= '8' && rank < 0)
                rank = t[i] - '1';
            else
                return -1;
        }
    }
    df_move moves[DF_MAX_MOVES];
    const int n = ref_legal_moves(b, moves);
    int matches = 0;
    for (int k = 0; k < n; k++) {
        const df_move m = moves[k];
        const int from = df_move_from(m);
        bool match;
        if (df_move_kind_of(m) == DF_MOVE_CASTLING)
            match = castle == ((int)df_move_to(m) > from ? 1 : 2);
        else
            match = !castle && (int)df_move_to(m) == to && ref_type_at(b, from) == piece &&
                    (int)df_move_promotion(m) == promotion && (file < 0 || from % 8 == file) &&
                    (rank < 0 || from / 8 == rank) &&
                    /* a pawn capture names the file it comes from */
                    (piece != DF_PAWN || from % 8 == to % 8 || file >= 0);
        if (match) {
            *out = m;
            matches++;
        }
    }
    return matches;
}

/* Play the move, look at the enemy king. Direct when the piece that moved (or the castling
 * rook) attacks it, discovered when another piece does. */
int ref_gives_check(const df_board *b, df_move m)
{
    df_board n;
    ref_make_move(&n, b, m);
    const int us = b->stm, eksq = df_board_king(&n, (df_color)(us ^ 1));
    const df_bb occ = df_board_occupied(&n);
    df_bb moved = df_square_bb(df_move_to(m));
    if (df_move_kind_of(m) == DF_MOVE_CASTLING) moved = n.color[us] & ~b->color[us];
    int result = 0;
    for (int s = 0; s < 64; s++) {
        if (!((n.color[us] >> s) & 1)) continue;
        const df_piece_type t = df_board_type_at(&n, (df_square)s);
        if (!((ref_piece_attacks(t, us, s, occ) >> eksq) & 1)) continue;
        result |= (moved >> s) & 1 ? DF_CHECK_DIRECT : DF_CHECK_DISCOVERED;
    }
    return result;
}
