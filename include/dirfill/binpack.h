/* SPDX-License-Identifier: MIT */
/**
 * @file binpack.h
 * @brief NNUE training data: Stockfish's chunked, move-chained `.binpack`, the `.plain` text
 *        form and the 40-byte `.bin` records, bit-exact with nnue-pytorch's loader, and
 *        bullet's: bulletformat's ChessBoard (`.bf`), MarlinFormat (`.marlin`), viriformat games
 *        (`.vf`) and `FEN | score | result` text (`.txt`), bit-exact with bulletformat; read and
 *        written as entries of a board, a move, a score, a ply and a result.
 *
 * An entry's board and move are the library's (df_board, df_move), so every other call works
 * on them. Readers stream: a `.binpack` is read a chunk at a time (memory bounded by the
 * largest chunk, DF_BINPACK_CHUNK_MAX), its chains decoded move by move on the library's
 * copy-make, every move checked for legality. Bad input is answered, not obeyed: each problem
 * is one error that names its byte offset and its chunk (`.plain`, `.txt`: its line; `.bin`,
 * `.bf`, `.marlin`: its record; `.vf`: its game), the entries before it are kept, and reading
 * goes on at the next chunk (record, line, game).
 *
 * bullet's formats keep less than Stockfish's: `.bf`, `.marlin` and `.txt` store no move (an
 * entry read has DF_MOVE_NONE, and one without a move cannot be written in a format that
 * stores one), `.bf` stores the position from the side to move's view without castling, en
 * passant or counters, and the formats but `.bf` store no ply (it is the move number's). Their
 * scores and results are White's view in `.marlin`, `.vf` and `.txt` and are turned into the
 * side to move's. A writer counts each field it drops, entry by entry (df_nnue_writer_losses):
 * never a silent change.
 *
 * Where nnue-pytorch's rules differ from the library's, the formats follow theirs:
 * - the en-passant square a format stores and a `.binpack` movetext's pawn destinations use is
 *   df_nnue_ep_square's (a capture that does not expose the king to a slider), where df_board
 *   keeps the Polyglot rule's; but a `.binpack` stem's square is kept as stored, whether a pawn
 *   can take or not, as their decoder keeps it (df_nnue_entry.ep_as_stored, df_nnue_entry_ep);
 * - castling is the king taking its own rook in both (df_move and their Move), the kinds and
 *   bit fields differ and are converted;
 * - a continuation's half-move clock is the stem's plus the moves played, modulo 256, as their
 *   8-bit counter keeps it; an entry's full-move number is ply / 2 + 1 (theirs prints
 *   (ply + 1) / 2: compare FENs on their first four fields).
 *
 * What a format cannot hold is an error naming the entry, never a silent change: a Chess960
 * castling right other than king on e1/e8 with a corner rook in Stockfish's formats (a Chess960
 * board with such rights, or none, is written as standard chess: it is the same position;
 * MarlinFormat and viriformat hold any, the text names them in Shredder-FEN, ChessBoard drops
 * them), a `.binpack` stem of more than 32 pieces or whose ply needs more than 14 bits or
 * half-move clock more than 8, a `.bin` position of more pieces than its 256 bits hold or a
 * half-move clock over 127, a MarlinFormat position (`.marlin`, a `.vf` game's start) whose
 * half-move clock is over 255 or move number over 65535, no move in a format that stores one, a
 * move that is not legal, a result other than -1, 0, 1.
 *
 * Thread-safety: readers and writers belong to one thread at a time; they are independent.
 */
#ifndef DIRFILL_BINPACK_H
#define DIRFILL_BINPACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "moves.h"
#include "source.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The score of an entry that has none (Stockfish's VALUE_NONE). */
#define DF_NNUE_SCORE_NONE 32002
/** The most pieces a position of the formats holds: a `.binpack` stem's 32 nibbles, and what
 *  nnue-pytorch's feature sets are sized for. Readers refuse a position with more (an error of
 *  its record), and writers an entry. */
#define DF_NNUE_PIECES_MAX 32
/** The largest `.binpack` chunk a reader accepts (nnue-pytorch's cap, 100 MiB): a larger size
 *  field is an error, and no chunk costs more memory than this. */
#define DF_BINPACK_CHUNK_MAX (100u << 20)
/** The size a `.binpack` writer fills a chunk to before it starts the next (1 MiB, as
 *  nnue-pytorch's writer): every chunk but the last is at least this and less than this plus
 *  one chain. */
#define DF_BINPACK_CHUNK_TARGET (1u << 20)

