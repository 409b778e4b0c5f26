/* SPDX-License-Identifier: MIT */
/* PGN as a format of NNUE training data (binpack.h, DF_NNUE_PGN): the library's PGN reader fed
 * from the reader's input a block at a time, each finished game turned into entries (or an error)
 * queued in input order, handed out one by one. Each position before a move of a game with a
 * result is an entry, scored by that move's evaluation from the side to move's view; its result
 * the game's. What is not an entry is counted by reason. A share is games: game i of the input
 * is rank i % world's, and the other ranks' games are only skimmed for their end. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnue/internal.h"

/* Scores that are not mates are kept within this, below every mate score: a mate is
 * 32000 - plies, its plies capped so that it stays above. */
enum { SCORE_MAX = 30000, MATE = 32000, MATE_PLIES_MAX = MATE - SCORE_MAX - 1 };

/* An item of the queue: an entry, or an error (kind DF_NNUE_ERR_GAME). */
typedef struct df__pgn_item {
    bool is_error;
    df_nnue_entry entry;
    df_nnue_error error;
} df__pgn_item;

struct df__pgn_state {
    df_pgn_reader *reader;
    df_nnue_pgn_options options;
    df_nnue_pgn_counts counts;
    df__pgn_item *items; /* items[next, n) not yet handed out */
    size_t next, n, cap;
    df_pgn_ply *plies; /* the game in progress (their board pointers go stale: boards[] holds
                          the positions) */
    df_board *boards;
    uint32_t nplies, plies_cap;
    uint32_t rank, world;
    bool finished;    /* the PGN reader has been finished */
    bool out_of_room; /* a queue or a game could not grow */
};

/* The score of the position before the move of p, from the view of its side to move. */
static int16_t score_of(const df__pgn_state *s, const df_pgn_ply *p, const df_board *before)
{
    const bool white = df_board_stm(before) == DF_WHITE;
    if (p->eval_kind == DF_PGN_EVAL_PAWNS) {
        double cp = round(100.0 * p->pawns);
        if (!(cp <= SCORE_MAX)) cp = SCORE_MAX; /* NaN too */
        if (cp < -SCORE_MAX) cp = -SCORE_MAX;
        int v = (int)(white ? cp : -cp);
        if (s->options.units == DF_NNUE_UNITS_STOCKFISH) v = df_nnue_value_from_cp(v, before);
        return (int16_t)(v > SCORE_MAX ? SCORE_MAX : v < -SCORE_MAX ? -SCORE_MAX : v);
    }
    /* #N: mate in N moves of the mating side (White when N > 0) in the position after the
     * move; #0 is a mate on the board, given by the move. From the position before it, the
     * mating move is ply 2N + 1 when the side to move mates, 2N when the other side does. */
    const bool mover_mates = p->mate == 0 || (p->mate > 0) == white;
    const int64_t n = p->mate < 0 ? -(int64_t)p->mate : p->mate;
    int64_t plies = 2 * n + mover_mates;
    if (plies > MATE_PLIES_MAX) plies = MATE_PLIES_MAX;
    return (int16_t)(mover_mates ? MATE - plies : plies - MATE);
}

static df__pgn_item *add_item(df__pgn_state *s)
{
    if (s->n == s->cap) {
        const size_t cap = s->cap ? 2 * s->cap : 256;
        df__pgn_item *grown = realloc(s->items, cap * sizeof *grown);
        if (!grown) {
            s->out_of_room = true;
            return NULL;
        }
        s->items = grown;
        s->cap = cap;
    }
    return &s->items[s->n++];
}

static void add_error(df__pgn_state *s, const df_pgn_game *g, uint64_t line, const char *why)
{
    s->counts.in_errors += g->plies;
    df__pgn_item *it = add_item(s);
    if (!it) return;
    it->is_error = true;
    df__nnue_fail(&it->error, DF_NNUE_ERR_GAME, g->offset, g->index, "game %llu at line %llu: %s",
                  (unsigned long long)g->index, (unsigned long long)line, why);
}

static df_pgn_action on_begin(void *ctx, const df_pgn_game *g)
{
    df__pgn_state *s = ctx;
    s->nplies = 0;
    return g->index % s->world == s->rank ? DF_PGN_READ : DF_PGN_SKIP;
}

static void on_ply(void *ctx, const df_pgn_game *g, const df_pgn_ply *p)
{
    (void)g;
    df__pgn_state *s = ctx;
    if (s->nplies == s->plies_cap) {
        const uint32_t cap = s->plies_cap ? 2 * s->plies_cap : 256;
        df_pgn_ply *plies = realloc(s->plies, cap * sizeof *plies);
        if (plies) s->plies = plies;
        df_board *boards = realloc(s->boards, cap * sizeof *boards);
        if (boards) s->boards = boards;
        if (!plies || !boards) {
            s->out_of_room = true;
            return;
        }
        s->plies_cap = cap;
    }
    s->boards[s->nplies] = *p->before;
    s->plies[s->nplies++] = *p;
}

