# SPDX-License-Identifier: MIT
"""nnue-pytorch's data loaders, read by dirfill: a drop-in for its train.py's
``make_data_loaders`` (nnue-pytorch 9f72946), with the same arguments and the same pair of
DataLoaders, each batch the tuple its training step takes (``us, them, white_indices,
black_indices, outcome, score, piece_count``).

In nnue-pytorch's train.py, with dirfill's package installed (``make python``; run the trainer
with ``build/venv/bin/python``, or copy this file beside train.py)::

    from nnue_pytorch_loaders import make_data_loaders   # instead of its own

and its native loader (``data_loader/cpp``, ``compile_data_loader.bat`` / its CMake build) is
not needed: neither the training loader nor the validation loader touches it. What its loader
does, this does the same way: nnue-pytorch's skip options (``config``, its
``DataloaderSkipConfig``, read by field name), its DDP shares (``rank``, ``world_size``: each
rank reads every world_size-th chunk of each file), a cyclic read of the files with batches
always full, entries shuffled in buffers of ``SHUFFLE`` entries (its worker buffer,
``threadBufferSize``, 1,048,576) and files picked piece by piece by what is left of each, the
seed its own 5489, and ``epoch_size // (batch_size * world_size)`` batches an epoch, the next
epoch going on where the last stopped (its ``FixedNumBatchesDataset``). ``num_workers`` is its
loader's thread count, here the threads that compute each batch's feature rows;
``feature_name`` its input set (``Full_Threats+PP_3Wide+HalfKAv2_hm``, or its trainer's
``HalfKAv2_hm^``). ``pin_memory``, ``queue_size_limit`` and ``prefetch_device`` keep their
meanings: the batch is pinned, and moved to the device, as it is taken.
"""
import torch
from torch.utils.data import DataLoader, Dataset

from dirfill.torch import NNUEDataset

#: Entries a share shuffles at a time: nnue-pytorch's worker buffer.
SHUFFLE = 1 << 20
#: nnue-pytorch's seed (std::mt19937_64's default).
SEED = 5489
#: The skip options nnue-pytorch's DataloaderSkipConfig holds, by the names both use.
SKIP_FIELDS = ("filtered", "wld_filtered", "random_fen_skipping", "early_fen_skipping",
               "soft_early_fen_skipping", "simple_eval_skipping", "pc_y0", "pc_y1", "pc_y2",
               "pc_y3", "pc_y4", "ply_x1", "ply_x2", "ply_x3", "ply_x4", "ply_y1", "ply_y2",
               "ply_y3", "ply_y4")


def skip_options(config):
    """nnue-pytorch's DataloaderSkipConfig as dirfill's skip dict (the fields it has)."""
    return {name: getattr(config, name) for name in SKIP_FIELDS if hasattr(config, name)}


class FixedNumBatches(Dataset):
    """num_batches batches of an endless dataset, an epoch at a time, each epoch going on where
    the last one stopped: nnue-pytorch's FixedNumBatchesDataset."""

    def __init__(self, dataset, num_batches, pin_memory=False, device=None):
        self.dataset, self.num_batches = dataset, num_batches
        self.pin_memory, self.device = pin_memory, device
        self.iterator = None

    def __len__(self):
        return self.num_batches

    def __getitem__(self, index):
        if self.iterator is None:
            self.iterator = iter(self.dataset)
        batch = next(self.iterator)
        if self.pin_memory:
            batch = tuple(t.pin_memory() for t in batch)
        if self.device is not None:
            batch = tuple(t.to(self.device, non_blocking=True) for t in batch)
        return batch


def _loader(filenames, feature_name, num_workers, batch_size, config, num_batches, pin_memory,
            prefetch_device, rank, world_size):
    dataset = NNUEDataset(filenames, batch_size, feature_name, skip=skip_options(config),
                          threads=max(1, num_workers), seed=SEED, rank=rank,
                          world_size=world_size, shuffle=SHUFFLE, cyclic=True)
    device = torch.device(prefetch_device) if prefetch_device is not None else None
    return DataLoader(FixedNumBatches(dataset, num_batches, pin_memory, device), batch_size=None,
                      batch_sampler=None, num_workers=0)


def make_data_loaders(train_filenames, val_filenames, feature_name, num_workers, batch_size,
                      config, epoch_size, val_size, pin_memory, queue_size_limit,
                      prefetch_device=None, rank=0, world_size=1):
    """(train, val): DataLoaders of nnue-pytorch's training tuples, as its make_data_loaders
    gives them (val None when val_size <= 0; the training files when val_filenames is None).
    queue_size_limit is nnue-pytorch's prefetch queue, which dirfill's reader thread and its
    two waiting batches stand in for."""
    del queue_size_limit  # the reader thread's queue of batches is the prefetch
    effective_batch_size = batch_size * world_size
    train = _loader(train_filenames, feature_name, num_workers, batch_size, config,
                    max(1, epoch_size // effective_batch_size), pin_memory, prefetch_device,
                    rank, world_size)
    if val_size <= 0:
        return train, None
    val = _loader(val_filenames if val_filenames is not None else train_filenames, feature_name,
                  num_workers, batch_size, config, max(1, val_size // effective_batch_size),
                  pin_memory, prefetch_device, rank, world_size)
    return train, val
