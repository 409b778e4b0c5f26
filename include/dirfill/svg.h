/* SPDX-License-Identifier: MIT */
/**
 * @file svg.h
 * @brief Pictures of a position with the library's attack information drawn over it: attack
 *        counts as a heat map, attacked-twice squares, rays and x-rays, pins with lines to
 *        their pinners, checkers, check-block squares and discoverers — one SVG writer for
 *        the program (`dirfill analyze --svg`) and the Python package (dirfill.svg, Jupyter).
 *
 * It lives in the library because both of them need the same picture from the same sets, and
 * the library is what both link: it writes text into a caller's buffer and does no I/O.
 * Pieces are Unicode chess glyphs drawn as text (the viewer's fonts shape them); every
 * overlay is plain geometry. Thread-safety: reentrant.
 */
#ifndef DIRFILL_SVG_H
#define DIRFILL_SVG_H

#include <stdbool.h>
#include <stddef.h>

#include "board.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What to draw over the board. Sets per colour are bits 1 << DF_WHITE and 1 << DF_BLACK;
 *  direction sets are bits 1 << df_dir. A zeroed struct draws the bare position. */
typedef struct df_svg_options {
    unsigned counts;   /**< colours whose attacker counts are shaded (white blue, black
                                 red; darker with more attackers, the count written small) */
    unsigned twice;    /**< colours whose attacked-twice squares are framed */
    unsigned rays[2];  /**< per colour, the directions whose ray attacks are dotted */
    unsigned xrays[2]; /**< per colour, the directions whose x-rays are ringed */
    bool pins;         /**< pinned pieces of the side to move, lines to their pinners */
    bool checkers;     /**< pieces giving check, lines to the king */
    bool check_block;  /**< squares that block a sliding check */
    bool discoverers;  /**< pieces whose move would uncover a check */
    bool flipped;      /**< black at the bottom */
    unsigned size;     /**< width and height in pixels (0: 400) */
} df_svg_options;

/** Adds the overlays named in text (len bytes, comma-separated) to *o: `counts`, `twice`,
 *  `rays`, `xrays`, each alone (both colours, every direction) or with `.white` / `.black`
 *  and, for rays and x-rays, a direction (`rays.white.N`, `xrays.NE`); and `pins`,
 *  `checkers`, `check_block`, `discoverers`. Returns DF_OK, or DF_ERR_ARGUMENT with *bad (may
 *  be NULL) the byte offset of the first name not understood; *o is then unchanged. */
DF_API df_status df_svg_parse_overlays(df_svg_options *o, const char *text, size_t len,
                                       size_t *bad);
/** Writes the picture of b with the overlays of o (NULL: none) into buf as an SVG document;
 *  returns its length, or the length it would need (snprintf rules: at most size - 1 bytes
 *  and a NUL are written). Any board with one king per side; pins, checks and discoverers are
 *  the side to move's. */
DF_API size_t df_svg_write(char *buf, size_t size, const df_board *b, const df_svg_options *o);

#ifdef __cplusplus
}
#endif
#endif
