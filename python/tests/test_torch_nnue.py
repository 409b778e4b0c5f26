# SPDX-License-Identifier: MIT
"""dirfill.torch.NNUEDataset: nnue-pytorch's training tuple, every entry exactly once under a
DataLoader with 0 to 4 workers and over ranks; and examples/nnue_train.py trains."""



import gc
import itertools
import os
import subprocess
import sys

import numpy as np
import pytest

if os.environ.get("DIRFILL_REQUIRE_TORCH"):
    import torch  # noqa: F401 (fails loudly in CI)
else:
    torch = pytest.importorskip("torch")

import dirfill
from inherited import HELD, close_inherited
from dirfill.torch import NNUEDataset
from test_nnue import PGN_MAKE, PROGRAM, Data, all_rows

from torch.utils.data import DataLoader

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    for p in (PROGRAM, PGN_MAKE):
        if not os.path.exists(p):
            pytest.fail("%s is not built (make test builds it)" % p)
    return Data(tmp_path_factory.mktemp("torch_nnue"))


def as_batch(t):
    """A training tuple back as nnue_batches' arrays (for all_rows)."""
    us, them, white, black, outcome, score, pc = t
    assert torch.equal(them, 1 - us)
    return {"is_white": us.numpy()[:, 0], "outcome": outcome.numpy()[:, 0],
            "score": score.numpy()[:, 0], "white": white.numpy(), "black": black.numpy(),
            "piece_count": pc.numpy()}


@pytest.mark.filterwarnings("ignore:This DataLoader will create")
@pytest.mark.parametrize("workers", [0, 1, 2, 3, 4])
def test_workers_give_every_entry_once(data, workers):
    sources = [data.binpack, data.bin]
    want = sorted(all_rows(dirfill.nnue_batches(sources, 4096)))
    got = list(DataLoader(NNUEDataset(sources, 300, "HalfKAv2_hm"), batch_size=None,
                          num_workers=workers))
    rows = [as_batch(t) for t in got]
    assert sorted(all_rows(rows)) == sorted(all_rows(dirfill.nnue_batches(sources, 4096,
                                                                         "HalfKAv2_hm")))
    assert len(want) == sum(len(r["score"]) for r in rows)
    us, them, white, black, outcome, score, pc = got[0]
    n = len(pc)
    assert us.shape == them.shape == outcome.shape == score.shape == (n, 1)
    assert us.dtype == them.dtype == outcome.dtype == score.dtype == torch.float32
    assert white.shape == black.shape == (n, 32) and white.dtype == black.dtype == torch.int32
    assert pc.shape == (n,) and pc.dtype == torch.int64


@pytest.mark.filterwarnings("ignore:This DataLoader will create")
def test_ranks_and_workers_together(data):
    every = sorted(all_rows(dirfill.nnue_batches(data.binpack, 4096)))
    got = []
    for rank in range(2):
        ds = NNUEDataset(data.binpack, 200, rank=rank, world_size=2)
        got += [as_batch(t) for t in DataLoader(ds, batch_size=None, num_workers=2)]
    assert sorted(all_rows(got)) == every


@pytest.mark.filterwarnings("ignore:This DataLoader will create")
def test_workers_forked_while_the_main_process_reads(data):
    """Workers forked while the main process reads the same dataset (its reader's thread
    running): each reads with a reader of its own, and one that closes the reader it inherited
    does not wait for the main process's thread; the main process reads on."""
    ds = NNUEDataset(data.binpack, 200, "HalfKAv2_hm")
    every = sorted(all_rows(dirfill.nnue_batches(data.binpack, 4096, "HalfKAv2_hm")))
    mine = iter(ds)
    first = as_batch(next(mine))
    HELD.append(mine)
    try:
        got = [as_batch(t) for t in DataLoader(ds, batch_size=None, num_workers=2, timeout=30,
                                                worker_init_fn=close_inherited)]
    finally:
        HELD.clear()
    assert sorted(all_rows(got)) == every
    assert sorted(all_rows([first] + [as_batch(t) for t in mine])) == every


def test_skip_is_seeded_per_share(data):
    ds = NNUEDataset(data.binpack, 500, skip={}, seed=3)
    a = all_rows([as_batch(t) for t in ds])
    assert a == all_rows([as_batch(t) for t in ds])
    assert a == all_rows(dirfill.nnue_batches(data.binpack, 500, skip={}, seed=3))


