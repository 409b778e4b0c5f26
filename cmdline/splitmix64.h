/* SPDX-License-Identifier: MIT */
/* SplitMix64 (Steele, Lea and Flood 2014): the seeded random numbers of the benchmark's corpora,
 * the tests and the generated test data. Tiny, fast, every seed a good sequence. */
#ifndef DIRFILL_SPLITMIX64_H
#define DIRFILL_SPLITMIX64_H

#include <stdint.h>

static inline uint64_t splitmix64_next(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

#endif
