/* SPDX-License-Identifier: MIT */
/* dirfill bench: the harness's core, which the tests drive with methods of their own (a
 * method slowed on purpose must be flagged). Checks every method's output equal, then times
 * them side by side. */
#ifndef DIRFILL_BENCH_HARNESS_H
#define DIRFILL_BENCH_HARNESS_H

#include "report.h"

/* Runs every method (both modes) on corpus c and compares each output with the first one's;
 * on a difference, says where on stderr and returns false. *sum: the checksum of the output.
 * ref and got hold bench_ops[op].words words per position. */
bool harness_verify(const bench_corpus *c, bench_op op, const bench_method *ms, int nm,
                    uint64_t *ref, uint64_t *got, uint64_t *sum);
/* What one pass's time is divided by: positions, the nodes or moves they hold (ref: the
 * verified output), or games. */
double harness_units(const bench_corpus *c, bench_op op, const uint64_t *ref);
/* Times every method of one cell, r->reps repetitions, each about target_ns long, and adds
 * two rows per method (throughput and latency; median ns per unit). The throughput row is
 * suspect when the median over repetitions of (throughput time / latency time) exceeds
 * REPORT_SUSPECT_RATIO. Returns false when out of memory. */
bool harness_measure(report *r, const bench_corpus *c, bench_op op, const bench_method *ms, int nm,
                     uint64_t *got, double units, uint64_t sum, double target_ns);

#endif
