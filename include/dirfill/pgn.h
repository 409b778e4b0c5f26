/* SPDX-License-Identifier: MIT */
/**
 * @file pgn.h
 * @brief Game records in: a streaming PGN reader that replays every move of every game's main
 *        line on the library's SAN reader and copy-make, with errors per game, evaluations and
 *        clocks from comments, Chess960 and other variants, compressed files, and threads.
 *
 * Feed the reader text in pieces of any size (df_pgn_feed), then df_pgn_finish; it calls a
 * visitor for each game (its tags known), for each ply (the position before it, the move, the
 * evaluation and clock of its comment) and at each game's end (result, final position, or the
 * error that stopped it). Nothing is copied but what a token in progress needs, and memory
 * stays bounded whatever the input: tags beyond DF_PGN_TAG_BYTES, tokens beyond
 * DF_PGN_TOKEN_MAX or a comment of a gigabyte cost no more.
 *
 * What is read: a UTF-8 byte order mark at the start of the input or of a line between games
 * (skipped: files joined by cat); tag pairs (escapes \" and \\ undone, a backslash before
 * anything else kept; a tag name repeated in one section keeps its first value and the game
 * carries a warning; a comment between tag pairs is skipped); move numbers (12. 12...); SAN with
 * or without + # and the suffixes ! ? !! !? ?! ??; castling as O-O or 0-0; NAGs ($1, ending at
 * the first byte that is not a digit: $1Nc6 is a NAG and a move; a '$' without digits is a
 * syntax error); comments {...} and ; to the end of the line; variations (...) nested to any
 * depth (skipped: the reader follows the main line); null moves -- and Z0 (suffixes too: --?);
 * % escape lines (in variations too); the result token. A game ends at its result, at the next
 * game's first tag, or at the end of the input. Inside a tag section, a tag line after a blank
 * line starts a new game when the section already holds the seven roster tags (Event Site Date
 * Round White Black Result) or a tag of that name: a game with tags and no movetext is a game of
 * no moves. In a comment, [%eval 0.31] or [%eval #-3] and [%clk 0:03:00] give the evaluation
 * and clock of the move the comment follows (the white space in them may be a newline or a
 * tab), and so does a match referee's evaluation at a comment's start (cutechess-cli and
 * fastchess: {+0.71/23 6.157s}, {-M4/30 0.5s}: the mover's view and mates in plies, turned
 * into White's view and mates in moves after the move; a [%eval] of the same comment wins). The start position is the standard one or the [FEN] tag (with or without [SetUp "1"]);
 * [Variant] Chess960 (also "Fischerandom", "fischerrandom", "chess 960", "Fischer Random", any
 * case) or DF_PGN_CHESS960 select Chess960; "Standard", "Normal", "Chess", "From Position" or an
 * empty value are standard chess; another variant is skipped and said so.
 *
 * Errors stop their game only: a syntax error, an unreadable, illegal or ambiguous move, a bad
 * FEN tag, a tag or token too long, more than DF_PGN_PLIES_MAX plies, or the input ending
 * inside a game (a truncated file) is
 * reported at the game's end with the line of the token that made it bad (a bad FEN: the FEN
 * tag's line; an unclosed variation or comment: the line of its '(' or '{'), its ply and token,
 * and reading resumes at the next game. One recovery rule keeps a damaged file from swallowing
 * the rest: inside an unclosed comment or variation, a line that starts with '[' and a letter
 * starts a new game.
 *
 * A filter (df_pgn_filter, from `FIELD OP VALUE` expressions on tags and on fields derived
 * from them, df_pgn_field) decides on a game's tag section whether it is read at all: a game it
 * rejects is scanned for its end only (no move is resolved), no callback sees it, and it counts
 * as filtered. A game that is not PGN text (a control byte where a game, its movetext, a tag's
 * name or its punctuation begins: a binary file) is an error "not PGN text", its lines passed
 * over up to a line that starts with '[' and a letter. df_pgn_position_passes decides which of
 * a read game's positions pass per-position conditions (ply, the side to move's clock, an
 * evaluation).
 *
 * Thread-safety: a reader belongs to one thread at a time; readers are independent. A filter
 * is read-only once made: many readers and threads may share one.
 */
