/* SPDX-License-Identifier: MIT */
/* dirfill.Board: a native board (the library's df_board inside, not a FEN string) with its move
 * stack and repetition history: push and pop in UCI or SAN, the rules of the game, attack
 * information, planes and pictures. Names follow python-chess where it has one. */
#include "_common.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    PyObject_HEAD df_board board; /* the current position */
    df_history history;           /* the positions before it (repetitions) */
    df_board *stack;              /* stack[i]: the position before move i */
    df_move *moves;               /* moves[i]: move i */
    Py_ssize_t ply, capacity;
} BoardObject;

static PyTypeObject Board_Type;
static PyTypeObject *Outcome_Type;

static const char board_doc[] =
    "Board(fen=START, *, chess960=False)\n\n"
    "A chess position with its move stack, after python-chess's Board: push_uci, push_san, "
    "push, pop, peek, legal_moves, is_check, is_checkmate, outcome ... Moves are UCI strings "
    "(or, where asked for, the library's 16-bit moves as ints), squares are 0 (a1) to 63 (h8), "
    "sets of squares are ints (bit i = square i), colours are True (white) and False (black) "
    "and piece types 1 (pawn) to 6 (king), as in python-chess. Where dirfill differs, the "
    "method says so.";

/* ---- the stack ---- */

static int reserve(BoardObject *self, Py_ssize_t need)
{
    if (need <= self->capacity) return 0;
    const Py_ssize_t cap = need < 64 ? 64 : 2 * need;
    df_board *stack = PyMem_Realloc(self->stack, (size_t)cap * sizeof *stack);
    if (stack) self->stack = stack;
    df_move *moves = PyMem_Realloc(self->moves, (size_t)cap * sizeof *moves);
    if (moves) self->moves = moves;
    if (!stack || !moves) {
        PyErr_NoMemory();
        return -1;
    }
    self->capacity = cap;
    return 0;
}

/* Makes the legal move m. */
static int board_push(BoardObject *self, df_move m)
{
    if (reserve(self, self->ply + 1) < 0) return -1;
    self->stack[self->ply] = self->board;
    self->moves[self->ply] = m;
    self->ply++;
    df_history_push(&self->history, &self->board);
    df_make_move(&self->board, &self->board, m);
    return 0;
}

/* Rebuilds the history from the stack when popping went below the ring while the current
 * position's clock still looks further back (games over 256 plies only). */
static void sync_history(BoardObject *self)
{
    df_history *h = &self->history;
    if (h->floor == 0 || self->board.halfmove <= h->count - h->floor) return;
    df_history_init(h);
    const Py_ssize_t from = self->ply > DF_HISTORY_SIZE ? self->ply - DF_HISTORY_SIZE : 0;
    h->count = h->floor = (uint32_t)from;
    for (Py_ssize_t i = from; i < self->ply; i++) df_history_push(h, &self->stack[i]);
}

static int set_position(BoardObject *self, const df_board *b)
{
    self->board = *b;
    self->ply = 0;
    df_history_init(&self->history);
    return 0;
}

/* ---- construction ---- */

static int Board_init(BoardObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"fen", "chess960", NULL};
    PyObject *fen = NULL;
    int chess960 = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O$p", names, &fen, &chess960)) return -1;
    df_board b;
    if (fen && fen != Py_None) {
        if (dfpy_parse_fen(&b, fen, chess960) < 0) return -1;
    } else {
        df_fen_parse(&b, DF_FEN_START, sizeof DF_FEN_START - 1,
                     chess960 ? DF_FEN_CHESS960 : DF_FEN_STANDARD, NULL);
    }
    return set_position(self, &b);
}

static void Board_dealloc(BoardObject *self)
{
    PyMem_Free(self->stack);
    PyMem_Free(self->moves);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static BoardObject *new_board(void) { return (BoardObject *)Board_Type.tp_alloc(&Board_Type, 0); }

static PyObject *Board_copy(BoardObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"stack", NULL};
    int stack = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|$p", names, &stack)) return NULL;
    BoardObject *c = new_board();
    if (!c) return NULL;
    c->board = self->board;
    if (stack) {
        if (reserve(c, self->ply) < 0) {
            Py_DECREF(c);
            return NULL;
        }
        memcpy(c->stack, self->stack, (size_t)self->ply * sizeof *c->stack);
        memcpy(c->moves, self->moves, (size_t)self->ply * sizeof *c->moves);
        c->ply = self->ply;
        c->history = self->history;
    } else {
        df_history_init(&c->history);
    }
    return (PyObject *)c;
}

