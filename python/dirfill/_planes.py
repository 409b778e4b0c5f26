# SPDX-License-Identifier: MIT
"""Feature planes of many positions, from FENs (:func:`attack_planes`) or from the bitboard
columns the PGN readers give (:func:`attack_planes_from_bitboards`), and their names
(``PLANES``)."""
import numpy as np

from . import _dirfill

#: The channel names of :func:`attack_planes`, in order: ``piece.P`` ... ``piece.k``,
#: ``white_to_move``, ``castling.K`` ... ``castling.q``, ``en_passant``, 26 planes per side
#: (``white.pawn_east`` ... ``white.king``, ``white.rays.N`` ... ``white.rays.NW``,
#: ``white.xrays.*``, ``white.all``, ``white.twice``, ``white.count``; then ``black.*``), and
#: ``checkers``, ``pinned``, ``pinners``, ``check_block``, ``discoverers`` of the side to move.
#: Every plane is 0/1 per square but the ``*.count`` planes (0..19 attackers).
PLANES = _dirfill._plane_names()


def _check_errors_argument(errors):
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
    _check_errors_argument(errors)
    planes, ok, first_bad = _dirfill._planes_from_fens(fens, threads, chess960=chess960, out=out)
    if errors == "mask":
        return planes, ok
    if first_bad is not None:
        raise ValueError("fens[%d]: bad FEN: %s" % first_bad)
    return planes


def attack_planes_from_bitboards(pieces, *positional, turn=None, threads=0, errors="raise",
                                 castling=None, ep=None, chess960=False, out=None):
    """Feature planes of positions held as columns of numbers, as pgn_positions gives them.

    ``pieces``: integers of shape ``(n, 12)``, 64-bit bitboards (bit i = square i, a1 = 0):
    white pawn, knight, bishop, rook, queen, king, then black in the same order (python-chess's
    and shakmaty's order). Integer dtypes only: int64 is read as its bit pattern (as
    ``.view(np.uint64)``), smaller signed types must hold no negative number, and a float array
    is a TypeError (a float cannot hold every bitboard). ``turn`` (keyword only): n booleans or
    0/1, True when White is to move (as ``Board.turn`` and the ``turn`` column). ``castling``:
    n bitboards of the rooks that may still castle (python-chess's ``castling_rights``), or
    None for none. ``ep``: n en-passant squares, -1 for none, or None. A position the library
    refuses (overlapping bitboards, not exactly one king per side, a pawn on the first or last
    rank, a castling rook or en-passant square that cannot be) raises ValueError naming its
    index; with ``errors="mask"`` the result is ``(planes, ok)`` as in :func:`attack_planes`;
    ``out`` as there (sharing memory with an input is refused)::

        p = dirfill.pgn_positions("games.pgn")
        planes = dirfill.attack_planes_from_bitboards(p["pieces"], turn=p["turn"],
                                                      castling=p["castling"], ep=p["ep"])
    """
    if positional or turn is None:
        raise TypeError("attack_planes_from_bitboards(pieces, turn=..., ...): turn, True when "
                        "White is to move (as Board.turn), is a keyword argument; the second "
                        "positional argument stm (True: Black to move) is gone since 0.5")
    _check_errors_argument(errors)
    planes, ok = _dirfill._planes_from_rows(pieces, turn, threads, castling=castling, ep=ep,
                                            chess960=chess960, out=out)
    if errors == "mask":
        return planes, ok
    if not ok.all():
        raise ValueError("pieces[%d]: not a position: overlapping bitboards, not one king per "
                         "side, a pawn on the first or last rank, or a castling right or "
                         "en-passant square it cannot have" % int(np.argmin(ok)))
    return planes
