/* SPDX-License-Identifier: MIT */
/* Internal template: the legal move generator, bulk counting and perft, instantiated once
 * per backend after kernels_tpl.h, so the backend's eight-direction fill (df__rays_of) and
 * king safety (df__king_safety) inline into it. One king-safety pass and one fill of two
 * slider sets per position: our unpinned sliders (their moves by direction) and the enemy's
 * seen through our king (the squares the king may not step on). Moves are produced as groups
 * of targets sharing how their origin follows from their target, so a leaf count is a sum
 * of popcounts (bulk counting). */
#include "lookup/lookup.h"
#include "lookup/tables.h"
#include "castling.h"
#include "make_move.h"

/* The generator's pieces are inlined into each of its two uses (listing and counting), so
 * that the count-only flag is a constant and the counting path sheds the listing. */
#define MG_INLINE static inline __attribute__((always_inline))

/* The slider attacks of one piece (a rook's and a bishop's from sq through occ) by the
 * active lookup method's tables (src/lookup/), chosen at run time by the entry points below
 * and a constant inside the generator: PEXT where the pext method is active (a CPU with fast
 * PEXT), magic where magic is, the per-ray bit scans with "rays" (no tables). */
MG_INLINE df_bb mg_rook(df_square sq, df_bb occ, const df__sliders sl)
{
#ifdef DF__HAVE_PEXT_ASM
    if (sl == DF__SLIDERS_PEXT) return df__pext_lookup(&df__pext_rook[sq], occ);
#endif
    if (sl == DF__SLIDERS_MAGIC) return df__magic_lookup(&df__magic_rook[sq], occ);
    return df_square_rook_attacks(sq, occ);
}
MG_INLINE df_bb mg_bishop(df_square sq, df_bb occ, const df__sliders sl)
{
#ifdef DF__HAVE_PEXT_ASM
    if (sl == DF__SLIDERS_PEXT) return df__pext_lookup(&df__pext_bishop[sq], occ);
#endif
    if (sl == DF__SLIDERS_MAGIC) return df__magic_lookup(&df__magic_bishop[sq], occ);
    return df_square_bishop_attacks(sq, occ);
}

/* A rook's and a bishop's attacks from sq on the empty board: the tables' entry for no
 * occupancy (index 0 in both kinds of table). */
MG_INLINE df_bb mg_rook_lines(df_square sq, const df__sliders sl)
{
#ifdef DF__HAVE_PEXT_ASM
    if (sl == DF__SLIDERS_PEXT) return df__pext_rook[sq].attacks[0];
#endif
    if (sl == DF__SLIDERS_MAGIC) return df__magic_rook[sq].attacks[0];
    return df_orthogonal_lines(sq);
}
MG_INLINE df_bb mg_bishop_lines(df_square sq, const df__sliders sl)
{
#ifdef DF__HAVE_PEXT_ASM
    if (sl == DF__SLIDERS_PEXT) return df__pext_bishop[sq].attacks[0];
#endif
    if (sl == DF__SLIDERS_MAGIC) return df__magic_bishop[sq].attacks[0];
    return df_diagonal_lines(sq);
}

/* X(name, method) for every method the generator is instantiated for. */
#ifdef DF__HAVE_PEXT_ASM
#define MG_SLIDERS(X)                                                                              \
    X(rays, DF__SLIDERS_RAYS) X(magic, DF__SLIDERS_MAGIC) X(pext, DF__SLIDERS_PEXT)
#else
#define MG_SLIDERS(X) X(rays, DF__SLIDERS_RAYS) X(magic, DF__SLIDERS_MAGIC)
#endif

/* Whether the sliders rq (rooks and queens) and bq (bishops and queens) are one piece at
 * most, looked up rather than filled in eight directions: a fill costs the same for one slider
 * as for ten, a lookup a few instructions (a queen's two). At most two pieces saved less
 * (callgrind, AVX2 backend: its test and the lookups cost the positions with many sliders).
 * With "rays" (bit scans, no tables) only our own slider when counting: the enemy's by bit
 * scans measured slower than its fill. */
MG_INLINE bool mg_sparse(df_bb rq, df_bb bq, const df__sliders sl, const bool counting)
{
    return (sl != DF__SLIDERS_RAYS || counting) && !df_more_than_one(rq | bq);
}

