/* SPDX-License-Identifier: MIT */
/* The PGN and NNUE readers from the installed library: built with nothing but
 * `pkg-config --cflags --libs dirfill`, so a static install must name the libraries they need
 * (libzstd, zlib, threads, libm) in its Libs. Exits 0 when both read what the files hold.
 *   usage: readers GAMES.pgn[.zst|.gz] ENTRIES.plain[.zst|.gz] */
#include <dirfill.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: readers GAMES.pgn ENTRIES.plain\n");
        return 2;
    }
    df_source *src;
    if (df_source_open(&src, argv[1]) != DF_OK) {
        fprintf(stderr, "%s: cannot open\n", argv[1]);
        return 1;
    }
    char buf[4096];
    long n, bytes = 0;
    while ((n = df_source_read(src, buf, sizeof buf)) > 0) bytes += n;
    if (n < 0) fprintf(stderr, "%s: %s\n", argv[1], df_source_error(src));
    df_source_close(src);

    df_nnue_reader *r;
    df_status st = df_nnue_reader_open(&r, argv[2], DF_NNUE_PLAIN);
    if (st != DF_OK) {
        fprintf(stderr, "%s: %s\n", argv[2], df_status_string(st));
        return 1;
    }
    df_nnue_entry e;
    df_nnue_error err;
    long entries = 0, errors = 0;
    for (df_nnue_next next; (next = df_nnue_read_next(r, &e, &err)) != DF_NNUE_END;) {
        if (next == DF_NNUE_ERROR) {
            fprintf(stderr, "%s\n", err.message);
            errors++;
        } else {
            entries++;
        }
    }
    df_nnue_reader_free(r);
    printf("readers: %ld PGN bytes, %ld NNUE entries, %ld errors\n", bytes, entries, errors);
    return n == 0 && bytes > 0 && entries == 1 && errors == 0 ? 0 : 1;
}
