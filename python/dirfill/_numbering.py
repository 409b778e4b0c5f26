# SPDX-License-Identifier: MIT
"""Colours, piece types and squares as python-chess numbers them: ``WHITE``, ``PAWN`` ...
``KING``, ``SQUARE_NAMES`` and one name per square, ``A1`` (0) to ``H8`` (63)."""

#: Colours and piece types as python-chess numbers them.
WHITE, BLACK = True, False
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = range(1, 7)
#: Squares 0 (a1) to 63 (h8), named as in python-chess: dirfill.E4 == 28.
SQUARE_NAMES = [f + r for r in "12345678" for f in "abcdefgh"]
globals().update({name.upper(): i for i, name in enumerate(SQUARE_NAMES)})

__all__ = ["WHITE", "BLACK", "PAWN", "KNIGHT", "BISHOP", "ROOK", "QUEEN", "KING",
           "SQUARE_NAMES"] + [name.upper() for name in SQUARE_NAMES]
