# SPDX-License-Identifier: MIT
"""PGN positions for PyTorch: :class:`PGNDataset`, an ``IterableDataset`` of whole batches.

``import dirfill`` does not import torch; ``import dirfill.torch`` does (Debian's
``python3-torch``, 1.13 or later)::

    from torch.utils.data import DataLoader
    from dirfill.torch import PGNDataset

    ds = PGNDataset(["jan.pgn", "feb.pgn"], batch_size=4096, threads=0, shuffle_buffer=1 << 16,
                    seed=1, view="side_to_move")
    for batch in DataLoader(ds, batch_size=None, num_workers=0):   # the dataset batches
        x, y = batch["pieces"], batch["result"]                     # int64 (n, 12), int8 (n,)

On few cores, ``num_workers=0`` with the library's threads (``threads=0``: every CPU) is the
fast choice: the workers' hand-over costs more CPU than it saves there (docs/performance.md).
With more cores, ``num_workers=N`` (no more than the CPUs) and ``threads=1`` each.

The input is split between the DataLoader's workers and the processes of a distributed run
(rank and world size from ``torch.distributed`` when it is initialized, or given): by whole
files when there are at least as many files as shares, else by byte range inside plain files
at exact game boundaries (:func:`dirfill.pgn_cuts`, the threaded reader's rule; finding a cut
skims the file up to it, much faster than reading that part), so that every position of the
input is given exactly once, whatever the number of workers and processes.
Compressed files (.zst, .gz) are split by file only; a source that is not a regular file (a
pipe, a FIFO, /dev/stdin, <(zcat ...)) is read whole by one share, once.

A worker hands its batches to the main process through shared memory of its own that it
reuses (a few regions per worker, each filled again only once no tensor of the main process
uses it): the hand-over copies nothing between the processes and, after the first batches,
maps no fresh page. A batch the main process keeps stays valid; the worker then takes another
region. A child the main process forks (another loader's workers, os.fork) never gives back a
batch's region nor fills one; it starts with none of the main process's mappings, and the
mappings of workers that have exited are dropped before each fork. With workers, a batch
reaches the main process as the dataset's dict only through the DataLoader's pickling: a
``collate_fn`` of your own sees the worker's packed batch.
"""
import functools
import os
import stat
import warnings
from multiprocessing.reduction import DupFd

import numpy as np
import torch
from torch.utils.data import IterableDataset, get_worker_info

from . import _dirfill
from ._batches import SourceError, _Renamed, _source_error
from ._dirfill import pgn_cuts
from ._nnue import DEFAULT_FEATURES, nnue_batches
from ._pgn import POSITION_COLUMNS, _check_columns
from ._planes import PLANES

__all__ = ["PGNDataset", "NNUEDataset", "to_tensors"]

# torch 1.13 has no unsigned types wider than uint8: the columns travel as the signed type of
# the same width, the same bits (a view, no copy). Bitboards are int64 views of the uint64
# bitboards (square 63 is the sign bit: compare bits, not signs); ply, halfmove and fullmove
# never reach 2**31; a move is the library's 16-bit move as int16 bits (.view(np.uint16) on
# the way back).
_SIGNED = {np.dtype(np.uint64): np.int64, np.dtype(np.uint32): np.int32,
           np.dtype(np.uint16): np.int16}


def _numeric_arrays(batch):
    """The numeric arrays of a batch, by name."""
    return {k: v for k, v in batch.items() if isinstance(v, np.ndarray) and v.dtype.kind in "biuf"}


def _tensor_type(dtype):
    """The numpy type a tensor over an array of dtype takes: the signed type of the same width."""
    return np.dtype(_SIGNED.get(dtype, dtype))


def _tensor_views(batch):
    """The numeric arrays of a batch, each as the view a tensor takes."""
    return {k: v.view(_tensor_type(v.dtype)) for k, v in _numeric_arrays(batch).items()}


def to_tensors(batch):
    """A batch of numpy columns as tensors sharing their memory (uint64, uint32 and uint16
    columns as int64, int32 and int16 views of the same bits; ``turn`` bool); entries that are
    not numeric arrays are left out."""
    return _Renamed((k, torch.from_numpy(v)) for k, v in _tensor_views(batch).items())