/* ---- text ---- */

static PyObject *Board_fen(BoardObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"en_passant", NULL};
    const char *ep = "legal";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|s", names, &ep)) return NULL;
    df_fen_flags flags;
    if (!strcmp(ep, "legal"))
        flags = DF_FEN_LEGAL_EP;
    else if (!strcmp(ep, "xfen"))
        flags = DF_FEN_STANDARD;
    else
        return PyErr_Format(PyExc_ValueError,
                            "en_passant: \"legal\" (a capture is legal) or \"xfen\" (a pawn "
                            "could capture); dirfill keeps no other form, not %s",
                            ep);
    char text[DF_FEN_MAX];
    df_fen_format(text, sizeof text, &self->board, flags);
    return PyUnicode_FromString(text);
}

static PyObject *Board_epd(BoardObject *self, PyObject *unused)
{
    (void)unused;
    char text[DF_FEN_MAX];
    df_fen_format(text, sizeof text, &self->board, DF_FEN_LEGAL_EP);
    /* The four fields without the move counters. */
    char *space = text;
    for (int i = 0; i < 4 && space; i++) space = strchr(space + 1, ' ');
    return PyUnicode_FromStringAndSize(text, space ? space - text : (Py_ssize_t)strlen(text));
}

static PyObject *Board_str(BoardObject *self)
{
    char text[8 * 16];
    size_t n = 0;
    for (int rank = 7; rank >= 0; rank--)
        for (int file = 0; file < 8; file++) {
            const df_square sq = df_make_square(file, rank);
            const df_piece_type t = df_board_type_at(&self->board, sq);
            text[n++] = t == DF_PIECE_TYPES
                            ? '.'
                            : "PNBRQKpnbrqk"[t + 6 * df_has(self->board.color[DF_BLACK], sq)];
            text[n++] = file < 7 ? ' ' : '\n';
        }
    return PyUnicode_FromStringAndSize(text, (Py_ssize_t)n - 1);
}

static PyObject *Board_repr(BoardObject *self)
{
    char text[DF_FEN_MAX];
    df_fen_format(text, sizeof text, &self->board, DF_FEN_LEGAL_EP);
    return PyUnicode_FromFormat(self->board.chess960 ? "Board('%s', chess960=True)" : "Board('%s')",
                                text);
}

/* ---- moves ---- */

static PyObject *Board_push(BoardObject *self, PyObject *arg)
{
    df_move m;
    if (dfpy_move_arg(&m, &self->board, arg) < 0 || board_push(self, m) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *Board_push_uci(BoardObject *self, PyObject *arg)
{
    df_move m;
    if (!PyUnicode_Check(arg))
        return PyErr_Format(PyExc_TypeError, "push_uci takes a str, not %.100s",
                            Py_TYPE(arg)->tp_name);
    if (dfpy_move_arg(&m, &self->board, arg) < 0) return NULL;
    PyObject *uci = dfpy_uci(&self->board, m);
    if (uci && board_push(self, m) < 0) Py_CLEAR(uci);
    return uci;
}

/* The legal move SAN text names, or -1 with ValueError saying why not. */
static int san_arg(df_move *out, const df_board *b, PyObject *arg)
{
    Py_ssize_t len;
    const char *text = dfpy_text(arg, &len, "a SAN move");
    if (!text || dfpy_need_playable(b) < 0) return -1;
    if (df_move_from_san(out, b, text, (size_t)len) == DF_OK) return 0;
    PyErr_Format(PyExc_ValueError, "%R: %s move here", arg,
                 df_move_from_san_error(b, text, (size_t)len));
    return -1;
}

static PyObject *Board_push_san(BoardObject *self, PyObject *arg)
{
    df_move m;
    if (san_arg(&m, &self->board, arg) < 0) return NULL;
    PyObject *uci = dfpy_uci(&self->board, m);
    if (uci && board_push(self, m) < 0) Py_CLEAR(uci);
    return uci;
}

static PyObject *Board_pop(BoardObject *self, PyObject *unused)
{
    (void)unused;
    if (self->ply == 0) {
        PyErr_SetString(PyExc_IndexError, "pop from an empty move stack");
        return NULL;
    }
    self->ply--;
    self->board = self->stack[self->ply];
    df_history_pop(&self->history);
    sync_history(self);
    return dfpy_uci(&self->board, self->moves[self->ply]);
}

static PyObject *Board_peek(BoardObject *self, PyObject *unused)
{
    (void)unused;
    if (self->ply == 0) {
        PyErr_SetString(PyExc_IndexError, "peek at an empty move stack");
        return NULL;
    }
    return dfpy_uci(&self->stack[self->ply - 1], self->moves[self->ply - 1]);
}

static PyObject *move_list(const df_board *b, const df_move_list *list, bool ints)
{
    PyObject *out = PyList_New((Py_ssize_t)list->count);
    for (uint32_t i = 0; out && i < list->count; i++) {
        PyObject *m = ints ? PyLong_FromLong(list->moves[i]) : dfpy_uci(b, list->moves[i]);
        if (!m)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, (Py_ssize_t)i, m);
    }
    return out;
}

static PyObject *Board_legal_moves(BoardObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"ints", NULL};
    int ints = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|$p", names, &ints)) return NULL;
    if (dfpy_need_playable(&self->board) < 0) return NULL;
    df_move_list list;
    df_generate_legal(&list, &self->board);
    return move_list(&self->board, &list, ints);
}