/* The piece sets a generator reads, where krp, a constant, says the position holds kings, rooks
 * and pawns only and no castling right (rook endings, CPW 3): then the knights, bishops and
 * queens are known to be none, and every use of them folds away at compile time. A perft keeps
 * krp for a whole subtree (no move of such a position adds a piece but a promotion, nor a
 * castling right). */
MG_INLINE bool mg_is_krp(const df_board *b)
{
    return !(b->piece[DF_KNIGHT] | b->piece[DF_BISHOP] | b->piece[DF_QUEEN] | b->castling);
}
MG_INLINE df_bb mg_knights(const df_board *b, const bool krp)
{
    return krp ? 0 : b->piece[DF_KNIGHT];
}
MG_INLINE df_bb mg_queens(const df_board *b, const bool krp)
{
    return krp ? 0 : b->piece[DF_QUEEN];
}
MG_INLINE df_bb mg_rq(const df_board *b, const bool krp)
{
    return b->piece[DF_ROOK] | mg_queens(b, krp);
}
MG_INLINE df_bb mg_bq(const df_board *b, const bool krp)
{
    return krp ? 0 : b->piece[DF_BISHOP] | b->piece[DF_QUEEN];
}

/* How a group's origins follow from its targets. */
enum {
    G_FROM,       /* from is fixed */
    G_DELTA,      /* from = to - delta (pawn pushes and captures, knight jumps) */
    G_PROMO,      /* as G_DELTA, four promotions each */
    G_PROMO_FROM, /* as G_FROM, four promotions each */
    G_SLIDER,     /* from: the first piece met walking from to against direction dir */
    G_EN_PASSANT, /* one capture from -> to */
    G_CASTLE      /* one castling: the king from -> its rook on to */
};

typedef struct {
    df_bb to;
    int8_t from, delta, dir, kind;
    int8_t type; /* the moving piece's type; for G_SLIDER the type of a non-queen */
} mg_group;

/* At most: the king, 2 castlings, 8 knight jumps, 8 slider directions (or a lone slider's
 * two lookups), 2 groups for each of at most 8 pinned pieces, 7 pawn groups and 2 en-passant
 * captures. */
#define MG_MAX_GROUPS 44

/* The groups of a position, or only their move count: the count-only form (perft's last
 * ply) adds popcounts instead of storing groups, decided at compile time after inlining. */
typedef struct {
    mg_group g[MG_MAX_GROUPS];
    int n;
    bool count_only;
    uint64_t count;
    df_bb empty;
} mg_groups;

MG_INLINE void mg_add(mg_groups *G, int kind, df_piece_type type, df_bb to, df_square from,
                      int delta, int dir)
{
    if (G->count_only) {
        G->count += (uint64_t)df_popcount(to) << (kind == G_PROMO || kind == G_PROMO_FROM ? 2 : 0);
        return;
    }
    if (!to) return;
    mg_group *g = &G->g[G->n++];
    g->to = to;
    g->from = (int8_t)from;
    g->delta = (int8_t)delta;
    g->dir = (int8_t)dir;
    g->kind = (int8_t)kind;
    g->type = (int8_t)type;
}

/* What the generator knows of a position after its king-safety pass and its fill. */
typedef struct {
    const df_board *b;
    df_color us, them;
    df_square ksq;
    df_bb own, enemy, occ, empty;
    df_bb checkers, check_block, pinned, pinners;
    df_bb danger; /* squares the king may not step on */
    df_bb filter; /* squares the asked-for kinds of move may land on */
    df_bb target; /* squares a non-king move may land on */
    df_bb u_rq, u_bq, e_rq;
} mg_position;

