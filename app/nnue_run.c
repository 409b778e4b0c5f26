/* SPDX-License-Identifier: MIT */
/* dirfill nnue: where a run's entries and errors go, whichever input they come from (nnue.c's
 * files, PGN's games among them, through the stream that skips and shuffles them, and FEN
 * lines): to the output or the writer, and errors as JSON objects in order or as lines on
 * standard error. */
#include <string.h>

#include "nnue_run.h"

bool nnue_take(nnue_run *run, const char *file, const df_nnue_entry *e, bool has_move)
{
    if (!run->writer) {
        run->entries++;
        return nnue_out_entry(run->out, e, has_move);
    }
    df_nnue_error err;
    const df_status s = df_nnue_write(run->writer, e, &err);
    if (s == DF_OK) {
        run->entries++;
        return true;
    }
    char message[sizeof err.message + 64];
    snprintf(message, sizeof message, "not written to %s: %s", run->write_path, err.message);
    nnue_error(run, file, message, 0, NULL, 0);
    return s != DF_ERR_IO;
}

void nnue_error(nnue_run *run, const char *file, const char *message, uint64_t offset,
                const char *key, uint64_t where)
{
    run->errors++;
    if (!run->json) {
        fprintf(stderr, "dirfill nnue: %s: %s\n", file, message);
        return;
    }
    cmd_text line = {0};
    cmd_text_puts(&line, "{\"error\": ");
    json_text_string(&line, message, strlen(message));
    cmd_text_puts(&line, ", \"file\": ");
    json_text_string(&line, file, strlen(file));
    cmd_text_putf(&line, ", \"offset\": %llu", (unsigned long long)offset);
    if (key) cmd_text_putf(&line, ", \"%s\": %llu", key, (unsigned long long)where);
    cmd_text_puts(&line, "}\n");
    nnue_out_line(run->out, &line);
    cmd_text_free(&line);
}
