/* SPDX-License-Identifier: MIT */
/* Finding the next byte that matters in a run of text that does not (a comment's words, a
 * tag's value) sixteen bytes at a time, as simdjson's first stage finds its structural
 * characters: SSE2, which every x86-64 CPU has, so the library's baseline code may use it;
 * elsewhere a byte loop. */
#ifndef DF_SRC_PGN_FIND_H
#define DF_SRC_PGN_FIND_H

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The first byte of [p, end) that is a, b or c; end when there is none. */
static inline const char *df__find3(const char *p, const char *end, char a, char b, char c)
{
#if defined(__SSE2__)
    const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b), vc = _mm_set1_epi8(c);
    for (; end - p >= 16; p += 16) {
        const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
        const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)),
                                         _mm_cmpeq_epi8(x, vc));
        const unsigned mask = (unsigned)_mm_movemask_epi8(hit);
        if (mask) return p + __builtin_ctz(mask);
    }
#endif
    while (p < end && *p != a && *p != b && *p != c) p++;
    return p;
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

#endif
