# SPDX-License-Identifier: MIT
"""The PGN API: games one by one (:func:`read_pgn`, :class:`Game`) and their positions as numpy
columns, all at once (:func:`pgn_positions`) or in batches of a fixed size
(:func:`pgn_batches`)."""
from collections.abc import Mapping

from . import _dirfill
from ._batches import _REMOVED_KEYS, _closed_at_exit, _next_batch, _Renamed, _source_error

#: pgn_positions' result for a game with no result ("*").
RESULT_UNKNOWN = -128


class Game:
    """One game of a PGN file, as read_pgn gives it.

    ``index`` (0-based, over the input: the ``game`` of its rows), ``headers`` (a dict of the
    tag pairs, escapes undone), ``start`` and ``end`` (FENs), ``result`` ("1-0", "0-1",
    "1/2-1/2" or "*"), the main line's ``uci`` and ``san`` (lists, as the library writes them;
    null moves "0000" and "--"), ``eval`` (per ply: the [%eval] after the move in pawns from
    White's view, "#N" / "#-N" for a mate, None where the move's comment has none) and
    ``clock`` (per ply: the [%clk] after the move, the mover's time left in seconds, or None):
    the same as ``dirfill pgn --json`` writes. A game that could not be
    read has ``error`` (the message, naming the ply and the token) and ``error_line``; a game
    of another variant has ``skipped``; the move lists of both are None. ``warning``: None, or
    what was read but not kept (a repeated tag: its first value is kept).
    """
    __slots__ = ("index", "headers", "start", "result", "uci", "san", "eval", "clock", "end",
                 "error", "error_line", "skipped", "warning")
    # Pickles name a class by its __module__: the public path, whichever module of the package
    # defines it, so that a pickle loads in any release.
    __module__ = "dirfill"

    def __repr__(self):
        what = ("error %r" % self.error if self.error else "skipped %r" % self.skipped
                if self.skipped else "%d plies, %s" % (len(self.uci), self.result))
        return "<dirfill.Game %d: %s>" % (self.index, what)


def read_pgn(source, *, chess960=False, where=None):
    """The games of a PGN source one by one, as dirfill.Game objects.

    ``source``: a path (a name ending in .zst or .gz is decompressed as it is read), bytes, a
    binary file object, or a list of them read in order (``index`` goes on from one to the
    next). Every move of each game's main line is read as SAN, checked and played by the C
    library; a game with an error is given with ``error`` set and the reading goes on.
    ``chess960``: every game is Chess960 (a game's Variant tag can also say so). ``where``: a
    filter, a str or a list of str that must all hold, as ``dirfill pgn --where`` takes them
    (tags and the fields derived from them: ``"WhiteElo>=2000"``, ``"Speed=blitz"``; ``= != <
    <= > >=`` compare numbers when both sides are numbers, ``^=`` is a prefix); the games it
    rejects are not given but keep their numbers (``index`` counts every game of the input). A
    malformed expression raises ValueError with the library's message. A source that cannot
    be read to its end (missing, unreadable, a corrupt or truncated compressed stream): every
    game before the failure is given (the game it cut short with its ``error``), the next
    sources are read, and then :class:`SourceError` is raised naming it. An exception of a file
    object's read() is raised as it is, after the games before it (the game it cut short is not
    given).
    """
    it = _dirfill._pgn_games(source if isinstance(source, (list, tuple)) else [source],
                             chess960=chess960, where=where)
    for (index, headers, start, result, uci, san, evals, clock, end, error, error_line,
         skipped, warning) in it:
        g = Game.__new__(Game)
        g.index, g.headers, g.start, g.result = index, dict(headers), start, result
        g.uci, g.san, g.eval, g.clock, g.end = uci, san, evals, clock, end
        g.error, g.error_line, g.skipped = error, error_line if error else None, skipped
        g.warning = warning
        yield g
    failed = it.failures
    if failed:
        raise _source_error(failed)


def _check_columns(columns, known):
    """columns= as given, refused when it names a column that is not one (a typo, stm)."""
    if columns is None:
        return None
    if isinstance(columns, (str, bytes)):
        raise TypeError("columns is a list of names, not %r" % (columns,))
    columns = list(columns)
    for c in columns:
        if c in _REMOVED_KEYS:
            raise ValueError(_REMOVED_KEYS[c])
        if c not in known:
            raise ValueError("columns: no column %r; the columns are %s"
                             % (c, ", ".join(known)))
    return columns


#: The columns of pgn_positions and pgn_batches, in order (``uci`` only when asked).
POSITION_COLUMNS = ("pieces", "turn", "castling", "ep", "halfmove", "fullmove", "game", "ply",
                    "move", "result", "eval", "clock")