def test_cyclic_reads_again(data):
    once = all_rows([as_batch(t) for t in NNUEDataset(data.bin, 400)])
    it = iter(NNUEDataset(data.bin, 400, cyclic=True))
    again = all_rows([as_batch(next(it)) for _ in range(3 * (len(once) // 400 + 1))])
    assert again[:len(once)] == once and again[len(once):2 * len(once)] == once
    skipped = iter(NNUEDataset(data.bin, 400, cyclic=True, skip={}))
    passes = all_rows([as_batch(next(skipped)) for _ in range(60)])
    assert len(passes) > 2 * len(all_rows(dirfill.nnue_batches(data.bin, 400, skip={})))
    empty = NNUEDataset(data.parts[0], 400, cyclic=True, rank=1, world_size=2)
    assert list(empty) == []  # a share without entries does not loop for ever


@pytest.mark.filterwarnings("ignore:This DataLoader will create")
def test_shuffled_shares_give_every_entry_once(data):
    """Shuffled, the DataLoader's workers and the ranks still give every entry once, in an
    order of the seed's: the same seed the same batches, another seed others."""
    sources = [data.binpack, data.bin]
    every = sorted(all_rows(dirfill.nnue_batches(sources, 4096, "HalfKAv2_hm")))
    for workers in (0, 2):
        ds = NNUEDataset(sources, 300, "HalfKAv2_hm", shuffle=1000, seed=3)
        got = [as_batch(t) for t in DataLoader(ds, batch_size=None, num_workers=workers)]
        assert sorted(all_rows(got)) == every
        assert all_rows(got) != sorted(all_rows(got))
        again = [as_batch(t) for t in DataLoader(ds, batch_size=None, num_workers=workers)]
        assert all_rows(again) == all_rows(got)
    other = [as_batch(t) for t in NNUEDataset(sources, 300, "HalfKAv2_hm", shuffle=1000, seed=4)]
    assert all_rows(other) != all_rows([as_batch(t) for t in NNUEDataset(
        sources, 300, "HalfKAv2_hm", shuffle=1000, seed=3)])
    got = []
    for rank in range(2):  # 2 ranks x 2 workers: four shuffled shares
        ds = NNUEDataset(sources, 300, "HalfKAv2_hm", shuffle=1000, rank=rank, world_size=2)
        got += [as_batch(t) for t in DataLoader(ds, batch_size=None, num_workers=2)]
    assert sorted(all_rows(got)) == every


@pytest.mark.filterwarnings("ignore:This DataLoader will create")
@pytest.mark.parametrize("shuffle", [0, 2000])
@pytest.mark.parametrize("workers", [0, 2])
def test_cyclic_batches_are_full(data, shuffle, workers):
    """cyclic=True: every batch has batch_size rows, across the files' ends and the passes
    (a pass per iterator would end each with a short batch: 300, ..., 117, 300, ...)."""
    total = len(all_rows(dirfill.nnue_batches(data.parts, 4096, "HalfKAv2_hm")))
    assert total % 300
    ds = NNUEDataset(data.parts, 300, "HalfKAv2_hm", shuffle=shuffle, cyclic=True)
    sizes = [len(t[0]) for t in itertools.islice(DataLoader(ds, batch_size=None,
                                                            num_workers=workers),
                                                 3 * total // 300 + 4)]
    assert sizes == [300] * len(sizes)


def test_chunk_errors_warn_and_options_are_checked(data, tmp_path):
    raw = open(data.binpack, "rb").read()
    bad = tmp_path / "bad.binpack"
    bad.write_bytes(raw[:os.path.getsize(data.parts[0])] + b"XXXXXXXX")
    with pytest.warns(UserWarning, match="bad.binpack: byte .*: chunk 1 .*BINP"):
        got = list(NNUEDataset(str(bad), 100000))
    assert len(got) == 1
    with pytest.raises(ValueError):
        NNUEDataset(data.binpack, skip={"nope": 1})
    with pytest.raises(ValueError):
        NNUEDataset(data.binpack, batch_size=0)
    with pytest.raises(dirfill.SourceError):
        list(NNUEDataset(str(tmp_path / "gone.binpack")))


def test_train_example(data):
    script = os.path.join(ROOT, "examples", "nnue_train.py")
    run = subprocess.run([sys.executable, script, data.binpack, "--steps", "60", "--batch",
                          "256", "--threads", "1"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "60/60 loss" in run.stdout
    first, last = [float(x) for x in run.stdout.split("mean loss")[1].split()[:3:2]]
    assert last < first


# ---- examples/nnue_pytorch_loaders.py: nnue-pytorch's make_data_loaders, read by dirfill ----

#: nnue-pytorch's make_data_loaders (train.py at 9f72946): its parameters, in order, the
#: stand-in the recipe must keep to.
NNUE_PYTORCH_PARAMETERS = ["train_filenames", "val_filenames", "feature_name", "num_workers",
                           "batch_size", "config", "epoch_size", "val_size", "pin_memory",
                           "queue_size_limit", "prefetch_device", "rank", "world_size"]


class DataloaderSkipConfig:
    """A stand-in for nnue-pytorch's data_loader.DataloaderSkipConfig: its fields and
    defaults, plus its param_index, which is no skip option."""

    def __init__(self, **changes):
        self.filtered, self.wld_filtered = True, True
        self.random_fen_skipping, self.early_fen_skipping = 0, -1
        self.soft_early_fen_skipping, self.simple_eval_skipping, self.param_index = 20, -1, 0
        self.pc_y0, self.pc_y1, self.pc_y2, self.pc_y3, self.pc_y4 = 0.0, 0.4, 1.0, 1.0, 0.75
        self.ply_x1, self.ply_x2, self.ply_x3, self.ply_x4 = 0.0, 0.0, 0.0, 0.0
        self.ply_y1, self.ply_y2, self.ply_y3, self.ply_y4 = 1.0, 1.0, 1.0, 1.0
        self.__dict__.update(changes)


def recipe():
    sys.path.insert(0, os.path.join(ROOT, "examples"))
    try:
        import nnue_pytorch_loaders
    finally:
        sys.path.pop(0)
    return nnue_pytorch_loaders


def test_recipe_is_nnue_pytorchs_make_data_loaders(data):
    """Called as nnue-pytorch's train.py calls its own: the same parameters; epoch_size //
    (batch_size * world_size) full batches of its training tuple an epoch, the next epoch going
    on; its trainer's feature name; its skip config; a validation loader of its own files."""
    import inspect
    r = recipe()
    assert list(inspect.signature(r.make_data_loaders).parameters) == NNUE_PYTORCH_PARAMETERS
    r.SHUFFLE = 4096  # these few entries: a million would read them over and over first
    train, val = r.make_data_loaders([data.binpack], [data.plain],
                                     "Full_Threats+PP_3Wide+HalfKAv2_hm^", 1, 256,
                                     DataloaderSkipConfig(), 256 * 5, 256 * 2, pin_memory=False,
                                     queue_size_limit=100, prefetch_device="cpu", rank=0,
                                     world_size=1)
    assert len(train) == 5 and len(val) == 2
    epochs = [list(train), list(train)]
    for batch in epochs[0] + epochs[1] + list(val):
        us, them, white, black, outcome, score, pc = batch
        assert us.shape == them.shape == outcome.shape == score.shape == (256, 1)
        assert white.shape == black.shape == (256, 288) and pc.shape == (256,)
        assert us.dtype == torch.float32 and white.dtype == torch.int32 and pc.dtype == torch.int64
        # nnue-pytorch's default skip config leaves out what it filters: no score of "none"
        assert not (score == 32002).any()
    assert not torch.equal(epochs[0][0][2], epochs[1][0][2])  # the second epoch goes on
    # Ranks: each its own share, both the recipe's loaders.
    t0, v0 = r.make_data_loaders([data.binpack], None, "HalfKAv2_hm", 1, 100,
                                 DataloaderSkipConfig(filtered=False, wld_filtered=False,
                                                      soft_early_fen_skipping=0, pc_y1=1.0,
                                                      pc_y4=1.0, pc_y0=1.0),
                                 400, 0, False, 100, rank=1, world_size=2)
    assert v0 is None and len(t0) == 2
    assert [b[0].shape[0] for b in t0] == [100, 100]
