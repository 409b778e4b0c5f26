# SPDX-License-Identifier: MIT
"""NNUE training data as nnue-pytorch's trainer takes it: :func:`nnue_batches` and
:func:`nnue_features` (imported into ``dirfill``)."""
import os
import stat
import warnings

import numpy as np

from . import _dirfill
from ._batches import _closed_at_exit, _next_batch, _Renamed

#: The formats by name, for ``format=``: what the C readers number them.
_FORMATS = {"binpack": 0, "plain": 1, "bin": 2, "pgn": 3, "bulletformat": 4, "marlinformat": 5,
            "viriformat": 6, "bullet-text": 7}
_NAMES = ", ".join(repr(name) for name in _FORMATS)
#: The scales of a PGN's scores, for ``score_units=``: what the C readers number them.
_SCORE_UNITS = {"stockfish": 0, "cp": 1}
#: nnue-pytorch's default feature set, the one Stockfish's current networks read.
DEFAULT_FEATURES = "Full_Threats+PP_3Wide+HalfKAv2_hm"


def _format_of(source, format):
    """The format number of a source: its name's extension (a path, or a file object's
    ``name``), else ``format``."""
    name = source if isinstance(source, (str, os.PathLike)) else getattr(source, "name", None)
    known = _dirfill._nnue_format(name) if isinstance(name, (str, os.PathLike)) else None
    if known is not None:
        return known
    if format is None:
        raise ValueError("%r: the format is not known from a name (.binpack, .plain, .bin, .pgn, "
                         ".bf, .marlin, .vf, .txt, also with .zst or .gz): give format= one of "
                         "%s" % (source, _NAMES))
    if format not in _FORMATS:
        raise ValueError("format must be one of %s, not %r" % (_NAMES, format))
    return _FORMATS[format]


def _is_file_object(source):
    return hasattr(source, "read") and not isinstance(source, (str, bytes, os.PathLike))


def _spec(source, format, cyclic, weigh):
    """(source, format number, size in bytes or 0 when not known, where a file object read
    again is sought first or -1): what the C reader takes. The sizes weigh a shuffle's picks
    (weigh): a regular file's and a bytes object's are known, a seekable file object's from
    where it is to its end. A cyclic run reads a file object again from where it is now, so it
    must be seekable."""
    number, size, start = _format_of(source, format), 0, -1
    if isinstance(source, (str, os.PathLike)):
        try:
            st = os.stat(source) if weigh else None
            size = st.st_size if st and stat.S_ISREG(st.st_mode) else 0
        except (OSError, ValueError):
            pass  # the reader says why it cannot be opened
    elif _is_file_object(source):
        seekable = getattr(source, "seekable", None)
        try:
            can_seek = callable(seekable) and seekable()
            if can_seek and (weigh or cyclic):
                start = source.tell()
                size = max(source.seek(0, os.SEEK_END) - start, 0)
                source.seek(start)
        except (OSError, ValueError):
            can_seek, size = False, 0
        if cyclic and not can_seek:
            raise ValueError("cyclic=True reads each source again: %r is a file object that "
                             "cannot seek back" % (source,))
        if not cyclic:
            start = -1
    else:
        try:
            size = memoryview(source).nbytes
        except TypeError:
            pass  # the reader says the type is not a source
    return (source, number, size, start)


def _checked_rank_and_world_size(rank, world_size):
    """(rank, world_size) checked: both None (the whole input, 0 of 1) or both given."""
    if rank is None and world_size is None:
        return 0, 1
    if rank is None or world_size is None:
        raise ValueError("rank and world_size go together")
    if isinstance(rank, bool) or isinstance(world_size, bool) or not (
            isinstance(rank, int) and isinstance(world_size, int)):
        raise TypeError("rank and world_size are ints")
    if world_size < 1 or not 0 <= rank < world_size:
        raise ValueError("rank must be 0 to world_size - 1 and world_size 1 or more, not %d of %d"
                         % (rank, world_size))
    if world_size >= 1 << 32:
        raise ValueError("world_size must be below 2**32")
    return rank, world_size


