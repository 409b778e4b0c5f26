/* SPDX-License-Identifier: MIT */
/* The benchmark's one entry point, called by the dirfill program. */
#ifndef DIRFILL_BENCH_MAIN_H
#define DIRFILL_BENCH_MAIN_H

/* `dirfill bench` with its arguments (after the command name). backend: the backend the user
 * forced (timed alone beside scalar), or NULL for every backend this CPU runs. Returns the
 * exit status. */
int bench_main(int argc, char **argv, const char *backend);

#endif
