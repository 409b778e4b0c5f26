/* SPDX-License-Identifier: MIT */
/**
 * @file board.h
 * @brief The position: df_board, its castling rights, FEN parsing and formatting.
 *
 * Thread-safety: every function here is reentrant; a board may be read by many threads.
 */
#ifndef DIRFILL_BOARD_H
#define DIRFILL_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bitboard.h"
#include "export.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Castling rights, bits of df_board.castling. "King side" is the h-file side of the king,
 *  "queen side" the a-file side, in Chess960 as in standard chess. The right with bit 1 << r
 *  has index r (0..3) in df_board.castle_rook. */
typedef enum df_castling {
    DF_CASTLE_WK = 1,    /**< white, king side */
    DF_CASTLE_WQ = 2,    /**< white, queen side */
    DF_CASTLE_BK = 4,    /**< black, king side */
    DF_CASTLE_BQ = 8,    /**< black, queen side */
    DF_CASTLE_RIGHTS = 4 /**< number of rights */
} df_castling;

/** Where the king lands when castling with right r (0..3): g1 c1 g8 c8. */
static inline df_square df_castle_king_to(int r)
{
    static const unsigned char to[DF_CASTLE_RIGHTS] = {DF_G1, DF_C1, DF_G8, DF_C8};
    assert((unsigned)r < DF_CASTLE_RIGHTS);
    return (df_square)to[r & 3];
}
/** Where the rook lands when castling with right r (0..3): f1 d1 f8 d8. */
static inline df_square df_castle_rook_to(int r)
{
    static const unsigned char to[DF_CASTLE_RIGHTS] = {DF_F1, DF_D1, DF_F8, DF_D8};
    assert((unsigned)r < DF_CASTLE_RIGHTS);
    return (df_square)to[r & 3];
}
/** The castling rights of one colour. */
static inline unsigned df_castle_rights_of(df_color c) { return c ? 12u : 3u; }

/** A position as bitboards by colour and by piece type, with its Polyglot key. */
typedef struct df_board {
    df_bb color[DF_COLORS];      /**< the pieces of each colour, indexed by df_color */
    df_bb piece[DF_PIECE_TYPES]; /**< the pieces of each type (both colours), by df_piece_type */
    uint64_t key;      /**< Polyglot key, kept by df_fen_parse and df_make_move (hash.h) */
    uint32_t halfmove; /**< plies since the last capture or pawn move */
    uint32_t fullmove; /**< the move number, starting at 1 */
    uint8_t stm;       /**< side to move, a df_color */
    uint8_t castling;  /**< castling rights, df_castling bits */
    uint8_t ep;        /**< en-passant target square, or DF_SQUARE_NONE. Set only when a pawn
                            of the side to move stands next to the pawn that just moved two
                            squares (the Polyglot rule): the capture may still be illegal
                            (pin, check); df_fen_format can write the strictly legal form */
    uint8_t chess960;  /**< nonzero: Chess960 castling and Shredder-FEN output */
    uint8_t castle_rook[DF_CASTLE_RIGHTS]; /**< the rook of each right (a square), valid while
                                              the right is held */
} df_board;

/** All occupied squares. */
static inline df_bb df_board_occupied(const df_board *b) { return b->color[0] | b->color[1]; }
/** Pieces of one colour and type. */
static inline df_bb df_board_pieces(const df_board *b, df_color color, df_piece_type type)
{
    return b->color[color & 1] & b->piece[type];
}
/** Square of color's king; the board must hold one (every parsed board does). */
static inline df_square df_board_king(const df_board *b, df_color color)
{
    return df_lsb(b->color[color & 1] & b->piece[DF_KING]);
}
/** Type of the piece on sq, or DF_PIECE_TYPES when the square is empty. */
static inline df_piece_type df_board_type_at(const df_board *b, df_square sq)
{
    /* The type's three bits, each read from the union of the sets that have it set (knight,
     * rook, king for bit 0; bishop, rook and the empty squares for bit 1; queen, king and the
     * empty squares for bit 2): no branch on which piece stands there, which a loop over the
     * types took, mispredicted wherever the pieces vary (a game's moves, their captures). The
     * numbers are df_piece_type's, pawn 0 to king 5, empty 6 (test_type_at_random). */
    const unsigned s = (unsigned)sq & 63;
    const df_bb empty = ~(b->color[0] | b->color[1]);
    const unsigned t =
        (unsigned)((b->piece[DF_KNIGHT] | b->piece[DF_ROOK] | b->piece[DF_KING]) >> s & 1) |
        (unsigned)((b->piece[DF_BISHOP] | b->piece[DF_ROOK] | empty) >> s & 1) << 1 |
        (unsigned)((b->piece[DF_QUEEN] | b->piece[DF_KING] | empty) >> s & 1) << 2;
    /* Sets that overlap (no parsed board's) may give 7: "no piece" keeps the result a type. */
    return (df_piece_type)(t == 7 ? (unsigned)DF_PIECE_TYPES : t);
}
/** The side to move. */
static inline df_color df_board_stm(const df_board *b) { return (df_color)(b->stm & 1); }