static PyObject *Board_move_stack(BoardObject *self, void *unused)
{
    (void)unused;
    PyObject *out = PyList_New(self->ply);
    for (Py_ssize_t i = 0; out && i < self->ply; i++) {
        PyObject *m = dfpy_uci(&self->stack[i], self->moves[i]);
        if (!m)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, m);
    }
    return out;
}

static PyObject *Board_san(BoardObject *self, PyObject *arg)
{
    df_move m;
    if (dfpy_move_arg(&m, &self->board, arg) < 0) return NULL;
    char san[DF_SAN_MAX];
    return PyUnicode_FromStringAndSize(san, (Py_ssize_t)df_move_to_san(san, &self->board, m));
}

static PyObject *Board_uci(BoardObject *self, PyObject *arg)
{
    df_move m;
    if (san_arg(&m, &self->board, arg) < 0) return NULL;
    return dfpy_uci(&self->board, m);
}

static PyObject *Board_is_legal(BoardObject *self, PyObject *arg)
{
    df_move m;
    if (!df_board_playable(&self->board)) Py_RETURN_FALSE;
    if (PyLong_Check(arg)) {
        const unsigned long v = PyLong_AsUnsignedLong(arg);
        if (PyErr_Occurred()) {
            PyErr_Clear();
            Py_RETURN_FALSE;
        }
        return PyBool_FromLong(v <= 0xffff && df_move_is_legal(&self->board, (df_move)v));
    }
    Py_ssize_t len;
    const char *text = dfpy_text(arg, &len, "a move");
    if (!text) return NULL;
    return PyBool_FromLong(df_move_from_uci(&m, &self->board, text, (size_t)len) == DF_OK);
}

static PyObject *Board_gives_check(BoardObject *self, PyObject *arg)
{
    df_move m;
    if (dfpy_move_arg(&m, &self->board, arg) < 0) return NULL;
    return PyBool_FromLong(df_gives_check(&self->board, m) != DF_CHECK_NONE);
}

/* ---- the rules ---- */

static PyObject *Board_is_check(BoardObject *self, PyObject *unused)
{
    (void)unused;
    return PyBool_FromLong(df_checkers(&self->board) != 0);
}

/* The outcome, claims included or not: -1 with ValueError on an unplayable board. */
static int outcome_of(BoardObject *self, bool claim, df_outcome *o)
{
    if (dfpy_need_playable(&self->board) < 0) return -1;
    *o = df_outcome_of(&self->board, &self->history, claim);
    return 0;
}

static PyObject *termination_is(BoardObject *self, df_termination t, bool claim)
{
    df_outcome o;
    if (outcome_of(self, claim, &o) < 0) return NULL;
    return PyBool_FromLong(o.termination == t);
}

static PyObject *Board_is_checkmate(BoardObject *self, PyObject *unused)
{
    (void)unused;
    if (dfpy_need_playable(&self->board) < 0) return NULL;
    return PyBool_FromLong(df_checkers(&self->board) && !df_count_legal(&self->board));
}

static PyObject *Board_is_stalemate(BoardObject *self, PyObject *unused)
{
    (void)unused;
    if (dfpy_need_playable(&self->board) < 0) return NULL;
    return PyBool_FromLong(!df_checkers(&self->board) && !df_count_legal(&self->board));
}

static PyObject *Board_is_insufficient_material(BoardObject *self, PyObject *unused)
{
    (void)unused;
    return PyBool_FromLong(df_insufficient_material(&self->board));
}

static PyObject *Board_is_seventyfive_moves(BoardObject *self, PyObject *unused)
{
    (void)unused;
    return termination_is(self, DF_TERM_SEVENTYFIVE_MOVES, false);
}

