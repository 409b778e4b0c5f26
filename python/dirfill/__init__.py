# SPDX-License-Identifier: MIT
"""dirfill: set-wise chess attack information from Kogge-Stone fills, for Python and numpy.

The C library does the work (scalar, AVX2 or AVX-512, chosen for this CPU); the GIL is
released while it computes a batch, batches run on threads, and Ctrl-C stops long calls.

    >>> import dirfill
    >>> planes = dirfill.attack_planes(["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"])
    >>> planes.shape == (1, len(dirfill.PLANES), 8, 8)
    True
    >>> int(planes[0, dirfill.PLANES.index("white.count"), 2, 0])   # a3: pawn b2, knight b1
    2
    >>> board = dirfill.Board()
    >>> board.push_san("e4"), board.push_san("e5"), board.outcome()
    ('e2e4', 'e7e5', None)
"""
import warnings as _warnings
from collections.abc import Mapping as _Mapping

import numpy as _np

from . import _dirfill
from ._dirfill import (PERFT_MAX_DEPTH, Board, Outcome, analyze, backend, backends, legal_moves,
                       perft, pgn_cuts, pgn_split, push, select_backend, svg)

__version__ = _dirfill.__version__

#: The channel names of :func:`attack_planes`, in order: ``piece.P`` ... ``piece.k``,
#: ``white_to_move``, ``castling.K`` ... ``castling.q``, ``en_passant``, 26 planes per side
#: (``white.pawn_east`` ... ``white.king``, ``white.rays.N`` ... ``white.rays.NW``,
#: ``white.xrays.*``, ``white.all``, ``white.twice``, ``white.count``; then ``black.*``), and
#: ``checkers``, ``pinned``, ``pinners``, ``check_block``, ``discoverers`` of the side to move.
#: Every plane is 0/1 per square but the ``*.count`` planes (0..19 attackers).
PLANES = _dirfill._plane_names()

#: Colours and piece types as python-chess numbers them.
WHITE, BLACK = True, False
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = range(1, 7)
#: Squares 0 (a1) to 63 (h8), named as in python-chess: dirfill.E4 == 28.
SQUARE_NAMES = [f + r for r in "12345678" for f in "abcdefgh"]
globals().update({name.upper(): i for i, name in enumerate(SQUARE_NAMES)})

__all__ = ["PLANES", "PERFT_MAX_DEPTH", "Board", "Outcome", "analyze", "attack_planes",
           "attack_planes_from_bitboards", "backend", "backends", "legal_moves", "perft", "push",
           "select_backend", "svg", "WHITE", "BLACK", "PAWN", "KNIGHT", "BISHOP", "ROOK", "QUEEN",
           "KING", "SQUARE_NAMES", "Game", "read_pgn", "pgn_positions", "pgn_batches", "pgn_split",
           "pgn_cuts", "RESULT_UNKNOWN", "POSITION_COLUMNS"]

_status, _value = _dirfill._backend_env()
if _status != "ok":
    _warnings.warn("DIRFILL_BACKEND=%r ignored (%s): dirfill uses %s. Backends: %s (names are "
                   "exact, lower case)." % (_value, _status, backend(), ", ".join(backends())),
                   RuntimeWarning, stacklevel=2)


def _check_errors(errors):
    if errors not in ("raise", "mask"):
        raise ValueError('errors must be "raise" or "mask", not %r' % (errors,))


def attack_planes(fens, threads=0, errors="raise", *, chess960=False, out=None):
    """Feature planes of many positions, computed on ``threads`` threads (0: every CPU).

    ``fens`` is a sequence of str or bytes, or a 1-d numpy array of str or bytes (one FEN is
    ``[fen]``: a lone str is a TypeError). Returns a uint8 array of shape
    ``(len(fens), len(PLANES), 8, 8)``: plane, rank (1 first), file (a first). ``out``, a
    writeable C-contiguous uint8 array of that shape that shares no memory with ``fens``,
    receives the planes instead of a new array (reusing a buffer chunk after chunk saves
    allocating and first touching its pages, which costs about as much as computing them). A
    bad FEN raises ValueError naming its index and the parser's message; with
    ``errors="mask"`` the result is ``(planes, ok)``, ``ok`` a bool array, bad rows all zero.
    The texts are copied or held before the GIL is released, so another thread may change
    ``fens`` meanwhile. Ctrl-C raises KeyboardInterrupt after the chunk (8192 positions)
    being computed, whose message says how many rows of ``out`` were written: the rows after
    them are untouched (with a reused ``out``, they still hold the previous batch).
    """
    _check_errors(errors)
    planes, ok, first_bad = _dirfill._planes_from_fens(fens, threads, chess960=chess960, out=out)
    if errors == "mask":
        return planes, ok
    if first_bad is not None:
        raise ValueError("fens[%d]: bad FEN: %s" % first_bad)
    return planes


