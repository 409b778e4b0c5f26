/* SPDX-License-Identifier: MIT */
/* The search: iterative deepening, principal variation search with a transposition table,
 * null move, late move reductions, check extensions (df_gives_check, df_checkers), quiescence
 * on captures ordered and pruned by SEE (df_see), killer and history ordering, draws by
 * repetition and the fifty-move rule through the game's history (df_history, game.h), mate
 * scores, and the clock. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.h"

atomic_bool search_stop;

int64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

typedef struct {
    const search_limits *limits;
    int64_t start;
    uint64_t nodes;
    int seldepth;
    bool stopped;
    df_history history; /* the game, then the positions of the current line */
    df_move killers[MAX_PLY][2];
    int history_score[2][64][64];
    df_move pv[MAX_PLY][MAX_PLY];
    int pv_length[MAX_PLY];
    int8_t reductions[64][64];
} searcher;

/* Whether to stop now: asked by the UCI thread, past the hard time limit or the node limit. */
static bool out_of_time(searcher *s)
{
    if (s->stopped) return true;
    if ((s->nodes & 1023) == 0) {
        if (atomic_load_explicit(&search_stop, memory_order_relaxed) ||
            (s->limits->hard_ms && now_ms() - s->start >= s->limits->hard_ms))
            s->stopped = true;
    }
    if (s->limits->max_nodes && s->nodes >= s->limits->max_nodes) s->stopped = true;
    return s->stopped;
}

/* Scores stored in the table are relative to the node (mates counted from it). */
static int to_tt(int score, int ply)
{
    return score >= MATE_BOUND ? score + ply : score <= -MATE_BOUND ? score - ply : score;
}

static int from_tt(int score, int ply)
{
    return score >= MATE_BOUND ? score - ply : score <= -MATE_BOUND ? score + ply : score;
}

/* ---- move ordering ---- */

/* History scores stay within +-HISTORY_MAX: a bonus shrinks as the score nears the bound. */
enum { HISTORY_MAX = 16384 };

static void update_history(searcher *s, df_color stm, df_move m, int bonus)
{
    int *h = &s->history_score[stm][df_move_from(m)][df_move_to(m)];
    *h += bonus - *h * (bonus < 0 ? -bonus : bonus) / HISTORY_MAX;
}

typedef struct {
    df_move move;
    int score;
} scored;

enum {
    SCORE_TT = 2000000,
    SCORE_WINNING = 1000000,
    SCORE_KILLER = 900000,
    SCORE_LOSING = -1000000
};

/* The piece a move takes (a pawn for a quiet promotion: it only orders and prunes). */
static df_piece_type victim_of(const df_board *b, df_move m)
{
    const df_piece_type t =
        df_move_kind_of(m) == DF_MOVE_EN_PASSANT ? DF_PAWN : df_board_type_at(b, df_move_to(m));
    return t < DF_KING ? t : DF_PAWN;
}

static int capture_score(const df_board *b, df_move m)
{
    const df_piece_type attacker = df_board_type_at(b, df_move_from(m));
    return 10 * piece_value[victim_of(b, m)] - piece_value[attacker] / 10;
}

/* df_see_ge(b, m, threshold), from the exchange's bounds where they decide it: the library's
 * swap-off lets each side stop, so a move wins at most what it takes and loses at most the
 * piece it moves (a promoting pawn counts as a pawn, castling is 0; see.h). Most captures of
 * a piece worth at least the capturer, and quiet moves of cheap pieces against the search's
 * negative thresholds, need no swap-off: the same answers with far fewer swap-offs. */
static bool see_ge(const df_board *b, df_move m, int threshold)
{
    const df_move_kind kind = df_move_kind_of(m);
    if (kind == DF_MOVE_CASTLING) return threshold <= 0;
    const df_piece_type taken =
        kind == DF_MOVE_EN_PASSANT ? DF_PAWN : df_board_type_at(b, df_move_to(m));
    const int gain = taken < DF_PIECE_TYPES ? df_see_value[taken] : 0;
    if (gain - df_see_value[df_board_type_at(b, df_move_from(m))] >= threshold) return true;
    if (gain < threshold) return false;
    return df_see_ge(b, m, threshold);
}