def nnue_batches(sources, batch_size=16384, features=DEFAULT_FEATURES, skip=None, threads=0,
                 rank=None, world_size=None, seed=5489, *, format=None, score_units="stockfish",
                 keep_no_eval=False, shuffle=0, cyclic=False):
    """The entries of NNUE training data in batches of nnue-pytorch's ``SparseBatch`` layout.

    ``sources``: a path or a list of them (.binpack, .plain, .bin, .pgn, and bullet's .bf,
    .marlin, .vf, .txt by the extension, each also .zst or .gz), or binary file objects or bytes
    (the format from a file object's ``name``, else ``format``: ``'binpack'``, ``'plain'``,
    ``'bin'``, ``'pgn'``, ``'bulletformat'``, ``'marlinformat'``, ``'viriformat'`` or
    ``'bullet-text'``), read in order. A PGN source gives each position before a move of a game with a result, scored by
    the move's evaluation (``[%eval]``, or an engine's comment as cutechess and fastchess write
    them) in ``score_units``: ``'stockfish'`` (the default: the centipawns turned into
    Stockfish's internal units, the scale of .binpack data and of nnue-pytorch's loss) or
    ``'cp'``; positions whose move has none are dropped unless ``keep_no_eval`` (then unscored,
    32002). A PGN source that gives no entry is warned of once (``UserWarning``, saying why).
    Each batch is a dict of numpy arrays of ``batch_size`` rows (only the last of a run that is
    not cyclic shorter: batches run on across the sources' ends), row i one entry:

    - ``is_white`` float32 (n,): 1.0 when White is to move, else 0.0 (their ``us``);
    - ``outcome`` float32 (n,): (result + 1) / 2 from the side to move's view: 0, 0.5, 1;
    - ``score`` float32 (n,): the score from the side to move's view, in the units the entry
      was stored in (a PGN's: ``score_units``); 32002 when the entry has none (the skip options
      drop those);
    - ``white``, ``black`` int32 (n, max_active): each perspective's active indices of
      ``features`` in nnue-pytorch's order (its SparseBatch's, byte for byte), padded with -1
      (max_active: 288 for the default set);
    - ``piece_count`` int32 (n,): the pieces on the board, kings included;
    - ``errors``: the errors met since the previous batch, ``(source index, byte offset,
      where, message)``, where the chunk (.binpack, from 0), line (.plain, .txt), record (.bin,
      .bf, .marlin, from 0) or game (PGN, .vf, from 0), as ``dirfill nnue`` reports them;
      reading goes on after each.

    ``skip``: None (every entry), or a dict of nnue-pytorch's skip options by their names
    (``filtered``, ``wld_filtered``, ``random_fen_skipping``, ``early_fen_skipping``,
    ``soft_early_fen_skipping``, ``simple_eval_skipping``, ``pc_y0`` .. ``pc_y4``,
    ``ply_x1`` .. ``ply_x4``, ``ply_y1`` .. ``ply_y4``) over their defaults (``{}``: their
    ``DataloaderSkipConfig()``). The predicate is asked about every entry in the order read on
    one thread, its generator seeded by ``seed`` (5489, the default, draws as nnue-pytorch's
    on one thread): the same seed, the same entries. The feature rows are computed on
    ``threads`` threads (0: every CPU) while the caller works; the same rows for any count.

    ``shuffle``: 0 (the default) gives the entries in the sources' order; N > 0 shuffles them
    as nnue-pytorch's loader does: pieces of the sources (a .binpack chunk, 1 MiB of another
    format) are read from a source picked at random, weighted by the bytes left of each (equal
    weights when some source's size is not known: a pipe, a file object that cannot seek), and
    the kept entries fill a buffer of N that is shuffled and given, then the next (memory: N
    entries of about 100 bytes; nnue-pytorch's is 1,048,576 per worker). The picks and the
    shuffles draw from a generator seeded from ``seed`` too (docs/nnue.md): the same seed, the
    same order, for any ``threads``; a pass gives every kept entry once. ``cyclic=True`` reads
    each source again from its start when it ends, without end (a file object must be seekable:
    it is read again from where it was), the skip predicate's draws going on; a source whose
    pass gives no entry, or whose read fails, is not read again.

    ``rank``/``world_size``: this process's share (DDP): a .binpack's chunks rank, rank +
    world_size, ... of each file, as nnue-pytorch's loader shares them; another input's
    (.plain, .bin, bullet's) entries (and record errors) round-robin, entry i of a file when i % world_size is
    rank; a PGN source's games, game i when i % world_size is rank. The shares together hold every entry once.

    Memory is bounded by the batch size: two batches wait at most. A source that cannot be
    read to its end raises :class:`SourceError` after every batch of the others; an exception
    of a file object's ``read()`` is raised as it is, after the batches read before it (what
    that read cut short, a chunk's header or chain, a record, a line, is no item of
    ``errors``). A batch whose row would be cut short (an entry of more active features than
    the row width) is never given: ValueError naming the entry. Ctrl-C, ``close()`` and
    dropping the iterator stop the reader within tens of milliseconds (a file object's
    ``read()`` is waited for; once it returns, it is not called again). The iterator's
    ``stats``: ``entries`` read (of this share), ``kept``, ``skipped`` by the skip options,
    ``errors``; of PGN sources, ``pgn_games`` and the positions that gave no entry by reason:
    ``pgn_no_eval``, ``pgn_no_result``, ``pgn_null_moves``, ``pgn_in_errors`` (and the games
    of another variant, ``pgn_games_skipped``). The reader is a thread of this process: a child of ``os.fork()`` may drop the
    iterator, and using it there is a RuntimeError (make one in the child).
    """
    if isinstance(sources, (str, bytes, os.PathLike)) or hasattr(sources, "read"):
        sources = [sources]
    if isinstance(shuffle, bool) or not isinstance(shuffle, int) or not 0 <= shuffle < 1 << 32:
        raise ValueError("shuffle must be an int from 0 to 2**32 - 1 entries, not %r"
                         % (shuffle,))
    if not isinstance(cyclic, bool):
        raise TypeError("cyclic must be True or False, not %r" % (cyclic,))
    sources = list(sources)
    weigh = shuffle > 0 and len(sources) > 1
    specs = [_spec(s, format, cyclic, weigh) for s in sources]
    rank, world_size = _checked_rank_and_world_size(rank, world_size)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
        raise ValueError("seed must be an int from 0 to 2**64 - 1, not %r" % (seed,))
    if score_units not in _SCORE_UNITS:
        raise ValueError("score_units must be 'stockfish' or 'cp', not %r" % (score_units,))
    it = _dirfill._nnue_batches(specs, batch_size, features, skip, threads, rank, world_size,
                                seed, _SCORE_UNITS[score_units], bool(keep_no_eval), shuffle,
                                cyclic)
    return _closed_at_exit(_NnueBatches(it, [spec[0] for spec in specs]))


