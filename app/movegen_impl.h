/* The legal move generator's body, as static inline code: app/movegen.c instantiates it
 * for the baseline instruction set, app/movegen_popcnt.c (x86) once more with POPCNT, which
 * bulk counting at the last ply leans on (baseline x86-64 has no popcount instruction).
 * The including file defines MG_PERFT, the name of its perft recursion. */
#include "movegen.h"

/* A group of moves sharing how their origin follows from their target. */
enum {
    G_FROM,       /* from is fixed */
    G_DELTA,      /* from = to - delta (pawn pushes and captures, knight jumps) */
    G_PROMO,      /* as G_DELTA, four promotions each */
    G_PROMO_FROM, /* as G_FROM, four promotions each */
    G_SLIDER,     /* from: the first slider of src met walking from to in direction dir ^ 4 */
    G_EN_PASSANT, /* one move from -> to */
    G_CASTLE      /* one king move from -> to */
};

typedef struct {
    df_bb to, src;
    int8_t from, delta, dir, kind;
} mg_group;

/* The groups of a position, or only their move count: the count-only form (perft's last
 * ply) adds popcounts instead of storing groups, decided at compile time after inlining. */
typedef struct {
    mg_group g[48];
    int n;
    bool count_only;
    uint64_t count;
    df_bb empty;
} mg_groups;

static inline void add(mg_groups *G, int kind, df_bb to, int from, int delta, int dir, df_bb src)
{
    if (G->count_only) {
        G->count += (uint64_t)df_popcount(to) << (kind == G_PROMO || kind == G_PROMO_FROM ? 2 : 0);
        return;
    }
    if (!to) return;
    mg_group *g = &G->g[G->n++];
    g->to = to;
    g->src = src;
    g->from = (int8_t)from;
    g->delta = (int8_t)delta;
    g->dir = (int8_t)dir;
    g->kind = (int8_t)kind;
}