static int order(searcher *s, const df_board *b, const df_move_list *list, scored *out,
                 df_move tt_move, int ply)
{
    for (uint32_t i = 0; i < list->count; i++) {
        const df_move m = list->moves[i];
        int v;
        if (m == tt_move)
            v = SCORE_TT;
        else if (df_move_is_capture(b, m) || df_move_kind_of(m) == DF_MOVE_PROMOTION)
            v = (see_ge(b, m, 0) ? SCORE_WINNING : SCORE_LOSING) + capture_score(b, m);
        else if (ply < MAX_PLY && (m == s->killers[ply][0] || m == s->killers[ply][1]))
            v = SCORE_KILLER;
        else
            v = s->history_score[b->stm][df_move_from(m)][df_move_to(m)];
        out[i] = (scored){m, v};
    }
    return (int)list->count;
}

/* The best of out[i..n) to the front (selection: most nodes cut early). */
static df_move pick(scored *out, int i, int n)
{
    /* Without branches (conditional moves): whether a score beats the best so far is a coin
     * toss the branch predictor loses, and at an all-node this loop runs once per move. */
    int best = i, best_score = out[i].score;
    for (int j = i + 1; j < n; j++) {
        const int v = out[j].score;
        const bool better = v > best_score;
        best = better ? j : best;
        best_score = better ? v : best_score;
    }
    const scored t = out[i];
    out[i] = out[best];
    out[best] = t;
    return out[i].move;
}

/* Whether m gives check (df_gives_check), asked once: *known is -1 until then. The search
 * asks only where an answer depends on it, most moves at a node never: asked for every move,
 * the calls were a noticeable share of the search's time. */
static bool gives_check(const df_board *b, df_move m, int *known)
{
    if (*known < 0) *known = df_gives_check(b, m) != DF_CHECK_NONE;
    return *known;
}

/* ---- quiescence ---- */

/* checks: the first ply of quiescence also tries quiet moves that give check and do not lose
 * material (df_gives_check, df_see_ge): mates and forks one move past the horizon. */
static int quiesce(searcher *s, const df_board *b, int alpha, int beta, int ply, bool checks);

/* One move of quiescence: made, searched, best and alpha raised; true on a cutoff or a stop. */
static bool quiesce_move(searcher *s, const df_board *b, df_move m, int *best, int *alpha, int beta,
                         int ply)
{
    df_board child;
    df_make_move(&child, b, m);
    const int v = -quiesce(s, &child, -beta, -*alpha, ply + 1, false);
    if (s->stopped) return true;
    if (v > *best) *best = v;
    if (v > *alpha) *alpha = v;
    return v >= beta;
}