MG_INLINE void mg_setup(mg_position *p, const df_board *b, unsigned kinds, const df_color us,
                        const df__sliders sl, const bool krp)
{
    p->b = b;
    p->us = us;
    p->them = (df_color)(p->us ^ 1);
    p->own = b->color[p->us];
    p->enemy = b->color[p->them];
    p->occ = p->own | p->enemy;
    p->empty = ~p->occ;
    const df_bb king = p->own & b->piece[DF_KING];
    p->ksq = df_lsb(king);
    const df_bb rq = mg_rq(b, krp), bq = mg_bq(b, krp);
    if (sl == DF__SLIDERS_RAYS) {
        df_king_safety_sets ks;
        df__king_safety(&ks, b, us, false);
        p->checkers = ks.checkers;
        p->check_block = ks.check_block;
        p->pinned = ks.pinned;
        p->pinners = ks.pinners;
    } else {
        /* With tables, the sniper method: the enemy sliders on the king's lines (on the
         * empty board), each looked at through what stands between: nothing is a check, one
         * own piece a pin. Usually there are none or one, where the king's eight rays cost
         * the same whatever stands on them. */
        const df_square ksq = p->ksq;
        df_bb checkers = (df_knight_table[ksq] & mg_knights(b, krp)) |
                         (df_pawn_table[us][ksq] & b->piece[DF_PAWN]) |
                         (df_king_table[ksq] & b->piece[DF_KING]);
        df_bb block = 0, pinned = 0, pinners = 0;
        df_bb snipers =
            ((mg_rook_lines(ksq, sl) & rq) | (mg_bishop_lines(ksq, sl) & bq)) & p->enemy;
        while (snipers) {
            const df_square s = df_pop_lsb(&snipers);
            const df_bb between = df_between(ksq, s), in = between & p->occ;
            if (!in) {
                checkers |= df_square_bb(s);
                block |= between;
            } else if (!df_more_than_one(in) && (in & p->own)) {
                pinned |= in;
                pinners |= df_square_bb(s);
            }
        }
        p->checkers = checkers & p->enemy;
        p->check_block = block;
        p->pinned = pinned;
        p->pinners = pinners;
    }

    p->u_rq = p->own & rq & ~p->pinned;
    p->u_bq = p->own & bq & ~p->pinned;
    p->e_rq = p->enemy & rq;
    const df_bb e_bq = p->enemy & bq;
    /* Knights and king from their tables: fewer operations than set-wise jumps for the
     * usual two knights at most, and one king. */
    df_bb danger = df_pawn_any_attacks(p->enemy & b->piece[DF_PAWN], p->them);
    for (df_bb leapers = p->enemy & mg_knights(b, krp); leapers;)
        danger |= df_knight_table[df_pop_lsb(&leapers)];
    for (df_bb leapers = p->enemy & b->piece[DF_KING]; leapers;)
        danger |= df_king_table[df_pop_lsb(&leapers)];
    /* The enemy's sliders seen through our king (it may not step back along a checking
     * line). */
    if (mg_sparse(p->e_rq, e_bq, sl, false)) {
        const df_bb through = p->occ ^ king;
        for (df_bb s = p->e_rq; s;) danger |= mg_rook(df_pop_lsb(&s), through, sl);
        for (df_bb s = e_bq; s;) danger |= mg_bishop(df_pop_lsb(&s), through, sl);
    } else {
        df_rays enemy_rays;
        df__rays_of(&enemy_rays, p->e_rq, e_bq, p->empty | king);
        for (int d = 0; d < DF_DIRS; d++) danger |= enemy_rays.r[d];
    }
    p->danger = danger;
    /* Never a king capture: on a board that is not playable the children keep both kings. */
    p->filter = (kinds & DF__GEN_CAPTURES ? p->enemy & ~b->piece[DF_KING] : 0) |
                (kinds & DF__GEN_QUIETS ? p->empty : 0);
    p->target = (p->checkers ? p->checkers | p->check_block : DF_FULL) & p->filter;
}

/* Castling by the Chess960 rule, which standard chess obeys too: the squares between king
 * and rook and both destinations are empty but for those two, and the king passes no
 * attacked square. The castling rook itself may shield the king's path from an enemy rook
 * or queen on the rank (Chess960): the rank is looked at again without it. */
MG_INLINE void mg_castling(mg_groups *G, const mg_position *p)
{
    const df_board *b = p->b;
    const int kf = df_file_of(p->ksq);
    const df_bb rank = df_rank_bb(df_rank_of(p->ksq));
    unsigned rights = b->castling & df_castle_rights_of(p->us);
    while (rights) {
        const int r = __builtin_ctz(rights);
        rights &= rights - 1;
        const df_square rsq = (df_square)b->castle_rook[r];
        if (p->occ & df__castle_empty[r][kf][df_file_of(rsq)]) continue;
        const df_bb king_path = df__castle_safe[r][kf];
        if (p->danger & king_path) continue;
        /* Only an enemy rook or queen on the rank can be shielded by the castling rook. */
        if (p->e_rq & rank) {
            const df_bb occ = p->occ ^ df_square_bb(p->ksq) ^ df_square_bb(rsq);
            df_bb path = king_path, rank_attack = 0;
            while (path) {
                const df_square s = df_pop_lsb(&path);
                rank_attack |= df_square_ray(s, occ, DF_E) | df_square_ray(s, occ, DF_W);
            }
            if (rank_attack & p->e_rq) continue;
        }
        mg_add(G, G_CASTLE, DF_KING, df_square_bb(rsq), p->ksq, 0, 0);
    }
}

