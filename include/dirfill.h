/* dirfill — SIMD direction-wise fills for chess bitboards. One include for everything.
 *
 *   bitboard.h  types, directions, inline fills, leapers, pawns (no dispatch)
 *   between.h   in-between and line sets
 *   backend.h   run-time backend selection
 *   kernels.h   dispatched eight-direction kernels
 *   board.h     positions, FEN, attack maps, king safety, square queries, x-rays
 */
#ifndef DIRFILL_H
#define DIRFILL_H

#define DIRFILL_VERSION_MAJOR  0
#define DIRFILL_VERSION_MINOR  1
#define DIRFILL_VERSION_PATCH  0
#define DIRFILL_VERSION_STRING "0.1.0"

#include "dirfill/backend.h"
#include "dirfill/between.h"
#include "dirfill/bitboard.h"
#include "dirfill/board.h"
#include "dirfill/kernels.h"

#endif