/** Whether b keeps the invariants of every board df_fen_parse, df_board_from_parts and
 *  df_make_move produce: colour and piece sets disjoint and covering the same squares, one
 *  king per side, no pawn on the first or last rank, castling rights whose king and rook stand
 *  on their first rank (rook on the right's side), an en-passant square empty, behind an enemy
 *  pawn, on the side to move's sixth rank. Every other call of the library may assume them: check
 *  a board
 *  built or changed by hand (or read from outside) with this first. NULL: false. */
DF_API bool df_board_is_valid(const df_board *b);
/** Whether the board has a legal move tree: false when the side not to move is in check
 *  (its king could be captured, adjacent kings included), which no game reaches. The move
 *  generator, perft, make-move, SAN and SEE require a board for which this is true; attack
 *  maps and king safety accept any board with one king per side. */
DF_API bool df_board_playable(const df_board *b);

/** Index of each piece bitboard in the 12-board layout of df_board_parts: white pawn,
 *  knight, bishop, rook, queen, king, then black in the same order (python-chess's and
 *  shakmaty's colour-major order). */
static inline int df_piece_index(df_color c, df_piece_type t) { return (int)(c & 1) * 6 + (int)t; }

/** The 12 piece bitboards in df_piece_index order, written into out (inline: data pipelines
 *  call it once a position, where a call and a cleared df_board_parts cost more than it). */
static inline void df_board_piece_sets(uint64_t out[12], const df_board *b)
{
    /* The colours read once, before out is written: out might overlap the board as far as the
     * compiler knows, which would have it check for the overlap at every call (a large part of
     * the function's instructions). */
    const df_bb white = b->color[DF_WHITE], black = b->color[DF_BLACK];
    for (int t = 0; t < DF_PIECE_TYPES; t++) {
        const df_bb pieces = b->piece[t];
        out[df_piece_index(DF_WHITE, (df_piece_type)t)] = white & pieces;
        out[df_piece_index(DF_BLACK, (df_piece_type)t)] = black & pieces;
    }
}
/** The rooks that may still castle, as df_board_parts.castling_rooks holds them. */
static inline df_bb df_board_castling_rooks(const df_board *b)
{
    df_bb rooks = 0;
    for (int r = 0; r < DF_CASTLE_RIGHTS; r++)
        if ((b->castling >> r) & 1) rooks |= df_square_bb((df_square)b->castle_rook[r]);
    return rooks;
}

/** A position as plain fields, the way data pipelines and other libraries hold one. */
typedef struct df_board_parts {
    uint64_t pieces[12];  /**< bitboards by df_piece_index */
    df_bb castling_rooks; /**< the rooks that may still castle (python-chess's castling_rights):
                               for a Chess960 board any rook on its first rank, else a1 h1 a8
                               h8 with the king on e1 / e8 */
    int ep;               /**< the en-passant target square, or -1 */
    uint32_t halfmove;    /**< plies since the last capture or pawn move */
    uint32_t fullmove;    /**< the move number (0 is read as 1) */
    df_color stm;         /**< the side to move */
    bool chess960;        /**< Chess960 castling */
} df_board_parts;

/** A board from its parts, key computed, the en-passant square kept as df_fen_parse keeps it
 *  (only when a pawn of the side to move could capture there). Returns DF_ERR_BOARD (and
 *  leaves *out unchanged) when the bitboards overlap, a side has not exactly one king, a pawn
 *  stands on the first or last rank, a castling rook is not one of the listed squares (or not
 *  its side's rook, or its king is not on the same rank between the two sides' rooks), or the
 *  en-passant square is not an empty square behind an enemy pawn on the right rank;
 *  DF_ERR_ARGUMENT for NULL pointers or an ep outside -1..63. */