static PyObject *Board_is_fivefold_repetition(BoardObject *self, PyObject *unused)
{
    (void)unused;
    return PyBool_FromLong(df_repetitions(&self->history, &self->board) >= 5);
}

static PyObject *Board_is_repetition(BoardObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"count", NULL};
    int count = 3;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|i", names, &count)) return NULL;
    return PyBool_FromLong(df_repetitions(&self->history, &self->board) >= count);
}

static PyObject *Board_can_claim_fifty_moves(BoardObject *self, PyObject *unused)
{
    (void)unused;
    if (dfpy_need_playable(&self->board) < 0) return NULL;
    return PyBool_FromLong(df_can_claim_fifty_moves(&self->board));
}

static PyObject *Board_can_claim_threefold_repetition(BoardObject *self, PyObject *unused)
{
    (void)unused;
    if (dfpy_need_playable(&self->board) < 0) return NULL;
    return PyBool_FromLong(df_can_claim_threefold_repetition(&self->history, &self->board));
}

static PyObject *Board_can_claim_draw(BoardObject *self, PyObject *unused)
{
    (void)unused;
    if (dfpy_need_playable(&self->board) < 0) return NULL;
    return PyBool_FromLong(df_can_claim_fifty_moves(&self->board) ||
                           df_can_claim_threefold_repetition(&self->history, &self->board));
}

static PyObject *Board_outcome(BoardObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"claim_draw", NULL};
    int claim = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|$p", names, &claim)) return NULL;
    df_outcome o;
    if (outcome_of(self, claim, &o) < 0) return NULL;
    if (o.termination == DF_TERM_NONE) Py_RETURN_NONE;
    PyObject *out = PyStructSequence_New(Outcome_Type);
    if (!out) return NULL;
    PyObject *winner = o.result == DF_RESULT_WHITE_WINS   ? Py_True
                       : o.result == DF_RESULT_BLACK_WINS ? Py_False
                                                          : Py_None;
    Py_INCREF(winner);
    PyStructSequence_SET_ITEM(out, 0, PyUnicode_FromString(df_termination_name(o.termination)));
    PyStructSequence_SET_ITEM(out, 1, winner);
    PyStructSequence_SET_ITEM(out, 2, PyUnicode_FromString(df_result_string(o.result)));
    return out;
}

static PyObject *Board_is_game_over(BoardObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"claim_draw", NULL};
    int claim = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|$p", names, &claim)) return NULL;
    df_outcome o;
    if (outcome_of(self, claim, &o) < 0) return NULL;
    return PyBool_FromLong(o.termination != DF_TERM_NONE);
}

static PyObject *Board_result(BoardObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"claim_draw", NULL};
    int claim = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|$p", names, &claim)) return NULL;
    df_outcome o;
    if (outcome_of(self, claim, &o) < 0) return NULL;
    return PyUnicode_FromString(df_result_string(o.result));
}

/* ---- pieces and attacks ---- */

/* A python-chess piece type (1 pawn .. 6 king) as a df_piece_type, or -1 with ValueError. */
static int piece_type_arg(int t)
{
    if (t >= 1 && t <= 6) return t - 1;
    PyErr_Format(PyExc_ValueError,
                 "piece types are 1 (pawn) to 6 (king), as in python-chess, "
                 "not %d",
                 t);
    return -1;
}

static int square_arg(PyObject *arg, df_square *out)
{
    const long v = PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < 0 || v > 63) {
        PyErr_Format(PyExc_ValueError, "a square is 0 (a1) to 63 (h8), not %ld", v);
        return -1;
    }
    *out = (df_square)v;
    return 0;
}

static PyObject *Board_piece_at(BoardObject *self, PyObject *arg)
{
    df_square sq;
    if (square_arg(arg, &sq) < 0) return NULL;
    const df_piece_type t = df_board_type_at(&self->board, sq);
    if (t == DF_PIECE_TYPES) Py_RETURN_NONE;
    const char symbol = "PNBRQKpnbrqk"[t + 6 * df_has(self->board.color[DF_BLACK], sq)];
    return PyUnicode_FromStringAndSize(&symbol, 1);
}

static PyObject *Board_pieces(BoardObject *self, PyObject *args)
{
    int type, color;
    if (!PyArg_ParseTuple(args, "ip", &type, &color)) return NULL;
    const int t = piece_type_arg(type);
    if (t < 0) return NULL;
    return PyLong_FromUnsignedLongLong(
        df_board_pieces(&self->board, color ? DF_WHITE : DF_BLACK, (df_piece_type)t));
}

