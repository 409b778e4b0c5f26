/* SPDX-License-Identifier: MIT */
/* Filter expressions a filter must refuse (each with what its message must say and the
 * nearest valid form it must show), and valid ones it must keep taking: the library's test and
 * the program's read the same lists (python/tests/test_where.py has its own copy of them). */
#ifndef DFT_FILTER_CASES_H
#define DFT_FILTER_CASES_H

#include <stddef.h>

typedef struct {
    const char *expr;       /* the expression */
    const char *why;        /* a part of its message */
    const char *suggestion; /* the nearest valid form the message shows, or NULL: none */
} dft_bad_filter;

extern const dft_bad_filter dft_bad_filters[];
extern const size_t dft_nbad_filters;
extern const char *const dft_good_filters[];
extern const size_t dft_ngood_filters;

#endif
