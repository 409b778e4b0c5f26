/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the C paths the Python binding hands outside input to. The first byte
 * picks one:
 *   0  texts split at '\n' -> df_attack_planes_from_fens_mt (both dialects);
 *   1  raw rows (12 bitboards, stm, castling rooks, en passant) -> df_board_from_parts and
 *      df_attack_planes_from_rows_mt, parts round trips;
 *   2  a FEN line, then words played as a Board plays them: UCI, SAN, raw 16-bit moves through
 *      df_make_move_checked, pops, outcome and claims, FEN output both ways;
 *   3  overlay names and a position -> df_svg_parse_overlays, df_svg_write into a buffer
 *      too small and one just right;
 *   4  a position and a depth -> df_perft_interruptible stopped by a pseudo-random interrupt.
 * Every accepted board must be valid (df_board_is_valid) and every output within bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dirfill.h"

static void check_board(const df_board *b)
{
    if (!df_board_is_valid(b) || b->key != df_polyglot_key(b)) abort();
}

static void texts(const uint8_t *data, size_t size)
{
    enum { MAX = 64 };
    const char *text[MAX];
    size_t len[MAX], n = 0;
    for (size_t i = 0; i < size && n < MAX;) {
        const uint8_t *end = memchr(data + i, '\n', size - i);
        const size_t stop = end ? (size_t)(end - data) : size;
        text[n] = (const char *)data + i;
        len[n++] = stop - i;
        i = stop + 1;
    }
    uint8_t *out = malloc((n ? n : 1) * DF_PLANE_BYTES);
    bool ok[MAX];
    for (int flags = 0; flags < 2; flags++) {
        const size_t accepted =
            df_attack_planes_from_fens_mt(out, ok, text, len, n, (df_fen_flags)flags, 1);
        size_t count = 0;
        for (size_t i = 0; i < n; i++) {
            df_board b;
            const bool valid =
                df_fen_parse(&b, text[i], len[i], (df_fen_flags)flags, NULL) == DF_OK;
            if (valid != ok[i]) abort();
            if (valid) check_board(&b);
            count += valid;
        }
        if (count != accepted) abort();
    }
    free(out);
}

static uint64_t word(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static void rows(const uint8_t *data, size_t size)
{
    enum { ROW = 12 * 8 + 8 + 2 }; /* pieces, castling rooks, stm, ep */
    const size_t n = size / ROW;
    if (!n) return;
    uint64_t *pieces = malloc(n * 12 * sizeof *pieces), *castling = malloc(n * sizeof *castling);
    uint8_t *stm = malloc(n), *out = malloc(n * DF_PLANE_BYTES);
    int8_t *ep = malloc(n);
    bool *ok = malloc(n);
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = data + i * ROW;
        for (int k = 0; k < 12; k++) pieces[12 * i + (size_t)k] = word(p + 8 * k);
        castling[i] = word(p + 96);
        stm[i] = p[104] & 1;
        ep[i] = (int8_t)((p[105] & 127) < 64 ? p[105] & 63 : -1);
    }
    const bool chess960 = data[0] & 128;
    const df_position_rows r = {pieces, stm, castling, ep, chess960};
    const size_t accepted = df_attack_planes_from_rows_mt(out, ok, &r, n, 1);
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        df_board_parts parts, again;
        memcpy(parts.pieces, pieces + 12 * i, sizeof parts.pieces);
        parts.castling_rooks = castling[i];
        parts.ep = ep[i];
        parts.stm = (df_color)stm[i];
        parts.halfmove = 0;
        parts.fullmove = 1;
        parts.chess960 = chess960;
        df_board b, back;
        const bool valid = df_board_from_parts(&b, &parts) == DF_OK;
        if (valid != ok[i]) abort();
        count += valid;
        if (!valid) continue;
        check_board(&b);
        df_board_to_parts(&again, &b);
        if (df_board_from_parts(&back, &again) != DF_OK || back.key != b.key) abort();
    }
    if (count != accepted) abort();
    free(pieces);
    free(castling);
    free(stm);
    free(out);
    free(ep);
    free(ok);
}

