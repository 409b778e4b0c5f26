/* SPDX-License-Identifier: MIT */
/* dirfill nnue's PGN input: games read on threads by the library (df_pgn_read_threaded), each
 * game's positions turned into entries in its worker's sink, the sinks handed on in input
 * order. A position's score is the [%eval] of the move made from it, from the side to move's
 * view; its result the game's. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnue_pgn.h"

/* Centipawns are kept within this, below every mate score: a mate is 32000 - plies, its plies
 * capped so that it stays above. */
enum { SCORE_MAX = 30000, MATE = 32000, MATE_PLIES_MAX = MATE - SCORE_MAX - 1 };

/* The score of the position before the move of p, from the view of its side to move, stm. */
static int16_t score_of(const df_pgn_ply *p, df_color stm)
{
    const bool white = stm == DF_WHITE;
    if (p->eval_kind == DF_PGN_EVAL_PAWNS) {
        double cp = round(100.0 * p->pawns);
        if (!(cp <= SCORE_MAX)) cp = SCORE_MAX; /* NaN too */
        if (cp < -SCORE_MAX) cp = -SCORE_MAX;
        return (int16_t)(white ? cp : -cp);
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

/* What a sink holds: the entries and errors of its games, in order. */
typedef struct {
    bool is_error;
    df_nnue_entry entry;      /* an entry */
    uint64_t game, line, off; /* an error: its game (counted in the sink), line, byte offset */
    size_t message;           /* and where its message starts in the sink's text */
} item;

typedef struct {
    const nnue_run *run;
    item *items;
    size_t n, cap;
    cmd_text messages;
    df_pgn_ply *plies; /* the game in progress: its plies (their before pointers go stale:
                          the boards are kept beside them) */
    df_board *boards;
    uint32_t nplies, plies_cap;
    bool failed;
} sink;

static item *add_item(sink *s)
{
    if (s->n == s->cap) {
        const size_t cap = s->cap ? 2 * s->cap : 256;
        item *grown = realloc(s->items, cap * sizeof *grown);
        if (!grown) {
            s->failed = true;
            return NULL;
        }
        s->items = grown;
        s->cap = cap;
    }
    return &s->items[s->n++];
}

static void *sink_open(void *ctx)
{
    sink *s = calloc(1, sizeof *s);
    if (s) s->run = ctx;
    return s;
}

static void sink_drop(void *ctx, void *p)
{
    (void)ctx;
    sink *s = p;
    free(s->items);
    free(s->plies);
    free(s->boards);
    cmd_text_free(&s->messages);
    free(s);
}

static df_pgn_action on_begin(void *ctx, const df_pgn_game *g)
{
    (void)g;
    ((sink *)ctx)->nplies = 0;
    return DF_PGN_READ;
}

static void on_ply(void *ctx, const df_pgn_game *g, const df_pgn_ply *p)
{
    (void)g;
    sink *s = ctx;
    if (s->nplies == s->plies_cap) {
        const uint32_t cap = s->plies_cap ? 2 * s->plies_cap : 256;
        df_pgn_ply *plies = realloc(s->plies, cap * sizeof *plies);
        if (plies) s->plies = plies;
        df_board *boards = realloc(s->boards, cap * sizeof *boards);
        if (boards) s->boards = boards;
        if (!plies || !boards) {
            s->failed = true;
            return;
        }
        s->plies_cap = cap;
    }
    s->boards[s->nplies] = *p->before;
    s->plies[s->nplies++] = *p;
}

static void add_error(sink *s, const df_pgn_game *g, const char *message, uint64_t line)
{
    item *it = add_item(s);
    if (!it) return;
    it->is_error = true;
    it->game = g->index;
    it->line = line;
    it->off = g->offset;
    it->message = s->messages.len;
    cmd_text_put(&s->messages, message, strlen(message) + 1);
}

static df_pgn_action on_end(void *ctx, const df_pgn_game *g)
{
    sink *s = ctx;
    if (g->skipped) return DF_PGN_READ;
    if (g->error) {
        add_error(s, g, g->error, g->error_line);
        return DF_PGN_READ;
    }
    /* A game without a result ("*") has no result to learn: its positions are not entries. */
    if (g->result == DF_RESULT_NONE) return DF_PGN_READ;
    const uint64_t first = 2 * (uint64_t)(g->start.fullmove - 1) + df_board_stm(&g->start);
    if (first + g->plies > UINT16_MAX) {
        add_error(s, g, "its plies run past 65535, an entry's limit", g->line);
        return DF_PGN_READ;
    }
    /* Pieces are never added: the start holds the most any of its positions does. */
    const int pieces = df_popcount(df_board_occupied(&g->start));
    if (pieces > DF_NNUE_PIECES_MAX) {
        char why[96];
        snprintf(why, sizeof why, "its start holds %d pieces (the formats hold at most %d)", pieces,
                 DF_NNUE_PIECES_MAX);
        add_error(s, g, why, g->line);
        return DF_PGN_READ;
    }
    for (uint32_t k = 0; k < s->nplies; k++) {
        const df_pgn_ply *p = &s->plies[k];
        if (p->move == DF_MOVE_NONE) continue; /* a null move is no move to learn */
        if (p->eval_kind == DF_PGN_EVAL_NONE && !s->run->no_eval_ok) continue;
        item *it = add_item(s);
        if (!it) return DF_PGN_STOP;
        it->is_error = false;
        df_nnue_entry *e = &it->entry;
        e->pos = s->boards[k];
        e->move = p->move;
        e->ply = (uint16_t)(first + k);
        e->score = p->eval_kind == DF_PGN_EVAL_NONE ? DF_NNUE_SCORE_NONE
                                                    : score_of(p, df_board_stm(&e->pos));
        const int white = g->result == DF_RESULT_WHITE_WINS   ? 1
                          : g->result == DF_RESULT_BLACK_WINS ? -1
                                                              : 0;
        e->result = (int8_t)(df_board_stm(&e->pos) == DF_WHITE ? white : -white);
        e->ep_as_stored = 0; /* reached by a move: nnue-pytorch's rule */
    }
    return s->failed ? DF_PGN_STOP : DF_PGN_READ;
}

typedef struct {
    nnue_run *run;
    const char *path;
    bool stop;
} file_read;

static void *sink_open_run(void *ctx) { return sink_open(((file_read *)ctx)->run); }

static int sink_deliver(void *ctx, void *p, uint64_t first_game)
{
    file_read *f = ctx;
    sink *s = p;
    if (s->failed || s->messages.failed) {
        nnue_error(f->run, f->path, "out of memory", 0, NULL, 0);
        return 1;
    }
    for (size_t i = 0; i < s->n && !f->stop; i++) {
        const item *it = &s->items[i];
        if (!it->is_error) {
            f->stop = !nnue_take(f->run, f->path, &it->entry, true);
            continue;
        }
        char message[512];
        snprintf(message, sizeof message, "game %llu at line %llu: %s",
                 (unsigned long long)(first_game + it->game), (unsigned long long)it->line,
                 s->messages.text + it->message);
        nnue_error(f->run, f->path, message, it->off, "game", first_game + it->game);
    }
    return f->stop;
}

int nnue_read_pgn(nnue_run *run, const char *path)
{
    df_source *src;
    const df_status opened = df_source_open(&src, path);
    if (opened != DF_OK) {
        run->errors++;
        return cmd_open_error("nnue", path, opened);
    }
    file_read f = {run, path, false};
    const df_pgn_sinks sinks = {
        sink_open_run, {on_begin, on_ply, on_end, NULL}, sink_deliver, sink_drop, &f};
    const df_status s =
        df_pgn_read_threaded(src, DF_PGN_STANDARD, NULL, run->threads, &sinks, NULL);
    int status = 0;
    if (s == DF_ERR_IO) {
        const char *why = df_source_error(src);
        run->errors++;
        status = cmd_input_error("nnue", "%s: %s", path, why ? why : "cannot read it");
    }
    df_source_close(src);
    return status;
}