static int quiesce(searcher *s, const df_board *b, int alpha, int beta, int ply, bool checks)
{
    s->nodes++;
    if (ply > s->seldepth) s->seldepth = ply;
    if (out_of_time(s)) return 0;
    const bool in_check = df_checkers(b) != 0;
    if (ply >= MAX_PLY - 1) return evaluate(b);
    int best = -INF;
    if (!in_check) {
        best = evaluate(b);
        if (best >= beta) return best;
        if (best > alpha) alpha = best;
    }
    /* In check every move is searched (no stand-pat); otherwise captures and promotions. */
    df_move_list list;
    if (in_check)
        df_generate_legal(&list, b);
    else
        df_generate_captures(&list, b);
    scored moves[DF_MAX_MOVES];
    const int n = order(s, b, &list, moves, DF_MOVE_NONE, MAX_PLY);
    for (int i = 0; i < n; i++) {
        const df_move m = pick(moves, i, n);
        if (!in_check && moves[i].score < SCORE_WINNING) break; /* losing captures (SEE < 0) */
        /* Delta pruning: a capture that cannot lift the score to alpha even with a margin. */
        if (!in_check && df_move_kind_of(m) != DF_MOVE_PROMOTION &&
            best + piece_value[victim_of(b, m)] + 200 <= alpha)
            continue;
        if (quiesce_move(s, b, m, &best, &alpha, beta, ply)) return s->stopped ? 0 : best;
    }
    if (in_check && n == 0) return -MATE + ply;
    if (checks && !in_check) {
        df_move_list quiets;
        df_generate_quiets(&quiets, b);
        /* Most quiet moves cannot check, and the position's sets say which might: a piece
         * landing where its kind attacks the enemy king from (df_piece_attacks from the king's
         * square through the occupancy, which the move changes only behind the piece), or
         * leaving a line from an own slider to that king (df_king_safety's discoverers);
         * castling and promotions are asked. df_gives_check decides those few. */
        const df_color us = df_board_stm(b), them = (df_color)(us ^ 1);
        const df_square king = df_board_king(b, them);
        const df_bb occ = df_board_occupied(b);
        const df_bb bishop = df_piece_attacks(king, occ, DF_BISHOP, us);
        const df_bb rook = df_piece_attacks(king, occ, DF_ROOK, us);
        const df_bb lands[DF_PIECE_TYPES] = {
            df_piece_attacks(king, occ, DF_PAWN, them), /* a pawn of ours attacks it from */
            df_piece_attacks(king, occ, DF_KNIGHT, us), bishop, rook, bishop | rook, 0};
        df_king_safety_sets safety;
        df_king_safety(&safety, b);
        for (uint32_t i = 0; i < quiets.count; i++) {
            const df_move m = quiets.moves[i];
            const df_square from = df_move_from(m);
            if (df_move_kind_of(m) == DF_MOVE_NORMAL && !df_has(safety.discoverers, from) &&
                !df_has(lands[df_board_type_at(b, from)], df_move_to(m)))
                continue;
            if (df_gives_check(b, m) == DF_CHECK_NONE || !see_ge(b, m, 0)) continue;
            if (quiesce_move(s, b, m, &best, &alpha, beta, ply)) return s->stopped ? 0 : best;
        }
    }
    return best;
}

/* ---- the main search ---- */

