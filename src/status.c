/* SPDX-License-Identifier: MIT */
/* Status phrases and the library's version. */
#include "dirfill.h"

const char *df_status_string(df_status s)
{
    switch (s) {
    case DF_OK:
        return "ok";
    case DF_ERR_UNKNOWN_BACKEND:
        return "unknown backend";
    case DF_ERR_UNSUPPORTED_BACKEND:
        return "backend not supported by this CPU";
    case DF_ERR_FEN:
        return "invalid FEN";
    case DF_ERR_MOVE:
        return "invalid or illegal move";
    case DF_ERR_BOARD:
        return "board not accepted";
    case DF_ERR_ARGUMENT:
        return "invalid argument";
    case DF_ERR_INTERRUPTED:
        return "interrupted";
    case DF_ERR_IO:
        return "input could not be read";
    case DF_ERR_UNSUPPORTED:
        return "not supported by this build";
    }
    return "unknown status";
}

const char *df_version(void) { return DIRFILL_VERSION_STRING; }
