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

PGN: read_pgn (games one by one), pgn_positions (every position as numpy columns),
pgn_batches (the same columns in batches of a fixed size, in bounded memory), pgn_cuts and
pgn_split (a file in parts at game boundaries); dirfill.torch.PGNDataset for PyTorch. The
columns (POSITION_COLUMNS) and their meanings are the same everywhere:

    pieces (n, 12) uint64   the bitboards: white P N B R Q K, then black (bit i: square i, a1 = 0)
    turn bool               True when White is to move (as Board.turn and dirfill.WHITE)
    castling uint64         the rooks that may still castle (python-chess's castling_rights)
    ep int8                 the en-passant square, -1 for none
    halfmove, fullmove      uint32, as the FEN writes them
    game int64              the game's index over the input (filtered games keep their numbers)
    ply uint32              0 for the position before the first move
    move uint16             the library's 16-bit move played from the position (uci=True: "uci")
    result int8             +1 / 0 / -1 (RESULT_UNKNOWN for "*"), White's view by default
    eval float32            the [%eval] after the move in pawns, White's view by default, NaN
                            for none; a mate in N is +-(1000 - N)
    clock float32           the [%clk] after the move (the mover's time left), NaN for none

view="white" (the default: as PGN and `dirfill pgn --json` write them) or "side_to_move" (+1:
the side to move won, a positive eval favours it) chooses the point of view of eval and
result. min_ply, max_ply, min_clock (the side to move's seconds left) and require_eval keep
only the positions that pass them (the library's df_pgn_position_passes, as `dirfill pgn
--positions --min-ply ...`). stats counts as `dirfill pgn`'s summary does: games (every game
found) = kept + filtered + errors + skipped, and positions (of the kept games). A source that
cannot be read to its end (missing, corrupt, a truncated .zst) is raised as SourceError (an
OSError naming it) once the games before it and the sources after it are read. The whole
table, against the C library and the program: docs/conventions.md.
"""
from . import _dirfill
from . import _backend_warning  # noqa: F401  (warns when DIRFILL_BACKEND is ignored)
from ._batches import SourceError
from ._dirfill import (PERFT_MAX_DEPTH, Board, Outcome, analyze, backend, backends, legal_moves,
                       perft, pgn_cuts, pgn_split, push, select_backend, svg)
from ._nnue import nnue_batches, nnue_features
from ._numbering import *  # noqa: F401,F403  (colours, piece types, squares A1 ... H8)
from ._pgn import (POSITION_COLUMNS, RESULT_UNKNOWN, Game, pgn_batches, pgn_positions,
                   read_pgn)
from ._planes import PLANES, attack_planes, attack_planes_from_bitboards

# The pickles of the readers' results name these classes by this path.
from ._batches import _Renamed  # noqa: F401
from ._pgn import _Headers  # noqa: F401

__version__ = _dirfill.__version__

__all__ = ["PLANES", "PERFT_MAX_DEPTH", "Board", "Outcome", "analyze", "attack_planes",
           "attack_planes_from_bitboards", "backend", "backends", "legal_moves", "perft", "push",
           "select_backend", "svg", "WHITE", "BLACK", "PAWN", "KNIGHT", "BISHOP", "ROOK", "QUEEN",
           "KING", "SQUARE_NAMES", "Game", "read_pgn", "pgn_positions", "pgn_batches", "pgn_split",
           "pgn_cuts", "RESULT_UNKNOWN", "POSITION_COLUMNS", "SourceError", "nnue_batches",
           "nnue_features"]