static int search_node(searcher *s, const df_board *b, int alpha, int beta, int depth, int ply,
                       bool null_ok)
{
    const bool pv = beta - alpha > 1;
    s->pv_length[ply] = ply;
    if (ply > 0) {
        if (out_of_time(s)) return 0;
        /* Draws by the rules of the game (game.h): repetition, fifty moves, dead material. */
        if (b->halfmove >= 100 || df_is_repetition(&s->history, b) || df_insufficient_material(b))
            return 0;
        /* Mate distance: no line from here can beat a mate already found nearer the root. */
        if (alpha < -MATE + ply) alpha = -MATE + ply;
        if (beta > MATE - ply - 1) beta = MATE - ply - 1;
        if (alpha >= beta) return alpha;
    }
    if (ply >= MAX_PLY - 1) return evaluate(b);
    const bool in_check = df_checkers(b) != 0;
    if (in_check) depth++; /* check extension */
    if (depth <= 0) return quiesce(s, b, alpha, beta, ply, true);
    s->nodes++;
    if (ply > s->seldepth) s->seldepth = ply;

    /* The table: a cutoff where its bound allows, else its move first. */
    const tt_entry *e = tt_probe(b->key);
    df_move tt_move = DF_MOVE_NONE;
    if (e) {
        /* A key collision stores any 16 bits: the move is checked before it is used. */
        if (e->move != DF_MOVE_NONE && df_move_is_legal(b, e->move)) tt_move = e->move;
        const int v = from_tt(e->score, ply);
        if (!pv && e->depth >= depth &&
            (e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER && v >= beta) ||
             (e->bound == BOUND_UPPER && v <= alpha)))
            return v;
    }
    /* The table keeps the static evaluation too (-INF from a node in check: none). */
    /* No move from the table at a deep node: search it a ply shallower (internal iterative
     * reduction: the shallower search fills the table for the next visit). */
    if (depth >= 4 && tt_move == DF_MOVE_NONE) depth--;
    const int static_eval = in_check ? -INF : e && e->eval != -INF ? e->eval : evaluate(b);

    if (!pv && !in_check) {
        /* Reverse futility: far above beta near the leaves. */
        if (depth <= 6 && static_eval - 90 * depth >= beta && static_eval < MATE_BOUND)
            return static_eval;
        /* Null move (df_make_null_move): if passing still beats beta, a move will. */
        if (null_ok && depth >= 3 && static_eval >= beta &&
            non_pawn_material(b, df_board_stm(b)) > 0) {
            const int r = 3 + depth / 4;
            df_board child;
            df_make_null_move(&child, b);
            df_history_push(&s->history, b);
            const int v = -search_node(s, &child, -beta, -beta + 1, depth - 1 - r, ply + 1, false);
            df_history_pop(&s->history);
            if (s->stopped) return 0;
            if (v >= beta) return v >= MATE_BOUND ? beta : v;
        }
    }

    df_move_list list;
    df_generate_legal(&list, b);
    if (list.count == 0) return in_check ? -MATE + ply : 0;
    scored moves[DF_MAX_MOVES];
    const int n = order(s, b, &list, moves, tt_move, ply);
    const int old_alpha = alpha;
    int best = -INF, searched = 0;
    df_move best_move = DF_MOVE_NONE;
    df_move quiets[DF_MAX_MOVES];
    int quiet_count = 0;
    for (int i = 0; i < n; i++) {
        const df_move m = pick(moves, i, n);
        const bool quiet = !df_move_is_capture(b, m) && df_move_kind_of(m) != DF_MOVE_PROMOTION;
        int checks = -1; /* gives_check's memo: asked only where an answer depends on it */
        /* Late quiet moves near the leaves are not searched at all (futility, move count). */
        if (!pv && !in_check && quiet && best > -MATE_BOUND &&
            ((depth <= 3 && searched >= 4 + 4 * depth * depth) ||
             (depth <= 2 && static_eval + 150 * depth <= alpha)) &&
            !gives_check(b, m, &checks))
            continue;
        /* Moves that lose material by SEE near the leaves (df_see_ge: a threshold test, cheaper
         * than the exchange's value). */
        if (!pv && !in_check && depth <= 6 && best > -MATE_BOUND &&
            !see_ge(b, m, quiet ? -60 * depth : -120 * depth) && !gives_check(b, m, &checks))
            continue;
        df_board child;
        df_make_move(&child, b, m);
        /* Only a child searched to depth 1 or more looks in the table (quiescence does not):
         * a prefetch for the others costs a useless miss. A checking move's child at depth 0
         * is extended and probes unprefetched: rare, and cheaper than asking every move. */
        if (depth > 1) tt_prefetch(child.key);
        df_history_push(&s->history, b);
        int v;
        if (searched == 0) {
            v = -search_node(s, &child, -beta, -alpha, depth - 1, ply + 1, true);
        } else {
            /* Late move reductions for quiet moves, then a zero window, then the full one. */
            int r = 0;
            if (depth >= 3 && quiet && !in_check && !gives_check(b, m, &checks))
                r = s->reductions[depth < 64 ? depth : 63][searched < 64 ? searched : 63] - pv;
            if (r < 0) r = 0;
            v = -search_node(s, &child, -alpha - 1, -alpha, depth - 1 - r, ply + 1, true);
            if (v > alpha && r > 0)
                v = -search_node(s, &child, -alpha - 1, -alpha, depth - 1, ply + 1, true);
            if (v > alpha && v < beta)
                v = -search_node(s, &child, -beta, -alpha, depth - 1, ply + 1, true);
        }
        df_history_pop(&s->history);
        if (s->stopped) return 0;
        searched++;
        if (quiet) quiets[quiet_count++] = m;
        if (v > best) {
            best = v;
            best_move = m;
            if (v > alpha) {
                alpha = v;
                s->pv[ply][ply] = m;
                for (int k = ply + 1; k < s->pv_length[ply + 1]; k++)
                    s->pv[ply][k] = s->pv[ply + 1][k];
                s->pv_length[ply] =
                    s->pv_length[ply + 1] > ply + 1 ? s->pv_length[ply + 1] : ply + 1;
                if (v >= beta) {
                    if (quiet && ply < MAX_PLY) {
                        if (s->killers[ply][0] != m) {
                            s->killers[ply][1] = s->killers[ply][0];
                            s->killers[ply][0] = m;
                        }
                        /* The cutoff move gains, the quiet moves tried before it lose. */
                        for (int q = 0; q < quiet_count; q++)
                            update_history(s, b->stm, quiets[q],
                                           q == quiet_count - 1 ? depth * depth : -depth * depth);
                    }
                    break;
                }
            }
        }
    }
    const int bound = best >= beta ? BOUND_LOWER : alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(b->key, best_move, to_tt(best, ply), static_eval, depth, bound);
    return best;
}

