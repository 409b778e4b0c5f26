/* SPDX-License-Identifier: MIT */
/* Internal template: perft, instantiated once per backend after movegen_tpl.h. It walks the
 * generator's groups instead of a move list, so that a child is made from what the group
 * already knows (its origin square and the moving piece's type) rather than decoded from a
 * move and looked up on the board; the side to move is a constant in each of the two
 * mutually recursive functions (one per colour); the last ply is counted, not made (bulk
 * counting). A child board is exactly what df_make_move makes, less what a perft never reads:
 * the Polyglot key and the move counters are not kept. */

/* One recursion per lookup method (MG_SLIDERS) and shape of position, each a constant inside
 * its functions: a node's functions for either side to move, and the last ply's counts. The
 * shapes: any position, and krp (kings, rooks and pawns, no castling right: mg_is_krp), whose
 * generator has no code for the pieces it cannot have (CPW 3). X(name, method, krp). Each
 * function starts a cache line, so that where its hot code falls does not move with the code
 * around it: the krp shape, added before them, made the others measurably slower with the same
 * instructions until they were aligned. */
#define PF_SHAPES(X, name, method) X(name, method, false) X(name##_krp, method, true)

#define PF_DECLARE(name, method, krp)                                                              \
    static __attribute__((aligned(64))) uint64_t pf_white_##name(const df_board *b, int depth);    \
    static __attribute__((aligned(64))) uint64_t pf_black_##name(const df_board *b, int depth);    \
    static __attribute__((noinline, aligned(64)))                                                  \
    uint64_t pf_count_white_##name(const df_board *b);                                             \
    static __attribute__((noinline, aligned(64))) uint64_t pf_count_black_##name(const df_board *b);
#define PF_DECLARE_SHAPES(name, method) PF_SHAPES(PF_DECLARE, name, method)
MG_SLIDERS(PF_DECLARE_SHAPES)
#undef PF_DECLARE_SHAPES
#undef PF_DECLARE

/* The child after a normal move or a promotion of a piece of type `type` from -> to, placing
 * `placed` on to, into a board that already holds the parent's other fields (castling rooks,
 * counters, key: a perft reads none of the last two). Whatever stood on to is taken off every
 * set at once, with no look at its type. Each set is computed from the parent's and written
 * once: a narrow read-modify-write of a copy just stored wide waits for that store (no
 * store-to-load forwarding when the copy straddles a cache line; measured, a large part of
 * perft's time). */
MG_INLINE void pf_make(df_board *n, const df_board *b, df_square from, df_square to,
                       df_piece_type type, df_piece_type placed, const df_color us, const bool krp)
{
    const df_color them = (df_color)(us ^ 1);
    const df_bb f = df_square_bb(from), t = df_square_bb(to);
    n->color[us] = b->color[us] ^ (f | t);
    n->color[them] = b->color[them] & ~t;
    for (int k = 0; k < DF_PIECE_TYPES; k++) {
        const bool none = krp && (k == DF_KNIGHT || k == DF_BISHOP || k == DF_QUEEN);
        n->piece[k] =
            ((none ? 0 : b->piece[k]) & ~t) ^ (k == (int)type ? f : 0) ^ (k == (int)placed ? t : 0);
    }
    n->castling = (uint8_t)(b->castling & ~df__rights_lost(b, from, to, type == DF_KING));
    n->ep = DF_SQUARE_NONE;
    if (type == DF_PAWN && (from ^ to) == 16) {
        const df_square ep = (df_square)((from + to) / 2);
        if (df_pawn_table[us][ep] & b->piece[DF_PAWN] & b->color[them]) n->ep = (uint8_t)ep;
    }
    n->stm = (uint8_t)them;
}

/* The moves of b's position counted, us to move: the last ply, in functions of their own,
 * whose prologue and registers are only what counting needs. */
MG_INLINE uint64_t pf_count(const df_board *b, const df_color us, const df__sliders sl,
                            const bool krp)
{
    mg_groups G;
    mg_collect(b, &G, DF__GEN_ALL, true, us, sl, krp);
    return G.count;
}

/* The nodes of a child at depth - 1 >= 1, them to move; krp when its parent was and it is
 * not a promotion (the shape is decided at the root, for the whole tree). */
MG_INLINE uint64_t pf_below(const df_board *child, int depth, const df_color them,
                            const df__sliders sl, const bool krp)
{
#define PF_BELOW(name, method, krp_shape)                                                          \
    if (sl == method && krp == krp_shape) {                                                        \
        if (depth == 2)                                                                            \
            return them == DF_WHITE ? pf_count_white_##name(child) : pf_count_black_##name(child); \
        return them == DF_WHITE ? pf_white_##name(child, depth - 1)                                \
                                : pf_black_##name(child, depth - 1);                               \
    }
#define PF_BELOW_SHAPES(name, method) PF_SHAPES(PF_BELOW, name, method)
    MG_SLIDERS(PF_BELOW_SHAPES)
#undef PF_BELOW_SHAPES
#undef PF_BELOW
    __builtin_unreachable();
}

