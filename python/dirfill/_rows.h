/* SPDX-License-Identifier: MIT */
/* Positions as columns, filled by the PGN reader's workers (sinks that grow with their run of
 * games) and handed to Python as numpy arrays (batches of a fixed capacity, one mapping each,
 * owned by the arrays), and what a game says besides its positions (tags, errors, skipped
 * variants, warnings) as compact text records. */
#ifndef DFPY_ROWS_H
#define DFPY_ROWS_H

#include "_common.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

/* Memory for a batch's arrays: a mapping of bytes (malloc below 64 KB), one given back before
 * when there is one of that size (its pages stay mapped: a fresh mapping faults in every page
 * as the rows are written). dfpy_region_give gives it back; dfpy_region_owner is an object that
 * gives it back when it goes (a numpy array's base; NULL with an exception). */
void *dfpy_region_take(size_t bytes);
void dfpy_region_give(void *p, size_t bytes);
PyObject *dfpy_region_owner(void *p, size_t bytes);

/* The columns of n rows. */
typedef struct {
    uint64_t *pieces, *castling;
    uint8_t *turn; /* 1 when White is to move (Python's turn, as Board.turn) */
    int8_t *ep, *result;
    uint32_t *halfmove, *fullmove, *ply;
    int64_t *game;
    uint16_t *move;
    float *eval, *clock;
    char (*uci)[DF_UCI_MAX];
    size_t n, cap;
    bool with_uci, failed;
    void *region; /* a batch's one mapping, or NULL */
    size_t region_bytes;
    bool column_maps; /* each column a mapping of its own (cap rows), else a malloc each */
} dfpy_rows;

/* clang-format off */
#define DFPY_COLUMN_FIELDS(X)                                                                      \
    X(pieces, 12) X(castling, 1) X(turn, 1) X(ep, 1) X(result, 1) X(halfmove, 1) X(fullmove, 1)     \
    X(ply, 1) X(game, 1) X(move, 1) X(eval, 1) X(clock, 1)
/* clang-format on */

/* Room for need rows: in columns of their own (a sink's), grown in place; in a batch's mapping,
 * moved to a larger one; in mappings of their own (dfpy_rows_reserve_mapped), grown by
 * dfpy_rows_grow_mapped. */
bool dfpy_rows_reserve(dfpy_rows *c, size_t need);
/* Columns of capacity cap in one mapping (a batch's; pages touched only as rows are written). */
bool dfpy_rows_map(dfpy_rows *c, size_t cap, bool with_uci);
/* Columns of mappings of their own, address space for cap rows reserved (fewer when it cannot
 * be: halved down to 4096), pages touched only as rows are written. */
bool dfpy_rows_reserve_mapped(dfpy_rows *c, size_t cap, bool with_uci);
/* Room for need rows in those columns: grown by mremap, which moves pages, not bytes. */
bool dfpy_rows_grow_mapped(dfpy_rows *c, size_t need);
void dfpy_rows_free(dfpy_rows *c);
/* Faults in the pages of rows [from, to) of columns of their own, writable, without writing
 * them (MADV_POPULATE_WRITE; nothing where the kernel lacks it). */
void dfpy_rows_populate(const dfpy_rows *c, size_t from, size_t to);
/* Gives back the pages of columns of their own (dfpy_rows_reserve_mapped's) past their n rows
 * (those faulted in ahead of the rows, a huge page's tail), keeping the address space
 * (MADV_DONTNEED: advice). */
void dfpy_rows_release_unused(const dfpy_rows *c);
/* Appends src's rows [from, to) to dst (room for them needed), game numbers plus game_add. */
void dfpy_rows_append(dfpy_rows *dst, const dfpy_rows *src, size_t from, size_t to,
                      int64_t game_add);
/* Puts the columns of c (mapped: a batch or columns of their own) into dict out as numpy arrays
 * that own the memory (c is left empty); -1 with an exception. */
