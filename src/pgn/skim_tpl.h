/* SPDX-License-Identifier: MIT */
/* Internal template: the PGN skimmer's pass over whole 64-byte blocks (pgn/reader.c's
 * skim_moves hands them over), one per backend through backend_tpl.h. The block logic is the
 * same everywhere; what differs is how a block's bytes are classified: the including backend
 * may define DF__SKIM_BLOCK(p) and DF__SKIM_LINE_STOPS(p) with its own vectors (avx2/pgn_skim.h,
 * avx512/pgn_skim.c), else scalar/byte_search.h's SSE2 (or byte-wise) ones are used. */
#include "scalar/byte_search.h"

#ifndef DF__SKIM_BLOCK
#define DF__SKIM_BLOCK      df__skim_block
#define DF__SKIM_LINE_STOPS df__skim_line_stops
#endif

/* Bit i of the result: the parity of bits 0 to i of x (simdjson's quote mask). A backend built
 * with PCLMULQDQ names its carry-less multiply in DF__SKIM_PREFIX_XOR (avx2/prefix_xor.h);
 * elsewhere (the baseline, the emulated backends) twelve shifts and xors. */
#ifndef DF__SKIM_PREFIX_XOR
#define DF__SKIM_PREFIX_XOR df__skim_prefix_xor
static inline uint64_t df__skim_prefix_xor(uint64_t x)
{
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}
#endif

/* The set bits of x: few in skimmed movetext (a newline or two in a block), and without
 * POPCNT, which the baseline lacks, __builtin_popcountll is a call. */
static inline uint64_t df__skim_count(uint64_t x)
{
#if defined(__POPCNT__)
    return (uint64_t)__builtin_popcountll(x);
#else
    uint64_t n = 0;
    for (; x; x &= x - 1) n++;
    return n;
#endif
}

/* Skimmed movetext a 64-byte block at a time, from p between tokens outside any comment, as
 * simdjson's stage 1 finds strings: the comments of a block come from the prefix parity of its
 * braces, so a run of moves and comments costs a few vector operations per block and no
 * branch per comment. Only plain blocks are passed over: the first byte that skim_moves or
 * the scanner must see (a stop outside a comment, a '%' or '[' starting a line, a brace that
 * does not alternate: "{ { }" or a '}' outside a comment) ends the pass, at that byte or, when
 * it lies inside a comment, at the comment's '{', so that comments are always read whole by
 * the byte-wise code. line_start: p starts a line. Returns the bytes passed over; their
 * newlines are added to *line. */
static size_t k_pgn_skim(const char *p, const char *end, bool line_start, uint64_t *line)
{
    const char *const from = p;
    uint64_t in = 0; /* all ones when a comment is open at the block's start */
    uint64_t prev_newline = line_start;
    uint64_t lines = 0, open_lines = 0; /* newlines counted since open_at */
    const char *open_at = p;            /* the '{' of the comment open at the block's start */
    while (end - p >= 64) {
        const df__skim_bits b = DF__SKIM_BLOCK(p);
        const uint64_t toggles = b.open | b.close;
        const uint64_t inside =
            DF__SKIM_PREFIX_XOR(toggles) ^ in;          /* a comment's '{' to its last byte */
        const uint64_t before = inside << 1 | (in & 1); /* inside a comment before byte i */
        const uint64_t starts = b.newline << 1 | prev_newline; /* bytes that start a line */
        const uint64_t events = (b.open & before) | (b.close & ~before) | (b.stop & ~before) |
                                (starts ? DF__SKIM_LINE_STOPS(p) & starts : 0);
        if (events) {
            const int e = __builtin_ctzll(events);
            const uint64_t below = (UINT64_C(1) << e) - 1;
            if (!(before >> e & 1)) {
                *line += lines + df__skim_count(b.newline & below);
                return (size_t)(p + e - from);
            }
            /* Inside a comment (all toggles before e alternate): back to its '{'. */
            if (!(toggles & below)) {
                *line += lines - open_lines;
                return (size_t)(open_at - from);
            }
            const int k = 63 - __builtin_clzll(toggles & below);
            *line += lines + df__skim_count(b.newline & ((UINT64_C(1) << k) - 1));
            return (size_t)(p + k - from);
        }
        lines += df__skim_count(b.newline);
        prev_newline = b.newline >> 63;
        /* The comment open at the block's end, if one is: opened at the last toggle (its '{'),
         * else still the one open at its start. Kept without a branch on whether one is open,
         * which in commented movetext is a coin's toss per block; when none is, what is kept
         * is not read (a comment can only open again at a toggle, which sets both afresh). */
        const int k = 63 - __builtin_clzll(toggles | 1);
        open_at = toggles ? p + k : open_at;
        open_lines = (toggles ? 0 : open_lines) + df__skim_count(b.newline >> k);
        in = -(inside >> 63);
        p += 64;
    }
    if (in) {
        *line += lines - open_lines;
        return (size_t)(open_at - from);
    }
    *line += lines;
    return (size_t)(p - from);
}