static PyObject *Board_attacks(BoardObject *self, PyObject *arg)
{
    const int color = PyObject_IsTrue(arg);
    if (color < 0) return NULL;
    df_attack_map m;
    df_attack_map_side(&m, &self->board, color ? DF_WHITE : DF_BLACK);
    return PyLong_FromUnsignedLongLong(m.all);
}

static PyObject *Board_attackers(BoardObject *self, PyObject *args)
{
    int color;
    PyObject *sq_arg;
    df_square sq;
    if (!PyArg_ParseTuple(args, "pO", &color, &sq_arg) || square_arg(sq_arg, &sq) < 0) return NULL;
    const df_bb all = df_attackers_to(&self->board, sq, df_board_occupied(&self->board));
    return PyLong_FromUnsignedLongLong(all & self->board.color[color ? DF_WHITE : DF_BLACK]);
}

static PyObject *Board_is_attacked_by(BoardObject *self, PyObject *args)
{
    int color;
    PyObject *sq_arg;
    df_square sq;
    if (!PyArg_ParseTuple(args, "pO", &color, &sq_arg) || square_arg(sq_arg, &sq) < 0) return NULL;
    return PyBool_FromLong(df_is_attacked(&self->board, sq, color ? DF_WHITE : DF_BLACK,
                                          df_board_occupied(&self->board)));
}

static PyObject *Board_analyze(BoardObject *self, PyObject *unused)
{
    (void)unused;
    return dfpy_analysis(&self->board);
}

static PyObject *Board_planes(BoardObject *self, PyObject *unused)
{
    (void)unused;
    npy_intp shape[3] = {DF_PLANES, 8, 8};
    PyObject *out = PyArray_SimpleNew(3, shape, NPY_UINT8);
    if (out) df_attack_planes_batch((uint8_t *)PyArray_DATA((PyArrayObject *)out), &self->board, 1);
    return out;
}

static PyObject *Board_perft(BoardObject *self, PyObject *arg)
{
    const long depth = PyLong_AsLong(arg);
    if (depth == -1 && PyErr_Occurred()) return NULL;
    if (depth < 0 || depth > DF_PERFT_MAX_DEPTH)
        return PyErr_Format(PyExc_ValueError, "depth must be 0 to %d, not %ld", DF_PERFT_MAX_DEPTH,
                            depth);
    if (dfpy_need_playable(&self->board) < 0) return NULL;
    const df_board b = self->board;
    uint64_t nodes = 0;
    df_status s;
    dfpy_poll poll;
    Py_BEGIN_ALLOW_THREADS
        const df_interrupt in = dfpy_poll_start(&poll, &_save);
        s = df_perft_interruptible(&nodes, &b, (int)depth, &in);
    Py_END_ALLOW_THREADS
    if (s == DF_ERR_INTERRUPTED) return NULL;
    return PyLong_FromUnsignedLongLong(nodes);
}

static PyObject *Board_svg(BoardObject *self, PyObject *args, PyObject *kw);

static PyObject *Board_repr_svg(BoardObject *self, PyObject *unused)
{
    (void)unused;
    PyObject *empty = PyTuple_New(0);
    PyObject *out = empty ? Board_svg(self, empty, NULL) : NULL;
    Py_XDECREF(empty);
    return out;
}

/* ---- comparison, hashing, pickling ---- */

static PyObject *Board_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!PyObject_TypeCheck(b, &Board_Type) || (op != Py_EQ && op != Py_NE))
        Py_RETURN_NOTIMPLEMENTED;
    const df_board *x = &((BoardObject *)a)->board, *y = &((BoardObject *)b)->board;
    char fx[DF_FEN_MAX], fy[DF_FEN_MAX];
    df_fen_format(fx, sizeof fx, x, DF_FEN_LEGAL_EP);
    df_fen_format(fy, sizeof fy, y, DF_FEN_LEGAL_EP);
    const bool equal = !strcmp(fx, fy) && x->chess960 == y->chess960;
    return PyBool_FromLong(op == Py_EQ ? equal : !equal);
}

static Py_hash_t Board_hash(BoardObject *self)
{
    char text[DF_FEN_MAX];
    df_fen_format(text, sizeof text, &self->board, DF_FEN_LEGAL_EP);
    PyObject *s = PyUnicode_FromString(text);
    if (!s) return -1;
    const Py_hash_t h = PyObject_Hash(s);
    Py_DECREF(s);
    return h;
}