/** One training position: what nnue-pytorch's TrainingDataEntry carries. Its en-passant
 *  square as nnue-pytorch holds it is df_nnue_entry_ep's. Zero it before filling it by hand
 *  (`df_nnue_entry e = {0};`, or an initializer): a zero ep_as_stored is the rule for boards. */
typedef struct df_nnue_entry {
    df_board pos;         /**< the position (en passant: see ep_as_stored) */
    df_move move;         /**< the move played from it; DF_MOVE_NONE from a format that stores
                               none (`.bf`, `.marlin`, `.txt`) */
    int16_t score;        /**< the side to move's view; DF_NNUE_SCORE_NONE for none */
    uint16_t ply;         /**< the game's ply (0: the start position, White to move) */
    int8_t result;        /**< the side to move's view: 1 won, 0 drawn, -1 lost */
    uint8_t ep_as_stored; /**< nonzero: pos.ep is the en-passant square as the input stored it
                               (a `.binpack` stem's, which nnue-pytorch keeps unchecked, so a
                               square no pawn can take stays: pos.ep then need not have a pawn
                               next to it, which df_board_is_valid allows), written and shown
                               as it is; zero (what a zeroed entry has): nnue-pytorch's rule on
                               pos, df_nnue_ep_square (df_board keeps the Polyglot rule's) */
} df_nnue_entry;

/** The formats. */
typedef enum df_nnue_format {
    DF_NNUE_BINPACK = 0, /**< `.binpack`: chunks of move chains */
    DF_NNUE_PLAIN = 1,   /**< `.plain`: `fen`, `move`, `score`, `ply`, `result` lines, then `e` */
    DF_NNUE_BIN = 2,     /**< `.bin`: 40-byte PackedSfenValue records */
    DF_NNUE_PGN = 3,     /**< PGN games, read only: each position before a move of a game with a
                              result, scored by the move's evaluation (df_nnue_pgn_options) */
    DF_NNUE_BULLETFORMAT = 4, /**< `.bf`: bulletformat's 32-byte ChessBoard records, the position
                                   seen from the side to move (no move, side, castling, en
                                   passant, counters) */
    DF_NNUE_MARLINFORMAT = 5, /**< `.marlin`: 32-byte MarlinFormat records (no move) */
    DF_NNUE_VIRIFORMAT = 6,   /**< `.vf`: viriformat games, a MarlinFormat start position, then
                                   (move, score) pairs and four zero bytes */
    DF_NNUE_BULLET_TEXT = 7,  /**< `.txt`: bullet's `FEN | score | result` lines (no move) */
    DF_NNUE_FORMATS = 8       /**< how many */
} df_nnue_format;

/** The format a file name's extension names (.binpack, .plain, .bin, .pgn, .bf, .marlin, .vf,
 *  .txt, each also with .zst or .gz after it for a reader): true and *out set, or false. */
DF_API bool df_nnue_format_of(df_nnue_format *out, const char *path);

/** What went wrong. */
typedef enum df_nnue_error_kind {
    DF_NNUE_ERR_NONE = 0,        /**< no error */
    DF_NNUE_ERR_MAGIC = 1,       /**< a `.binpack` chunk does not start with "BINP" */
    DF_NNUE_ERR_CHUNK_SIZE = 2,  /**< a chunk's size field is over DF_BINPACK_CHUNK_MAX */
    DF_NNUE_ERR_TRUNCATED = 3,   /**< the input ends inside a chunk header, a chunk (its size runs
                                     past the end of the file) or a record */
    DF_NNUE_ERR_MOVETEXT = 4,    /**< a chain's movetext runs past its chunk, or holds a piece or
                                     destination index out of range or a score code longer than
                                     16 bits */
    DF_NNUE_ERR_ILLEGAL = 5,     /**< a move that is not legal in its position */
    DF_NNUE_ERR_POSITION = 6,    /**< a position that cannot be: no king or two, more than 32
                                     pieces, a pawn on the first or last rank, a castling right
                                     without its king and rook, the side not to move in check */
    DF_NNUE_ERR_FIELD = 7,       /**< a field out of range or malformed: a `.plain` line, a
                                     result other than -1, 0, 1, a `.bin` piece code */
    DF_NNUE_ERR_IO = 8,          /**< the input could not be read or the output written */
    DF_NNUE_ERR_UNENCODABLE = 9, /**< a writer's entry that its format cannot hold */
    DF_NNUE_ERR_GAME = 10        /**< a PGN game that stops at an error (its message: which
                                      ply, which token, why), or whose plies or pieces no entry
                                      holds; its positions are no entries */
} df_nnue_error_kind;

