/* SPDX-License-Identifier: MIT */
/* Finding the next byte that matters in a run of text that does not (a comment's words, a
 * tag's value) sixteen bytes at a time, as simdjson's first stage finds its structural
 * characters: SSE2, which every x86-64 CPU has, so it belongs to the baseline ISA (hence
 * src/scalar) and the PGN reader's undispatched code may use it; elsewhere a byte loop. */
#ifndef DF_SRC_SCALAR_BYTE_SEARCH_H
#define DF_SRC_SCALAR_BYTE_SEARCH_H

#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The first byte of [p, limit) that is a, b or c, limit when there is none, in a buffer that
 * goes on to end (limit <= end): the vectors may read past limit, so a short run (a comment's
 * command) costs a load or two and no byte loop. */
static inline const char *df__find3_in(const char *p, const char *limit, const char *end, char a,
                                       char b, char c)
{
#if defined(__SSE2__)
    const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b), vc = _mm_set1_epi8(c);
    for (; p < limit && end - p >= 16; p += 16) {
        const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
        const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)),
                                         _mm_cmpeq_epi8(x, vc));
        const unsigned mask = (unsigned)_mm_movemask_epi8(hit);
        if (mask) return p + __builtin_ctz(mask) < limit ? p + __builtin_ctz(mask) : limit;
    }
#else
    (void)end;
#endif
    while (p < limit && *p != a && *p != b && *p != c) p++;
    return p < limit ? p : limit;
}

/* The first byte of [p, end) that is a, b or c; end when there is none. */
static inline const char *df__find3(const char *p, const char *end, char a, char b, char c)
{
    return df__find3_in(p, end, end, a, b, c);
}

/* The first byte of [p, end) that can end or change the state of movetext that is skimmed,
 * not read (pgn/reader.c): a comment, a variation, a line comment, a tag, a newline, a result
 * ('-' of 1-0, 0-1, 1/2-1/2; '*'). */
static inline const char *df__find_skim(const char *p, const char *end)
{
#if defined(__SSE2__)
    const __m128i v0 = _mm_set1_epi8('{'), v1 = _mm_set1_epi8('('), v2 = _mm_set1_epi8(';'),
                  v3 = _mm_set1_epi8('['), v4 = _mm_set1_epi8('\n'), v5 = _mm_set1_epi8('-'),
                  v6 = _mm_set1_epi8('*');
    for (; end - p >= 16; p += 16) {
        const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
        const __m128i hit =
            _mm_or_si128(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, v0), _mm_cmpeq_epi8(x, v1)),
                                      _mm_or_si128(_mm_cmpeq_epi8(x, v2), _mm_cmpeq_epi8(x, v3))),
                         _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, v4), _mm_cmpeq_epi8(x, v5)),
                                      _mm_cmpeq_epi8(x, v6)));
        const unsigned mask = (unsigned)_mm_movemask_epi8(hit);
        if (mask) return p + __builtin_ctz(mask);
    }
#endif
    for (; p < end; p++)
        if (*p == '{' || *p == '(' || *p == ';' || *p == '[' || *p == '\n' || *p == '-' ||
            *p == '*')
            return p;
    return end;
}

/* The bytes of 64 that reading a comment on one line looks at (pgn/reader.c's
 * comment_on_line), bit i for p[i]: where it may end, and its commands' brackets. */
typedef struct {
    uint64_t end;                /* '}' '\n' */
    uint64_t lbracket, rbracket; /* '[' ']' */
} df__comment_bits;

static inline df__comment_bits df__comment_block(const char *p)
{
    df__comment_bits b = {0, 0, 0};
#if defined(__SSE2__)
    const __m128i close = _mm_set1_epi8('}'), newline = _mm_set1_epi8('\n'),
                  lbracket = _mm_set1_epi8('['), rbracket = _mm_set1_epi8(']');
    for (int k = 0; k < 4; k++) {
        const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
        const int shift = 16 * k;
        b.end |= (uint64_t)(unsigned)_mm_movemask_epi8(
                     _mm_or_si128(_mm_cmpeq_epi8(x, close), _mm_cmpeq_epi8(x, newline)))
                 << shift;
        b.lbracket |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, lbracket)) << shift;
        b.rbracket |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, rbracket)) << shift;
    }
#else
    for (int i = 0; i < 64; i++) {
        const uint64_t bit = UINT64_C(1) << i;
        b.end |= p[i] == '}' || p[i] == '\n' ? bit : 0;
        b.lbracket |= p[i] == '[' ? bit : 0;
        b.rbracket |= p[i] == ']' ? bit : 0;
    }
#endif
    return b;
}

/* The bytes of 64 that skimmed movetext (pgn/reader.c) looks at, bit i for p[i]: comments'
 * braces and newlines, whose structure a whole block gives at once, and the few bytes that
 * may end a skim outside a comment. */
typedef struct {
    uint64_t open, close, newline; /* '{' '}' '\n' */
    uint64_t stop;                 /* '(' ';' '*' '-' '[' */
} df__skim_bits;

static inline df__skim_bits df__skim_block(const char *p)
{
    df__skim_bits b = {0, 0, 0, 0};
#if defined(__SSE2__)
    const __m128i open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}'),
                  newline = _mm_set1_epi8('\n'), paren = _mm_set1_epi8('('),
                  semi = _mm_set1_epi8(';'), star = _mm_set1_epi8('*'), dash = _mm_set1_epi8('-'),
                  bracket = _mm_set1_epi8('[');
    for (int k = 0; k < 4; k++) {
        const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
        const __m128i stop = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(x, paren), _mm_cmpeq_epi8(x, semi)),
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, star), _mm_cmpeq_epi8(x, dash)),
                         _mm_cmpeq_epi8(x, bracket)));
        const int shift = 16 * k;
        b.open |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, open)) << shift;
        b.close |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, close)) << shift;
        b.newline |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, newline)) << shift;
        b.stop |= (uint64_t)(unsigned)_mm_movemask_epi8(stop) << shift;
    }
#else
    for (int i = 0; i < 64; i++) {
        const uint64_t bit = UINT64_C(1) << i;
        const char c = p[i];
        b.open |= c == '{' ? bit : 0;
        b.close |= c == '}' ? bit : 0;
        b.newline |= c == '\n' ? bit : 0;
        b.stop |= (c == '(' || c == ';' || c == '*' || c == '-' || c == '[') ? bit : 0;
    }
#endif
    return b;
}

/* The '%' and '[' of 64 bytes, bit i for p[i]: a skim stops where they start a line (an
 * escape line; a tag, perhaps inside a comment). Asked only of a block with a line start. */
static inline uint64_t df__skim_line_stops(const char *p)
{
    uint64_t m = 0;
#if defined(__SSE2__)
    const __m128i percent = _mm_set1_epi8('%'), bracket = _mm_set1_epi8('[');
    for (int k = 0; k < 4; k++) {
        const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
        m |= (uint64_t)(unsigned)_mm_movemask_epi8(
                 _mm_or_si128(_mm_cmpeq_epi8(x, percent), _mm_cmpeq_epi8(x, bracket)))
             << (16 * k);
    }
#else
    for (int i = 0; i < 64; i++) m |= (p[i] == '%' || p[i] == '[') ? UINT64_C(1) << i : 0;
#endif
    return m;
}

#endif
