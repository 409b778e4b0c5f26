# SPDX-License-Identifier: MIT
"""dirfill: set-wise chess attack information from Kogge-Stone fills, for Python and numpy.

The C library does the work (scalar, AVX2 or AVX-512, chosen for this CPU); the GIL is
released while it computes a batch, and batches run on threads.

    >>> import dirfill
    >>> planes = dirfill.attack_planes(["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"])
    >>> planes.shape == (1, len(dirfill.PLANES), 8, 8)
    True
    >>> int(planes[0, dirfill.PLANES.index("white.count"), 2, 0])   # a3: pawn b2, knight b1
    2
"""
import numpy as _np

from . import _dirfill
from ._dirfill import analyze, backend, backends, legal_moves, perft, push, select_backend

__version__ = _dirfill.__version__

#: The channel names of :func:`attack_planes`, in order: ``piece.P`` ... ``piece.k``,
#: ``white_to_move``, ``castling.K`` ... ``castling.q``, ``en_passant``, 26 planes per side
#: (``white.pawn_east`` ... ``white.king``, ``white.rays.N`` ... ``white.rays.NW``,
#: ``white.xrays.*``, ``white.all``, ``white.twice``, ``white.count``; then ``black.*``), and
#: ``checkers``, ``pinned``, ``pinners``, ``check_block``, ``discoverers`` of the side to move.
#: Every plane is 0/1 per square but the ``*.count`` planes (0..19 attackers).
PLANES = _dirfill._plane_names()

__all__ = ["PLANES", "analyze", "attack_planes", "attack_planes_from_bitboards", "backend",
           "backends", "legal_moves", "perft", "push", "select_backend"]

def _check_errors(errors):
    if errors not in ("raise", "mask"):
        raise ValueError('errors must be "raise" or "mask", not %r' % (errors,))


def attack_planes(fens, threads=0, errors="raise", *, chess960=False, out=None):
    """Feature planes of many positions, computed on ``threads`` threads (0: every CPU).

    ``fens`` is a sequence of str or bytes, or a 1-d numpy array of str or bytes. Returns a
    uint8 array of shape ``(len(fens), len(PLANES), 8, 8)``: plane, rank (1 first), file (a
    first). ``out``, a writeable C-contiguous uint8 array of that shape, receives the planes
    instead of a new array (reusing a buffer chunk after chunk saves allocating and first
    touching its pages, which costs about as much as computing the planes). A bad FEN raises
    ValueError naming its index and the parser's message; with ``errors="mask"`` the result is
    ``(planes, ok)``, ``ok`` a bool array, bad rows all zero.
    """
    _check_errors(errors)
    planes, ok, first_bad = _dirfill._planes_from_fens(fens, threads, chess960=chess960, out=out)
    if errors == "mask":
        return planes, ok
    if first_bad is not None:
        raise ValueError("fens[%d]: bad FEN: %s" % first_bad)
    return planes


def attack_planes_from_bitboards(pieces, stm, threads=0, errors="raise", *, out=None):
    """Feature planes of positions already in bitboards.

    ``pieces``: an array of shape ``(n, 12)`` of 64-bit bitboards (bit i = square i, a1 = 0),
    white pawn, knight, bishop, rook, queen, king, then black in the same order (python-chess's
    and shakmaty's order). ``stm``: n booleans, True when black is to move. Positions have no
    castling rights or en passant. A position with overlapping bitboards, not exactly one king
    per side, or a pawn on the first or last rank raises ValueError naming its index; with
    ``errors="mask"`` the result is ``(planes, ok)`` as in :func:`attack_planes`; ``out`` as
    there.
    """
    _check_errors(errors)
    stm = _np.asarray(stm).astype(_np.uint8)
    planes, ok = _dirfill._planes_from_pieces(pieces, stm, threads, out=out)
    if errors == "mask":
        return planes, ok
    if not ok.all():
        raise ValueError("pieces[%d]: overlapping bitboards, not one king per side, or a pawn "
                         "on the first or last rank" % int(_np.argmin(ok)))
    return planes