static inline void collect(const df_board *b, mg_groups *G, const bool count_only)
{
    const int us = b->stm, them = us ^ 1;
    const df_bb own = b->color[us], enemy = b->color[them];
    const df_bb occ = own | enemy, empty = ~occ;
    const df_bb king = own & b->piece[DF_KING];
    const int ksq = df_lsb(king);
    const df_bb rq = b->piece[DF_ROOK] | b->piece[DF_QUEEN];
    const df_bb bq = b->piece[DF_BISHOP] | b->piece[DF_QUEEN];
    const df_bb e_rq = enemy & rq, e_bq = enemy & bq;
    G->n = 0;
    G->count_only = count_only;
    G->count = 0;
    G->empty = empty;

    df_pins_checks ks;
    df_checks_and_pins(&ks, b);

    /* One call for two slider sets: ours (unpinned; their moves by direction) and the
     * enemy's seen through our king (the squares the king may not step on). */
    const df_bb pinned = ks.pinned;
    const df_bb u_rq = own & rq & ~pinned, u_bq = own & bq & ~pinned;
    df_rays r[2];
    df_slider_rays_both(r, (const df_bb[2]){u_rq, e_rq}, (const df_bb[2]){u_bq, e_bq},
                        (const df_bb[2]){empty, empty | king});
    df_bb danger = df_knight_attacks(enemy & b->piece[DF_KNIGHT]) |
                   df_pawn_any_attacks(enemy & b->piece[DF_PAWN], them) |
                   df_king_attacks(enemy & b->piece[DF_KING]);
    for (int d = 0; d < 8; d++) danger |= r[1].r[d];
    add(G, G_FROM, df_king_attacks(king) & ~own & ~danger, ksq, 0, 0, 0);
    if (df_more_than_one(ks.checkers)) return;

    const df_bb target = ks.checkers ? ks.checkers | ks.check_block : ~own;

    if (!ks.checkers) {
        /* Castling: rook squares between empty, king's path not attacked. */
        static const struct {
            int right, king_to;
            df_bb empty, safe;
        } castles[4] = {
            {DF_CASTLE_WK, DF_G1, 0x60, 0x60},
            {DF_CASTLE_WQ, DF_C1, 0x0e, 0x0c},
            {DF_CASTLE_BK, DF_G8, 0x60ull << 56, 0x60ull << 56},
            {DF_CASTLE_BQ, DF_C8, 0x0eull << 56, 0x0cull << 56},
        };
        for (int i = 2 * us; i < 2 * us + 2; i++)
            if ((b->castling & castles[i].right) && !(occ & castles[i].empty) &&
                !(danger & castles[i].safe))
                add(G, G_CASTLE, df_square_bb(castles[i].king_to), ksq, 0, 0, 0);
    }

    const df_bb knights = own & b->piece[DF_KNIGHT] & ~pinned;
    for (int k = 0; k < DF_KNIGHT_JUMPS; k++)
        add(G, G_DELTA, df_knight_jump(knights, k) & target, 0, df_knight_jump_delta(k), 0, 0);

    for (int d = 0; d < 8; d++) add(G, G_SLIDER, r[0].r[d] & target, 0, 0, d, d & 1 ? u_bq : u_rq);

    const int up = us ? DF_S : DF_N, push = us ? -8 : 8;
    const df_bb last = us ? DF_RANK_1 : DF_RANK_8, third = us ? DF_RANK_1 << 40 : DF_RANK_1 << 16;
    const df_bb pawns = own & b->piece[DF_PAWN];

    /* A pinned piece moves only along its pin line, and never while in check. */
    if (pinned && !ks.checkers) {
        df_bb p = pinned & ~b->piece[DF_KNIGHT];
        while (p) {
            const int sq = df_pop_lsb(&p);
            const df_bb line = df_line(ksq, sq), s = df_square_bb(sq);
            if ((pawns >> sq) & 1) {
                df_bb one = df_shift(s, up) & empty & line;
                df_bb moves = one | (df_shift(one & third, up) & empty) |
                              (df_pawn_any_attacks(s, us) & enemy & line);
                add(G, G_FROM, moves & ~last, sq, 0, 0, 0);
                add(G, G_PROMO_FROM, moves & last, sq, 0, 0, 0);
                continue;
            }
            df_bb att = 0;
            if ((rq >> sq) & 1) att |= df_square_rook_attacks(sq, occ);
            if ((bq >> sq) & 1) att |= df_square_bishop_attacks(sq, occ);
            add(G, G_FROM, att & line & ~own, sq, 0, 0, 0);
        }
    }

    const df_bb free_pawns = pawns & ~pinned;
    const df_bb one = df_shift(free_pawns, up) & empty;
    const df_bb two = df_shift(one & third, up) & empty & target;
    const df_bb pushes = one & target;
    const df_bb east = df_pawn_east_attacks(free_pawns, us) & enemy & target;
    const df_bb west = df_pawn_west_attacks(free_pawns, us) & enemy & target;
    const int de = us ? -7 : 9, dw = us ? -9 : 7;
    add(G, G_DELTA, pushes & ~last, 0, push, 0, 0);
    add(G, G_PROMO, pushes & last, 0, push, 0, 0);
    add(G, G_DELTA, two, 0, 2 * push, 0, 0);
    add(G, G_DELTA, east & ~last, 0, de, 0, 0);
    add(G, G_PROMO, east & last, 0, de, 0, 0);
    add(G, G_DELTA, west & ~last, 0, dw, 0, 0);
    add(G, G_PROMO, west & last, 0, dw, 0, 0);

    /* En passant: play it on the occupancy and look at the king, which catches the pin on
     * the rank through both pawns as well as checks it does or does not answer. */
    if (b->ep < 64) {
        const int cap = b->ep - push;
        df_bb cands = pawns & df_pawn_any_attacks(df_square_bb(b->ep), them);
        while (cands) {
            const int from = df_pop_lsb(&cands);
            const df_bb o2 = occ ^ df_square_bb(from) ^ df_square_bb(b->ep) ^ df_square_bb(cap);
            const df_bb hit =
                (df_square_rook_attacks(ksq, o2) & e_rq) |
                (df_square_bishop_attacks(ksq, o2) & e_bq) |
                (df_knight_attacks(king) & enemy & b->piece[DF_KNIGHT]) |
                (df_pawn_any_attacks(king, us) & enemy & b->piece[DF_PAWN] & ~df_square_bb(cap));
            if (!hit) add(G, G_EN_PASSANT, df_square_bb(b->ep), from, 0, 0, 0);
        }
    }
}

static inline uint64_t mg__count(const df_board *b)
{
    mg_groups G;
    collect(b, &G, true);
    return G.count;
}