class _SharedMemoryBatch:
    """A batch of a DataLoader worker, packed into a region of shared memory that the worker
    reuses: pickled to the main process as the region's place and the arrays' places, it
    becomes there a dict of tensors over that memory (no byte copied; the main process maps
    each region once). The worker fills a region again only once every tensor over it in the
    main process is gone. planes: None, or a function that computes the batch's planes into the
    array it is given (in the region: they are never copied)."""

    __slots__ = ("_handle", "_layout")

    def __init__(self, batch, planes=None):
        arrays = _numeric_arrays(batch)
        n = len(batch["file"])
        shape = (n, len(PLANES), 8, 8)
        room = n * len(PLANES) * 64 if planes else 0
        # The arrays' bytes as they are (a tensor's type is only a name in the layout).
        self._handle, offsets = _dirfill._shared_pack(list(arrays.values()), room)
        # numpy's names of these types are torch's
        layout = [(k, _tensor_type(a.dtype).name, a.size, a.shape, at)
                  for (k, a), at in zip(arrays.items(), offsets)]
        if planes:
            planes(np.frombuffer(self._handle, np.uint8, room, offsets[-1]).reshape(shape))
            layout.append(("planes", "uint8", room, shape, offsets[-1]))
        self._layout = tuple(layout)

    def __reduce__(self):
        pid, fd, key, size, slot, by_proc = self._handle.send()
        if slot < 0:  # a region the worker does not keep: an fd, mapped for this batch only
            return _unpack, ((DupFd(fd), key), size, self._layout)
        # A kept one is mapped once: opened through /proc, or (a worker that is not dumpable,
        # whose /proc/<pid>/fd other processes cannot open) sent as an fd each time.
        return _unpack, ((pid, slot, fd, key, None if by_proc else DupFd(fd)), size,
                         self._layout)


#: The main process's mappings of the regions the workers keep: (worker pid, slot) -> (the
#: worker's fd, region id, mapping); a new region in a slot replaces the old one's mapping.
#: At most the regions a worker keeps (8) for each worker alive: the mappings of workers that
#: have exited are dropped (each stays mapped while a batch over it lives) when a new worker
#: sends its first batch and before this process forks, so that no later worker inherits them;
#: a forked child starts with none.
_MAPPINGS = {}


def _worker_keeps_region(pid, fd, mapping):
    """Whether worker pid still keeps the region mapped (its fd names the same file)."""
    try:
        st = os.stat("/proc/%d/fd/%d" % (pid, fd))
    except PermissionError:  # a worker that is not dumpable: alive, as far as can be seen
        return os.path.exists("/proc/%d" % pid)
    except OSError:  # the worker has exited (or closed the region's fd)
        return False
    return (st.st_dev, st.st_ino) == mapping.inode


def _forget_exited():
    """Drops the mappings of regions their workers no longer keep."""
    for where, (fd, _, m) in list(_MAPPINGS.items()):
        if not _worker_keeps_region(where[0], fd, m):
            del _MAPPINGS[where]


os.register_at_fork(before=_forget_exited, after_in_child=_MAPPINGS.clear)


def _region_mapping(where, size):
    """The main process's mapping of the region where names: a region the worker keeps is
    mapped once (kept in _MAPPINGS), another for this batch only."""
    if len(where) == 2:  # a region the worker does not keep: mapped for this batch only
        return _dirfill._shared_map(where[0].detach(), where[1], size)
    pid, slot, fd, key, dup = where
    mine = dup.detach() if dup is not None else None
    known = _MAPPINGS.get((pid, slot))
    if known is not None and known[1] == key:
        if mine is not None:
            os.close(mine)
        return known[2]
    if not any(p == pid for p, _ in _MAPPINGS):  # a new worker: others may have exited
        _forget_exited()
    m = (_dirfill._shared_open(pid, fd, key, size) if mine is None
         else _dirfill._shared_map(mine, key, size))
    _MAPPINGS[pid, slot] = (fd, key, m)  # the slot's old mapping lives while its batches do
    return m


def _unpack(where, size, layout):
    """The batch of a worker's region as tensors over one lease of the main process's mapping
    (each tensor keeps the lease), made straight from it (torch.frombuffer: no numpy array in
    between)."""
    lease = _region_mapping(where, size).lease()
    out = _Renamed()
    for name, dtype, count, shape, at in layout:
        t = torch.frombuffer(lease, dtype=getattr(torch, dtype), count=count, offset=at)
        out[name] = t if len(shape) == 1 else t.view(shape)
    return out


def _splittable(path):
    return not str(path).endswith((".zst", ".gz"))


#: The columns PGNDataset may keep: the position columns and the planes (``file`` always).
_DATASET_COLUMNS = POSITION_COLUMNS + ("planes", "file")


