/* dirfill — the position level: board, FEN, attack maps, king safety, square queries. */
#ifndef DIRFILL_BOARD_H
#define DIRFILL_BOARD_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "between.h"
#include "bitboard.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { DF_WHITE = 0, DF_BLACK = 1 };

/** Piece types, the index of df_board.piece. */
typedef enum df_piece_type {
    DF_PAWN,
    DF_KNIGHT,
    DF_BISHOP,
    DF_ROOK,
    DF_QUEEN,
    DF_KING,
    DF_PIECE_TYPES
} df_piece_type;

/** Castling rights, bits of df_board.castling. */
enum { DF_CASTLE_WK = 1, DF_CASTLE_WQ = 2, DF_CASTLE_BK = 4, DF_CASTLE_BQ = 8 };

/** A position as bitboards by colour and by piece type. */
typedef struct df_board {
    df_bb color[2];              /* DF_WHITE, DF_BLACK */
    df_bb piece[DF_PIECE_TYPES]; /* both colours */
    uint8_t stm;                 /* side to move */
    uint8_t castling;            /* DF_CASTLE_* bits */
    uint8_t ep;                  /* en-passant target square or DF_SQUARE_NONE */
    uint32_t halfmove, fullmove;
} df_board;

/** All occupied squares. */
static inline df_bb df_board_occupied(const df_board *b) { return b->color[0] | b->color[1]; }
/** Pieces of one colour and type. */
static inline df_bb df_board_pieces(const df_board *b, int color, int type)
{
    return b->color[color] & b->piece[type];
}
/** Square of color's king (the board must hold one). */
static inline int df_board_king(const df_board *b, int color)
{
    return df_lsb(b->color[color] & b->piece[DF_KING]);
}
/** Type of the piece on sq, or DF_PIECE_TYPES when it is empty. */
static inline int df_board_type_at(const df_board *b, int sq)
{
    for (int t = 0; t < DF_PIECE_TYPES; t++)
        if ((b->piece[t] >> sq) & 1) return t;
    return DF_PIECE_TYPES;
}

/* ---- FEN ------------------------------------------------------------------------------ */

/** Why a FEN was refused. */
typedef enum df_fen_error_kind {
    DF_FEN_OK = 0,
    DF_FEN_FIELD_COUNT, /* not 4 or 6 fields */
    DF_FEN_RANK_COUNT,  /* not 8 ranks */
    DF_FEN_RANK_WIDTH,  /* a rank does not sum to 8 files */
    DF_FEN_PIECE,       /* unknown piece letter */
    DF_FEN_SIDE,        /* side to move not w or b */
    DF_FEN_CASTLING,    /* castling field */
    DF_FEN_EN_PASSANT,  /* en-passant field */
    DF_FEN_COUNTER,     /* half-move or full-move counter */
    DF_FEN_KINGS,       /* not exactly one king per side */
    DF_FEN_PAWN_RANK    /* a pawn on the first or last rank */
} df_fen_error_kind;

/** Details of a refused FEN: which field (1..6), where (byte offset), and a message. */
typedef struct df_fen_error {
    df_fen_error_kind kind;
    int field;
    size_t offset;
    char message[112];
} df_fen_error;

/** Longest FEN df_fen_format writes, terminating NUL included. */
#define DF_FEN_MAX 128
/** The start position. */
#define DF_FEN_START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/** Parses len bytes of text (any bytes: no NUL needed, none read past len). Fields are
 *  separated by runs of spaces or tabs; the two counters may be omitted (0 and 1).
 *  Returns DF_OK, or DF_ERR_FEN with *err filled (err may be NULL); *b is then unchanged. */
DF_API df_status df_fen_parse(df_board *b, const char *text, size_t len, df_fen_error *err);
/** Writes the normalized six-field FEN into buf (DF_FEN_MAX bytes suffice); returns its
 *  length, or the length it would need (snprintf rules). */
DF_API size_t df_fen_format(const df_board *b, char *buf, size_t size);

/* ---- Attack maps ------------------------------------------------------------------------ */

/** Attack sets by piece kind, the index of df_attack_map.by_type. */
enum {
    DF_ATK_PAWN_EAST,
    DF_ATK_PAWN_WEST,
    DF_ATK_KNIGHT,
    DF_ATK_BISHOP,
    DF_ATK_ROOK,
    DF_ATK_QUEEN,
    DF_ATK_KING,
    DF_ATK_KINDS
};

/** Bit planes of the attacker count: one side has at most 19 attackers of a square
 *  (8 ray directions, 8 knights, 2 pawns, the king). */
#define DF_COUNT_BITS 5

/** Everything one side attacks. "Attack": the square a piece could capture on, own pieces
 *  included. Each piece's attack on a square counts once; x-rays do not count. */
typedef struct df_attack_map {
    df_rays rays;  /* per direction, rooks+queens on N E S W, bishops+queens on diagonals */
    df_rays xrays; /* per direction, behind each slider's first blocker (any colour) */
    df_bb by_type[DF_ATK_KINDS]; /* union per piece kind */
    df_bb all;                   /* union of every attack */
    df_bb twice;                 /* attacked by at least two pieces */
    df_bb count[DF_COUNT_BITS];  /* bit-sliced counters: bit k of square s's count is bit s of
                                    count[k] */
} df_attack_map;