def attack_planes_from_bitboards(pieces, stm, threads=0, errors="raise", *, castling=None,
                                 ep=None, chess960=False, out=None):
    """Feature planes of positions held as columns of numbers, as pgn_positions gives them.

    ``pieces``: integers of shape ``(n, 12)``, 64-bit bitboards (bit i = square i, a1 = 0):
    white pawn, knight, bishop, rook, queen, king, then black in the same order (python-chess's
    and shakmaty's order). Integer dtypes only: int64 is read as its bit pattern (as
    ``.view(np.uint64)``), smaller signed types must hold no negative number, and a float array
    is a TypeError (a float cannot hold every bitboard). ``stm``: n booleans or 0/1, True when
    black is to move. ``castling``: n bitboards of the rooks that may still castle
    (python-chess's ``castling_rights``), or None for none. ``ep``: n en-passant squares, -1
    for none, or None. A position the library refuses (overlapping bitboards, not exactly one
    king per side, a pawn on the first or last rank, a castling rook or en-passant square that
    cannot be) raises ValueError naming its index; with ``errors="mask"`` the result is
    ``(planes, ok)`` as in :func:`attack_planes`; ``out`` as there (sharing memory with an
    input is refused).
    """
    _check_errors(errors)
    planes, ok = _dirfill._planes_from_rows(pieces, stm, threads, castling=castling, ep=ep,
                                            chess960=chess960, out=out)
    if errors == "mask":
        return planes, ok
    if not ok.all():
        raise ValueError("pieces[%d]: not a position: overlapping bitboards, not one king per "
                         "side, a pawn on the first or last rank, or a castling right or "
                         "en-passant square it cannot have" % int(_np.argmin(ok)))
    return planes


#: pgn_positions' result for a game with no result ("*").
RESULT_UNKNOWN = -128


class Game:
    """One game of a PGN file, as read_pgn gives it.

    ``index`` (0-based, over the input), ``headers`` (a dict of the tag pairs, escapes undone),
    ``start`` and ``end`` (FENs), ``result`` ("1-0", "0-1", "1/2-1/2" or "*"), the main line's
    ``uci`` and ``san`` (lists, as the library writes them; null moves "0000" and "--"),
    ``eval`` (per ply: pawns from White's view, "#N" / "#-N" for a mate, None where the move's
    comment has no [%eval]) and ``clock`` (per ply, seconds, or None). A game that could not be
    read has ``error`` (the message, naming the ply and the token) and ``error_line``; a game
    of another variant has ``skipped``; the move lists of both are None. ``warning``: None, or
    what was read but not kept (a repeated tag: its first value is kept).
    """
    __slots__ = ("index", "headers", "start", "result", "uci", "san", "eval", "clock", "end",
                 "error", "error_line", "skipped", "warning")

    def __repr__(self):
        what = ("error %r" % self.error if self.error else "skipped %r" % self.skipped
                if self.skipped else "%d plies, %s" % (len(self.uci), self.result))
        return "<dirfill.Game %d: %s>" % (self.index, what)


