/* SPDX-License-Identifier: MIT */
/* dirfill nnue's output (nnue_out.h): the calling thread fills a batch, a worker computes its
 * feature rows (df_nnue_batch) and its JSON lines, and the calling thread writes the batches
 * in the order they were filled. A ring of twice as many batches as workers keeps them busy
 * while the oldest is written; memory is bounded by the ring, not by the input. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "nnue_out.h"

/* Entries per batch: a few megabytes of rows at the widest set, many lines per write. */
enum { BATCH = 1024 };

typedef enum { SLOT_FREE, SLOT_READY, SLOT_BUSY, SLOT_DONE } slot_state;

/* A line given between entries: it goes before entry `before` of its batch. */
typedef struct {
    uint32_t before;
    size_t start, end; /* in the batch's lines */
} line_mark;

typedef struct {
    df_board boards[BATCH];
    df_move moves[BATCH];
    int16_t scores[BATCH];
    uint16_t plies[BATCH];
    int8_t results[BATCH];
    bool has_move[BATCH];
    bool ep_as_stored[BATCH]; /* the entries' df_nnue_entry.ep_as_stored: their FEN's square */
    uint32_t n;
    cmd_text lines;
    line_mark *marks;
    size_t nmarks, marks_cap;
    int32_t *white, *black; /* BATCH rows of width */
    int32_t *wide;          /* one row's indices (all of a cut row's), sorted for its line */
    size_t wide_cap;
    cmd_text out; /* the batch's JSON */
    slot_state state;
} batch;

struct nnue_out {
    df_nnue_set set;
    size_t width;
    bool json, failed;
    unsigned workers, nslots, allocated;
    batch *slots;
    uint64_t filled; /* batches handed on: the one being filled is filled % nslots */
    uint64_t written;
    pthread_mutex_t lock;
    pthread_cond_t work, done;
    bool quit;
    pthread_t *threads;
};

/* ---- the JSON of a batch ---- */

static char *put_int(char *p, long v)
{
    char digits[24];
    int n = 0;
    unsigned long u = v < 0 ? 0ul - (unsigned long)v : (unsigned long)v;
    if (v < 0) *p++ = '-';
    do digits[n++] = (char)('0' + u % 10);
    while (u /= 10);
    while (n) *p++ = digits[--n];
    return p;
}