#: What else a batch of pgn_batches holds.
_BATCH_ENTRIES = POSITION_COLUMNS + ("uci", "planes", "headers", "errors", "skipped", "warnings")


def _reader_specs(source, byte_range=None, first_game=0, first_line=None):
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
                  first_game=0, first_line=None, where=None, view="white", min_ply=None,
                  max_ply=None, min_clock=None, require_eval=False):
    """Every position before each move of every good game of a PGN source, as numpy columns.

    ``source``: a path (a name ending in .zst or .gz is decompressed as it is read; a pipe or
    a FIFO, /dev/stdin or <(zcat ...), is read as its bytes come), bytes, a binary file object,
    or a list of them read in order (game numbers go on from one to the next). Read by the C
    library on ``threads`` threads (0: every CPU) with the GIL released, into one array per
    column, grown without copies (on one thread the reader writes each row there in place; on
    more each worker's run of games is copied there once): the peak memory is about the
    output's. Returns a dict of arrays, one row per position:

    - ``pieces`` (n, 12) uint64: the bitboards in the order attack_planes_from_bitboards takes
      (white P N B R Q K, then black); ``turn`` bool (True: White to move, as Board.turn and
      dirfill.WHITE); ``castling`` uint64 (the rooks that may still castle, python-chess's
      castling_rights); ``ep`` int8 (the en-passant square, -1 for none); ``halfmove``,
      ``fullmove`` uint32;
    - ``game`` int64 (the game's index in the input, plus first_game), ``ply`` uint32 (0: the
      position before the game's first move), ``move`` uint16 (the library's 16-bit move played
      from the position), ``uci`` (with uci=True: bytes, 'S6');
    - ``result`` int8: the game's result, +1 White won, 0 drawn, -1 Black won, RESULT_UNKNOWN
      (-128) for "*";
    - ``eval`` float32: the [%eval] of the move's comment in pawns, as PGN writes it (White's
      view), NaN where there is none; a mate in N for White is 1000 - N, for Black -(1000 - N);
      ``clock`` float32: the move's [%clk] (the mover's time left after it) in seconds, NaN
      where there is none;

    and ``headers`` (a dict: game index -> dict of its tags), ``errors`` (a list of (game,
    message, line) of the games that could not be read: they give no rows), ``skipped``
    (a list of (game, reason): games of other variants), ``warnings`` (a list of (game,
    message): what was read but not kept, a repeated tag's later values) and ``stats`` (a dict
    in ``dirfill pgn``'s words: ``games``, every game found, = ``kept`` + ``filtered`` +
    ``errors`` + ``skipped``; ``positions``, the positions of the kept games; ``bytes``).

    ``view="side_to_move"`` gives ``result`` and ``eval`` from the side to move's view (+1: the
    side to move won; a mate for it is positive), as training a value for the player to move
    wants them; the default ``"white"`` gives them as PGN and ``dirfill pgn --json`` write them.
    ``where``: a game filter as read_pgn takes it; a filtered game gives nothing but is counted
    (``stats["filtered"]``) and keeps its number. Per-position filters keep only the rows that
    pass them all (each row keeps its game and ply): ``min_ply`` and ``max_ply`` (0 is the
    position before the first move), ``min_clock`` (seconds the side to move has left: the
    [%clk] after its own last move, or TimeControl's base before it has moved; a position
    without one does not pass), ``require_eval`` (the move has an [%eval]); ``stats`` still
    counts every position of the kept games. The rule is the library's df_pgn_position_passes,
    as ``dirfill pgn --json --positions --min-ply N ...`` writes its rows.

    The planes of the rows: ``attack_planes_from_bitboards(p["pieces"], turn=p["turn"],
    castling=p["castling"], ep=p["ep"])``. Ctrl-C raises KeyboardInterrupt within a few tens
    of milliseconds, also while the reader waits on a pipe. ``byte_range=(start, end)`` reads
    that part of a regular file (pgn_split or pgn_cuts give such parts; give its first_game
    too); the lines of its errors are the file's: ``first_line`` is the line it begins on
    (pgn_cuts gives it), or None to count the lines before it (reading the file up to start).
    A source that cannot be read to its end raises :class:`SourceError` once the others are
    read; its ``positions`` holds this dict, every row read.
    """
    out = _dirfill._pgn_positions(_reader_specs(source, byte_range, first_game, first_line),
                                  threads=threads, chess960=chess960, uci=uci, where=where,
                                  view=view, min_ply=min_ply, max_ply=max_ply,
                                  min_clock=min_clock, require_eval=require_eval)
    failed = out.pop("_failed")
    out = _Renamed(out)
    out["stats"] = _Renamed(out["stats"])
    if failed:
        raise _source_error(failed, out)
    return out


