# SPDX-License-Identifier: MIT
"""PGN positions for PyTorch: :class:`PGNDataset`, an ``IterableDataset`` of whole batches.

``import dirfill`` does not import torch; ``import dirfill.torch`` does (Debian's
``python3-torch``, 1.13 or later)::

    from torch.utils.data import DataLoader
    from dirfill.torch import PGNDataset

    ds = PGNDataset(["jan.pgn", "feb.pgn"], batch_size=4096, shuffle_buffer=1 << 16, seed=1)
    for batch in DataLoader(ds, batch_size=None, num_workers=4):   # the dataset batches
        x, y = batch["pieces"], batch["result"]                     # int64 (n, 12), int8 (n,)

The input is split between the DataLoader's workers and the processes of a distributed run
(rank and world size from ``torch.distributed`` when it is initialized, or given): by file,
and by byte range inside a plain file at exact game boundaries (:func:`dirfill.pgn_cuts`, the
threaded reader's rule), so that every position of the input is given exactly once, whatever
the number of workers and processes. Compressed files (.zst, .gz) are split by file only.
"""
import os

import numpy as np
import torch
from torch.utils.data import IterableDataset, get_worker_info

from . import _dirfill, pgn_cuts

__all__ = ["PGNDataset", "to_tensors"]

# torch 1.13 has no unsigned types wider than uint8: the columns travel as the signed type of
# the same width, the same bits (a view, no copy). Bitboards are int64 views of the uint64
# bitboards (square 63 is the sign bit: compare bits, not signs); ply, halfmove and fullmove
# never reach 2**31; a move is the library's 16-bit move as int16 bits (.view(np.uint16) on
# the way back).
_SIGNED = {np.dtype(np.uint64): np.int64, np.dtype(np.uint32): np.int32,
           np.dtype(np.uint16): np.int16}


def to_tensors(batch):
    """A batch of numpy columns as tensors sharing their memory (uint64, uint32 and uint16
    columns as int64, int32 and int16 views of the same bits); entries that are not arrays
    are left out."""
    out = {}
    for k, v in batch.items():
        if isinstance(v, np.ndarray) and v.dtype.kind in "biuf":
            out[k] = torch.from_numpy(v.view(_SIGNED.get(v.dtype, v.dtype)))
    return out


def _splittable(path):
    return not str(path).endswith((".zst", ".gz"))


class PGNDataset(IterableDataset):
    """Positions of PGN files in batches of tensors, split between workers and ranks.

    ``sources``: a path or a list of paths (.pgn, .pgn.zst, .pgn.gz). Each item is a dict of
    tensors with ``batch_size`` rows (the last of each worker shorter): the columns of
    :func:`dirfill.pgn_batches` (``columns`` to keep fewer; ``planes=True`` adds the planes),
    ``game`` numbered within its file, and ``file`` (the index of its file in ``sources``).
    Use it as ``DataLoader(ds, batch_size=None, num_workers=N)``: the dataset makes the
    batches. ``threads``: the library's threads per worker (1: each worker one core).
    ``where``: a tag filter as :func:`dirfill.pgn_batches` takes it.

    ``shuffle_buffer`` > 0: each worker gathers that many rows, gives them in a random order,
    then the next ones (a window shuffle: no row is held back or given twice), from a
    generator seeded by ``seed``, the worker's share and :meth:`set_epoch`'s epoch: the same
    seed gives the same batches. ``rank``/``world_size``: this process's share of a run over
    many processes (default: ``torch.distributed``'s when it is initialized, else 0 of 1).
    """

    def __init__(self, sources, batch_size=4096, *, threads=1, planes=False, chess960=False,
                 where=None, columns=None, shuffle_buffer=0, seed=0, rank=None, world_size=None):
        super().__init__()
        if isinstance(sources, (str, bytes, os.PathLike)):
            sources = [sources]
        self.sources = [os.fspath(s) for s in sources]
        if batch_size < 1:
            raise ValueError("batch_size must be 1 or more")
        self.batch_size, self.threads, self.planes = batch_size, threads, planes
        self.chess960, self.where, self.columns = chess960, where, columns
        self.shuffle_buffer, self.seed, self.epoch = shuffle_buffer, seed, 0
        self.rank, self.world_size = rank, world_size
        if where is not None:  # a malformed filter fails here, not in a worker
            _dirfill._pgn_batches([], 1, where=where).close()

    def set_epoch(self, epoch):
        """Another order for the next pass when shuffling (the same epoch, the same order)."""
        self.epoch = epoch

    def _share(self):
        """(this worker's share, the number of shares)."""
        rank, world = self.rank, self.world_size
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

    def shards(self, share, shares):
        """The parts share (of shares) reads: a list of (file index, path, byte range or None,
        first game). Every byte of the input belongs to one share; a plain file's parts begin
        and end at exact game boundaries."""
        sizes = [os.path.getsize(p) for p in self.sources]
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
            (ca, _, game), (cb, _, _) = pgn_cuts(path, [a, b])
            if ca < cb:
                parts.append((i, path, (ca, cb), game))
        return parts

    def _batches(self, share, shares):
        parts = self.shards(share, shares)
        if not parts:
            return
        specs = [(path, rng, game) for _, path, rng, game in parts]
        files = np.array([i for i, _, _, _ in parts], dtype=np.int32)
        it = _dirfill._pgn_batches(specs, self.batch_size, threads=self.threads,
                                   planes=self.planes, chess960=self.chess960, where=self.where,
                                   file_column=True, headers=False)
        try:
            for batch in it:
                if len(batch["ply"]) == 0:
                    continue
                batch["file"] = files[batch["file"]]
                if self.columns is not None:
                    batch = {k: v for k, v in batch.items() if k in self.columns or k == "file"}
                yield batch
        finally:
            it.close()

    def _shuffled(self, batches, rng):
        held, n = [], 0
        for batch in batches:
            held.append(batch)
            n += len(batch["file"])
            if n >= self.shuffle_buffer:
                yield from self._drain(held, rng, keep_tail=True)
                n = sum(len(b["file"]) for b in held)
        yield from self._drain(held, rng, keep_tail=False)

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
        share, shares = self._share()
        batches = self._batches(share, shares)
        if self.shuffle_buffer > 0:
            rng = np.random.default_rng([self.seed, self.epoch, share, shares])
            batches = self._shuffled(batches, rng)
        for batch in batches:
            yield to_tensors(batch)