#ifndef DIRFILL_PGN_H
#define DIRFILL_PGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "moves.h"
#include "source.h"
#include "threads.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes of tag names and values one game keeps (a game whose tags need more is an error). */
#define DF_PGN_TAG_BYTES 16384
/** Tag pairs one game keeps (more is an error). */
#define DF_PGN_TAGS_MAX 128
/** Longest movetext token (SAN, move number, result, NAG): longer ones are an error. */
#define DF_PGN_TOKEN_MAX 32
/** Most plies a game's main line may have: more than any legal game (the seventy-five-move rule
 *  ends every game within about 17,700 plies), so what a visitor keeps per game is bounded. */
#define DF_PGN_PLIES_MAX 20000

/** Flags of df_pgn_reader_reset. */
typedef enum df_pgn_flags {
    DF_PGN_STANDARD = 0,    /**< standard chess unless a game's Variant tag says Chess960 */
    DF_PGN_CHESS960 = 1,    /**< every game is Chess960 */
    DF_PGN_LEX_ONLY = 2,    /**< find games, tags and results without replaying the moves (for
                              splitting a file, for counting tokens: plies counts them) */
    DF_PGN_HEADERS_ONLY = 4 /**< tags and results only: the movetext is skimmed for the game's
                              end, as a filtered game's is (fastest; no ply counted, no error
                              of the movetext reported) */
} df_pgn_flags;

/** One tag pair, escapes undone. The pointers live until the game's end callback returns. */
typedef struct df_pgn_tag {
    const char *name;   /**< the tag's name */
    const char *value;  /**< its value */
    uint32_t name_len;  /**< bytes of name */
    uint32_t value_len; /**< bytes of value */
} df_pgn_tag;

/** What a comment says the position after a move is worth. */
typedef enum df_pgn_eval_kind {
    DF_PGN_EVAL_NONE = 0,  /**< no [%eval] nor a referee's evaluation */
    DF_PGN_EVAL_PAWNS = 1, /**< pawns, from White's view */
    DF_PGN_EVAL_MATE = 2   /**< mate in `mate` moves (negative: Black mates) */
} df_pgn_eval_kind;

/** One ply of a game's main line, as the ply callback sees it. */
typedef struct df_pgn_ply {
    const df_board *before;     /**< the position before the move */
    df_move move;               /**< the move (DF_MOVE_NONE for a null move) */
    uint32_t ply;               /**< 0 for the first move of the game */
    const char *san;            /**< the token as written ("Nxe5+!"), not NUL-terminated */
    uint32_t san_len;           /**< its bytes */
    df_pgn_eval_kind eval_kind; /**< whether an evaluation follows the move */
    int32_t mate;   /**< with DF_PGN_EVAL_MATE: moves to mate, negative when Black mates */
    double pawns;   /**< with DF_PGN_EVAL_PAWNS: the evaluation in pawns, White's view */
    bool has_clock; /**< whether a [%clk] follows the move */
    double clock;   /**< with has_clock: the mover's clock in seconds */
    uint64_t line;  /**< 1-based line of the move's token */
} df_pgn_ply;