static void game(const uint8_t *data, size_t size)
{
    const uint8_t *nl = memchr(data, '\n', size);
    const size_t fen_len = nl ? (size_t)(nl - data) : size;
    df_board b;
    if (df_fen_parse(&b, (const char *)data, fen_len, DF_FEN_CHESS960, NULL) != DF_OK) return;
    check_board(&b);
    if (!df_board_playable(&b)) return;
    df_history h;
    df_history_init(&h);
    df_board stack[64];
    int depth = 0;
    for (size_t i = fen_len + 1; i < size;) {
        size_t j = i;
        while (j < size && data[j] != ' ' && data[j] != '\n') j++;
        const char *w = (const char *)data + i;
        const size_t len = j - i;
        i = j + 1;
        df_move m = DF_MOVE_NONE;
        bool have = false;
        if (len == 1 && w[0] == '-') { /* pop */
            if (depth) {
                b = stack[--depth];
                df_history_pop(&h);
            }
            continue;
        }
        if (len == 3 && w[0] == '#') { /* a raw 16-bit move */
            memcpy(&m, w + 1, 2);
            df_board after;
            const df_status s = df_make_move_checked(&after, &b, m);
            if ((s == DF_OK) != df_move_is_legal(&b, m)) abort();
            have = s == DF_OK;
        } else {
            have = df_move_from_uci(&m, &b, w, len) == DF_OK ||
                   df_move_from_san(&m, &b, w, len) == DF_OK;
            if (!have && !df_move_from_san_error(&b, w, len)) abort();
        }
        if (!have || depth == 64) continue;
        stack[depth++] = b;
        df_history_push(&h, &b);
        if (df_make_move_checked(&b, &b, m) != DF_OK) abort();
        check_board(&b);
        char fen[DF_FEN_MAX];
        if (df_fen_format(fen, sizeof fen, &b, DF_FEN_LEGAL_EP) >= sizeof fen) abort();
        const df_outcome o = df_outcome_of(&b, &h, true);
        if ((o.termination == DF_TERM_NONE) != (o.result == DF_RESULT_NONE)) abort();
        if (df_repetitions(&h, &b) < 1) abort();
        if (o.termination != DF_TERM_NONE && o.termination != DF_TERM_FIFTY_MOVES &&
            o.termination != DF_TERM_THREEFOLD_REPETITION)
            break; /* the game is over */
    }
}

static void picture(const uint8_t *data, size_t size)
{
    const uint8_t *nl = memchr(data, '\n', size);
    if (!nl) return;
    df_svg_options o = {0};
    size_t bad = 0;
    const size_t names = (size_t)(nl - data);
    if (df_svg_parse_overlays(&o, (const char *)data, names, &bad) != DF_OK && bad > names) abort();
    df_board b;
    if (df_fen_parse(&b, (const char *)nl + 1, size - names - 1, DF_FEN_STANDARD, NULL) != DF_OK)
        return;
    o.size = data[0] % 2 ? 64 + data[0] : 0;
    const size_t need = df_svg_write(NULL, 0, &b, &o);
    char small[64];
    if (df_svg_write(small, sizeof small, &b, &o) != need || strlen(small) != sizeof small - 1)
        abort();
    char *full = malloc(need + 1);
    if (df_svg_write(full, need + 1, &b, &o) != need || strlen(full) != need) abort();
    free(full);
}

static bool stop_now(void *ctx)
{
    uint32_t *state = ctx;
    *state = *state * 1103515245u + 12345u;
    return (*state >> 16) % 7 == 0;
}

static void perft(const uint8_t *data, size_t size)
{
    if (size < 2) return;
    df_board b;
    /* Few moves a ply (endings, checks): a depth-4 tree small enough for the sanitizers, deep
     * enough that the interrupt is asked at the root and at its children. */
    if (df_fen_parse(&b, (const char *)data + 1, size - 1, DF_FEN_CHESS960, NULL) != DF_OK ||
        !df_board_playable(&b) || df_count_legal(&b) > 12)
        return;
    uint32_t state = data[0];
    const df_interrupt in = {stop_now, &state};
    const int depth = 4;
    uint64_t nodes = 0, plain = 0;
    const df_status s = df_perft_interruptible(&nodes, &b, depth, &in);
    if (s != DF_OK && s != DF_ERR_INTERRUPTED) abort();
    if (s == DF_OK && (df_perft(&plain, &b, depth) != DF_OK || plain != nodes)) abort();
    if (df_perft(&plain, &b, DF_PERFT_MAX_DEPTH + 1) != DF_ERR_ARGUMENT) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    switch (data[0] % 5) {
    case 0:
        texts(data + 1, size - 1);
        break;
    case 1:
        rows(data, size);
        break;
    case 2:
        game(data + 1, size - 1);
        break;
    case 3:
        picture(data + 1, size - 1);
        break;
    default:
        perft(data + 1, size - 1);
    }
    return 0;
}
