# SPDX-License-Identifier: MIT
"""What the PGN and NNUE readers share: :class:`SourceError` for a source that could not be
read to its end, the next batch of a C reader (that error once the reader is done), the
readers still open when the interpreter exits, and the dict of their results whose keys of
earlier releases say what they became."""
import atexit
import weakref

#: The batch iterators not yet done: their reader threads are stopped before the interpreter
#: exits (a reader that calls a file object's read() as the interpreter finalizes would be
#: ended in the middle of the library's code).
_OPEN_READERS = weakref.WeakSet()


def _closed_at_exit(reader):
    """reader (an iterator with close()), to be closed when the interpreter exits."""
    _OPEN_READERS.add(reader)
    return reader


@atexit.register
def _close_open_readers():
    for reader in list(_OPEN_READERS):
        reader.close()


class SourceError(OSError):
    """A PGN source that could not be read to its end: it could not be opened, a read failed, or
    its compressed stream is corrupt or cut short.

    read_pgn, pgn_positions, pgn_batches and PGNDataset give every game read before the
    failure (the game it cut short is an error of its own, as any bad game), read the sources
    after it, as ``dirfill pgn`` does, and then raise this. ``filename``: the source's path
    (only a path fails so: an exception of a file object's read() is raised as it is);
    ``strerror``: the reason ("truncated zstd
    stream"); ``errno``: the system's (None when the library found the fault); ``source``: its
    index in the list of sources; ``failed``: every source that failed, as (index, filename,
    errno, reason); from pgn_positions, ``positions``: the dict it would have returned, every
    row read. An open that failed with a system error is also that error's OSError subclass
    (``except FileNotFoundError`` catches a missing file).
    """

    # Pickles and tracebacks name a class by its __module__: the public path, whichever module
    # of the package defines it, so that a pickle loads in any release.
    __module__ = "dirfill"

    def __str__(self):
        failed = getattr(self, "failed", None)
        if not failed:
            return super().__str__()
        text = "; ".join("%s: %s" % (name, reason) for _, name, _, reason in failed[:3])
        if len(failed) > 3:
            text += "; and %d more sources (see .failed)" % (len(failed) - 3)
        return text


#: The SourceError subclass of each OSError subclass (FileNotFoundError, ...), made on first use.
_SOURCE_ERROR_CLASSES = {}


def _source_error(failed, positions=None):
    """The SourceError of the failures the C readers noted: (index, name, errno, reason)."""
    index, name, err, reason = failed[0]
    kind = type(OSError(err, reason)) if err is not None else OSError
    cls = SourceError
    if kind is not OSError:  # FileNotFoundError, PermissionError, ...: that class too
        cls = _SOURCE_ERROR_CLASSES.get(kind)
        if cls is None:
            cls = _SOURCE_ERROR_CLASSES[kind] = type(
                "SourceError", (SourceError, kind),
                {"__module__": SourceError.__module__, "__doc__": SourceError.__doc__})
    e = cls(err, reason, name)
    e.source, e.failed = index, list(failed)
    if positions is not None:
        e.positions = positions
    return e


def _next_batch(wrapper):
    """The next batch of wrapper._it; at its end, once, the SourceError of the sources that
    failed (wrapper._over remembers that it was raised)."""
    try:
        return next(wrapper._it)
    except StopIteration:
        failed = None if wrapper._over else wrapper._it.failures
        wrapper._over = True
        if failed:
            raise _source_error(failed) from None
        raise


#: Names the 0.5 readers no longer give, with what to use instead: asking for one fails loudly
#: (a column whose meaning changed must not be read with the old one).
_REMOVED_KEYS = {
    "stm": "'stm' (True: Black to move) was renamed 'turn' in 0.5, with the opposite meaning: "
           "turn is True when White is to move, as Board.turn and dirfill.WHITE",
    "plies": "stats 'plies' (moves replayed, in error games too) is gone in 0.5: 'positions' "
             "counts the positions of the kept games, as dirfill pgn's summary does",
}


class _Renamed(dict):
    """A dict of columns or counts whose missing keys of earlier releases say what they became."""

    __slots__ = ()
    # Pickled with every result it holds: named dirfill._Renamed, as SourceError is named.
    __module__ = "dirfill"

    def __missing__(self, key):
        raise KeyError(_REMOVED_KEYS.get(key, key) if isinstance(key, str) else key)