def pgn_batches(source, batch_size=4096, *, threads=0, planes=False, chess960=False, where=None,
                columns=None, uci=False, byte_range=None, first_game=0, first_line=None,
                view="white", min_ply=None, max_ply=None, min_clock=None, require_eval=False):
    """The positions of a PGN source in batches of ``batch_size`` rows, in bounded memory.

    An iterator of dicts with the columns of :func:`pgn_positions` (the same names, types and
    meanings; ``view``, ``min_ply``, ``max_ply``, ``min_clock`` and ``require_eval`` as there),
    each exactly ``batch_size`` rows but the last, and what the games say besides:
    ``headers`` (game index -> tags: a read-only mapping, decoded into str on first use;
    ``dict()`` of it for a dict), ``errors`` ((game, message, line)), ``skipped`` ((game,
    reason)) and ``warnings`` ((game, message)) of the games whose first row is in the
    batch (a game without rows: an error, a skipped or filtered-out variant, a game of no
    moves or none that passes the position filters, goes with the batch being filled when it
    ended, a last batch of no rows if need be). ``source`` as for pgn_positions (a list of
    paths is read in order, game numbers going on).

    The C library reads on its own threads while the caller works: the source is read and
    decompressed on one, the games replayed on ``threads`` workers (0: every CPU), and the
    batches wait in a queue of two: memory is bounded by the batch size and the thread count,
    not by the input. ``planes=True`` adds ``planes``, uint8 (n, len(PLANES), 8, 8), computed on
    ``threads`` threads without the GIL while the reader goes on (castling and en passant
    included, as attack_planes_from_bitboards computes them). ``columns``: the names to keep
    (default: all; leaving out ``"headers"`` saves recording the tags at all; a name that is no
    entry of a batch is a ValueError). ``where``: a game filter as read_pgn takes it. The
    iterator's ``stats`` (a dict as pgn_positions gives) counts the sources read to the end.
    ``byte_range``, ``first_game`` and ``first_line`` as for pgn_positions (a part from
    pgn_cuts).

    Errors: a source that cannot be read to its end (missing, unreadable, a corrupt or
    truncated compressed stream) does not stop the others: every batch of the games read
    before the failure is given, the next sources are read, and then :class:`SourceError` is
    raised naming it. An exception of a file object's read() is raised as it is, after the
    batches read before it, and ends the reading (the game it cut short is not given).

    Stopping: Ctrl-C raises KeyboardInterrupt, ``close()`` returns and an abandoned iterator is
    freed with the reader stopped within a few tens of milliseconds, also while the reader
    waits on a pipe or a FIFO whose writer sends nothing, or reads bytes without end (a file
    object's read() is waited for; once it returns, it is not called again). Any thread may
    ``close()`` the iterator, any number of times; threads that share it get distinct batches.
    The reader is a thread of this process: a child of ``os.fork()`` may drop the iterator, and
    using it there is a RuntimeError (make one in the child).
    """
    columns = _check_columns(columns, _BATCH_ENTRIES)
    specs = _reader_specs(source, byte_range, first_game, first_line)
    it = _dirfill._pgn_batches(specs, batch_size, threads=threads, planes=planes,
                               chess960=chess960, uci=uci, where=where,
                               headers=columns is None or "headers" in columns,
                               lazy_headers=True, view=view, min_ply=min_ply, max_ply=max_ply,
                               min_clock=min_clock, require_eval=require_eval)
    return _closed_at_exit(_PgnBatches(it, columns))


class _PgnBatches:
    """pgn_batches' iterator: the tags of each batch as a _Headers mapping, only the columns
    asked for kept; once the reader is done, the sources it could not read as SourceError."""

    def __init__(self, it, columns):
        self._it, self._keep = it, None if columns is None else set(columns)
        self._over = False

    def __iter__(self):
        return self

    def __next__(self):
        batch = _next_batch(self)
        batch["headers"] = _Headers(batch.pop("_tags"))
        if self._keep is None:
            return _Renamed(batch)
        return _Renamed((k, v) for k, v in batch.items() if k in self._keep)

    @property
    def stats(self):
        return _Renamed(self._it.stats)

    def close(self):
        self._it.close()


class _Headers(Mapping):
    """The tags of a batch's games, game index -> {tag: value}: a read-only mapping decoded
    into str on first use (a loop that never looks at them does not pay for it);
    ``dict(batch["headers"])`` for a dict."""

    __slots__ = ("_tags", "_dict")
    # Pickled with the batch that holds it: named dirfill._Headers, as Game is named.
    __module__ = "dirfill"

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