/** One error of a reader or writer. */
typedef struct df_nnue_error {
    df_nnue_error_kind kind; /**< what kind */
    uint64_t offset;         /**< byte offset in the input of what is wrong (writer: 0) */
    uint64_t where;          /**< `.binpack`: the chunk (0-based); `.plain`, `.txt`: the line
                                  (1-based); `.bin`, `.bf`, `.marlin`: the record (0-based); PGN,
                                  `.vf`: the game (0-based); writer: the entry (0-based) */
    char message[224];       /**< the whole story, NUL-terminated: "chunk 2 at byte 2097290: ..." */
} df_nnue_error;

/* ---- reading ------------------------------------------------------------------------------ */

/** A reader of one input in one format (opaque). */
typedef struct df_nnue_reader df_nnue_reader;

/** Opens path ("-": standard input; a name ending in .zst or .gz is decompressed as it is read,
 *  as df_source_open does) as format. Returns DF_OK; DF_ERR_IO when it cannot be opened
 *  (errno kept); DF_ERR_UNSUPPORTED for a compression this build lacks; DF_ERR_ARGUMENT. */
DF_API df_status df_nnue_reader_open(df_nnue_reader **out, const char *path, df_nnue_format format);
/** A reader of bytes from a function: read(ctx, buf, size) fills buf with up to size bytes and
 *  returns how many, 0 at the end, or -1 for an error. NULL when out of memory. */
DF_API df_nnue_reader *df_nnue_reader_from_function(df_nnue_format format,
                                                    long (*read)(void *ctx, char *buf, size_t size),
                                                    void *ctx);
/** Frees a reader and closes its input (NULL: nothing). */
DF_API void df_nnue_reader_free(df_nnue_reader *r);

/** Makes r read one share of its input, as the ranks of a distributed run share it (call it
 *  before the first read; world 1 is the whole input): a `.binpack`'s chunks rank, rank +
 *  world, rank + 2 world, ... (nnue-pytorch's DDP rule: the others' payloads are passed over
 *  undecoded); an input of another format but PGN, its items, entries and errors of records
 *  (lines, games) alike, in input order, item i when i % world is rank. So the shares of ranks 0 to world - 1 together hold
 *  every entry once. An error of a `.binpack` chunk's framing (its magic, its size) and a read
 *  error are every rank's; an error inside a chunk is the rank's that decodes it. Returns
 *  DF_OK, or DF_ERR_ARGUMENT for NULL, world 0 or rank >= world. */
DF_API df_status df_nnue_reader_set_share(df_nnue_reader *r, uint32_t rank, uint32_t world);

/** The scale of the scores a PGN reader gives (an entry's score). PGN's evaluations are
 *  centipawns; Stockfish's data, and nnue-pytorch's loss, are in its internal units. */
typedef enum df_nnue_score_units {
    DF_NNUE_UNITS_STOCKFISH = 0, /**< Stockfish's internal units (df_nnue_value_from_cp), the
                                      scale of `.binpack` data Stockfish generates: the default */
    DF_NNUE_UNITS_CP = 1         /**< centipawns as the evaluation says them */
} df_nnue_score_units;

/** How a PGN reader (DF_NNUE_PGN) makes entries of games. */
typedef struct df_nnue_pgn_options {
    /** Keep positions whose move has no evaluation, scored DF_NNUE_SCORE_NONE (default false:
     *  dropped, and counted in df_nnue_pgn_counts.no_eval). */
    bool keep_no_eval;
    df_nnue_score_units units; /**< the scale of scores that are not mates */
} df_nnue_pgn_options;

/** Sets how r makes entries of PGN games (before its first read; r of another format:
 *  DF_ERR_ARGUMENT). Mates are ±(32000 − plies to mate) in either unit; other scores are kept
 *  within ±30000. */
DF_API df_status df_nnue_reader_set_pgn(df_nnue_reader *r, const df_nnue_pgn_options *options);

/** What a PGN reader has read so far, and the positions it gave no entry, by reason: every
 *  position before a move of a game of r's share is an entry or one of these. */
typedef struct df_nnue_pgn_counts {
    uint64_t games;         /**< games of r's share (every game of the input for world 1) */
    uint64_t entries;       /**< entries given */
    uint64_t no_eval;       /**< positions whose move has no evaluation */
    uint64_t no_result;     /**< positions of games without a result ("*" or none) */
    uint64_t null_moves;    /**< positions whose move is a null move */
    uint64_t in_errors;     /**< positions of games stopped by an error, or refused whole (its
                                 plies or pieces), as far as they were read */
    uint64_t skipped_games; /**< games of another variant (a reader of standard chess and
                                 Chess960 skips them), their positions not counted */
} df_nnue_pgn_counts;