static int index_order(const void *a, const void *b)
{
    const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Makes room for n indices in b->wide; false (the batch failed) when memory runs out. */
static bool wide_room(batch *b, size_t n)
{
    if (n <= b->wide_cap) return true;
    int32_t *grown = realloc(b->wide, n * sizeof *grown);
    if (!grown) {
        b->out.failed = true;
        return false;
    }
    b->wide = grown;
    b->wide_cap = n;
    return true;
}

/* The indices of entry i for one perspective, ascending (the rows hold them in nnue-pytorch's
 * order): its row's, or all of them when the row was cut. In b->wide, until the next call. */
static const int32_t *indices(const nnue_out *o, batch *b, uint32_t i, df_color side, size_t *n)
{
    *n = 0;
    if (!o->width) return b->wide;
    const int32_t *row = (side ? b->black : b->white) + (size_t)i * o->width;
    size_t k = 0;
    while (k < o->width && row[k] >= 0) k++;
    if (k == 0) return b->wide;
    if (k == o->width) {
        /* Full: perhaps cut (a constructed position with more features than the row). */
        const size_t all = df_nnue_features(NULL, 0, &b->boards[i], side, &o->set);
        if (!wide_room(b, all)) return b->wide;
        k = df_nnue_features(b->wide, all, &b->boards[i], side, &o->set);
    } else {
        if (!wide_room(b, k)) return b->wide;
        memcpy(b->wide, row, k * sizeof *row);
    }
    qsort(b->wide, k, sizeof *b->wide, index_order);
    *n = k;
    return b->wide;
}

static void put_entry(const nnue_out *o, batch *b, uint32_t i)
{
    size_t nw, nb;
    const int32_t *w = indices(o, b, i, DF_WHITE, &nw);
    char head[DF_FEN_MAX + 96], uci[DF_UCI_MAX] = "-", fen[DF_FEN_MAX];
    const df_nnue_entry e = {.pos = b->boards[i], .ep_as_stored = b->ep_as_stored[i]};
    df_nnue_entry_fen(fen, sizeof fen, &e);
    if (b->has_move[i]) df_move_to_uci(uci, &b->boards[i], b->moves[i]);
    char *p =
        head + snprintf(head, sizeof head, "{\"fen\":\"%s\",\"move\":\"%s\",\"score\":", fen, uci);
    p = put_int(p, b->scores[i]);
    memcpy(p, ",\"ply\":", 7);
    p = put_int(p + 7, b->plies[i]);
    memcpy(p, ",\"result\":", 10);
    p = put_int(p + 10, b->results[i]);
    memcpy(p, ",\"white\":[", 10);
    cmd_text_put(&b->out, head, (size_t)(p + 10 - head));
    /* The two lists, each index at most 11 bytes with its comma. */
    for (int side = 0; side < 2; side++) {
        const int32_t *row = side ? indices(o, b, i, DF_BLACK, &nb) : w;
        const size_t n = side ? nb : nw;
        char chunk[64 * 12];
        char *q = chunk;
        for (size_t k = 0; k < n; k++) {
            if (k) *q++ = ',';
            q = put_int(q, row[k]);
            if (q - chunk > (long)sizeof chunk - 12) {
                cmd_text_put(&b->out, chunk, (size_t)(q - chunk));
                q = chunk;
            }
        }
        cmd_text_put(&b->out, chunk, (size_t)(q - chunk));
        cmd_text_puts(&b->out, side ? "]}\n" : "],\"black\":[");
    }
}

static void put_marks(batch *b, size_t *m, uint32_t before)
{
    for (; *m < b->nmarks && b->marks[*m].before == before; ++*m)
        cmd_text_put(&b->out, b->lines.text + b->marks[*m].start,
                     b->marks[*m].end - b->marks[*m].start);
}

/* A worker's job: the rows, then the lines. */
static void compute(const nnue_out *o, batch *b)
{
    if (b->n && o->width) df_nnue_batch(b->white, b->black, o->width, b->boards, b->n, &o->set);
    if (!o->json) return;
    b->out.len = 0;
    size_t m = 0;
    for (uint32_t i = 0; i < b->n; i++) {
        put_marks(b, &m, i);
        put_entry(o, b, i);
    }
    put_marks(b, &m, b->n);
}

/* ---- the ring ---- */

static void *worker(void *arg)
{
    nnue_out *o = arg;
    pthread_mutex_lock(&o->lock);
    for (;;) {
        batch *b = NULL;
        /* The oldest ready batch: the one to be written first. */
        for (uint64_t k = o->written; k < o->filled && !b; k++)
            if (o->slots[k % o->nslots].state == SLOT_READY) b = &o->slots[k % o->nslots];
        if (!b) {
            if (o->quit) break;
            pthread_cond_wait(&o->work, &o->lock);
            continue;
        }
        b->state = SLOT_BUSY;
        pthread_mutex_unlock(&o->lock);
        compute(o, b);
        pthread_mutex_lock(&o->lock);
        b->state = SLOT_DONE;
        pthread_cond_broadcast(&o->done);
    }
    pthread_mutex_unlock(&o->lock);
    return NULL;
}

/* Writes the oldest batch once it is done, and frees its slot. */
static void write_oldest(nnue_out *o)
{
    batch *b = &o->slots[o->written % o->nslots];
    pthread_mutex_lock(&o->lock);
    while (b->state != SLOT_DONE) pthread_cond_wait(&o->done, &o->lock);
    pthread_mutex_unlock(&o->lock);
    if (b->out.failed || b->lines.failed) o->failed = true;
    if (o->json && !o->failed && fwrite(b->out.text, 1, b->out.len, stdout) != b->out.len)
        o->failed = true;
    if (ferror(stdout)) o->failed = true;
    b->n = 0;
    b->nmarks = 0;
    b->lines.len = 0;
    pthread_mutex_lock(&o->lock);
    b->state = SLOT_FREE;
    o->written++;
    pthread_mutex_unlock(&o->lock);
}

/* The batch being filled is complete: hand it on, and make the next slot free. */
static void hand_on(nnue_out *o)
{
    batch *b = &o->slots[o->filled % o->nslots];
    if (!o->workers) {
        compute(o, b);
        b->state = SLOT_DONE;
        o->filled++;
        write_oldest(o);
        return;
    }
    /* filled changes under the lock: the workers read it there. */
    pthread_mutex_lock(&o->lock);
    b->state = SLOT_READY;
    o->filled++;
    pthread_cond_signal(&o->work);
    pthread_mutex_unlock(&o->lock);
    if (o->filled - o->written == o->nslots) write_oldest(o);
}

static void free_slots(nnue_out *o)
{
    for (unsigned i = 0; o->slots && i < o->allocated; i++) {
        batch *b = &o->slots[i];
        free(b->white);
        free(b->black);
        free(b->wide);
        free(b->marks);
        cmd_text_free(&b->lines);
        cmd_text_free(&b->out);
    }
    free(o->slots);
    free(o->threads);
    free(o);
}

nnue_out *nnue_out_new(const df_nnue_set *set, bool json, unsigned threads)
{
    nnue_out *o = calloc(1, sizeof *o);
    if (!o) return NULL;
    if (threads == 0) threads = df_hardware_threads();
    o->set = *set;
    o->width = df_nnue_set_max_active(set);
    o->json = json;
    o->workers = threads > 1 ? threads : 0;
    o->nslots = threads > 1 ? 2 * threads : 1;
    o->slots = calloc(o->nslots, sizeof *o->slots);
    o->allocated = o->slots ? o->nslots : 0;
    o->threads = calloc(o->workers ? o->workers : 1, sizeof *o->threads);
    bool ok = o->slots && o->threads;
    for (unsigned i = 0; ok && i < o->nslots; i++) {
        o->slots[i].white = malloc((BATCH * o->width + 1) * sizeof(int32_t));
        o->slots[i].black = malloc((BATCH * o->width + 1) * sizeof(int32_t));
        ok = o->slots[i].white && o->slots[i].black;
    }
    if (!ok) {
        free_slots(o);
        return NULL;
    }
    pthread_mutex_init(&o->lock, NULL);
    pthread_cond_init(&o->work, NULL);
    pthread_cond_init(&o->done, NULL);
    for (unsigned i = 0; i < o->workers; i++)
        if (pthread_create(&o->threads[i], NULL, worker, o)) {
            o->workers = i; /* fewer threads: the same output */
            break;
        }
    if (!o->workers) o->nslots = 1;
    return o;
}

bool nnue_out_entry(nnue_out *o, const df_nnue_entry *e, bool has_move)
{
    batch *b = &o->slots[o->filled % o->nslots];
    const uint32_t i = b->n++;
    b->boards[i] = e->pos;
    b->moves[i] = e->move;
    b->scores[i] = e->score;
    b->plies[i] = e->ply;
    b->results[i] = e->result;
    b->has_move[i] = has_move;
    b->ep_as_stored[i] = e->ep_as_stored != 0;
    if (b->n == BATCH) hand_on(o);
    return !o->failed;
}

bool nnue_out_line(nnue_out *o, const cmd_text *line)
{
    batch *b = &o->slots[o->filled % o->nslots];
    if (b->nmarks == b->marks_cap) {
        const size_t cap = b->marks_cap ? 2 * b->marks_cap : 16;
        line_mark *grown = realloc(b->marks, cap * sizeof *grown);
        if (!grown) {
            o->failed = true;
            return false;
        }
        b->marks = grown;
        b->marks_cap = cap;
    }
    const size_t start = b->lines.len;
    cmd_text_put(&b->lines, line->text, line->len);
    b->marks[b->nmarks++] = (line_mark){b->n, start, b->lines.len};
    return !o->failed;
}

bool nnue_out_finish(nnue_out *o)
{
    batch *b = &o->slots[o->filled % o->nslots];
    if (b->n || b->nmarks) hand_on(o);
    while (o->written < o->filled) write_oldest(o);
    if (o->workers) {
        pthread_mutex_lock(&o->lock);
        o->quit = true;
        pthread_cond_broadcast(&o->work);
        pthread_mutex_unlock(&o->lock);
        for (unsigned i = 0; i < o->workers; i++) pthread_join(o->threads[i], NULL);
    }
    pthread_mutex_destroy(&o->lock);
    pthread_cond_destroy(&o->work);
    pthread_cond_destroy(&o->done);
    const bool ok = !o->failed;
    free_slots(o);
    return ok;
}