static void print_info(const searcher *s, int depth, int score)
{
    const int64_t ms = now_ms() - s->start;
    char pv[MAX_PLY * 6 + 1];
    size_t n = 0;
    df_board b = s->limits->root;
    for (int k = 0; k < s->pv_length[0] && n + 7 < sizeof pv; k++) {
        const df_move m = s->pv[0][k];
        if (!df_move_is_legal(&b, m)) break;
        char uci[DF_UCI_MAX];
        n += (size_t)snprintf(pv + n, sizeof pv - n, "%s%s", k ? " " : "",
                              (df_move_to_uci(uci, &b, m), uci));
        df_make_move(&b, &b, m);
    }
    pv[n] = 0;
    char value[32];
    if (score >= MATE_BOUND)
        snprintf(value, sizeof value, "mate %d", (MATE - score + 1) / 2);
    else if (score <= -MATE_BOUND)
        snprintf(value, sizeof value, "mate -%d", (MATE + score) / 2);
    else
        snprintf(value, sizeof value, "cp %d", score);
    printf("info depth %d seldepth %d score %s nodes %llu nps %llu time %lld pv %s\n", depth,
           s->seldepth, value, (unsigned long long)s->nodes,
           (unsigned long long)(ms ? s->nodes * 1000 / (uint64_t)ms : 0), (long long)ms, pv);
    fflush(stdout);
}

df_move search(const search_limits *limits, df_move *ponder)
{
    static searcher s;
    memset(&s, 0, sizeof s);
    s.limits = limits;
    s.start = now_ms();
    s.history = limits->history;
    for (int d = 1; d < 64; d++)
        for (int m = 1; m < 64; m++) s.reductions[d][m] = (int8_t)(0.75 + log(d) * log(m) / 2.25);
    tt_new_search();
    *ponder = DF_MOVE_NONE;

    df_move_list list;
    df_generate_legal(&list, &limits->root);
    if (list.count == 0) return DF_MOVE_NONE;
    /* A move to fall back on if stopped before the first iteration ends. */
    df_move best = list.moves[0];
    const tt_entry *e = tt_probe(limits->root.key);
    if (e && df_move_is_legal(&limits->root, e->move)) best = e->move;
    int score = 0;
    const int max_depth = limits->max_depth ? limits->max_depth : MAX_PLY - 1;
    for (int depth = 1; depth <= max_depth; depth++) {
        /* Aspiration windows around the last score, widened on a fail. */
        int window = depth >= 5 ? 25 : INF, alpha = score - window, beta = score + window, v;
        for (;;) {
            if (alpha < -INF) alpha = -INF;
            if (beta > INF) beta = INF;
            s.seldepth = 0;
            v = search_node(&s, &limits->root, alpha, beta, depth, 0, false);
            if (s.stopped) break;
            if (v <= alpha) {
                alpha -= window;
                window *= 2;
            } else if (v >= beta) {
                beta += window;
                window *= 2;
            } else {
                break;
            }
        }
        if (s.stopped) break;
        score = v;
        if (s.pv_length[0] > 0 && df_move_is_legal(&limits->root, s.pv[0][0])) best = s.pv[0][0];
        if (s.pv_length[0] > 1) *ponder = s.pv[0][1];
        print_info(&s, depth, score);
        if (list.count == 1 && !limits->infinite && limits->soft_ms) break; /* one reply */
        if (limits->soft_ms && now_ms() - s.start >= limits->soft_ms) break;
        /* A mate either way, searched a few plies past its length: deeper finds nothing. */
        if (abs(score) >= MATE_BOUND && depth > MATE - abs(score) + 2 && !limits->infinite) break;
    }
    return best;
}
