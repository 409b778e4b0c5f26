/* SPDX-License-Identifier: MIT */
/* Writes random legal games as PGN to standard output: the input of bench/pgn-vs.sh and of
 * anyone who wants a big PGN file to time a reader with. Data this project makes.
 *   usage: dirfill-pgn-make GAMES [SEED] [STYLE]
 * STYLE: "lichess" (the default: tags as lichess exports them, WhiteElo, BlackElo and
 * TimeControl among them, [%eval] and [%clk] comments), "plain" (moves only), "all" (every PGN
 * feature pgngen writes: variations, NAGs, ...). Ratings are uniform in 800..2799, so that
 * --where 'WhiteElo>=2600' keeps a tenth of the games. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgngen.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s GAMES [SEED] [lichess|plain|all]\n", argv[0]);
        return 2;
    }
    const long games = strtol(argv[1], NULL, 10);
    uint64_t rng = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
    const char *style_name = argc > 3 ? argv[3] : "lichess";
    const unsigned style = !strcmp(style_name, "plain") ? 0
                           : !strcmp(style_name, "all") ? PGNGEN_ALL
                                                        : PGNGEN_EVALS | PGNGEN_CLOCKS;
    df_board start;
    df_fen_parse(&start, DF_FEN_START, sizeof DF_FEN_START - 1, DF_FEN_STANDARD, NULL);
    static const char *const controls[] = {"60+0",  "180+0", "180+2", "300+0",
                                           "600+0", "600+5", "900+10"};
    pgngen_text text = {0}, game = {0};
    for (long i = 0; i < games; i++) {
        /* Real games last 60 to 120 plies; random ones end when they may. */
        game.len = 0;
        if (!pgngen_game(&game, &rng, &start, false, 60 + (uint32_t)(rng % 90), style, (uint64_t)i,
                         NULL))
            return 1;
        /* The lichess style's rating and time control tags, at the end of the tag section. */
        const char *tags_end = style == 0 ? NULL : strstr(game.text, "\n\n");
        const size_t head = tags_end ? (size_t)(tags_end - game.text) + 1 : 0;
        if (!cmd_text_put(&text, game.text, head)) return 1;
        if (tags_end &&
            !cmd_text_putf(&text, "[WhiteElo \"%d\"]\n[BlackElo \"%d\"]\n[TimeControl \"%s\"]\n",
                           800 + (int)(rng % 2000), 800 + (int)(rng / 2000 % 2000),
                           controls[rng / 4000000 % 7]))
            return 1;
        if (!cmd_text_put(&text, game.text + head, game.len - head)) return 1;
        if (text.len > (1 << 20) || i == games - 1) {
            if (fwrite(text.text, 1, text.len, stdout) != text.len) return 1;
            text.len = 0;
        }
    }
    pgngen_text_free(&text);
    pgngen_text_free(&game);
    return fflush(stdout) != 0;
}
