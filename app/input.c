/* SPDX-License-Identifier: MIT */
/* The positions of analyze and moves, with the contract's bad-input rules. */
#include <errno.h>
#include <string.h>

#include "app.h"

const char *unplayable_message(const df_board *b)
{
    return b->stm == DF_WHITE ? "black, the side not to move, is in check: no legal move tree"
                              : "white, the side not to move, is in check: no legal move tree";
}

/* Parses and checks one input; returns 0, or EXIT_BAD_INPUT with *why filled. */
static int take(const position_loop *loop, const char *text, size_t len, df_board *b, char *why,
                size_t size)
{
    df_fen_error err;
    if (df_fen_parse(b, text, len, loop->flags, &err) != DF_OK) {
        snprintf(why, size, "bad FEN: %s", err.message);
        return EXIT_BAD_INPUT;
    }
    if (loop->need_playable && !df_board_playable(b)) {
        snprintf(why, size, "%s", unplayable_message(b));
        return EXIT_BAD_INPUT;
    }
    return 0;
}

static bool skipped(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) i++;
    return i == len || s[i] == '#';
}

static int one_line(const position_loop *loop, cmd_lines *lines)
{
    char why[192];
    df_board b;
    if (lines->too_long) {
        snprintf(why, sizeof why, "line longer than %d bytes: not a FEN", CMD_LINE_MAX);
        fprintf(stderr, "dirfill %s: line %ld: %s\n", loop->cmd, lines->number, why);
        if (loop->json) json_error_input(stdout, why, lines->buf, lines->len, lines);
        return EXIT_BAD_INPUT;
    }
    if (skipped(lines->buf, lines->len)) return 0;
    if (take(loop, lines->buf, lines->len, &b, why, sizeof why)) {
        fprintf(stderr, "dirfill %s: line %ld: %s\n", loop->cmd, lines->number, why);
        if (loop->json) json_error_input(stdout, why, lines->buf, lines->len, NULL);
        return EXIT_BAD_INPUT;
    }
    loop->handle(&b, loop->ctx);
    return 0;
}

int run_positions(const position_loop *loop, const char *fen)
{
    if (fen) {
        char why[192];
        df_board b;
        if (take(loop, fen, strlen(fen), &b, why, sizeof why)) {
            fprintf(stderr, "dirfill %s: %s\n", loop->cmd, why);
            if (loop->json) json_error_input(stdout, why, fen, strlen(fen), NULL);
            return EXIT_BAD_INPUT;
        }
        loop->handle(&b, loop->ctx);
        return 0;
    }
    /* Standard input that is standard output would read back the lines written. */
    static const char *const std_in[] = {"-"};
    int status = cmd_check_output(loop->cmd, NULL, NULL, std_in, 1), got;
    if (status) return status;
    cmd_lines lines;
    cmd_lines_init(&lines, stdin);
    while ((got = cmd_lines_next(&lines)) > 0) {
        status |= one_line(loop, &lines);
        /* People read as they type; scripts get full buffers. */
        if (!loop->json) fflush(stdout);
        if (ferror(stdout)) break;
    }
    if (got < 0)
        return cmd_input_error(loop->cmd, "cannot read standard input: %s", strerror(errno));
    return status;
}