def read_pgn(source, *, chess960=False, where=None):
    """The games of a PGN source one by one, as dirfill.Game objects.

    ``source``: a path (a name ending in .zst or .gz is decompressed as it is read), bytes, or
    a binary file object. Every move of each game's main line is read as SAN, checked and
    played by the C library; a game with an error is given with ``error`` set and the reading
    goes on. ``chess960``: every game is Chess960 (a game's Variant tag can also say so).
    ``where``: a tag filter, a str or a list of str that must all hold, as ``dirfill pgn
    --where`` takes them (``"WhiteElo>=2000"``, ``"TimeControl^=600"``; ``= != < <= > >=``
    compare numbers when both sides are numbers, ``^=`` is a prefix); the games it rejects are
    not given but keep their numbers (``index`` counts every game of the input). A malformed
    expression raises ValueError with the library's message.
    """
    for (index, headers, start, result, uci, san, evals, clock, end, error, error_line,
         skipped, warning) in _dirfill._pgn_games(source, chess960=chess960, where=where):
        g = Game.__new__(Game)
        g.index, g.headers, g.start, g.result = index, dict(headers), start, result
        g.uci, g.san, g.eval, g.clock, g.end = uci, san, evals, clock, end
        g.error, g.error_line, g.skipped = error, error_line if error else None, skipped
        g.warning = warning
        yield g


#: The columns of pgn_positions and pgn_batches, in order (``uci`` only when asked).
POSITION_COLUMNS = ("pieces", "stm", "castling", "ep", "halfmove", "fullmove", "game", "ply",
                    "move", "result", "eval", "clock")


def _specs(source, byte_range=None, first_game=0, first_line=None):
    """The (source, byte_range, first_game) list the C readers take: a list or tuple of sources
    is read in order, game numbers going on from one to the next; a byte range carries the line
    it begins on when it is known."""
    if isinstance(source, (list, tuple)):
        if byte_range is not None:
            raise ValueError("byte_range reads a part of one file, not of a list")
        return [(s, None, first_game if i == 0 else None) for i, s in enumerate(source)]
    if byte_range is not None and first_line is not None:
        if first_line < 1:
            raise ValueError("first_line counts from 1")
        byte_range = tuple(byte_range) + (first_line,)
    return [(source, byte_range, first_game)]


def pgn_positions(source, *, threads=0, chess960=False, uci=False, byte_range=None,
                  first_game=0, first_line=None, where=None):
    """Every position before each move of every good game of a PGN source, as numpy columns.

    ``source``: a path (a name ending in .zst or .gz is decompressed as it is read; a pipe or
    a FIFO, /dev/stdin or <(zcat ...), is read as its bytes come), bytes, a binary file object,
    or a list of them read in order (game numbers go on from one to the next); an error of a
    path's source names the path. Read by the C library on ``threads`` threads (0: every CPU)
    with the GIL released, into one array per column, grown without copies (on one thread the
    reader writes each row there in place; on more each worker's run of games is copied there
    once): the peak memory is about the output's. Returns a dict of arrays, one row per
    position:

    - ``pieces`` (n, 12) uint64: the bitboards in the order attack_planes_from_bitboards takes
      (white P N B R Q K, then black); ``stm`` bool (True: black to move); ``castling`` uint64
      (the rooks that may still castle, python-chess's castling_rights); ``ep`` int8 (the
      en-passant square, -1 for none); ``halfmove``, ``fullmove`` uint32;
    - ``game`` int64 (the game's index in the input, plus first_game), ``ply`` uint32,
      ``move`` uint16 (the library's 16-bit move), ``uci`` (with uci=True: bytes, 'S6');
    - ``result`` int8: the game's result from the side to move's view, +1 won, 0 drawn, -1
      lost, RESULT_UNKNOWN (-128) for "*";
    - ``eval`` float32: the [%eval] of the move's comment in pawns from the side to move's
      view, NaN where there is none; a mate in N for the side to move is 1000 - N, against it
      -(1000 - N); ``clock`` float32: the [%clk] in seconds, NaN where there is none;

    and ``headers`` (a dict: game index -> dict of its tags), ``errors`` (a list of (game,
    message, line) of the games that could not be read: they give no rows), ``skipped``
    (a list of (game, reason): games of other variants), ``warnings`` (a list of (game,
    message): what was read but not kept, a repeated tag's later values) and ``stats`` (a dict:
    games, errors, skipped, filtered, plies, bytes). ``where``: a tag filter as read_pgn takes
    it; a filtered game gives nothing but is counted (``stats["filtered"]``) and keeps its
    number. The planes of the rows: ``attack_planes_from_bitboards(p["pieces"], p["stm"],
    castling=p["castling"], ep=p["ep"])``. Ctrl-C raises KeyboardInterrupt within a few tens
    of milliseconds, also while the reader waits on a pipe. ``byte_range=(start, end)`` reads
    that part of a regular file (pgn_split or pgn_cuts give such parts; give its first_game
    too); the lines of its errors are the file's: ``first_line`` is the line it begins on
    (pgn_cuts gives it), or None to count the lines before it (reading the file up to start).
    """
    return _dirfill._pgn_positions(_specs(source, byte_range, first_game, first_line),
                                   threads=threads, chess960=chess960, uci=uci, where=where)