/** A game as the callbacks see it. */
typedef struct df_pgn_game {
    uint64_t index;         /**< 0-based position of the game in the input */
    uint64_t line;          /**< 1-based line where it starts */
    uint64_t offset;        /**< byte offset in the input where it starts */
    uint64_t end_offset;    /**< byte offset just past it (end callback) */
    uint64_t end_line;      /**< 1-based line where it ends (end callback) */
    const df_pgn_tag *tags; /**< its tag pairs, in order */
    uint32_t ntags;         /**< how many */
    df_board start;         /**< the start position (FEN tag or standard) */
    df_board board;         /**< the position after the last move read (end callback) */
    uint32_t plies;         /**< moves read on the main line */
    df_result result;       /**< the result token; DF_RESULT_NONE for "*" or none */
    bool has_result;        /**< whether a result token ended the game */
    bool chess960;          /**< Chess960 castling */
    const char *skipped;    /**< NULL, or why the game was skipped ("variant Crazyhouse") */
    const char *error;      /**< NULL, or what stopped it: "ply 23 \"Nxe5\": illegal move" */
    uint64_t error_line;    /**< with error: 1-based line of the offending token */
    const char *warning;    /**< NULL, or what was read but not kept: "tag White repeated at
                                 line 4: the first value is kept" (the first such event) */
} df_pgn_game;

/** What the reader should do next, as a callback answers. */
typedef enum df_pgn_action {
    DF_PGN_READ = 0, /**< go on (begin: replay the moves) */
    DF_PGN_SKIP = 1, /**< begin only: skip this game's moves (read its tags and result only) */
    DF_PGN_STOP = 2  /**< stop: df_pgn_feed returns DF_ERR_INTERRUPTED at once */
} df_pgn_action;

/** The callbacks of a reader; any may be NULL. ctx is handed to each. */
typedef struct df_pgn_visitor {
    /** A game's tags are read and its start position set (an error so far is in g->error). */
    df_pgn_action (*begin)(void *ctx, const df_pgn_game *g);
    /** One ply of the main line, with what its comments said. NULL: no ply is kept and no
     *  comment's [%eval]/[%clk] is read (a validating read: faster on files whose comments carry
     *  them, as lichess's do); games, errors and final positions are the same. */
    void (*ply)(void *ctx, const df_pgn_game *g, const df_pgn_ply *p);
    /** The game is over: its result, final position, error or reason for skipping. */
    df_pgn_action (*end)(void *ctx, const df_pgn_game *g);
    void *ctx; /**< handed to every callback */
} df_pgn_visitor;

/** Counts of a reader since its last reset. Every game found is one of kept, filtered, errors
 *  and skipped: games = kept + filtered + errors + skipped. */
typedef struct df_pgn_stats {
    uint64_t games;    /**< every game found in the input, the filtered ones included (they are
                            numbered too) */
    uint64_t errors;   /**< games stopped by an error (and not skipped) */
    uint64_t skipped;  /**< games skipped (another variant), an error in them or not */
    uint64_t filtered; /**< games the filter rejected (no callback saw them) */
    uint64_t plies;    /**< moves replayed (in every game read, up to its error) */
    uint64_t bytes;    /**< bytes read */
    uint64_t kept;     /**< games read through without an error, not skipped: the ones a reader
                            of positions writes */
} df_pgn_stats;

/** A PGN reader (opaque; about 20 KB). */
typedef struct df_pgn_reader df_pgn_reader;

/** A new reader, reset with DF_PGN_STANDARD; NULL when out of memory. */
DF_API df_pgn_reader *df_pgn_reader_new(void);
/** Frees a reader (NULL: nothing). */
DF_API void df_pgn_reader_free(df_pgn_reader *r);
/** Starts over with flags (df_pgn_flags bits), numbering games from first_game and lines from
 *  first_line (1 for a whole file; a piece of a file read on its own knows its own), byte
 *  offsets from first_offset. */
DF_API void df_pgn_reader_reset(df_pgn_reader *r, unsigned flags, uint64_t first_game,
                                uint64_t first_line, uint64_t first_offset);
/** Reads len bytes of PGN (any bytes; a piece may end anywhere, inside a token too), calling
 *  v's callbacks for what they complete. Returns DF_OK, or DF_ERR_INTERRUPTED when a callback
 *  answered DF_PGN_STOP (the reader is then finished). */
DF_API df_status df_pgn_feed(df_pgn_reader *r, const char *data, size_t len,
                             const df_pgn_visitor *v);
