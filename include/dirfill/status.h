/* SPDX-License-Identifier: MIT */
/**
 * @file status.h
 * @brief df_status: what the library's fallible calls return.
 */
#ifndef DIRFILL_STATUS_H
#define DIRFILL_STATUS_H

#include <stdbool.h>

#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Status codes of the library's fallible calls: DF_OK, or a negative error. */
typedef enum df_status {
    DF_OK = 0,                       /**< success */
    DF_ERR_UNKNOWN_BACKEND = -1,     /**< no backend of that name was compiled in */
    DF_ERR_UNSUPPORTED_BACKEND = -2, /**< compiled in, but this CPU or OS cannot run it */
    DF_ERR_FEN = -3,                 /**< a FEN was refused: see the df_fen_error it filled */
    DF_ERR_MOVE = -4,                /**< a move's text is malformed, ambiguous or illegal */
    DF_ERR_BOARD = -5,               /**< a board is not one the call accepts (see its doc) */
    DF_ERR_ARGUMENT = -6,            /**< an argument is out of range (a NULL pointer, ...) */
    DF_ERR_INTERRUPTED = -7,         /**< a df_interrupt or a callback asked a call to stop */
    DF_ERR_IO = -8,                  /**< input could not be read: a file, or a compressed
                                          stream that is corrupt or cut short */
    DF_ERR_UNSUPPORTED = -9          /**< this build lacks what the call needs (a compression
                                          library) */
} df_status;

/** A way to stop a long call (df_perft_interruptible): the call asks requested(ctx) between
 *  pieces of its work, a few milliseconds apart at most, and returns DF_ERR_INTERRUPTED as soon
 *  as the answer is true. requested runs on the calling thread. */
typedef struct df_interrupt {
    bool (*requested)(void *ctx); /**< true: stop now */
    void *ctx;                    /**< handed to requested */
} df_interrupt;

/** A constant English phrase for a status ("ok", "unknown backend", ...). Thread-safe. */
DF_API const char *df_status_string(df_status s);

#ifdef __cplusplus
}
#endif
#endif