int dfpy_rows_to_dict(dfpy_rows *c, PyObject *out);

/* Text records: kind (H a tag, E an error, S skipped, W a warning), a game number, two strings
 * (tag name and value; message and line number; reason; message). */
typedef struct {
    char *text;
    size_t len, cap;
    bool failed;
} dfpy_records;

void dfpy_record(dfpy_records *r, char kind, uint64_t game, const char *a, size_t na, const char *b,
                 size_t nb);
/* Appends src's records to dst. */
void dfpy_records_append(dfpy_records *dst, const dfpy_records *src);
/* The record at offset at: its fields; returns the offset of the next one. */
size_t dfpy_record_at(const dfpy_records *r, size_t at, char *kind, uint64_t *game, const char **a,
                      uint32_t *na, const char **b, uint32_t *nb);
/* Removes the records of game at the end of r (the last game's): 'E' when one said its error,
 * 'S' that it was skipped, else 0. */
int dfpy_records_drop_last(dfpy_records *r, uint64_t game);
/* The number an error record's second string holds (its n decimal digits: the line). */
uint64_t dfpy_record_number(const char *t, uint32_t n);
/* Adds "headers" (game -> {tag: value}), "errors" [(game, message, line)], "skipped" [(game,
 * reason)] and "warnings" [(game, message)] of the records to out; lazy_headers: "_tags", the
 * records as bytes, in place of "headers" (dfpy_decode_headers decodes them when asked). -1 with
 * an exception. */
int dfpy_records_to_dict(const dfpy_records *r, PyObject *out, bool lazy_headers);
/* _decode_headers(bytes) -> {game: {tag: value}}: the tags of records as "_tags" holds them. */
PyObject *dfpy_decode_headers(PyObject *unused, PyObject *records);

/* What the sinks write: the tags or not, whose view the evaluations and results take, which
 * positions (the library's per-position filter). Set up before a read, read-only during it. */
typedef struct {
    bool headers;      /* record the games' tags */
    bool side_to_move; /* eval and result from the side to move's view, else White's */
    const df_pgn_position_filter *positions; /* NULL: every position */
} dfpy_write_options;

/* The options of view=, min_ply=, max_ply=, min_clock= and require_eval= (each NULL or None when
 * not given) into *o, its filter in *filter: 0, or -1 with ValueError or TypeError. */
int dfpy_write_options_parse(dfpy_write_options *o, df_pgn_position_filter *filter, PyObject *view,
                             PyObject *min_ply, PyObject *max_ply, PyObject *min_clock,
                             int require_eval);

/* One run of games as a worker fills it: its rows and records, game numbers from 0 in the run. */
typedef struct {
    dfpy_rows rows;
    size_t game_start; /* the current game's first row */
    bool warned;       /* the current game's warning is recorded */
    /* The rooks that may castle change a few times a game: worked out again only then, for a
     * board whose rights and rook squares (the key) differ from the last one's (0 at first: no
     * rights, no rooks). */
    uint64_t castling_key;
    df_bb castling_rooks;
    dfpy_records rec;
    const bool *stop; /* the pool's: set, the sink's game stops at its next callback */
    const dfpy_write_options *write; /* the pool's */
    df_pgn_clocks clocks;            /* the current game's, for the position filter */
    uint64_t positions; /* of the kept games (the program's word), since it was taken */
    /* The last game ended: its number, and where it ended when no result token ended it (else
     * UINT64_MAX), for the game a failed read cut short (_pgn_batches.c). */
    bool ended;
    uint64_t last_game, unended_at;
    bool failed;
} dfpy_sink;

/* Sinks dropped after delivery are kept for the next ones: their columns have grown and their
 * pages are mapped. */
