# SPDX-License-Identifier: MIT
"""dirfill.torch.PGNDataset: with any number of DataLoader workers (0-4) and over two
processes of a gloo run, every position of the input exactly once (checked column by column
against pgn_positions of each file); the cuts inside files at exact game boundaries; shuffling
deterministic for a seed; int64 views of the bitboards. `make test-torch` runs these with
DIRFILL_REQUIRE_TORCH=1 (CI): a missing torch is then a failure, not a skip."""
import gzip
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

if os.environ.get("DIRFILL_REQUIRE_TORCH"):
    import torch  # noqa: F401 (fails loudly in CI)
else:
    torch = pytest.importorskip("torch")

import dirfill
from dirfill.torch import PGNDataset, to_tensors
from test_pgn import BAD, TEXT

from torch.utils.data import DataLoader

KEYS = ("file", "game", "ply")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("torch")
    a, b, c = d / "a.pgn", d / "b.pgn.gz", d / "c.pgn"
    a.write_text(TEXT * 3 + BAD + TEXT)  # errors and a skipped game inside a split file
    with gzip.open(b, "wt") as f:
        f.write(TEXT)
    c.write_text(TEXT[: len(TEXT) // 3].rsplit("[Event", 1)[0])
    return [str(a), str(b), str(c)]


def expected(files):
    """Every position of the files, as pgn_positions reads each, with its file index."""
    out = []
    for i, f in enumerate(files):
        p = dirfill.pgn_positions(f, threads=2)
        p["file"] = np.full(len(p["ply"]), i, dtype=np.int32)
        out.append(p)
    return {k: np.concatenate([p[k] for p in out])
            for k in dirfill.POSITION_COLUMNS + ("file",)}


def sort_rows(rows):
    order = np.lexsort([rows[k] for k in reversed(KEYS)])
    return {k: v[order] for k, v in rows.items()}


def gather(batches):
    got = [{k: v.numpy() for k, v in b.items()} for b in batches]
    return {k: np.concatenate([b[k] for b in got]) for k in got[0]}


def check_exactly_once(got, want):
    key = lambda r: r["file"].astype(np.int64) << 40 | r["game"] << 12 | r["ply"].astype(np.int64)
    assert len(np.unique(key(got))) == len(key(got))  # none twice
    assert len(got["ply"]) == len(want["ply"])  # none dropped
    got, want = sort_rows(got), sort_rows(want)
    for k in dirfill.POSITION_COLUMNS:
        g = got[k]
        if want[k].dtype != g.dtype:  # the int views travel back to the numpy types
            g = g.view(want[k].dtype)
        assert np.array_equal(g, want[k], equal_nan=g.dtype.kind == "f"), k


@pytest.mark.filterwarnings("ignore:This DataLoader will create")
@pytest.mark.parametrize("workers", [0, 1, 2, 3, 4])
def test_workers_read_every_position_once(files, workers):
    want = expected(files)
    ds = PGNDataset(files, 1000)
    batches = list(DataLoader(ds, batch_size=None, num_workers=workers))
    assert all(len(b["ply"]) <= 1000 for b in batches)
    check_exactly_once(gather(batches), want)


def test_shares_take_whole_files_when_there_are_enough(files):
    ds = PGNDataset(files, 1000)
    for shares in (1, 2, 3):
        parts = [ds.shards(s, shares) for s in range(shares)]
        assert all(p[2] is None and p[3] == 0 for share in parts for p in share)  # none cut
        assert sorted(p[0] for share in parts for p in share) == [0, 1, 2]  # each once
        assert all(share for share in parts)
    sizes = [os.path.getsize(f) for f in files]
    big = max(range(3), key=sizes.__getitem__)
    assert [p[0] for p in ds.shards(0, 2)] == [big]  # the largest alone, the others together


def test_shares_cut_files_at_game_boundaries(files):
    ds = PGNDataset(files, 1000)
    size = os.path.getsize(files[0])
    for shares in (4, 5, 16):  # more shares than files
        parts = [p for s in range(shares) for p in ds.shards(s, shares)]
        assert [p[0] for p in parts].count(1) == 1  # the .gz file whole, once
        for i in (0, 2):  # a plain file wholly inside a share is read whole, not cut
            ranges = sorted(p[2] or (0, os.path.getsize(files[i])) for p in parts if p[0] == i)
            assert ranges[0][0] == 0 and ranges[-1][1] == os.path.getsize(files[i])
            assert all(x[1] == y[0] for x, y in zip(ranges, ranges[1:]))  # no gap, no overlap
        inner = [r[0] for p in parts if p[0] == 0 for r in [p[2]] if 0 < r[0] < size]
        with open(files[0], "rb") as f:
            data = f.read()
        assert all(data[c:c + 1] == b"[" and data[c - 2:c] == b"\n\n" for c in inner)
        assert inner


@pytest.mark.filterwarnings("ignore:This DataLoader will create")
def test_workers_hand_batches_over_in_reused_shared_memory(files):
    """Dropped batches: the workers fill the same few regions again, and no batch is
    overwritten while the main process uses it (each one compared before it is dropped);
    batches all kept: more regions than a worker keeps, none overwritten either."""
    want = expected(files)
    dirfill.torch._MAPPINGS.clear()
    ds = PGNDataset(files, 50)
    copies = []
    for b in DataLoader(ds, batch_size=None, num_workers=2):
        copies.append({k: v.clone() for k, v in b.items()})
    assert len(copies) > 3 * len(dirfill.torch._MAPPINGS)  # the regions were reused
    check_exactly_once(gather(copies), want)
    kept = list(DataLoader(ds, batch_size=None, num_workers=2))
    assert len(kept) > 2 * 8
    check_exactly_once(gather(kept), want)
    assert all(np.array_equal(a["ply"].numpy(), b["ply"].numpy()) for a, b in zip(kept, copies))


def test_shuffle_is_deterministic(files):
    want = expected(files)
    runs = []
    for seed in (7, 7, 8):
        ds = PGNDataset(files, 512, shuffle_buffer=5000, seed=seed)
        runs.append(list(DataLoader(ds, batch_size=None, num_workers=2)))
    a, b, c = (gather(r) for r in runs)
    assert all(np.array_equal(a[k], b[k]) for k in KEYS)
    assert not np.array_equal(a["game"], c["game"])
    assert not np.array_equal(a["game"], np.sort(a["game"]))
    check_exactly_once(c, want)
    assert [len(x["ply"]) for x in runs[0]].count(512) >= len(runs[0]) - 2  # one short a worker


def test_tensors_are_views(files):
    b = next(iter(dirfill.pgn_batches(files[0], 100, threads=1, planes=True)))
    t = to_tensors(b)
    assert t["pieces"].dtype == torch.int64 and t["move"].dtype == torch.int16
    assert t["planes"].dtype == torch.uint8 and t["stm"].dtype == torch.bool
    assert np.shares_memory(t["pieces"].numpy(), b["pieces"])
    assert np.array_equal(t["pieces"].numpy().view(np.uint64), b["pieces"])
    assert "headers" not in t
    with pytest.raises(ValueError):
        PGNDataset(files, where="WhiteElo")


DISTRIBUTED = textwrap.dedent("""
    import sys, numpy as np, torch, torch.distributed as dist
    from torch.utils.data import DataLoader
    from dirfill.torch import PGNDataset
    rank, init, out, files = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
    dist.init_process_group("gloo", init_method=init, rank=rank, world_size=2)
    rows = {k: [] for k in ("file", "game", "ply")}
    for b in DataLoader(PGNDataset(files, 700), batch_size=None, num_workers=2):
        for k in rows:
            rows[k].append(b[k].numpy())
    n = torch.tensor([sum(len(x) for x in rows["ply"])])
    dist.all_reduce(n)  # the two ranks talk: the group is real
    np.savez(out, total=n.numpy(), **{"c_" + k: np.concatenate(v) for k, v in rows.items()})
    dist.destroy_process_group()
""")


def test_two_ranks_on_gloo(files, tmp_path):
    want = expected(files)
    script = tmp_path / "rank.py"
    script.write_text(DISTRIBUTED)
    init = "file://" + str(tmp_path / "rendezvous")
    procs = [subprocess.Popen([sys.executable, str(script), str(r), init,
                               str(tmp_path / ("rank%d.npz" % r))] + files) for r in (0, 1)]
    assert [p.wait(timeout=300) for p in procs] == [0, 0]
    parts = [np.load(tmp_path / ("rank%d.npz" % r)) for r in (0, 1)]
    assert all(len(p["c_ply"]) > 0 for p in parts)  # both ranks had a share
    assert int(parts[0]["total"][0]) == len(want["ply"])
    got = {k: np.concatenate([p["c_" + k] for p in parts]) for k in KEYS}
    key = lambda r: r["file"].astype(np.int64) << 40 | r["game"] << 12 | r["ply"].astype(np.int64)
    assert np.array_equal(np.sort(key(got)), np.sort(key(want)))


def test_train_example(files):
    script = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), "examples", "train_torch.py")
    run = subprocess.run([sys.executable, script, files[0], files[1], "--steps", "20", "--batch",
                          "256", "--workers", "2"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "20/20 loss" in run.stdout and "20 steps" in run.stdout


def test_main_process_keeps_a_bounded_number_of_mappings():
    """Regions that come and go (each larger than the last replaces a free kept one): the main
    process keeps the most recent mappings only; a batch over an evicted one stays valid."""
    dirfill.torch._MAPPINGS.clear()
    first = None
    for i in range(40):
        a = np.arange(8192 * (i + 1), dtype=np.int64) + i  # 64 KB more each time
        handle, offsets = dirfill._dirfill._shared_pack([a])
        pid, fd, key, size, kept = handle.send()
        assert kept
        got = dirfill.torch._unpack((pid, fd, key), size, (("x", "int64", a.size, a.shape,
                                                            offsets[0]),))
        assert np.array_equal(got["x"].numpy(), a)
        first = first or (got, a)
    assert len(dirfill.torch._MAPPINGS) == dirfill.torch._MAPPINGS_KEPT
    assert np.array_equal(first[0]["x"].numpy(), first[1])


@pytest.mark.filterwarnings("ignore:This DataLoader will create")
@pytest.mark.parametrize("workers", [0, 2])
def test_planes_computed_last_into_the_batch(files, workers):
    """Planes with shuffling and columns that leave the bitboards out: computed from each
    batch's rows in their final order (in a worker, straight into its shared memory)."""
    ds = PGNDataset(files, 300, planes=True, shuffle_buffer=1000, seed=3,
                    columns=["planes", "game", "ply"])
    batches = list(DataLoader(ds, batch_size=None, num_workers=workers))
    assert set(batches[0]) == {"planes", "game", "ply", "file"}
    got = gather(batches)
    want = sort_rows(expected(files))
    order = np.lexsort([got[k] for k in reversed(KEYS)])
    planes = dirfill.attack_planes_from_bitboards(want["pieces"], want["stm"],
                                                  castling=want["castling"], ep=want["ep"])
    assert np.array_equal(got["planes"][order], planes)
    assert not np.array_equal(got["game"], np.sort(got["game"]))  # shuffled


def test_readme_torch_block_runs(tmp_path):
    """The PyTorch example of docs/python.md as written (test_readme.py runs the other blocks)."""
    from test_readme import run_block, torch_blocks
    blocks = torch_blocks()
    assert blocks
    for code in blocks:
        r = run_block(code, str(tmp_path))
        assert r.returncode == 0, "guide block:\n%s\n%s" % (code, r.stderr)