/* Pickled as the first position and the moves: the copy can pop and sees repetitions. */
static PyObject *Board_reduce(BoardObject *self, PyObject *unused)
{
    (void)unused;
    const df_board *root = self->ply ? &self->stack[0] : &self->board;
    char text[DF_FEN_MAX];
    df_fen_format(text, sizeof text, root, DF_FEN_STANDARD);
    PyObject *moves = PyTuple_New(self->ply);
    for (Py_ssize_t i = 0; moves && i < self->ply; i++) {
        PyObject *m = PyLong_FromLong(self->moves[i]);
        if (!m)
            Py_CLEAR(moves);
        else
            PyTuple_SET_ITEM(moves, i, m);
    }
    if (!moves) return NULL;
    PyObject *module = PyImport_ImportModule("dirfill._dirfill");
    PyObject *rebuild = module ? PyObject_GetAttrString(module, "_board_from_moves") : NULL;
    Py_XDECREF(module);
    if (!rebuild) {
        Py_DECREF(moves);
        return NULL;
    }
    return Py_BuildValue("(N(sON))", rebuild, text, self->board.chess960 ? Py_True : Py_False,
                         moves);
}

/* _board_from_moves(root_fen, chess960, moves) -> Board: the pickled form read back. */
static PyObject *py_board_from_moves(PyObject *unused, PyObject *args)
{
    (void)unused;
    PyObject *fen, *moves;
    int chess960;
    if (!PyArg_ParseTuple(args, "OpO", &fen, &chess960, &moves)) return NULL;
    BoardObject *b = new_board();
    df_board root;
    if (!b || dfpy_parse_fen(&root, fen, chess960) < 0 || set_position(b, &root) < 0) {
        Py_XDECREF(b);
        return NULL;
    }
    PyObject *seq = PySequence_Fast(moves, "moves must be a sequence");
    for (Py_ssize_t i = 0; seq && i < PySequence_Fast_GET_SIZE(seq); i++) {
        df_move m;
        if (dfpy_move_arg(&m, &b->board, PySequence_Fast_GET_ITEM(seq, i)) < 0 ||
            board_push(b, m) < 0)
            Py_CLEAR(seq);
    }
    if (!seq) {
        Py_DECREF(b);
        return NULL;
    }
    Py_DECREF(seq);
    return (PyObject *)b;
}

/* ---- attributes ---- */

static PyObject *Board_get_turn(BoardObject *self, void *unused)
{
    (void)unused;
    return PyBool_FromLong(self->board.stm == DF_WHITE);
}
static PyObject *Board_get_halfmove(BoardObject *self, void *unused)
{
    (void)unused;
    return PyLong_FromUnsignedLong(self->board.halfmove);
}
static PyObject *Board_get_fullmove(BoardObject *self, void *unused)
{
    (void)unused;
    return PyLong_FromUnsignedLong(self->board.fullmove);
}
static PyObject *Board_get_key(BoardObject *self, void *unused)
{
    (void)unused;
    return PyLong_FromUnsignedLongLong(self->board.key);
}
static PyObject *Board_get_chess960(BoardObject *self, void *unused)
{
    (void)unused;
    return PyBool_FromLong(self->board.chess960);
}
static PyObject *Board_get_ep_square(BoardObject *self, void *unused)
{
    (void)unused;
    if (self->board.ep >= 64) Py_RETURN_NONE;
    return PyLong_FromLong(self->board.ep);
}
static PyObject *Board_get_castling_rights(BoardObject *self, void *unused)
{
    (void)unused;
    df_board_parts parts;
    df_board_to_parts(&parts, &self->board);
    return PyLong_FromUnsignedLongLong(parts.castling_rooks);
}

static PyObject *Board_ply(BoardObject *self, PyObject *unused)
{
    (void)unused;
    return PyLong_FromUnsignedLongLong(2 * (uint64_t)(self->board.fullmove - 1) + self->board.stm);
}

#define METHOD(name, flags, doc)                                                                   \
    {                                                                                              \
#name, (PyCFunction)(void (*)(void))Board_##name, flags, doc                               \
    }