/** The input has ended: the game in progress ends (an error if it was cut short). Returns as
 *  df_pgn_feed. */
DF_API df_status df_pgn_finish(df_pgn_reader *r, const df_pgn_visitor *v);
/** The reader's counts since its last reset. */
DF_API df_pgn_stats df_pgn_reader_stats(const df_pgn_reader *r);
/** Whether the reader stands between games (no game open): where a piece of input may end
 *  for another reader to go on. */
DF_API bool df_pgn_reader_between_games(const df_pgn_reader *r);
/** The value of tag name in g (NULL when absent); *len its bytes. */
DF_API const char *df_pgn_tag_value(const df_pgn_game *g, const char *name, uint32_t *len);

/* ---- fields: what a filter compares and a count groups by --------------------------------- */

/** A field of a game: a tag as written, or a value derived from its tags alone (so a filter
 *  decides on it before any move is read, as on a tag). A derived field's name is reserved: a
 *  game's own tag of that name (a [Speed] tag some sites write) is not what the field means, and
 *  filters and counts read the derived value. */
typedef enum df_pgn_field {
    DF_PGN_FIELD_TAG = 0,      /**< not derived: the tag of that name */
    DF_PGN_FIELD_SPEED,        /**< "Speed": a df_pgn_speed, lichess's rule on TimeControl (the
                                    estimate BASE + 40 x INCREMENT seconds: under 30 ultrabullet,
                                    180 bullet, 480 blitz, 1500 rapid, else classical; "-" is
                                    correspondence) */
    DF_PGN_FIELD_BASE_SECONDS, /**< "BaseSeconds": BASE of TimeControl "BASE+INCREMENT" or "BASE",
                                    each 1 to 9 digits (another form, "-" or "?", has none) */
    DF_PGN_FIELD_INCREMENT,    /**< "Increment": INCREMENT of the same (0 for "BASE" alone) */
    DF_PGN_FIELD_AVG_ELO,      /**< "AvgElo": (WhiteElo + BlackElo) / 2; every Elo field needs both
                                    tags to be whole numbers of 1 to 9 digits ("?" is none) */
    DF_PGN_FIELD_MIN_ELO,      /**< "MinElo": the lower rating */
    DF_PGN_FIELD_MAX_ELO,      /**< "MaxElo": the higher rating */
    DF_PGN_FIELD_ELO_DIFF,     /**< "EloDiff": WhiteElo - BlackElo */
    DF_PGN_FIELD_ELO_BIN,      /**< "EloBin": AvgElo rounded down to a multiple of 200 */
    DF_PGN_FIELD_YEAR,         /**< "Year": of UTCDate when the game has that tag, else of Date,
                                    written YYYY.MM.DD with "????", "??" for unknown parts; an
                                    unknown part, or a date of another form, has none */
    DF_PGN_FIELD_MONTH,        /**< "Month": 1 to 12, from the same date */
    DF_PGN_FIELD_BOT,          /**< "Bot": 1 when WhiteTitle or BlackTitle is BOT (any case),
                                    else 0 (always known) */
    DF_PGN_FIELD_COUNT         /**< the number of fields */
} df_pgn_field;

/** The values of DF_PGN_FIELD_SPEED, in the order of their durations. */
typedef enum df_pgn_speed {
    DF_PGN_SPEED_ULTRABULLET = 0, /**< "ultrabullet": under 30 s */
    DF_PGN_SPEED_BULLET,          /**< "bullet": under 180 s */
    DF_PGN_SPEED_BLITZ,           /**< "blitz": under 480 s */
    DF_PGN_SPEED_RAPID,           /**< "rapid": under 1500 s */
    DF_PGN_SPEED_CLASSICAL,       /**< "classical": 1500 s or more */
    DF_PGN_SPEED_CORRESPONDENCE   /**< "correspondence": TimeControl "-" */
} df_pgn_speed;