/* One child made by pf_make, then counted or searched. */
MG_INLINE uint64_t pf_child(df_board *child, const df_board *b, df_square from, df_square to,
                            df_piece_type type, df_piece_type placed, int depth, const df_color us,
                            const df__sliders sl, const bool krp)
{
    pf_make(child, b, from, to, type, placed, us, krp);
    return pf_below(child, depth, (df_color)(us ^ 1), sl, krp && placed == type);
}

/* The nodes below b at depth >= 2, us to move: a loop over each group's targets per kind of
 * group, so that how the origin follows is decided once a group. */
MG_INLINE uint64_t pf_node(const df_board *b, int depth, const df_color us, const df__sliders sl,
                           const bool krp)
{
    mg_groups G;
    mg_collect(b, &G, DF__GEN_ALL, false, us, sl, krp);
    uint64_t nodes = 0;
    _Alignas(64) df_board child = *b;
    for (int i = 0; i < G.n; i++) {
        const mg_group *g = &G.g[i];
        const df_piece_type type = (df_piece_type)g->type;
        df_bb to = g->to;
        switch (g->kind) {
        case G_FROM:
            while (to)
                nodes += pf_child(&child, b, (df_square)g->from, df_pop_lsb(&to), type, type, depth,
                                  us, sl, krp);
            break;
        case G_DELTA:
            while (to) {
                const df_square t = df_pop_lsb(&to);
                nodes += pf_child(&child, b, (df_square)((int)t - g->delta), t, type, type, depth,
                                  us, sl, krp);
            }
            break;
        case G_SLIDER:
            while (to) {
                const df_square t = df_pop_lsb(&to), from = mg_slider_from(&G, g, t);
                const df_piece_type moved = df_has(mg_queens(b, krp), from) ? DF_QUEEN : type;
                nodes += pf_child(&child, b, from, t, moved, moved, depth, us, sl, krp);
            }
            break;
        case G_PROMO:
        case G_PROMO_FROM:
            while (to) {
                const df_square t = df_pop_lsb(&to);
                const df_square from =
                    g->kind == G_PROMO ? (df_square)((int)t - g->delta) : (df_square)g->from;
                for (int pt = DF_QUEEN; pt >= DF_KNIGHT; pt--)
                    nodes += pf_child(&child, b, from, t, DF_PAWN, (df_piece_type)pt, depth, us, sl,
                                      krp);
            }
            break;
        default: /* en passant and castling, rare: the library's own make */
            while (to) {
                const df_move m = df_move_make(
                    (df_square)g->from, df_pop_lsb(&to),
                    g->kind == G_CASTLE ? DF_MOVE_CASTLING : DF_MOVE_EN_PASSANT, DF_PAWN);
                df__make_move(&child, b, m, false);
                nodes += pf_below(&child, depth, (df_color)(us ^ 1), sl, krp);
            }
        }
    }
    return nodes;
}

#define PF_DEFINE(name, method, krp)                                                               \
    static uint64_t pf_count_white_##name(const df_board *b)                                       \
    {                                                                                              \
        return pf_count(b, DF_WHITE, method, krp);                                                 \
    }                                                                                              \
    static uint64_t pf_count_black_##name(const df_board *b)                                       \
    {                                                                                              \
        return pf_count(b, DF_BLACK, method, krp);                                                 \
    }                                                                                              \
    static uint64_t pf_white_##name(const df_board *b, int depth)                                  \
    {                                                                                              \
        return pf_node(b, depth, DF_WHITE, method, krp);                                           \
    }                                                                                              \
    static uint64_t pf_black_##name(const df_board *b, int depth)                                  \
    {                                                                                              \
        return pf_node(b, depth, DF_BLACK, method, krp);                                           \
    }
#define PF_DEFINE_SHAPES(name, method) PF_SHAPES(PF_DEFINE, name, method)
MG_SLIDERS(PF_DEFINE_SHAPES)
#undef PF_DEFINE_SHAPES
#undef PF_DEFINE

static uint64_t k_perft(const df_board *b, int depth)
{
    if (depth <= 0) return 1;
    if (depth == 1) return k_count_legal(b);
    const df__sliders sl = df__sliders_active();
    const bool krp = mg_is_krp(b);
#define PF_ROOT(name, method, krp_shape)                                                           \
    if (sl == method && krp == krp_shape)                                                          \
        return df_board_stm(b) == DF_WHITE ? pf_white_##name(b, depth) : pf_black_##name(b, depth);
#define PF_ROOT_SHAPES(name, method) PF_SHAPES(PF_ROOT, name, method)
    MG_SLIDERS(PF_ROOT_SHAPES)
#undef PF_ROOT_SHAPES
#undef PF_ROOT
    __builtin_unreachable();
}