DF_API df_status df_board_from_parts(df_board *out, const df_board_parts *parts);
/** The parts of a board (df_board_from_parts gives it back). */
DF_API void df_board_to_parts(df_board_parts *out, const df_board *b);
/** df_board_from_parts with no castling rights, no en passant, counters 0 and 1. */
DF_API df_status df_board_from_pieces(df_board *out, const uint64_t pieces[12], df_color stm);

/* ---- FEN ------------------------------------------------------------------------------ */

/** Why a FEN was refused. */
typedef enum df_fen_error_kind {
    DF_FEN_OK = 0,      /**< no error */
    DF_FEN_FIELD_COUNT, /**< not 4 or 6 fields */
    DF_FEN_RANK_COUNT,  /**< not 8 ranks */
    DF_FEN_RANK_WIDTH,  /**< a rank does not sum to 8 files */
    DF_FEN_PIECE,       /**< unknown piece letter */
    DF_FEN_SIDE,        /**< side to move not w or b */
    DF_FEN_CASTLING,    /**< castling field */
    DF_FEN_EN_PASSANT,  /**< en-passant field */
    DF_FEN_COUNTER,     /**< half-move or full-move counter */
    DF_FEN_KINGS,       /**< not exactly one king per side */
    DF_FEN_PAWN_RANK    /**< a pawn on the first or last rank */
} df_fen_error_kind;

/** The FEN fields, numbered as df_fen_error.field counts them. */
typedef enum df_fen_field {
    DF_FEN_NO_FIELD = 0,       /**< the text as a whole (field count) */
    DF_FEN_PLACEMENT = 1,      /**< piece placement */
    DF_FEN_SIDE_FIELD = 2,     /**< side to move */
    DF_FEN_CASTLING_FIELD = 3, /**< castling rights */
    DF_FEN_EP_FIELD = 4,       /**< en-passant square */
    DF_FEN_HALFMOVE = 5,       /**< half-move clock */
    DF_FEN_FULLMOVE = 6        /**< full-move number */
} df_fen_field;

/** Details of a refused FEN: which field, where (byte offset), and a message. */
typedef struct df_fen_error {
    df_fen_error_kind kind; /**< what is wrong */
    df_fen_field field;     /**< which field */
    size_t offset;          /**< byte offset in the text */
    char message[112];      /**< "castling: 'X' is not ...", NUL-terminated */
} df_fen_error;

/** Longest FEN df_fen_format writes, terminating NUL included. */
#define DF_FEN_MAX 128
/** The start position. */
#define DF_FEN_START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/** Flags of df_fen_parse and df_fen_format (bits). */
typedef enum df_fen_flags {
    DF_FEN_STANDARD = 0, /**< parse: castling field KQkq, king and rooks on their home squares;
                              format: the en-passant square as the board holds it */
    DF_FEN_CHESS960 = 1, /**< parse: Chess960, the castling field may name rook files
                              (Shredder-FEN, "HAha") or use KQkq for the outermost rook of each
                              side (X-FEN). Format: no effect (the board knows) */
    DF_FEN_LEGAL_EP = 2  /**< format: write the en-passant square only when a legal en-passant
                              capture exists (python-chess's default); parse: no effect */
} df_fen_flags;

/** Parses len bytes of text into *out (any bytes: no NUL needed, none read past len). Fields
 *  are separated by runs of spaces or tabs; leading and trailing white space and a final CR
 *  are ignored; the two counters may be omitted (then 0 and 1). The en-passant square is kept
 *  only when a pawn of the side to move stands next to the pawn that moved (df_board.ep).
 *  Returns DF_OK, or DF_ERR_FEN with *err filled (err may be NULL); *out is then unchanged. */
DF_API df_status df_fen_parse(df_board *out, const char *text, size_t len, df_fen_flags flags,
                              df_fen_error *err);
/** Writes the normalized six-field FEN of b into buf (Shredder-FEN castling for a Chess960
 *  board); DF_FEN_MAX bytes always suffice. The en-passant field is df_board.ep, or with
 *  DF_FEN_LEGAL_EP "-" unless a legal en-passant capture exists. Returns the FEN's length, or
 *  the length it would need (snprintf rules). */
DF_API size_t df_fen_format(char *buf, size_t size, const df_board *b, df_fen_flags flags);

#ifdef __cplusplus
}
#endif
#endif
