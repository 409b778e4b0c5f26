/* SPDX-License-Identifier: MIT */
/* The public dispatched entry points: one indirect call each, through the active table.
 * Preconditions are asserted (active in Debug and sanitizer builds, gone with NDEBUG). */
#include "backend.h"
#include "chess/make_move.h"

/* The board invariant every position-level call relies on: one king per side. */
static inline bool df__kings_ok(const df_board *b)
{
    return b && df_popcount(b->color[DF_WHITE] & b->piece[DF_KING]) == 1 &&
           df_popcount(b->color[DF_BLACK] & b->piece[DF_KING]) == 1 && b->stm <= 1;
}

void df_slider_rays(df_rays *out, df_bb orth, df_bb diag, df_bb empty)
{
    assert(out);
    df__backend_active()->slider_rays(out, orth, diag, empty);
}

void df_slider_rays_both(df_rays out[2], const df_sliders in[2])
{
    assert(out && in);
    df__backend_active()->slider_rays_both(out, in);
}

void df_slider_rays_batch(df_rays *out, const df_sliders *in, size_t n)
{
    assert(n == 0 || (out && in));
    df__backend_active()->slider_rays_batch(out, in, n);
}

void df_xrays(df_rays *out, const df_rays *rays, df_bb empty, df_bb blockers)
{
    assert(out && rays);
    df__backend_active()->xrays(out, rays, empty, blockers);
}

void df_between_sliders_and_targets(df_rays *out, df_bb orth, df_bb diag, df_bb targets,
                                    df_bb empty)
{
    assert(out);
    df__backend_active()->between_sliders_and_targets(out, orth, diag, targets, empty);
}

void df_attack_map_side(df_attack_map *out, const df_board *b, df_color color)
{
    assert(out && df__kings_ok(b) && (unsigned)color < DF_COLORS);
    df__backend_active()->attack_map(out, b, (df_color)(color & 1));
}

void df_attack_maps(df_attack_map out[2], const df_board *b)
{
    assert(out && df__kings_ok(b));
    df__backend_active()->attack_maps(out, b);
}

void df_attack_maps_batch(df_attack_map *out, const df_board *boards, size_t n)
{
    assert(n == 0 || (out && boards));
    df__backend_active()->attack_maps_batch(out, boards, n);
}

void df_king_safety(df_king_safety_sets *out, const df_board *b)
{
    assert(out && df__kings_ok(b));
    df__backend_active()->king_safety(out, b);
}

void df_checks_and_pins(df_king_safety_sets *out, const df_board *b)
{
    assert(out && df__kings_ok(b));
    df__backend_active()->checks_and_pins(out, b);
}

static void df__generate(const df_board *b, unsigned kinds, df_move_list *out)
{
    assert(out && df__kings_ok(b) && df_board_playable(b));
    df__backend_active()->generate(b, kinds, out);
}

void df_generate_legal(df_move_list *out, const df_board *b) { df__generate(b, DF__GEN_ALL, out); }
void df_generate_captures(df_move_list *out, const df_board *b)
{
    df__generate(b, DF__GEN_CAPTURES, out);
}
void df_generate_quiets(df_move_list *out, const df_board *b)
{
    df__generate(b, DF__GEN_QUIETS, out);
}

uint64_t df_count_legal(const df_board *b)
{
    assert(df__kings_ok(b) && df_board_playable(b));
    return df__backend_active()->count_legal(b);
}

/* Subtrees this deep are counted by the backend in one call between two questions to an
 * interrupt: about 10^6 nodes, a few milliseconds, in a middlegame. */
enum { DF__PERFT_CHUNK = 3 };

static df_status df__perft_polled(uint64_t *nodes, const df_board *b, int depth,
                                  const df_interrupt *interrupt)
{
    if (depth <= DF__PERFT_CHUNK) {
        *nodes = df__backend_active()->perft(b, depth);
        return DF_OK;
    }
    if (interrupt->requested(interrupt->ctx)) return DF_ERR_INTERRUPTED;
    df_move_list list;
    df__backend_active()->generate(b, DF__GEN_ALL, &list);
    uint64_t sum = 0;
    for (uint32_t i = 0; i < list.count; i++) {
        df_board child;
        uint64_t n;
        df__make_move(&child, b, list.moves[i], false);
        const df_status s = df__perft_polled(&n, &child, depth - 1, interrupt);
        if (s != DF_OK) return s;
        sum += n;
    }
    *nodes = sum;
    return DF_OK;
}

df_status df_perft_interruptible(uint64_t *nodes, const df_board *b, int depth,
                                 const df_interrupt *interrupt)
{
    if (!b || !nodes || depth < 0 || depth > DF_PERFT_MAX_DEPTH ||
        (interrupt && !interrupt->requested))
        return DF_ERR_ARGUMENT;
    if (!df__kings_ok(b) || !df_board_playable(b)) return DF_ERR_BOARD;
    if (interrupt) return df__perft_polled(nodes, b, depth, interrupt);
    *nodes = df__backend_active()->perft(b, depth);
    return DF_OK;
}

df_status df_perft(uint64_t *nodes, const df_board *b, int depth)
{
    return df_perft_interruptible(nodes, b, depth, NULL);
}