/* Knights and sliders that are not pinned; in endings many positions have none of either,
 * and the test predicts perfectly within a subtree. */
MG_INLINE void mg_pieces(mg_groups *G, const mg_position *p, const df__sliders sl, const bool krp)
{
    df_bb knights = p->own & mg_knights(p->b, krp) & ~p->pinned;
    /* Counting, a table lookup per knight costs less than eight set-wise jumps. */
    if (G->count_only)
        while (knights)
            G->count += (uint64_t)df_popcount(df_knight_table[df_pop_lsb(&knights)] & p->target);
    else if (knights)
        for (int k = 0; k < DF_KNIGHT_JUMPS; k++)
            mg_add(G, G_DELTA, DF_KNIGHT, df_knight_jump(knights, k) & p->target, DF_A1,
                   df_knight_jump_delta(k), 0);
    if (!(p->u_rq | p->u_bq)) return;
    /* Few sliders: each looked up, a group of its own (from fixed; a queen's two lookups
     * reach disjoint squares). */
    if (mg_sparse(p->u_rq, p->u_bq, sl, G->count_only)) {
        const df_bb queens = mg_queens(p->b, krp);
        for (df_bb s = p->u_rq; s;) {
            const df_square sq = df_pop_lsb(&s);
            mg_add(G, G_FROM, df_has(queens, sq) ? DF_QUEEN : DF_ROOK,
                   mg_rook(sq, p->occ, sl) & p->target, sq, 0, 0);
        }
        for (df_bb s = p->u_bq; s;) {
            const df_square sq = df_pop_lsb(&s);
            mg_add(G, G_FROM, df_has(queens, sq) ? DF_QUEEN : DF_BISHOP,
                   mg_bishop(sq, p->occ, sl) & p->target, sq, 0, 0);
        }
        return;
    }
    if (G->count_only) {
        G->count += df__rays_count(p->u_rq, p->u_bq, p->empty, p->target);
        return;
    }
    df_rays rays;
    df__rays_of(&rays, p->u_rq, p->u_bq, p->empty);
    for (int d = 0; d < DF_DIRS; d++)
        mg_add(G, G_SLIDER, df_dir_is_orthogonal((df_dir)d) ? DF_ROOK : DF_BISHOP,
               rays.r[d] & p->target, DF_A1, 0, d);
}

/* A pinned piece moves only along its pin line, and never while in check: a slider of the
 * line's kind between the king and its pinner (taking it included), a pawn pushing along a
 * file or taking its pinner. */
MG_INLINE void mg_pinned(mg_groups *G, const mg_position *p, const bool krp)
{
    const df_board *b = p->b;
    const df_bb last = df_relative_rank_bb(p->us, 7), third = df_relative_rank_bb(p->us, 2);
    const df_dir up = df_pawn_push_dir(p->us);
    const df_bb rq = mg_rq(b, krp), bq = mg_bq(b, krp);
    df_bb pinned = p->pinned & ~mg_knights(b, krp);
    while (pinned) {
        const df_square sq = df_pop_lsb(&pinned);
        const df_bb line = df_line(p->ksq, sq), s = df_square_bb(sq);
        if (df_has(b->piece[DF_PAWN], sq)) {
            const df_bb one = df_shift(s, up) & p->empty & line;
            const df_bb moves = (one | (df_shift(one & third, up) & p->empty) |
                                 (df_pawn_table[p->us][sq] & p->enemy & line)) &
                                p->filter;
            mg_add(G, G_FROM, DF_PAWN, moves & ~last, sq, 0, 0);
            mg_add(G, G_PROMO_FROM, DF_PAWN, moves & last, sq, 0, 0);
            continue;
        }
        /* The pinner: on the line, with sq between it and the king (the line may hold a
         * second pinner, on the king's other side). */
        const bool orth = df_has(df_orthogonal_lines(p->ksq), sq);
        if (!df_has(orth ? rq : bq, sq)) continue;
        df_bb pinners = p->pinners & line, moves = 0;
        while (pinners) {
            const df_square pinner = df_pop_lsb(&pinners);
            const df_bb segment = df_between(p->ksq, pinner);
            if (df_has(segment, sq)) moves = (segment ^ s) | df_square_bb(pinner);
        }
        const df_piece_type type = df_has(mg_queens(b, krp), sq) ? DF_QUEEN
                                   : orth                        ? DF_ROOK
                                                                 : DF_BISHOP;
        mg_add(G, G_FROM, type, moves & p->filter, sq, 0, 0);
    }
}