def pgn_batches(source, batch_size=4096, *, threads=0, planes=False, chess960=False, where=None,
                columns=None, uci=False, byte_range=None, first_game=0, first_line=None):
    """The positions of a PGN source in batches of ``batch_size`` rows, in bounded memory.

    An iterator of dicts with the columns of :func:`pgn_positions` (the same names, types and
    meanings), each exactly ``batch_size`` rows but the last, and what the games say besides:
    ``headers`` (game index -> tags: a read-only mapping, decoded into str on first use;
    ``dict()`` of it for a dict), ``errors`` ((game, message, line)), ``skipped`` ((game,
    reason)) and ``warnings`` ((game, message)) of the games whose first position is in the
    batch (a game without positions: an error, a skipped or filtered-out variant, a game of no
    moves, goes with the batch being filled when it ended, a last batch of no rows if need be).
    ``source`` as for pgn_positions (a list of paths is read in order, game numbers going on).

    The C library reads on its own threads while the caller works: the source is read and
    decompressed on one, the games replayed on ``threads`` workers (0: every CPU), and the
    batches wait in a queue of two: memory is bounded by the batch size and the thread count,
    not by the input. ``planes=True`` adds ``planes``, uint8 (n, len(PLANES), 8, 8), computed on
    ``threads`` threads without the GIL while the reader goes on (castling and en passant
    included, as attack_planes_from_bitboards computes them). ``columns``: the names to keep
    (default: all; leaving out ``"headers"`` saves recording the tags at all). ``where``: a tag
    filter as read_pgn takes it. A source that fails (a file object whose read raises, a
    corrupt .zst) raises its error after the batches read before it. The iterator's ``stats``
    (a dict as pgn_positions gives) counts the sources read to the end. ``byte_range``,
    ``first_game`` and ``first_line`` as for pgn_positions (a part from pgn_cuts).

    Stopping: Ctrl-C raises KeyboardInterrupt, ``close()`` returns and an abandoned iterator is
    freed with the reader stopped within a few tens of milliseconds, also while the reader
    waits on a pipe or a FIFO whose writer sends nothing, or reads bytes without end (a file
    object's read() is waited for; once it returns, it is not called again). Any thread may
    ``close()`` the iterator, any number of times; threads that share it get distinct batches.
    """
    it = _dirfill._pgn_batches(_specs(source, byte_range, first_game, first_line), batch_size,
                               threads=threads, planes=planes, chess960=chess960, uci=uci,
                               where=where, headers=columns is None or "headers" in columns,
                               lazy_headers=True)
    return _Batches(it, columns)


class _Batches:
    """pgn_batches' iterator: the tags of each batch as a _Headers mapping, only the columns
    asked for kept."""

    def __init__(self, it, columns):
        self._it, self._keep = it, None if columns is None else set(columns)

    def __iter__(self):
        return self

    def __next__(self):
        batch = next(self._it)
        batch["headers"] = _Headers(batch.pop("_tags"))
        if self._keep is None:
            return batch
        return {k: v for k, v in batch.items() if k in self._keep}

    @property
    def stats(self):
        return self._it.stats

    def close(self):
        self._it.close()


class _Headers(_Mapping):
    """The tags of a batch's games, game index -> {tag: value}: a read-only mapping decoded
    into str on first use (a loop that never looks at them does not pay for it);
    ``dict(batch["headers"])`` for a dict."""

    __slots__ = ("_tags", "_dict")

    def __init__(self, tags):
        self._tags, self._dict = tags, None

    def _decoded(self):
        if self._dict is None:
            self._dict, self._tags = _dirfill._decode_headers(self._tags), None
        return self._dict

    def __getitem__(self, game):
        return self._decoded()[game]

    def __iter__(self):
        return iter(self._decoded())

    def __len__(self):
        return len(self._decoded())

    def __repr__(self):
        return repr(self._decoded())