/** r's counts into *out (zeros for a reader of another format). */
DF_API void df_nnue_reader_pgn_counts(const df_nnue_reader *r, df_nnue_pgn_counts *out);

/** What df_nnue_read_next found. */
typedef enum df_nnue_next {
    DF_NNUE_END = 0,   /**< the input is over */
    DF_NNUE_ENTRY = 1, /**< *out holds the next entry */
    DF_NNUE_ERROR = 2  /**< *err says what was wrong; the next call goes on after it */
} df_nnue_next;

/** The next entry of the input into *out, in input order; or an error (err may be NULL) after
 *  which reading goes on: at the next chunk of a `.binpack` (the entries of the chunk before
 *  the error were returned), at the next record of `.plain` and `.bin`. A read error of the
 *  input is a DF_NNUE_ERR_IO error, and then the end. */
DF_API df_nnue_next df_nnue_read_next(df_nnue_reader *r, df_nnue_entry *out, df_nnue_error *err);

/* ---- writing ------------------------------------------------------------------------------ */

/** A writer of one output in one format (opaque). */
typedef struct df_nnue_writer df_nnue_writer;

/** Creates path ("-": standard output), replacing a file that is there. The bytes go to a
 *  temporary file beside it, `<folder>/.<name>.XXXXXX` (mkstemp), with the mode fopen would
 *  give path (the old file's, or 0666 less the umask), and df_nnue_writer_close renames it to
 *  path once everything is written: path holds the old file or the whole new one, never a part,
 *  whatever fails or stops the writing (a symbolic link is followed: the file it names is
 *  replaced; a hard link to the old file keeps the old file). What is not a regular file (a FIFO,
 *  a device) and standard output are written directly. Returns DF_OK, DF_ERR_IO (errno kept)
 *  or DF_ERR_ARGUMENT. */
DF_API df_status df_nnue_writer_open(df_nnue_writer **out, const char *path, df_nnue_format format);
/** A writer that hands its bytes to write(ctx, buf, size), which returns size or -1 for an
 *  error. NULL when out of memory. */
DF_API df_nnue_writer *
df_nnue_writer_to_function(df_nnue_format format,
                           long (*write)(void *ctx, const char *buf, size_t size), void *ctx);
/** Adds e, entries in order. A `.binpack` chain goes on when e's position is the previous
 *  entry's after its move (pieces, side to move, castling, en passant: df_nnue_ep_square after
 *  the move, df_nnue_entry_ep of e), its ply one more and its result negated, as nnue-pytorch's
 *  writer decides (and when the chain has fewer than 65535 moves); a continuation's half-move
 *  clock and move number are not stored. A `.vf` game goes on by the same rule (any number of
 *  moves), its continuations' clocks and plies the moves' too. Every format but `.bf` stores
 *  df_nnue_entry_ep; what a format drops is counted (df_nnue_writer_losses). Returns DF_OK;
 *  DF_ERR_BOARD when e cannot be written (*err, may be NULL, says why: DF_NNUE_ERR_UNENCODABLE,
 *  _POSITION, _ILLEGAL or _FIELD), which leaves the output as it was; DF_ERR_IO when the output
 *  failed (the writer then drops what it is given); DF_ERR_ARGUMENT for NULL. */
DF_API df_status df_nnue_write(df_nnue_writer *w, const df_nnue_entry *e, df_nnue_error *err);
/** Writes what is buffered (a `.binpack`'s last chunk), closes the output and frees w (NULL:
 *  DF_OK). A file of df_nnue_writer_open is flushed to the disk (fsync) and renamed over its
 *  path only when every write, the flush and the close succeeded; else the temporary file is
 *  removed and path is left as it was. Returns DF_OK or DF_ERR_IO (errno: why) when the
 *  output failed now or before. */
DF_API df_status df_nnue_writer_close(df_nnue_writer *w);
/** What a writer wrote but its format does not keep: for each field, how many of the entries
 *  written so far will be read back from the output with another value there (what the format
 *  gives instead is in parentheses). An entry that cannot be written at all is an error of
 *  df_nnue_write instead, never counted here. Scores and results are kept by every format. */