enum { DFPY_SPARE_SINKS = 10 };
typedef struct {
    bool with_uci;
    const dfpy_write_options *write;
    const bool *stop;     /* NULL, or set (atomically) when the read must stop */
    pthread_mutex_t lock; /* open may be called on any thread */
    dfpy_sink *spare[DFPY_SPARE_SINKS];
    int nspare;
} dfpy_sink_pool;

/* Whether a sink ran out of memory (it stops at its next callback). */
bool dfpy_sink_failed(const dfpy_sink *s);

void dfpy_sink_pool_init(dfpy_sink_pool *p, bool with_uci, const dfpy_write_options *write,
                         const bool *stop);
/* Frees the spare sinks (the pool stays usable). */
void dfpy_sink_pool_drain(dfpy_sink_pool *p);
void dfpy_sink_pool_free(dfpy_sink_pool *p);
/* df_pgn_sinks' open and drop (ctx: the pool), and the visitor's callbacks (ctx: the sink). */
void *dfpy_sink_open(void *pool);
void dfpy_sink_drop(void *pool, void *sink);
df_pgn_action dfpy_sink_begin(void *sink, const df_pgn_game *g);
df_pgn_action dfpy_sink_end(void *sink, const df_pgn_game *g);

/* The visitor's ply: a row, when the position passes the filter. Inline: the serial reader's
 * visitor calls it once a position, where the call's own cost is not small beside the row's. */
static inline void dfpy_sink_ply(void *ctx, const df_pgn_game *g, const df_pgn_ply *p)
{
    dfpy_sink *s = ctx;
    const dfpy_write_options *w = s->write;
    /* Asked at every ply, in order: the filter follows the clocks from ply 0 on. */
    if (w->positions && !df_pgn_position_passes(w->positions, &s->clocks, g, p)) return;
    dfpy_rows *c = &s->rows;
    if (c->n == c->cap && !dfpy_rows_reserve(c, c->n + 1)) return;
    const size_t i = c->n++;
    const df_board *b = p->before;
    /* df_board_to_parts' fields written in place (a row a ply: the parts struct, its clearing
     * and its copy cost as much as the rest of the row). */
    df_board_piece_sets(c->pieces + 12 * i, b);
    uint32_t rooks;
    _Static_assert(sizeof b->castle_rook == sizeof rooks, "a rook square for each of 4 rights");
    memcpy(&rooks, b->castle_rook, sizeof rooks);
    const uint64_t key = b->castling | (uint64_t)rooks << 8;
    if (key != s->castling_key) {
        s->castling_key = key;
        s->castling_rooks = df_board_castling_rooks(b);
    }
    c->castling[i] = s->castling_rooks;
    const df_color stm = df_board_stm(b);
    c->turn[i] = stm == DF_WHITE;
    c->ep[i] = (int8_t)(b->ep < 64 ? b->ep : -1);
    c->halfmove[i] = b->halfmove;
    c->fullmove[i] = b->fullmove;
    c->ply[i] = p->ply;
    c->game[i] = (int64_t)g->index;
    c->move[i] = p->move;
    /* PGN's figures are White's; the side to move's view negates them for Black. */
    const float sign = w->side_to_move && stm == DF_BLACK ? -1.0f : 1.0f;
    if (p->eval_kind == DF_PGN_EVAL_PAWNS)
        c->eval[i] = sign * (float)p->pawns;
    else if (p->eval_kind == DF_PGN_EVAL_MATE)
        c->eval[i] = sign * (p->mate > 0 ? 1000.0f - (float)p->mate : -1000.0f - (float)p->mate);
    else
        c->eval[i] = NAN;
    c->clock[i] = p->has_clock ? (float)p->clock : NAN;
    if (c->with_uci) {
        memset(c->uci[i], 0, DF_UCI_MAX); /* numpy reads all six bytes */
        if (p->move == DF_MOVE_NONE)
            memcpy(c->uci[i], "0000", 5);
        else
            df_move_to_uci(c->uci[i], p->before, p->move);
    }
}

#endif
