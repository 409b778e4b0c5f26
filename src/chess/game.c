/* SPDX-License-Identifier: MIT */
/* The rules of a whole game (game.h): outcome, insufficient material, repetitions. */
#include "dirfill.h"
#include "make_move.h"

static const char *const df__termination_names[] = {"none",
                                                    "checkmate",
                                                    "stalemate",
                                                    "insufficient_material",
                                                    "seventyfive_moves",
                                                    "fivefold_repetition",
                                                    "fifty_moves",
                                                    "threefold_repetition"};

const char *df_termination_name(df_termination t)
{
    return (unsigned)t < sizeof df__termination_names / sizeof df__termination_names[0]
               ? df__termination_names[t]
               : "none";
}

const char *df_result_string(df_result r)
{
    switch (r) {
    case DF_RESULT_WHITE_WINS:
        return "1-0";
    case DF_RESULT_BLACK_WINS:
        return "0-1";
    case DF_RESULT_DRAW:
        return "1/2-1/2";
    default:
        return "*";
    }
}

#define DF__LIGHT_SQUARES UINT64_C(0x55aa55aa55aa55aa)

bool df_insufficient_material(const df_board *b)
{
    if (b->piece[DF_PAWN] | b->piece[DF_ROOK] | b->piece[DF_QUEEN]) return false;
    const df_bb knights = b->piece[DF_KNIGHT], bishops = b->piece[DF_BISHOP];
    if (df_popcount(knights | bishops) <= 1) return true;
    return !knights && (!(bishops & DF__LIGHT_SQUARES) || !(bishops & ~DF__LIGHT_SQUARES));
}

/* The key positions are compared by: the Polyglot key without its en-passant number when no
 * legal en-passant capture exists (FIDE: the position differs only if the capture is
 * possible). */
static uint64_t df__position_key(const df_board *b)
{
    if (!df__ep_capturable(b) || !df_board_playable(b)) return b->key;
    df_move_list list;
    df_generate_captures(&list, b);
    for (uint32_t i = 0; i < list.count; i++)
        if (df_move_kind_of(list.moves[i]) == DF_MOVE_EN_PASSANT) return b->key;
    return b->key ^ df__ep_key((df_square)b->ep);
}

void df_history_init(df_history *h) { memset(h, 0, sizeof *h); }

void df_history_push(df_history *h, const df_board *b)
{
    h->keys[h->count % DF_HISTORY_SIZE] = df__position_key(b);
    h->count++;
    /* The ring now holds pushes count - SIZE .. count - 1 at most. */
    if (h->count > DF_HISTORY_SIZE && h->floor < h->count - DF_HISTORY_SIZE)
        h->floor = h->count - DF_HISTORY_SIZE;
}

void df_history_pop(df_history *h)
{
    if (h->count) h->count--;
    /* Popped below what the ring still holds: nothing earlier is visible any more. */
    if (h->floor > h->count) h->floor = h->count;
}

/* Occurrences of key among the positions of h up to plies back (same side to move: every
 * second one), stopping at max when max > 0. */
static int df__occurrences(const df_history *h, uint64_t key, uint32_t plies, int max)
{
    const uint32_t available = h->count - h->floor;
    if (plies > available) plies = available;
    int n = 0;
    for (uint32_t back = 2; back <= plies; back += 2)
        if (h->keys[(h->count - back) % DF_HISTORY_SIZE] == key && ++n == max) break;
    return n;
}

int df_repetitions(const df_history *h, const df_board *b)
{
    return 1 + (h ? df__occurrences(h, df__position_key(b), b->halfmove, 0) : 0);
}

bool df_is_repetition(const df_history *h, const df_board *b)
{
    return h && b->halfmove >= 4 && df__occurrences(h, df__position_key(b), b->halfmove, 1) > 0;
}

/* Whether move m resets the half-move clock (a capture or a pawn move). */
static bool df__zeroing(const df_board *b, df_move m)
{
    return df_move_is_capture(b, m) || df_has(b->piece[DF_PAWN], df_move_from(m));
}

bool df_can_claim_fifty_moves(const df_board *b)
{
    if (b->halfmove >= 100 && df_count_legal(b)) return true;
    if (b->halfmove < 99) return false;
    df_move_list list;
    df_generate_legal(&list, b);
    for (uint32_t i = 0; i < list.count; i++) {
        if (df__zeroing(b, list.moves[i])) continue;
        df_board child;
        df__make_move(&child, b, list.moves[i], false);
        if (df_count_legal(&child)) return true;
    }
    return false;
}

bool df_can_claim_threefold_repetition(const df_history *h, const df_board *b)
{
    if (df_repetitions(h, b) >= 3) return true;
    /* After a move, b itself is the newest earlier position. */
    df_history after;
    if (h)
        after = *h;
    else
        df_history_init(&after);
    df_history_push(&after, b);
    df_move_list list;
    df_generate_legal(&list, b);
    for (uint32_t i = 0; i < list.count; i++) {
        if (df__zeroing(b, list.moves[i])) continue;
        df_board child;
        df_make_move(&child, b, list.moves[i]);
        if (df_repetitions(&after, &child) >= 3) return true;
    }
    return false;
}

df_outcome df_outcome_of(const df_board *b, const df_history *h, bool claim)
{
    const df_result winner = b->stm == DF_WHITE ? DF_RESULT_BLACK_WINS : DF_RESULT_WHITE_WINS;
    const bool moves = df_count_legal(b) > 0;
    if (!moves && df_checkers(b)) return (df_outcome){DF_TERM_CHECKMATE, winner};
    if (df_insufficient_material(b))
        return (df_outcome){DF_TERM_INSUFFICIENT_MATERIAL, DF_RESULT_DRAW};
    if (!moves) return (df_outcome){DF_TERM_STALEMATE, DF_RESULT_DRAW};
    if (b->halfmove >= 150) return (df_outcome){DF_TERM_SEVENTYFIVE_MOVES, DF_RESULT_DRAW};
    if (df_repetitions(h, b) >= 5) return (df_outcome){DF_TERM_FIVEFOLD_REPETITION, DF_RESULT_DRAW};
    if (claim && df_can_claim_fifty_moves(b))
        return (df_outcome){DF_TERM_FIFTY_MOVES, DF_RESULT_DRAW};
    if (claim && df_can_claim_threefold_repetition(h, b))
        return (df_outcome){DF_TERM_THREEFOLD_REPETITION, DF_RESULT_DRAW};
    return (df_outcome){DF_TERM_NONE, DF_RESULT_NONE};
}