static df_pgn_action on_end(void *ctx, const df_pgn_game *g)
{
    df__pgn_state *s = ctx;
    if (g->index % s->world != s->rank) return DF_PGN_READ;
    s->counts.games++;
    if (g->skipped) {
        s->counts.skipped_games++;
        return DF_PGN_READ;
    }
    if (g->error) {
        add_error(s, g, g->error_line, g->error);
        return DF_PGN_READ;
    }
    /* A game without a result ("*") has no result to learn: its positions are not entries. */
    if (g->result == DF_RESULT_NONE) {
        s->counts.no_result += g->plies;
        return DF_PGN_READ;
    }
    const uint64_t first = 2 * (uint64_t)(g->start.fullmove - 1) + df_board_stm(&g->start);
    if (first + g->plies > UINT16_MAX) {
        add_error(s, g, g->line, "its plies run past 65535, an entry's limit");
        return DF_PGN_READ;
    }
    /* Pieces are never added: the start holds the most any of its positions does. */
    const int pieces = df_popcount(df_board_occupied(&g->start));
    if (pieces > DF_NNUE_PIECES_MAX) {
        char why[96];
        snprintf(why, sizeof why, "its start holds %d pieces (the formats hold at most %d)", pieces,
                 DF_NNUE_PIECES_MAX);
        add_error(s, g, g->line, why);
        return DF_PGN_READ;
    }
    const int white = g->result == DF_RESULT_WHITE_WINS   ? 1
                      : g->result == DF_RESULT_BLACK_WINS ? -1
                                                          : 0;
    for (uint32_t k = 0; k < s->nplies; k++) {
        const df_pgn_ply *p = &s->plies[k];
        if (p->move == DF_MOVE_NONE) { /* a null move is no move to learn */
            s->counts.null_moves++;
            continue;
        }
        if (p->eval_kind == DF_PGN_EVAL_NONE && !s->options.keep_no_eval) {
            s->counts.no_eval++;
            continue;
        }
        df__pgn_item *it = add_item(s);
        if (!it) return DF_PGN_STOP;
        it->is_error = false;
        df_nnue_entry *e = &it->entry;
        memset(e, 0, sizeof *e);
        e->pos = s->boards[k];
        e->move = p->move;
        e->ply = (uint16_t)(first + k);
        e->score = p->eval_kind == DF_PGN_EVAL_NONE ? DF_NNUE_SCORE_NONE : score_of(s, p, &e->pos);
        e->result = (int8_t)(df_board_stm(&e->pos) == DF_WHITE ? white : -white);
        s->counts.entries++;
    }
    return s->out_of_room ? DF_PGN_STOP : DF_PGN_READ;
}

/* The reader's PGN state, made at its first use. NULL when out of memory. */
static df__pgn_state *state_of(df_nnue_reader *r)
{
    if (r->pgn) return r->pgn;
    df__pgn_state *s = calloc(1, sizeof *s);
    if (!s || !(s->reader = df_pgn_reader_new())) {
        free(s);
        return NULL;
    }
    s->rank = r->rank;
    s->world = r->world;
    r->pgn = s;
    return s;
}

df_status df_nnue_reader_set_pgn(df_nnue_reader *r, const df_nnue_pgn_options *options)
{
    if (!r || !options || r->format != DF_NNUE_PGN || (unsigned)options->units > DF_NNUE_UNITS_CP)
        return DF_ERR_ARGUMENT;
    df__pgn_state *s = state_of(r);
    if (!s) return DF_ERR_IO;
    s->options = *options;
    return DF_OK;
}

void df_nnue_reader_pgn_counts(const df_nnue_reader *r, df_nnue_pgn_counts *out)
{
    if (!out) return;
    memset(out, 0, sizeof *out);
    if (r && r->pgn) *out = r->pgn->counts;
}

void df__pgn_free(df__pgn_state *s)
{
    if (!s) return;
    df_pgn_reader_free(s->reader);
    free(s->items);
    free(s->plies);
    free(s->boards);
    free(s);
}

df_nnue_next df__pgn_next(df_nnue_reader *r, df_nnue_entry *out, df_nnue_error *err)
{
    df__pgn_state *s = state_of(r);
    if (!s) {
        df__nnue_fail(err, DF_NNUE_ERR_IO, r->in.offset, 0, "out of memory");
        return DF_NNUE_ERROR;
    }
    s->rank = r->rank;
    s->world = r->world;
    const df_pgn_visitor v = {on_begin, on_ply, on_end, s};
    for (;;) {
        if (s->next < s->n) {
            const df__pgn_item *it = &s->items[s->next++];
            if (it->is_error) {
                if (err) *err = it->error;
                return DF_NNUE_ERROR;
            }
            *out = it->entry;
            return DF_NNUE_ENTRY;
        }
        s->next = s->n = 0;
        if (s->out_of_room) {
            s->out_of_room = false;
            s->finished = true; /* a callback's stop finished the PGN reader */
            df__nnue_fail(err, DF_NNUE_ERR_IO, r->in.offset, 0,
                          "byte %llu: out of memory for a game's positions",
                          (unsigned long long)r->in.offset);
            return DF_NNUE_ERROR;
        }
        if (s->finished) return DF_NNUE_END;
        /* The next block of input, whatever it holds: the reader keeps what a token or a game
         * in progress needs. */
        df__nnue_input *in = &r->in;
        if (in->pos == in->len) df__nnue_peek(in, 1);
        const size_t avail = in->len - in->pos;
        if (avail) {
            df_pgn_feed(s->reader, (const char *)in->buf + in->pos, avail, &v);
            df__nnue_consume(in, avail);
        } else {
            /* The end of the input: the game in progress ends, cut short if it was. After a
             * read error (read_any says it) the game it cut is no fault of the file, and is
             * not given. */
            if (!in->failed) df_pgn_finish(s->reader, &v);
            s->finished = true;
        }
    }
}