static PyMethodDef Board_methods[] = {
    METHOD(fen, METH_VARARGS | METH_KEYWORDS,
           "fen(en_passant=\"legal\") -> str: the FEN. en_passant \"legal\" (python-chess's "
           "default) writes the square only when a legal capture exists; \"xfen\" when a pawn "
           "stands next to the pawn that moved (the Polyglot rule, as `dirfill analyze` writes)."),
    METHOD(epd, METH_NOARGS, "epd() -> str: the FEN's first four fields."),
    METHOD(copy, METH_VARARGS | METH_KEYWORDS, "copy(*, stack=True) -> Board"),
    METHOD(push, METH_O,
           "push(move): makes a legal move given in UCI (str) or as a 16-bit int "
           "(legal_moves(ints=True)). ValueError when it is not legal. python-chess takes a Move."),
    METHOD(push_uci, METH_O, "push_uci(uci) -> str: makes the move; returns it in UCI."),
    METHOD(push_san, METH_O,
           "push_san(san) -> str: makes the move written in SAN; returns it in UCI (python-chess "
           "returns a Move). ValueError says whether the text is not SAN, illegal or ambiguous."),
    METHOD(pop, METH_NOARGS, "pop() -> str: takes the last move back; IndexError when none."),
    METHOD(peek, METH_NOARGS, "peek() -> str: the last move (UCI); IndexError when none."),
    METHOD(legal_moves, METH_VARARGS | METH_KEYWORDS,
           "legal_moves(*, ints=False) -> list: the legal moves in UCI, or as 16-bit ints. A "
           "method, where python-chess has a property."),
    METHOD(san, METH_O, "san(move) -> str: a legal move (UCI or int) in SAN."),
    METHOD(uci, METH_O, "uci(san) -> str: a legal move written in SAN, in UCI."),
    METHOD(is_legal, METH_O, "is_legal(move) -> bool: move in UCI or as an int."),
    METHOD(gives_check, METH_O, "gives_check(move) -> bool"),
    METHOD(is_check, METH_NOARGS, "is_check() -> bool"),
    METHOD(is_checkmate, METH_NOARGS, "is_checkmate() -> bool"),
    METHOD(is_stalemate, METH_NOARGS, "is_stalemate() -> bool"),
    METHOD(is_insufficient_material, METH_NOARGS,
           "is_insufficient_material() -> bool: neither side can mate (K v K, K+N v K, bishops "
           "all on one square colour): df_insufficient_material."),
    METHOD(is_seventyfive_moves, METH_NOARGS, "is_seventyfive_moves() -> bool"),
    METHOD(is_fivefold_repetition, METH_NOARGS, "is_fivefold_repetition() -> bool"),
    METHOD(is_repetition, METH_VARARGS | METH_KEYWORDS,
           "is_repetition(count=3) -> bool: the position occurred count times (this one "
           "included) since the last capture or pawn move."),
    METHOD(can_claim_fifty_moves, METH_NOARGS, "can_claim_fifty_moves() -> bool"),
    METHOD(can_claim_threefold_repetition, METH_NOARGS, "can_claim_threefold_repetition() -> bool"),
    METHOD(can_claim_draw, METH_NOARGS, "can_claim_draw() -> bool"),
    METHOD(outcome, METH_VARARGS | METH_KEYWORDS,
           "outcome(*, claim_draw=False) -> Outcome or None: (termination, winner, result): "
           "termination a name (\"checkmate\", \"stalemate\", \"insufficient_material\", "
           "\"seventyfive_moves\", \"fivefold_repetition\", \"fifty_moves\", "
           "\"threefold_repetition\"), winner True/False/None, result \"1-0\" ... python-chess "
           "gives an enum as termination and result() as a method."),
    METHOD(is_game_over, METH_VARARGS | METH_KEYWORDS, "is_game_over(*, claim_draw=False) -> bool"),
    METHOD(result, METH_VARARGS | METH_KEYWORDS,
           "result(*, claim_draw=False) -> str: \"1-0\", \"0-1\", \"1/2-1/2\" or \"*\""),
    METHOD(ply, METH_NOARGS,
           "ply() -> int: plies since the start of the game, from the move counters (as "
           "python-chess)."),
    METHOD(piece_at, METH_O,
           "piece_at(square) -> str or None: the piece's letter (\"P\" white pawn ... \"k\" "
           "black king); python-chess gives a Piece."),
    METHOD(pieces, METH_VARARGS,
           "pieces(piece_type, color) -> int: the set (python-chess: a SquareSet)."),
    METHOD(attacks, METH_O,
           "attacks(color) -> int: every square color attacks (python-chess's attacks(square) "
           "gives one piece's)."),
    METHOD(attackers, METH_VARARGS,
           "attackers(color, square) -> int: color's pieces attacking it."),
    METHOD(is_attacked_by, METH_VARARGS, "is_attacked_by(color, square) -> bool"),
    METHOD(analyze, METH_NOARGS, "analyze() -> dict: dirfill.analyze of this position."),
    METHOD(planes, METH_NOARGS,
           "planes() -> numpy uint8 array (75, 8, 8): dirfill.PLANES of this position."),
    METHOD(perft, METH_O,
           "perft(depth) -> int: leaf nodes to depth; the GIL is released, Ctrl-C stops it."),
    METHOD(svg, METH_VARARGS | METH_KEYWORDS,
           "svg(overlay=None, *, size=400, flipped=False) -> str: dirfill.svg of this board."),
    {"_repr_svg_", (PyCFunction)(void (*)(void))Board_repr_svg, METH_NOARGS, NULL},
    {"__reduce__", (PyCFunction)(void (*)(void))Board_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Board_getset[] = {
    {"turn", (getter)Board_get_turn, NULL, "True when white is to move (python-chess's WHITE)",
     NULL},
    {"halfmove_clock", (getter)Board_get_halfmove, NULL, "plies since a capture or pawn move",
     NULL},
    {"fullmove_number", (getter)Board_get_fullmove, NULL, "the move number", NULL},
    {"key", (getter)Board_get_key, NULL, "the Polyglot key", NULL},
    {"chess960", (getter)Board_get_chess960, NULL, "Chess960 castling", NULL},
    {"ep_square", (getter)Board_get_ep_square, NULL,
     "the en-passant square when a pawn could capture there, else None", NULL},
    {"castling_rights", (getter)Board_get_castling_rights, NULL,
     "the rooks that may still castle, as a set (python-chess's castling_rights)", NULL},
    {"move_stack", (getter)Board_move_stack, NULL, "the moves made, in UCI", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject Board_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "dirfill.Board",
    .tp_basicsize = sizeof(BoardObject),
    .tp_dealloc = (destructor)Board_dealloc,
    .tp_repr = (reprfunc)Board_repr,
    .tp_str = (reprfunc)Board_str,
    .tp_hash = (hashfunc)Board_hash,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = board_doc,
    .tp_richcompare = Board_richcompare,
    .tp_methods = Board_methods,
    .tp_getset = Board_getset,
    .tp_init = (initproc)Board_init,
    .tp_new = PyType_GenericNew,
};

int dfpy_board_of(PyObject *o, df_board *out)
{
    if (!PyObject_TypeCheck(o, &Board_Type)) return 0;
    *out = ((BoardObject *)o)->board;
    return 1;
}

/* svg defined in _module.c takes a FEN or a Board; the method forwards to it. */
static PyObject *Board_svg(BoardObject *self, PyObject *args, PyObject *kw)
{
    PyObject *module = PyImport_ImportModule("dirfill._dirfill");
    PyObject *svg = module ? PyObject_GetAttrString(module, "svg") : NULL;
    Py_XDECREF(module);
    if (!svg) return NULL;
    const Py_ssize_t n = PyTuple_GET_SIZE(args);
    PyObject *full = PyTuple_New(n + 1);
    if (!full) {
        Py_DECREF(svg);
        return NULL;
    }
    Py_INCREF(self);
    PyTuple_SET_ITEM(full, 0, (PyObject *)self);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = PyTuple_GET_ITEM(args, i);
        Py_INCREF(a);
        PyTuple_SET_ITEM(full, i + 1, a);
    }
    PyObject *out = PyObject_Call(svg, full, kw);
    Py_DECREF(full);
    Py_DECREF(svg);
    return out;
}

static PyStructSequence_Field outcome_fields[] = {
    {"termination", "how the game ended: \"checkmate\", \"stalemate\", ..."},
    {"winner", "True (white), False (black) or None (a draw)"},
    {"result", "\"1-0\", \"0-1\" or \"1/2-1/2\""},
    {NULL, NULL}};
static PyStructSequence_Desc outcome_desc = {"dirfill.Outcome", "How a game ended.", outcome_fields,
                                             3};

static PyMethodDef board_functions[] = {
    {"_board_from_moves", py_board_from_moves, METH_VARARGS, NULL}, {NULL, NULL, 0, NULL}};

int dfpy_add_board(PyObject *module)
{
    if (PyType_Ready(&Board_Type) < 0) return -1;
    Outcome_Type = PyStructSequence_NewType(&outcome_desc);
    if (!Outcome_Type) return -1;
    Py_INCREF(&Board_Type);
    if (PyModule_AddObject(module, "Board", (PyObject *)&Board_Type) < 0) {
        Py_DECREF(&Board_Type);
        return -1;
    }
    if (PyModule_AddObject(module, "Outcome", (PyObject *)Outcome_Type) < 0) return -1;
    PyObject *f = PyCFunction_New(&board_functions[0], NULL);
    if (!f || PyModule_AddObject(module, "_board_from_moves", f) < 0) {
        Py_XDECREF(f);
        return -1;
    }
    return 0;
}