class _NnueBatches:
    """nnue_batches' iterator: once the reader is done, the sources it could not read as
    SourceError; the first PGN source that gave no entry as a warning."""

    def __init__(self, it, sources):
        self._it, self._over, self._sources, self._warned = it, False, sources, False

    def __iter__(self):
        return self

    def __next__(self):
        try:
            return _Renamed(_next_batch(self))
        finally:
            self._warn_of_empty()

    def _warn_of_empty(self):
        """Warns, once, of a PGN source that gave no entry: an empty run is never silent."""
        if self._warned:
            return
        empty = self._it.empty
        if empty:
            self._warned = True
            k, why = empty[0]
            warnings.warn("nnue_batches: %r gives no entries: %s" % (self._sources[k], why),
                          UserWarning, stacklevel=3)

    @property
    def stats(self):
        return _Renamed(self._it.stats)

    def close(self):
        self._it.close()


def nnue_features(fens, features=DEFAULT_FEATURES, *, scores=None, results=None, threads=0):
    """The batch of FENs, as :func:`nnue_batches` gives them: nnue-pytorch's
    ``get_sparse_batch_from_fens``. ``scores`` (side to move's view, default 0) and
    ``results`` (-1, 0, 1 for the side to move, default 0) fill ``score`` and ``outcome``; a
    malformed FEN is a ValueError, and so is a position of more active features than the set's
    row holds (HalfKAv2_hm's 32 for 40 pieces: nnue-pytorch's formats hold at most 32), never a
    row cut short."""
    fens = list(fens)
    out = _dirfill._nnue_features(fens, features, threads)
    n = len(fens)
    for name, given, make in (("score", scores, lambda a: a),
                              ("outcome", results, lambda a: (a + 1) / 2)):
        a = np.zeros(n, np.float32) if given is None else np.asarray(given, np.float64)
        if a.shape != (n,):
            raise ValueError("%s: one per FEN (%d), not shape %s" % (
                "scores" if name == "score" else "results", n, a.shape))
        if name == "outcome" and given is not None and not np.isin(a, (-1, 0, 1)).all():
            raise ValueError("results are -1, 0 or 1")
        out[name] = make(a).astype(np.float32)
    out["errors"] = []
    return _Renamed(out)