/** The attack map of one side (dispatched: 48 fills and a carry-save count). */
DF_API void df_attack_map_side(df_attack_map *out, const df_board *b, int color);
/** Both sides' maps, out[DF_WHITE] and out[DF_BLACK]. */
DF_API void df_attack_maps(df_attack_map out[2], const df_board *b);
/** df_attack_maps over n boards: out[2 * i + color]. */
DF_API void df_attack_maps_batch(df_attack_map *out, const df_board *boards, size_t n);

/** Number of the side's pieces attacking square sq (0..19). */
static inline int df_attack_count(const df_attack_map *m, int sq)
{
    int n = 0;
    for (int k = 0; k < DF_COUNT_BITS; k++) n |= (int)((m->count[k] >> sq) & 1) << k;
    return n;
}
/** Squares attacked by at least n of the side's pieces (bit-sliced comparison). */
static inline df_bb df_attacked_at_least(const df_attack_map *m, int n)
{
    if (n <= 0) return DF_FULL;
    if (n >= 1 << DF_COUNT_BITS) return DF_EMPTY;
    df_bb greater = 0, equal = DF_FULL;
    for (int k = DF_COUNT_BITS - 1; k >= 0; k--) {
        if ((n >> k) & 1)
            equal &= m->count[k];
        else {
            greater |= equal & m->count[k];
            equal &= ~m->count[k];
        }
    }
    return greater | equal;
}

/** Per-square attack bytes after Ed Schröder's REBEL (seed "Attack and Defend Maps"):
 *  bits 0-2 the attacker count (saturated at 7), then one bit per attacking kind. */
enum {
    DF_EDB_COUNT = 7,
    DF_EDB_PAWN = 8,
    DF_EDB_MINOR = 16,
    DF_EDB_ROOK = 32,
    DF_EDB_QUEEN = 64,
    DF_EDB_KING = 128
};
/** Fills out[sq] for one side's map. */
DF_API void df_attack_bytes(uint8_t out[64], const df_attack_map *m);

/* ---- King safety (opposite rays) ------------------------------------------------------- */

/** The check and pin sets of the side to move, as in the CLI contract. */
typedef struct df_pins_checks {
    df_bb checkers;    /* enemy pieces attacking the side-to-move king */
    df_bb pinned;      /* own pieces alone between own king and an enemy slider on its line */
    df_bb pinners;     /* the enemy sliders of those pins */
    df_bb check_block; /* empty squares between the king and each sliding checker */
    df_bb
        discoverers; /* own pieces (king included) alone between an own slider and the enemy king */
} df_pins_checks;

/** King safety of the side to move by opposite rays (dispatched). Both kings must exist. */
DF_API void df_king_safety(df_pins_checks *out, const df_board *b);
/** The same without the discoverers (left empty): what a legal move generator needs. */
DF_API void df_checks_and_pins(df_pins_checks *out, const df_board *b);

/* ---- Square-centric queries ------------------------------------------------------------ */

/** Pieces of both colours attacking sq, sliders seen through occupancy occ. */
DF_API df_bb df_attackers_to(const df_board *b, int sq, df_bb occ);
/** Attackers (both colours) of every square at once: out[sq] == df_attackers_to(b, sq,
 *  occupied). Each piece's attacks scattered into the squares they reach (dispatched). */
DF_API void df_attackers_to_all(df_bb out[64], const df_board *b);
/** Whether a piece of color by attacks sq given occupancy occ (returns at the first hit). */
DF_API bool df_is_attacked(const df_board *b, int sq, int by, df_bb occ);
/** Whether a piece of type type and colour color on from attacks to, through occ
 *  (seed "Attacked by Piece on Square"). */
DF_API bool df_attacks_square(int type, int color, int from, int to, df_bb occ);

/** What a move gives: DF_CHECK_DIRECT, DF_CHECK_DISCOVERED, both or neither. */
enum { DF_CHECK_NONE = 0, DF_CHECK_DIRECT = 1, DF_CHECK_DISCOVERED = 2 };
/** Whether the side to move's move from -> to (promotion: the new type, else DF_PIECE_TYPES)
 *  checks the enemy king. Castling is given as the king's move, en passant as the pawn's. */
DF_API int df_gives_check(const df_board *b, int from, int to, int promotion);

/* ---- X-rays ----------------------------------------------------------------------------- */

/** Single-slider x-rays by modifying occupancy: the rook attacks from sq gained when its
 *  first blockers that are in blockers are removed. */
static inline df_bb df_xray_rook_attacks(df_bb occ, df_bb blockers, int sq)
{
    df_bb attacks = df_square_rook_attacks(sq, occ);
    blockers &= attacks;
    return attacks ^ df_square_rook_attacks(sq, occ ^ blockers);
}
/** The bishop form of df_xray_rook_attacks. */
static inline df_bb df_xray_bishop_attacks(df_bb occ, df_bb blockers, int sq)
{
    df_bb attacks = df_square_bishop_attacks(sq, occ);
    blockers &= attacks;
    return attacks ^ df_square_bishop_attacks(sq, occ ^ blockers);
}

#ifdef __cplusplus
}
#endif
#endif