/* Pawns that are not pinned: pushes, double pushes, captures, each split at the last rank. */
MG_INLINE void mg_pawns(mg_groups *G, const mg_position *p)
{
    const df_color us = p->us;
    const df_bb last = df_relative_rank_bb(us, 7), third = df_relative_rank_bb(us, 2);
    const df_dir up = df_pawn_push_dir(us);
    const int push = df_pawn_push_delta(us);
    const df_bb pawns = p->own & p->b->piece[DF_PAWN] & ~p->pinned;
    const df_bb one = df_shift(pawns, up) & p->empty;
    const df_bb pushes = one & p->target, two = df_shift(one & third, up) & p->empty & p->target;
    const df_bb east = df_pawn_east_attacks(pawns, us) & p->enemy & p->target;
    const df_bb west = df_pawn_west_attacks(pawns, us) & p->enemy & p->target;
    const int de = df_pawn_east_delta(us), dw = df_pawn_west_delta(us);
    /* Most positions have no pawn on its seventh rank: then nothing is split (the groups and
     * their order are the same). */
    if (!(pawns & df_relative_rank_bb(us, 6))) {
        mg_add(G, G_DELTA, DF_PAWN, pushes, DF_A1, push, 0);
        mg_add(G, G_DELTA, DF_PAWN, two, DF_A1, 2 * push, 0);
        mg_add(G, G_DELTA, DF_PAWN, east, DF_A1, de, 0);
        mg_add(G, G_DELTA, DF_PAWN, west, DF_A1, dw, 0);
        return;
    }
    mg_add(G, G_DELTA, DF_PAWN, pushes & ~last, DF_A1, push, 0);
    mg_add(G, G_PROMO, DF_PAWN, pushes & last, DF_A1, push, 0);
    mg_add(G, G_DELTA, DF_PAWN, two, DF_A1, 2 * push, 0);
    mg_add(G, G_DELTA, DF_PAWN, east & ~last, DF_A1, de, 0);
    mg_add(G, G_PROMO, DF_PAWN, east & last, DF_A1, de, 0);
    mg_add(G, G_DELTA, DF_PAWN, west & ~last, DF_A1, dw, 0);
    mg_add(G, G_PROMO, DF_PAWN, west & last, DF_A1, dw, 0);
}

/* En passant: played on the occupancy, then the king is looked at. That catches the pin on
 * the rank through both pawns, and checks it does or does not answer. */
MG_INLINE void mg_en_passant(mg_groups *G, const mg_position *p, const df__sliders sl,
                             const bool krp)
{
    const df_board *b = p->b;
    const df_square ep = (df_square)b->ep, victim = df_en_passant_victim(ep);
    const df_bb king = df_square_bb(p->ksq);
    df_bb candidates = p->own & b->piece[DF_PAWN] & df_pawn_table[p->them][ep];
    while (candidates) {
        const df_square from = df_pop_lsb(&candidates);
        const df_bb occ = p->occ ^ df_square_bb(from) ^ df_square_bb(ep) ^ df_square_bb(victim);
        const df_bb checks =
            (mg_rook(p->ksq, occ, sl) & p->e_rq) |
            (mg_bishop(p->ksq, occ, sl) & p->enemy & mg_bq(b, krp)) |
            (df_knight_attacks(king) & p->enemy & mg_knights(b, krp)) |
            (df_pawn_table[p->us][p->ksq] & p->enemy & b->piece[DF_PAWN] & ~df_square_bb(victim));
        if (!checks) mg_add(G, G_EN_PASSANT, DF_PAWN, df_square_bb(ep), from, 0, 0);
    }
}