/** The derived field called name exactly ("Speed"), or DF_PGN_FIELD_TAG for any other name. */
DF_API df_pgn_field df_pgn_field_of(const char *name);
/** The name of derived field f ("Speed"); NULL for DF_PGN_FIELD_TAG or a value out of range. */
DF_API const char *df_pgn_field_name(df_pgn_field f);
/** The lower-case name of speed s ("blitz"); NULL out of range. */
DF_API const char *df_pgn_speed_name(df_pgn_speed s);
/** Derived field f of g into *value (Speed: a df_pgn_speed; Bot: 0 or 1). false, *value
 *  untouched, when g's tags do not give it (no TimeControl, a "?" Elo, a malformed date) or f
 *  is DF_PGN_FIELD_TAG. */
DF_API bool df_pgn_field_value(const df_pgn_game *g, df_pgn_field f, double *value);
/** df_pgn_field_value of fields[0, n) (n at most 32) at once, in one pass over g's tags:
 *  values[i] for each known field; returns the known ones as bits (bit i: fields[i]). */
DF_API unsigned df_pgn_field_values(const df_pgn_game *g, const df_pgn_field *fields, size_t n,
                                    double *values);

/* ---- filters: which games to read, decided on the tag section -------------------------- */

/** A conjunction of conditions on fields (opaque; read-only once made, shareable between
 *  threads). */
typedef struct df_pgn_filter df_pgn_filter;

/** Room for a filter's error message (df_pgn_filter_new). */
#define DF_PGN_FILTER_ERROR_MAX 160

/** Makes a filter of n expressions `FIELD OP VALUE`, all of which must hold for a game to be
 *  read. FIELD is a tag name (letters, digits, _) or a derived field (df_pgn_field; a name that
 *  differs from one only in case is refused). OP is one of = != < <= > >= ^=. Spaces around
 *  FIELD, OP and VALUE are ignored; a VALUE in double quotes is taken as it stands between them
 *  (so it may be empty, or start with an operator's character).
 *
 *  On a tag: = and != compare any VALUE; < <= > >= take a number ([+-]digits[.digits], compared
 *  as a number with a tag's value that is one, else as text), a date or time as PGN writes them
 *  (digits and ? in groups parted by . or :, as 2024.01.15 or 12:30:00) or text that starts with
 *  none of + - . and a digit (compared byte-wise, case-sensitive); ^= takes a VALUE of at least
 *  one byte that the tag's value must start with. On a derived field: a number (Speed: one of
 *  its names, any case, ordered by duration; Bot: true or false, with = and != only); ^= is
 *  refused. A game without the tag, or whose derived field is not known, fails every condition
 *  on it but != (which it passes); a repeated tag is compared by its first value.
 *
 *  Refused, DF_ERR_ARGUMENT with error (when not NULL: DF_PGN_FILTER_ERROR_MAX bytes) naming
 *  the expression and, where one exists, the nearest valid form ("'WhiteElo=>2000': did you
 *  mean 'WhiteElo>=2000'?"): no tag name, a byte a tag name cannot hold, no operator, a run of
 *  operator characters that is not one operator (=> =< == <> =! ...), no VALUE, a VALUE the
 *  operator cannot read as above. DF_ERR_IO when out of memory. n == 0 makes a filter that
 *  keeps every game. */
DF_API df_status df_pgn_filter_new(df_pgn_filter **out, const char *const *exprs, size_t n,
                                   char *error);
/** Frees a filter (NULL: nothing). */
DF_API void df_pgn_filter_free(df_pgn_filter *f);
/** Whether g's tags satisfy f (NULL keeps every game). */
DF_API bool df_pgn_filter_matches(const df_pgn_filter *f, const df_pgn_game *g);
/** Reads only the games f keeps, until the next call (NULL: every game); f must outlive its
 *  use. A reset keeps the filter. */
DF_API void df_pgn_reader_set_filter(df_pgn_reader *r, const df_pgn_filter *f);

/* ---- positions: which plies of a read game to keep ------------------------------------- */