def _worker_share(rank, world):
    """(this worker's share, the number of shares): the worker of this DataLoader process (0 of
    1 outside one) of the rank of a distributed run (given, else torch.distributed's when it is
    initialized, else 0 of 1)."""
    if rank is None or world is None:
        dist = torch.distributed
        if dist.is_available() and dist.is_initialized():
            rank = dist.get_rank() if rank is None else rank
            world = dist.get_world_size() if world is None else world
        else:
            rank, world = rank or 0, world or 1
    info = get_worker_info()
    workers, worker = (info.num_workers, info.id) if info else (1, 0)
    return rank * workers + worker, world * workers


class PGNDataset(IterableDataset):
    """Positions of PGN files in batches of tensors, split between workers and ranks.

    ``sources``: a path or a list of paths (.pgn, .pgn.zst, .pgn.gz; a pipe or a FIFO is read
    whole by one worker, once: a second pass finds it at its end). Each item is a dict of
    tensors with ``batch_size`` rows (the last of each worker shorter): the columns of
    :func:`dirfill.pgn_batches` with their meanings (``turn`` True when White is to move;
    ``columns`` to keep fewer, a name that is no column a ValueError; ``planes=True`` adds the
    planes), ``game`` numbered within its file, and ``file`` (the index of its file in
    ``sources``). Use it as ``DataLoader(ds, batch_size=None, num_workers=N)``: the dataset
    makes the batches. ``threads``: the library's threads per worker (1: each worker one core;
    with ``num_workers=0``, 0 for every CPU). ``where``: a game filter, ``view`` (``"white"``
    or ``"side_to_move"``: the point of view of ``eval`` and ``result``) and the per-position
    filters ``min_ply``, ``max_ply``, ``min_clock`` and ``require_eval``, as
    :func:`dirfill.pgn_positions` takes them. A source that cannot be read to its end raises
    :class:`dirfill.SourceError` after the batches of the games read before it.

    ``shuffle_buffer`` > 0: each worker gathers that many rows, gives them in a random order,
    then the next ones (a window shuffle: no row is held back or given twice), from a
    generator seeded by ``seed``, the worker's share and :meth:`set_epoch`'s epoch: the same
    seed gives the same batches. ``rank``/``world_size``: this process's share of a run over
    many processes (default: ``torch.distributed``'s when it is initialized, else 0 of 1).
    """

    def __init__(self, sources, batch_size=4096, *, threads=1, planes=False, chess960=False,
                 where=None, columns=None, shuffle_buffer=0, seed=0, rank=None, world_size=None,
                 view="white", min_ply=None, max_ply=None, min_clock=None, require_eval=False):
        super().__init__()
        if isinstance(sources, (str, bytes, os.PathLike)):
            sources = [sources]
        self.sources = [os.fspath(s) for s in sources]
        if batch_size < 1:
            raise ValueError("batch_size must be 1 or more")
        self.batch_size, self.threads, self.planes = batch_size, threads, planes
        self.chess960, self.where = chess960, where
        self.columns = _check_columns(columns, _DATASET_COLUMNS)
        self.shuffle_buffer, self.seed, self.epoch = shuffle_buffer, seed, 0
        self.rank, self.world_size = rank, world_size
        self.rows = {"view": view, "min_ply": min_ply, "max_ply": max_ply,
                     "min_clock": min_clock, "require_eval": require_eval}
        # A malformed filter or option fails here, not in a worker.
        _dirfill._pgn_batches([], 1, where=where, **self.rows).close()

    def set_epoch(self, epoch):
        """Another order for the next pass when shuffling (the same epoch, the same order)."""
        self.epoch = epoch

    def shards(self, share, shares):
        """The parts share (of shares) reads: a list of (file index, path, (start, end, first
        line) or None for the whole file, first game). Every byte of the input belongs to one
        share. With at least as many (non-empty) files as shares, each share reads whole files
        (the largest first, each to the share with the fewest bytes so far); with fewer, the
        bytes are cut in equal parts, a plain file's parts beginning and ending at exact game
        boundaries (finding a cut skims the file up to it, much faster than reading it: files
        are not cut when they need not be). A source that is not a regular file (a pipe, a
        FIFO, /dev/stdin, <(zcat ...)) has no size and can be read only once: the k-th of them
        is read whole by share k % shares, besides its share of the regular files."""
        sizes, streams = [], []
        for i, path in enumerate(self.sources):
            st = os.stat(path)
            regular = stat.S_ISREG(st.st_mode)
            sizes.append(st.st_size if regular else 0)  # none of the regular files' split
            if not regular:
                streams.append(i)
        whole = [(i, self.sources[i], None, 0) for k, i in enumerate(streams)
                 if k % shares == share]
        return sorted(self._regular_shards(sizes, share, shares) + whole, key=lambda p: p[0])

    def _regular_shards(self, sizes, share, shares):
        """shards() of the regular files (sizes: 0 for the others, left out as empty files)."""
        if sum(1 for size in sizes if size) >= shares:
            load, owner = [0] * shares, {}
            for i in sorted(range(len(sizes)), key=lambda i: (-sizes[i], i)):
                if sizes[i]:
                    owner[i] = min(range(shares), key=lambda k: (load[k], k))
                    load[owner[i]] += sizes[i]
            return [(i, self.sources[i], None, 0) for i in sorted(owner) if owner[i] == share]
        total = sum(sizes)
        lo, hi = total * share // shares, total * (share + 1) // shares
        parts, at = [], 0
        for i, (path, size) in enumerate(zip(self.sources, sizes)):
            start, end = at, at + size
            at = end
            if size == 0:
                continue
            if not _splittable(path):
                if lo <= start < hi:  # a whole file, to the share of its first byte
                    parts.append((i, path, None, 0))
                continue
            a, b = max(lo - start, 0), min(hi - start, size)
            if a >= b:
                continue
            if a == 0 and b == size:  # the whole file: no cut to find
                parts.append((i, path, None, 0))
                continue
            # The file's end is a cut as it is: only a cut inside the file is looked for (a skim
            # up to it; the last share of a file skimmed all of it).
            cuts = pgn_cuts(path, [a, b] if b < size else [a])
            (ca, line, game), cb = cuts[0], cuts[1][0] if b < size else size
            if ca < cb:
                parts.append((i, path, (ca, cb, line), game))
        return parts

    def _batches_of_share(self, share, shares):
        parts = self.shards(share, shares)
        if not parts:
            return
        # Each part's rows numbered with its file's index in the sources by the reader itself.
        specs = [(path, rng, game, i) for i, path, rng, game in parts]
        it = _dirfill._pgn_batches(specs, self.batch_size, threads=self.threads,
                                   chess960=self.chess960, where=self.where, file_column=True,
                                   headers=False, **self.rows)
        try:
            for batch in it:
                if len(batch["ply"]) == 0:
                    continue
                yield batch
            if it.failures:
                raise _source_error(it.failures)
        finally:
            it.close()

    def _shuffled(self, batches, rng):
        held, n, failed = [], 0, None
        try:
            for batch in batches:
                held.append(batch)
                n += len(batch["file"])
                if n >= self.shuffle_buffer:
                    yield from self._drain(held, rng, keep_tail=True)
                    n = sum(len(b["file"]) for b in held)
        except SourceError as e:  # raised after the rows read before it, as unshuffled
            failed = e
        yield from self._drain(held, rng, keep_tail=False)
        if failed is not None:
            raise failed

    def _drain(self, held, rng, keep_tail):
        if not held:
            return
        keys = [k for k, v in held[0].items() if isinstance(v, np.ndarray)]
        rows = {k: np.concatenate([b[k] for b in held]) for k in keys}
        held.clear()
        n = len(rows["file"])
        order = rng.permutation(n)
        full = n - n % self.batch_size if keep_tail else n
        for at in range(0, full, self.batch_size):
            pick = order[at:at + self.batch_size]
            yield {k: v[pick] for k, v in rows.items()}
        if full < n:
            held.append({k: v[order[full:]] for k, v in rows.items()})

    def __iter__(self):
        share, shares = _worker_share(self.rank, self.world_size)
        batches = self._batches_of_share(share, shares)
        if self.shuffle_buffer > 0:
            rng = np.random.default_rng([self.seed, self.epoch, share, shares])
            batches = self._shuffled(batches, rng)
        # The planes last, once the rows are in their final order (a shuffle moves 137 bytes
        # a row, not 4,937), where they go: into the shared memory of a worker's batch.
        planes = self.planes and (self.columns is None or "planes" in self.columns)
        worker = get_worker_info() is not None
        for batch in batches:
            compute = functools.partial(self._batch_planes, batch) if planes else None
            if self.columns is not None:
                batch = {k: v for k, v in batch.items() if k in self.columns or k == "file"}
            if worker:  # to the main process through shared memory
                yield _SharedMemoryBatch(batch, compute)
                continue
            if compute:
                batch["planes"] = compute(None)
            yield to_tensors(batch)

    def _batch_planes(self, batch, out):
        """The planes of a batch's rows, into out (or a new array when None)."""
        return _dirfill._planes_from_rows(batch["pieces"], batch["turn"], self.threads,
                                          castling=batch["castling"], ep=batch["ep"],
                                          chess960=self.chess960, out=out)[0]