static inline mg_move make_move(int from, int to, int promo, int flag)
{
    return (mg_move)from | (mg_move)to << 6 | (mg_move)promo << 12 | (mg_move)flag << 15;
}

static inline void mg__generate(const df_board *b, mg_list *out)
{
    mg_groups G;
    collect(b, &G, false);
    int n = 0;
    for (int i = 0; i < G.n; i++) {
        const mg_group *g = &G.g[i];
        df_bb to = g->to;
        while (to) {
            const int t = df_pop_lsb(&to);
            switch (g->kind) {
            case G_FROM:
                out->moves[n++] = make_move(g->from, t, 0, MG_NORMAL);
                break;
            case G_DELTA:
                out->moves[n++] = make_move(t - g->delta, t, 0, MG_NORMAL);
                break;
            case G_EN_PASSANT:
                out->moves[n++] = make_move(g->from, t, 0, MG_EN_PASSANT);
                break;
            case G_CASTLE:
                out->moves[n++] = make_move(g->from, t, 0, MG_CASTLE);
                break;
            case G_SLIDER: {
                df_bb back = df_ray_attacks(df_square_bb(t), G.empty, g->dir ^ 4) & g->src;
                out->moves[n++] = make_move(df_lsb(back), t, 0, MG_NORMAL);
                break;
            }
            default: {
                const int from = g->kind == G_PROMO ? t - g->delta : g->from;
                for (int p = DF_QUEEN; p >= DF_KNIGHT; p--)
                    out->moves[n++] = make_move(from, t, p, MG_NORMAL);
            }
            }
        }
    }
    out->count = n;
}

/* Castling rights that survive a move touching a square (king or rook moved or taken). */
static inline uint8_t rights_kept(int sq)
{
    switch (sq) {
    case DF_E1:
        return (uint8_t) ~(DF_CASTLE_WK | DF_CASTLE_WQ);
    case DF_H1:
        return (uint8_t)~DF_CASTLE_WK;
    case DF_A1:
        return (uint8_t)~DF_CASTLE_WQ;
    case DF_E8:
        return (uint8_t) ~(DF_CASTLE_BK | DF_CASTLE_BQ);
    case DF_H8:
        return (uint8_t)~DF_CASTLE_BK;
    case DF_A8:
        return (uint8_t)~DF_CASTLE_BQ;
    default:
        return 0xff;
    }
}

static inline void mg__make(df_board *b, mg_move m)
{
    const int from = mg_from(m), to = mg_to(m), us = b->stm, them = us ^ 1;
    const df_bb f = df_square_bb(from), t = df_square_bb(to);
    const int type = df_board_type_at(b, from);
    const bool capture = (b->color[them] & t) != 0;
    if (capture)
        for (int k = 0; k < DF_PIECE_TYPES; k++) b->piece[k] &= ~t;
    b->color[them] &= ~t;
    b->color[us] ^= f | t;
    b->piece[type] ^= f;
    b->piece[mg_promotion(m) ? mg_promotion(m) : type] |= t;
    if (mg_flag(m) == MG_EN_PASSANT) {
        const df_bb c = df_square_bb(us ? to + 8 : to - 8);
        b->piece[DF_PAWN] &= ~c;
        b->color[them] &= ~c;
    } else if (mg_flag(m) == MG_CASTLE) {
        const df_bb r =
            df_square_bb(to > from ? from + 3 : from - 4) | df_square_bb((from + to) / 2);
        b->piece[DF_ROOK] ^= r;
        b->color[us] ^= r;
    }
    b->castling &= rights_kept(from) & rights_kept(to);
    b->ep = type == DF_PAWN && (to - from == 16 || from - to == 16) ? (uint8_t)((from + to) / 2)
                                                                    : DF_SQUARE_NONE;
    b->halfmove = type == DF_PAWN || capture ? 0 : b->halfmove + 1;
    b->fullmove += us;
    b->stm = (uint8_t)them;
}

/* The perft recursion, instantiated per instruction set by the including file. */
static uint64_t MG_PERFT(const df_board *b, int depth)
{
    if (depth <= 0) return 1;
    if (depth == 1) return mg__count(b);
    mg_list list;
    mg__generate(b, &list);
    uint64_t nodes = 0;
    for (int i = 0; i < list.count; i++) {
        df_board child = *b;
        mg__make(&child, list.moves[i]);
        nodes += MG_PERFT(&child, depth - 1);
    }
    return nodes;
}