/** The conditions of a df_pgn_position_filter (bits of its `conditions`). */
typedef enum df_pgn_position_condition {
    DF_PGN_MIN_PLY = 1,     /**< the position's ply is at least min_ply */
    DF_PGN_MAX_PLY = 2,     /**< the position's ply is at most max_ply */
    DF_PGN_MIN_CLOCK = 4,   /**< the side to move has at least min_clock seconds left */
    DF_PGN_REQUIRE_EVAL = 8 /**< the move from the position has an [%eval] */
} df_pgn_position_condition;

/** Conditions on positions, all of which a position must meet to pass; a zeroed one keeps
 *  every position. Position k of a game is the one before its move k (ply 0 is the start), as
 *  df_pgn_ply's `before` and the rows of positions are. */
typedef struct df_pgn_position_filter {
    unsigned conditions; /**< df_pgn_position_condition bits: which fields below apply */
    uint32_t min_ply;    /**< with DF_PGN_MIN_PLY */
    uint32_t max_ply;    /**< with DF_PGN_MAX_PLY */
    double min_clock;    /**< with DF_PGN_MIN_CLOCK: seconds */
} df_pgn_position_filter;

/** What df_pgn_position_passes remembers of a game between its plies: the clock each side had
 *  after its last move. Any content before ply 0 (which resets it). */
typedef struct df_pgn_clocks {
    double seconds[2]; /**< by the parity of the ply that set it */
    bool known[2];     /**< whether that ply's move had a [%clk] */
} df_pgn_clocks;

/** Whether position p->ply of g passes f (NULL: every position passes). Call it for every ply
 *  of a game, in order from ply 0, with the same *clocks (the ply callback's g and p): it
 *  resets *clocks at ply 0 and keeps p's clock for later plies.
 *
 *  The side to move's clock at position k is the time that side had left after its own last
 *  move: the [%clk] of move k - 2 (a [%clk] after a move is the mover's time left, increment
 *  included). At positions 0 and 1 that side has not moved yet: its clock is TimeControl's base
 *  (DF_PGN_FIELD_BASE_SECONDS), none without one. A position whose side to move has no clock
 *  (move k - 2 had no [%clk]) fails DF_PGN_MIN_CLOCK. DF_PGN_REQUIRE_EVAL looks at p's own
 *  evaluation: the [%eval] after move k, the one the position's row carries. */
DF_API bool df_pgn_position_passes(const df_pgn_position_filter *f, df_pgn_clocks *clocks,
                                   const df_pgn_game *g, const df_pgn_ply *p);

/* ---- input: see source.h ----------------------------------------------------------------- */

/* The byte source's former names, from when only the PGN reader took one: kept for one minor
 * release (until 0.7), each the df_source call of the same suffix. */

/** The former name of df_source. */
typedef df_source df_pgn_source;
/** The former name of df_source_open (deprecated). */
DF_API DF_DEPRECATED("use df_source_open") df_status
    df_pgn_source_open(df_source **out, const char *path);
/** The former name of df_source_from_function (deprecated). */
DF_API DF_DEPRECATED("use df_source_from_function") df_source *df_pgn_source_from_function(
    long (*read)(void *ctx, char *buf, size_t size), void *ctx);
/** The former name of df_source_read (deprecated). */
DF_API DF_DEPRECATED("use df_source_read") long df_pgn_source_read(df_source *s, char *buf,
                                                                   size_t size);
/** The former name of df_source_error (deprecated). */
DF_API DF_DEPRECATED("use df_source_error") const char *df_pgn_source_error(const df_source *s);
/** The former name of df_source_set_interrupt (deprecated). */
DF_API DF_DEPRECATED("use df_source_set_interrupt") void df_pgn_source_set_interrupt(
    df_source *s, const df_interrupt *in);
/** The former name of df_source_consumed (deprecated). */
DF_API DF_DEPRECATED("use df_source_consumed") uint64_t df_pgn_source_consumed(const df_source *s);
/** The former name of df_source_close (deprecated). */
DF_API DF_DEPRECATED("use df_source_close") void df_pgn_source_close(df_source *s);