class NNUEDataset(IterableDataset):
    """NNUE training data as nnue-pytorch's training step takes it, split between workers and
    ranks.

    ``sources``, ``batch_size``, ``features``, ``skip``, ``seed``, ``format``, ``shuffle`` and
    ``cyclic`` as :func:`dirfill.nnue_batches` takes them. Each item is the tuple
    nnue-pytorch's ``SparseBatch.get_tensors`` gives: ``(us, them, white_indices,
    black_indices, outcome, score, piece_count)``, us float32 (n, 1) 1.0 when White is to move,
    them 1 - us, the index rows int32 (n, max_active) padded with -1, outcome and score float32
    (n, 1) from the side to move's view, piece_count int64 (n,). Use it as ``DataLoader(ds,
    batch_size=None, num_workers=N)``. The shares: share ``rank * num_workers + worker`` of
    ``world_size * num_workers`` (rank and world size given, else ``torch.distributed``'s when
    it is initialized, else 0 of 1) reads what :func:`dirfill.nnue_batches` gives that rank: a
    .binpack's chunks share, share + shares, ... (a file of one chunk is one share's), a .plain
    or .bin file's entries round-robin; every entry is given exactly once a pass. Each share
    reads one :func:`dirfill.nnue_batches` with its own skip predicate and shuffle, seeded with
    ``seed + share`` (5489, nnue-pytorch's, by default). ``shuffle=N`` gives each share's
    entries shuffled in buffers of N, as nnue-pytorch's loader does (1,048,576 per worker
    there; memory about 100 bytes an entry per share). ``cyclic=True`` reads the input again
    and again without end, as nnue-pytorch's loader does by default (what its
    ``FixedNumBatchesDataset`` takes): every batch has ``batch_size`` rows, running on across
    the files' ends and the passes, and the predicate's draws go on; a share that reads no
    entry ends. Without it, each share's last batch may be shorter. ``threads``: the library's
    threads per share. An error of a chunk or record is a warning (``warnings.warn``: its
    source, offset and message), and reading goes on; a source that cannot be read raises
    :class:`dirfill.SourceError` after the batches of the others.
    """

    def __init__(self, sources, batch_size=16384, features=DEFAULT_FEATURES, *, skip=None,
                 threads=1, seed=5489, rank=None, world_size=None, format=None, shuffle=0,
                 cyclic=False):
        super().__init__()
        if isinstance(sources, (str, bytes, os.PathLike)):
            sources = [sources]
        self.sources = list(sources)
        self.options = {"batch_size": batch_size, "features": features, "skip": skip,
                        "threads": threads, "format": format, "shuffle": shuffle,
                        "cyclic": cyclic}
        self.seed, self.rank, self.world_size = seed, rank, world_size
        # A malformed option fails here, not in a worker.
        nnue_batches(self.sources, seed=seed, **self.options).close()

    def __iter__(self):
        share, shares = _worker_share(self.rank, self.world_size)
        it = nnue_batches(self.sources, rank=share, world_size=shares,
                          seed=(self.seed + share) % (1 << 64), **self.options)
        try:
            for batch in it:
                for source, offset, _, message in batch["errors"]:
                    warnings.warn("%s: byte %d: %s" % (self.sources[source], offset, message),
                                  stacklevel=2)
                if len(batch["score"]):
                    yield self.tensors(batch)
        finally:
            it.close()

    @staticmethod
    def tensors(batch):
        """A batch of :func:`dirfill.nnue_batches` as nnue-pytorch's training step takes it:
        (us, them, white_indices, black_indices, outcome, score, piece_count), over the batch's
        memory but them and piece_count."""
        us = torch.from_numpy(batch["is_white"]).view(-1, 1)
        return (us, 1.0 - us, torch.from_numpy(batch["white"]),
                torch.from_numpy(batch["black"]), torch.from_numpy(batch["outcome"]).view(-1, 1),
                torch.from_numpy(batch["score"]).view(-1, 1),
                torch.from_numpy(batch["piece_count"]).to(torch.int64))