typedef struct df_nnue_losses {
    uint64_t entries;      /**< entries that lost any of the fields below */
    uint64_t moves;        /**< the move played (DF_MOVE_NONE): `.bf`, `.marlin` and `.txt` store
                                none */
    uint64_t side_to_move; /**< Black to move: `.bf` stores the position from the side to move's
                                view (read back as White to move, colours swapped and ranks
                                mirrored, scores and results unchanged) */
    uint64_t castling;     /**< castling rights (none): `.bf` */
    uint64_t en_passant;   /**< an en-passant square, df_nnue_entry_ep's (none): `.bf` */
    uint64_t halfmove;     /**< the half-move clock: `.bf` (0); a `.binpack` chain's or `.vf`
                                game's continuation (the count its moves give) */
    uint64_t fullmove;     /**< the move number: `.bf` (1); `.binpack` (ply / 2 + 1); a `.vf`
                                game's continuation (the count its moves give) */
    uint64_t ply;          /**< the ply: `.bf` (0); `.marlin`, `.vf`, `.txt` (2 (move number - 1),
                                plus 1 with Black to move) */
} df_nnue_losses;

/** w's losses so far into *out (zeros for w NULL). Call it before df_nnue_writer_close, which
 *  frees w. */
DF_API void df_nnue_writer_losses(const df_nnue_writer *w, df_nnue_losses *out);
/** Gives w up without publishing (NULL: nothing): nothing more is written, the output is
 *  closed and w freed; a file of df_nnue_writer_open is not renamed, its temporary file is
 *  removed and its path left as it was. For a writing that is stopped or failed on the way. */
DF_API void df_nnue_writer_discard(df_nnue_writer *w);
/** The temporary file w writes until df_nnue_writer_close renames it (the name is valid until
 *  w is closed or discarded), or NULL when there is none (standard output, a function, a file
 *  written directly; w NULL). A program's signal handler may remove it (unlink is
 *  async-signal-safe) before the program dies of the signal. */
DF_API const char *df_nnue_writer_temp_path(const df_nnue_writer *w);

/* ---- the formats' rules ------------------------------------------------------------------- */

/* ---- score scales ------------------------------------------------------------------------- */

/** Stockfish's UCI output for value (its internal units, what `.binpack`, `.plain` and `.bin`
 *  written by Stockfish hold) in position b: centipawns, round(100 value / a), where a is a cubic
 *  in b's material (pawns 1, minors 3, rooks 5, queens 9, clamped to 17-78) that Stockfish fits
 *  to game results (its src/uci.cpp, to_cp; the coefficients of the commit docs/nnue.md names).
 *  Not for mate scores. */
DF_API int df_nnue_cp_from_value(int value, const df_board *b);
/** The internal value Stockfish would print as cp in position b: round(cp a / 100), for which
 *  df_nnue_cp_from_value gives cp back (a is above 100). What a PGN's centipawns (`[%eval]`, an
 *  engine's comment) become in entries of Stockfish's scale. Not for mate scores. */
DF_API int df_nnue_value_from_cp(int cp, const df_board *b);

/** The en-passant square nnue-pytorch keeps for b, or DF_SQUARE_NONE: df_board.ep when a pawn
 *  of the side to move attacks it, it and the square beyond it are empty, an enemy pawn stands
 *  behind it, and one of those pawns can capture without exposing its king to an enemy slider
 *  (checks by other pieces are not looked at). Any board with one king per side. */
DF_API df_square df_nnue_ep_square(const df_board *b);
/** Writes b's FEN as the formats see it, the en-passant field df_nnue_ep_square's, into buf
 *  (DF_FEN_MAX bytes suffice): castling as KQkq when its rights are king e1/e8 and corner rooks,
 *  Chess960 or not (as nnue-pytorch writes them; other Chess960 rights, which Stockfish's formats
 *  do not hold, as Shredder-FEN). Returns the length, or the length it would need. For an entry's position
 *  use df_nnue_entry_fen, which keeps a stem's square. */
DF_API size_t df_nnue_fen(char *buf, size_t size, const df_board *b);
/** The en-passant square nnue-pytorch holds for e, or DF_SQUARE_NONE: e->pos.ep when
 *  e->ep_as_stored (a `.binpack` stem's square, kept unchecked as their decoder keeps it), else
 *  df_nnue_ep_square(&e->pos) (a position reached by a move, a `.plain` FEN, a `.bin` record,
 *  an entry built by hand). The writers store this square (`.bf` none). */
DF_API df_square df_nnue_entry_ep(const df_nnue_entry *e);
/** Writes e's FEN into buf as df_nnue_fen writes a board's, the en-passant field
 *  df_nnue_entry_ep's: nnue-pytorch's FEN of the entry in its first four fields (its move
 *  number is (ply + 1) / 2, the board's here). Returns the length, or the length it would
 *  need. */
DF_API size_t df_nnue_entry_fen(char *buf, size_t size, const df_nnue_entry *e);

#ifdef __cplusplus
}
#endif
#endif