/* ---- many threads ----------------------------------------------------------------------- */

/** Where a threaded read puts its results: each run of games goes to a sink of its own,
 *  filled by a worker thread through the visitor (whose ctx is the sink), then handed to
 *  deliver on the calling thread in input order, then to drop. In the visitor's callbacks
 *  g->index counts the games of the sink from 0; deliver says which game of the whole input
 *  the sink's first one is. Lines and byte offsets are those of the whole input. */
typedef struct df_pgn_sinks {
    /** A new, empty sink (called on any thread; NULL: out of memory). */
    void *(*open)(void *ctx);
    /** The callbacks a worker makes for the games of a sink; their ctx is the sink. */
    df_pgn_visitor visitor;
    /** The calling thread, in input order: the sink's games are complete; the first of them
     *  is game first_game of the input. Nonzero stops the read (df_pgn_read_threaded returns
     *  DF_ERR_INTERRUPTED). */
    int (*deliver)(void *ctx, void *sink, uint64_t first_game);
    /** Frees a sink (delivered or not). */
    void (*drop)(void *ctx, void *sink);
    void *ctx; /**< handed to open, deliver and drop */
} df_pgn_sinks;

/** Reads all of src on threads (0: one per CPU; 1: the calling thread alone), only the games
 *  filter keeps (NULL: all), with results equal
 *  to a single reader's. The calling thread reads blocks and cuts them where a line that
 *  follows a blank line starts with a tag; each worker reads its run of games with a reader of
 *  its own and checks that the cut was between games (the recovery rule of this file makes a
 *  tag at a line start begin a game anywhere outside a tag section); a run cut in a wrong
 *  place is read again with the next one on the calling thread. Sinks are delivered in input
 *  order. Memory stays bounded: a few megabytes of input and the sinks of a few runs per
 *  thread at once (an input whose game outgrows a run is read on the calling thread from that
 *  game on). *stats (may be NULL) gets the totals. Returns DF_OK, DF_ERR_IO (src failed; the
 *  games before were delivered) or DF_ERR_INTERRUPTED (deliver or a callback stopped it). */
DF_API df_status df_pgn_read_threaded(df_source *src, unsigned flags, const df_pgn_filter *filter,
                                      unsigned threads, const df_pgn_sinks *sinks,
                                      df_pgn_stats *stats);

/* ---- parts: a file cut between games for readers of their own --------------------------- */

/** Where a PGN input may be cut for a reader of the part after (df_pgn_find_cuts). */
typedef struct df_pgn_cut {
    uint64_t offset; /**< byte offset of the cut (the input's size when there is no cut after
                          the target) */
    uint64_t line;   /**< 1-based line that begins there */
    uint64_t game;   /**< the index of the game that begins there: the games before it, all
                          counted (filtered ones too, as a reader numbers them) */
} df_pgn_cut;

/** Lexes src (no move is replayed) and finds, for each of n byte offsets targets[i] (in
 *  ascending order), the first cut at or after it: a line after a blank line that starts with
 *  '[' and a letter (df_pgn_read_threaded's rule), where the reader of everything before stands
 *  between games (outside any tag section, the game before ended): a reader of the part
 *  [cuts[i].offset, cuts[i + 1].offset) reset with cuts[i].game, .line and .offset, fed that
 *  part and finished, gives exactly the games of the whole input's reader that begin in it.
 *  A target of 0 is the input's start; a target with no cut after it gets the input's size and
 *  the count of its games. Reading stops at the last target's cut. Returns DF_OK,
 *  DF_ERR_ARGUMENT (targets not ascending) or DF_ERR_IO (src failed, or out of memory). */
DF_API df_status df_pgn_find_cuts(df_source *src, const uint64_t *targets, size_t n,
                                  df_pgn_cut *cuts);

#ifdef __cplusplus
}
#endif
#endif