MG_INLINE void mg_collect(const df_board *b, mg_groups *G, unsigned kinds, const bool count_only,
                          const df_color us, const df__sliders sl, const bool krp)
{
    mg_position p;
    mg_setup(&p, b, kinds, us, sl, krp);
    G->n = 0;
    G->count_only = count_only;
    G->count = 0;
    G->empty = p.empty;
    mg_add(G, G_FROM, DF_KING, df_king_table[p.ksq] & ~p.danger & p.filter, p.ksq, 0, 0);
    if (df_more_than_one(p.checkers)) return;
    /* Rights first: most positions have none, and then the castling code is skipped before
     * anything of it is computed (tested after the check, its squares were computed ahead). */
    if (!krp && (b->castling & df_castle_rights_of(us)) && !p.checkers && (kinds & DF__GEN_QUIETS))
        mg_castling(G, &p);
    mg_pieces(G, &p, sl, krp);
    if (p.pinned && !p.checkers) mg_pinned(G, &p, krp);
    mg_pawns(G, &p);
    if (b->ep < 64 && (kinds & DF__GEN_CAPTURES)) mg_en_passant(G, &p, sl, krp);
}

/* The slider of a G_SLIDER group that reaches t: the first piece met walking back from t
 * (a positive direction grows the index, so walking back down a positive ray meets the
 * highest square first). */
MG_INLINE df_square mg_slider_from(const mg_groups *G, const mg_group *g, df_square t)
{
    const df_bb behind = df_ray_table[t][df_opposite((df_dir)g->dir)] & ~G->empty;
    return g->dir < DF_DIRS / 2 ? df_msb(behind) : df_lsb(behind);
}

/* The moves of the groups, in group order. */
MG_INLINE void mg_expand(const mg_groups *G, df_move_list *out)
{
    uint32_t n = 0;
    for (int i = 0; i < G->n; i++) {
        const mg_group *g = &G->g[i];
        df_bb to = g->to;
        while (to) {
            const df_square t = df_pop_lsb(&to);
            switch (g->kind) {
            case G_FROM:
                out->moves[n++] = df_move_make((df_square)g->from, t, DF_MOVE_NORMAL, DF_PAWN);
                break;
            case G_DELTA:
                out->moves[n++] =
                    df_move_make((df_square)((int)t - g->delta), t, DF_MOVE_NORMAL, DF_PAWN);
                break;
            case G_EN_PASSANT:
                out->moves[n++] = df_move_make((df_square)g->from, t, DF_MOVE_EN_PASSANT, DF_PAWN);
                break;
            case G_CASTLE:
                out->moves[n++] = df_move_make((df_square)g->from, t, DF_MOVE_CASTLING, DF_PAWN);
                break;
            case G_SLIDER:
                out->moves[n++] = df_move_make(mg_slider_from(G, g, t), t, DF_MOVE_NORMAL, DF_PAWN);
                break;
            default: {
                const df_square from =
                    g->kind == G_PROMO ? (df_square)((int)t - g->delta) : (df_square)g->from;
                for (int pt = DF_QUEEN; pt >= DF_KNIGHT; pt--)
                    out->moves[n++] = df_move_make(from, t, DF_MOVE_PROMOTION, (df_piece_type)pt);
            }
            }
        }
    }
    out->count = n;
}

/* The entry points: the active lookup method's generator, one copy each (count_only and the
 * method constant in every copy, mg_collect being inlined). */
MG_INLINE void mg_collect_active(const df_board *b, mg_groups *G, unsigned kinds,
                                 const bool count_only)
{
    switch (df__sliders_active()) {
#define MG_COLLECT(name, method)                                                                   \
    case method:                                                                                   \
        mg_collect(b, G, kinds, count_only, df_board_stm(b), method, false);                       \
        break;
        MG_SLIDERS(MG_COLLECT)
#undef MG_COLLECT
    default:
        __builtin_unreachable(); /* df__sliders_active names a compiled method */
    }
}

static void k_generate(const df_board *b, unsigned kinds, df_move_list *out)
{
    mg_groups G;
    mg_collect_active(b, &G, kinds, false);
    mg_expand(&G, out);
}

static uint64_t k_count_legal(const df_board *b)
{
    mg_groups G;
    mg_collect_active(b, &G, DF__GEN_ALL, true);
    return G.count;
}
