/* SPDX-License-Identifier: MIT */
/* Feature planes: the channel names, the dispatched batch, and batches on threads (from
 * boards, FEN texts or piece bitboards). A thread that cannot start leaves its share to the
 * calling thread, so the output is always complete. */
#include <string.h>

#include "backend.h"
#include "fill/map_sets.h"
#include "services/threads.h"

/* clang-format off */
static const char *const df__plane_names[DF_PLANES] = {
    "piece.P", "piece.N", "piece.B", "piece.R", "piece.Q", "piece.K",
    "piece.p", "piece.n", "piece.b", "piece.r", "piece.q", "piece.k",
    "white_to_move", "castling.K", "castling.Q", "castling.k", "castling.q", "en_passant",
    DF__MAP_SET_NAMES("white."), "white.count",
    DF__MAP_SET_NAMES("black."), "black.count",
    "checkers", "pinned", "pinners", "check_block", "discoverers"};
/* clang-format on */

const char *df_plane_name(int c) { return c >= 0 && c < DF_PLANES ? df__plane_names[c] : NULL; }

void df_attack_planes_batch(uint8_t *out, const df_board *boards, size_t n)
{
    assert(n == 0 || (out && boards));
    df__backend_active()->attack_planes(out, boards, n);
}

/* Where a job's positions come from. */
typedef enum { DF__FROM_BOARDS, DF__FROM_FENS, DF__FROM_ROWS } df__source;

/* A batch: its positions, read from one source, and where their planes go. */
typedef struct df__job {
    df__source source;
    uint8_t *out;
    bool *ok;
    const df_board *boards;
    const char *const *fens;
    const size_t *lens;
    df_fen_flags flags;
    const df_position_rows *rows;
} df__job;

/* Row i of rows as a board. */
static df_status df__board_of_row(df_board *b, const df_position_rows *rows, size_t i)
{
    df_board_parts parts;
    memcpy(parts.pieces, rows->pieces + 12 * i, sizeof parts.pieces);
    parts.stm = rows->stm[i] ? DF_BLACK : DF_WHITE;
    parts.castling_rooks = rows->castling_rooks ? rows->castling_rooks[i] : 0;
    parts.ep = rows->ep ? rows->ep[i] : -1;
    parts.halfmove = 0;
    parts.fullmove = 1;
    parts.chess960 = rows->chess960;
    return df_board_from_parts(b, &parts);
}

/* Positions are made in blocks on the stack and their planes computed a block at a time, so a
 * batch call carries enough work to hide its dispatch. */
enum { DF__BLOCK = 64 };

/* Positions [begin, end) of the batch: their planes; returns those accepted. */
static size_t df__run_job(void *arg, size_t begin, size_t end)
{
    const df__job *j = arg;
    const df__backend *be = df__backend_active();
    if (j->source == DF__FROM_BOARDS) {
        be->attack_planes(j->out + begin * DF_PLANE_BYTES, j->boards + begin, end - begin);
        return end - begin;
    }
    df_board block[DF__BLOCK];
    size_t i = begin, accepted = 0;
    while (i < end) {
        /* Valid positions are gathered into the block; each run of them is flushed. */
        size_t first = i, count = 0;
        while (i < end && count < DF__BLOCK) {
            bool good;
            if (j->source == DF__FROM_FENS)
                good = df_fen_parse(&block[count], j->fens[i], j->lens[i], j->flags, NULL) == DF_OK;
            else
                good = df__board_of_row(&block[count], j->rows, i) == DF_OK;
            j->ok[i] = good;
            if (!good) {
                memset(j->out + i * DF_PLANE_BYTES, 0, DF_PLANE_BYTES);
                i++;
                break;
            }
            count++;
            i++;
        }
        if (count) be->attack_planes(j->out + first * DF_PLANE_BYTES, block, count);
        accepted += count;
    }
    return accepted;
}

/* The batch on threads, each a contiguous share of at least a block; returns the positions
 * accepted. */
static size_t df__run_shared(df__job job, size_t n, unsigned threads)
{
    return df__parallel_for(n, DF__BLOCK, threads, df__run_job, &job);
}

df_status df_attack_planes_batch_mt(uint8_t *out, const df_board *boards, size_t n,
                                    unsigned threads)
{
    if (n && (!out || !boards)) return DF_ERR_ARGUMENT;
    df__run_shared((df__job){.source = DF__FROM_BOARDS, .out = out, .boards = boards}, n, threads);
    return DF_OK;
}

size_t df_attack_planes_from_fens_mt(uint8_t *out, bool *ok, const char *const *fens,
                                     const size_t *lens, size_t n, df_fen_flags flags,
                                     unsigned threads)
{
    if (n && (!out || !ok || !fens || !lens)) return 0;
    return df__run_shared((df__job){.source = DF__FROM_FENS,
                                    .out = out,
                                    .ok = ok,
                                    .fens = fens,
                                    .lens = lens,
                                    .flags = flags},
                          n, threads);
}

size_t df_attack_planes_from_rows_mt(uint8_t *out, bool *ok, const df_position_rows *rows, size_t n,
                                     unsigned threads)
{
    if (n && (!out || !ok || !rows || !rows->pieces || !rows->stm)) return 0;
    return df__run_shared((df__job){.source = DF__FROM_ROWS, .out = out, .ok = ok, .rows = rows}, n,
                          threads);
}
