# SPDX-License-Identifier: MIT
"""dirfill.torch.PGNDataset: with any number of DataLoader workers (0-4) and over two
processes of a gloo run, every position of the input exactly once (checked column by column
against pgn_positions of each file); the cuts inside files at exact game boundaries; shuffling
deterministic for a seed; int64 views of the bitboards. `make test-torch` runs these with
DIRFILL_REQUIRE_TORCH=1 (CI): a missing torch is then a failure, not a skip."""
import ctypes
import gc
import gzip
import os
import random
import signal
import subprocess
import sys
import textwrap
from contextlib import contextmanager

import numpy as np
import pytest

if os.environ.get("DIRFILL_REQUIRE_TORCH"):
    import torch  # noqa: F401 (fails loudly in CI)
else:
    torch = pytest.importorskip("torch")

import dirfill
from inherited import HELD, close_inherited
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


def expected(files, **options):
    """Every position of the files, as pgn_positions reads each, with its file index."""
    out = []
    for i, f in enumerate(files):
        p = dirfill.pgn_positions(f, threads=2, **options)
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


@pytest.mark.filterwarnings("ignore:This DataLoader will create")
def test_workers_forked_while_the_main_process_reads(files):
    """Workers forked while the main process reads the same dataset (its reader's thread
    running): each reads with a reader of its own, and one that closes the reader it inherited
    does not wait for the main process's thread; the main process reads on."""
    want = expected(files)
    ds = PGNDataset(files, 1000)
    mine = iter(ds)
    first = next(mine)
    HELD.append(mine)
    try:
        batches = list(DataLoader(ds, batch_size=None, num_workers=2, timeout=30,
                                  worker_init_fn=close_inherited))
    finally:
        HELD.clear()
    check_exactly_once(gather(batches), want)
    check_exactly_once(gather([first] + list(mine)), want)


@pytest.mark.filterwarnings("ignore:This DataLoader will create")
@pytest.mark.parametrize("workers", [0, 2])
def test_conventions_hold_for_tensors(files, workers):
    """docs/conventions.md's position columns as tensors: each the array's (test_conventions.py
    checks the arrays against the program, read_pgn and Board), the side to move's view and the
    position filters as pgn_positions applies them, file the index in sources, turn bool."""
    from test_conventions import table_names
    options = {"view": "side_to_move", "min_ply": 3, "max_ply": 60, "require_eval": True}
    want = expected(files, **options)
    ds = PGNDataset(files, 300, shuffle_buffer=1000, seed=2, **options)
    batches = list(DataLoader(ds, batch_size=None, num_workers=workers))
    assert all(b["turn"].dtype == torch.bool for b in batches)
    got = gather(batches)
    check_exactly_once(got, want)  # every column, file included
    named = [n for n in table_names() if n in dirfill.POSITION_COLUMNS + ("file",)]
    assert set(named) == set(dirfill.POSITION_COLUMNS) - {"move"} | {"move", "file"}
    white = expected(files, min_ply=3, max_ply=60, require_eval=True)
    assert np.array_equal(sort_rows(want)["eval"], np.where(sort_rows(white)["turn"], 1, -1) *
                          sort_rows(white)["eval"])


@pytest.mark.filterwarnings("ignore:This DataLoader will create")
@pytest.mark.parametrize("workers", [0, 2])
def test_a_source_that_fails_after_good_batches(files, tmp_path, workers):
    """A truncated .zst among the files: every row before the cut (shuffled or not), then
    dirfill.SourceError naming it, from the main process or a worker."""
    import zlib  # noqa: F401 (the .gz of the fixture needs it too)
    whole = subprocess.run(["zstd", "-q", "-c", files[0]], capture_output=True,
                           check=True).stdout
    cut = tmp_path / "cut.pgn.zst"
    cut.write_bytes(whole[: len(whole) // 2])
    sources = [files[2], str(cut)]
    with pytest.raises(dirfill.SourceError) as e:
        dirfill.pgn_positions(sources)
    before = len(e.value.positions["ply"])
    for shuffle in (0, 4000):
        got = []
        with pytest.raises(dirfill.SourceError, match=str(cut)):
            for b in DataLoader(PGNDataset(sources, 500, shuffle_buffer=shuffle),
                                batch_size=None, num_workers=workers):
                got.append(len(b["ply"]))
        if workers == 0:
            assert sum(got) == before


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
    assert t["planes"].dtype == torch.uint8 and t["turn"].dtype == torch.bool
    assert np.shares_memory(t["pieces"].numpy(), b["pieces"])
    assert np.array_equal(t["pieces"].numpy().view(np.uint64), b["pieces"])
    assert "headers" not in t
    with pytest.raises(KeyError, match="renamed 'turn'"):
        t["stm"]
    with pytest.raises(ValueError):
        PGNDataset(files, where="WhiteElo")
    # 0.4's stm (True for Black) asked for by name fails loudly, as do typos and bad options,
    # when the dataset is made (not in a worker).
    with pytest.raises(ValueError, match="renamed 'turn'.*True when White is to move"):
        PGNDataset(files, columns=["pieces", "stm"])
    with pytest.raises(ValueError, match="no column 'evals'"):
        PGNDataset(files, columns=["evals"])
    with pytest.raises(ValueError, match="view"):
        PGNDataset(files, view="black")
    with pytest.raises(ValueError, match="min_ply 5 is above max_ply 4"):
        PGNDataset(files, min_ply=5, max_ply=4)


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


def test_main_process_maps_each_kept_region_once():
    """Regions that come and go (each larger than the last replaces a free kept one): the main
    process keeps a mapping for each region the sender keeps, the one of a region replaced
    dropped; a batch over a dropped one stays valid."""
    dirfill.torch._MAPPINGS.clear()
    first = None
    for i in range(40):
        a = np.arange(8192 * (i + 1), dtype=np.int64) + i  # 64 KB more each time
        handle, offsets = dirfill._dirfill._shared_pack([a])
        pid, fd, key, size, slot, by_proc = handle.send()
        assert slot >= 0 and by_proc
        got = dirfill.torch._unpack((pid, slot, fd, key, None), size,
                                    (("x", "int64", a.size, a.shape, offsets[0]),))
        assert np.array_equal(got["x"].numpy(), a)
        first = first or (got, a)
    assert len(dirfill.torch._MAPPINGS) == 8  # the regions a sender keeps (_shm_batches.c)
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
    planes = dirfill.attack_planes_from_bitboards(want["pieces"], turn=want["turn"],
                                                  castling=want["castling"], ep=want["ep"])
    assert np.array_equal(got["planes"][order], planes)
    assert not np.array_equal(got["game"], np.sort(got["game"]))  # shuffled


def test_docs_torch_block_runs(tmp_path):
    """The PyTorch example of docs/python.md as written (test_docs.py runs the other blocks)."""
    from test_docs import run_block, runnable
    blocks = [b["code"] for b in runnable("python", torch=True)]
    assert blocks
    for code in blocks:
        r = run_block(code, str(tmp_path))
        assert r.returncode == 0, "guide block:\n%s\n%s" % (code, r.stderr)


# ---- the hand-over under forks, many workers, workers gone, pipes ----

@contextmanager
def deadline(seconds):
    """A hang fails the test (SIGALRM raises in the main thread, which pgn_batches and the
    DataLoader leave to run its signal handlers) instead of stopping the suite."""
    def expired(signum, frame):
        raise TimeoutError("no answer in %d s" % seconds)
    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def same_batch(a, b):
    """Byte for byte (NaN evals included)."""
    return a.keys() == b.keys() and all(a[k].numpy().tobytes() == b[k].numpy().tobytes()
                                        for k in a)


def fork_and(action):
    """Runs action in a forked child, which then leaves without Python's finalization (a
    child's normal exit runs multiprocessing's exit handler, which terminates the daemon
    workers of the parent's loader: multiprocessing's way, not dirfill's; test_batch_path's
    stress has children that exit normally)."""
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            action()
            status = 0
        finally:
            os._exit(status)
    assert os.waitpid(pid, 0)[1] == 0


@pytest.mark.filterwarnings("ignore:This DataLoader will create")
def test_fork_and_drop_stress(tmp_path):
    """1,000 random steps over the batches of a DataLoader worker: the main process takes
    batches and keeps them, drops some, leaves some in garbage cycles and collects them, and
    forks children that drop their copies, collect the parent's cycles or drop everything. Every
    batch kept is, at every check and at the end, byte for byte the batch of a fresh read (a
    child gave its parent's counts back: the worker refilled regions under kept batches)."""
    path = tmp_path / "games.pgn"
    path.write_text(TEXT * 3)
    ds = PGNDataset([str(path)], 64)
    want = list(DataLoader(ds, batch_size=None, num_workers=0))
    rng = random.Random(50)
    held, taken = {}, 0
    it = iter(DataLoader(ds, batch_size=None, num_workers=1, timeout=60))
    gc.collect()
    gc.freeze()  # a child's collection then walks the test's objects only, not torch's
    gc.disable()
    try:
        for step in range(1000):
            r = rng.random()
            if r < 0.45 and taken < len(want):
                held[taken] = next(it)
                taken += 1
            elif r < 0.65 and held:
                del held[rng.choice(list(held))]
            elif r < 0.72 and held:  # garbage that only a collector frees
                cycle = [held.pop(rng.choice(list(held)))]
                cycle.append(cycle)
                del cycle
            elif r < 0.77:
                gc.collect()
            elif r < 0.80:
                kind = rng.choice(["drop", "clear", "collect"])
                victim = rng.choice(list(held)) if held else None
                def child():
                    if kind == "drop" and victim is not None:
                        del held[victim]
                    elif kind == "clear":
                        held.clear()
                    gc.collect()
                fork_and(child)
            elif held:
                k = rng.choice(list(held))
                assert same_batch(held[k], want[k]), "batch %d changed at step %d" % (k, step)
        assert taken > 300 and len(held) > 50
        changed = [k for k, b in held.items() if not same_batch(b, want[k])]
        assert not changed, "batches changed: %s" % changed
    finally:
        gc.enable()
        gc.unfreeze()
        del it


def memfd_inodes(pid="self"):
    """The inodes of the dirfill batch regions a process maps."""
    with open("/proc/%s/maps" % pid) as f:
        return {int(line.split()[4]) for line in f if "dirfill-batch" in line}


@pytest.mark.filterwarnings("ignore:This DataLoader will create")
def test_mappings_of_exited_workers_are_dropped(files):
    """An epoch of workers that exit: before the next fork (the next epoch's workers, any
    child) the main process unmaps their regions but those a kept batch uses, and no child
    inherits them (32 regions stayed mapped, in every later worker too)."""
    ds = PGNDataset(files, 50)
    kept = None
    gc.collect()  # the regions of batches other tests left in garbage cycles
    before = memfd_inodes()
    with deadline(120):
        for b in DataLoader(ds, batch_size=None, num_workers=2):
            kept = kept or (b, {k: v.clone() for k, v in b.items()})
        del b
        first = memfd_inodes() - before
        assert len(first) > 2
        r, w = os.pipe()
        fork_and(lambda: os.write(w, repr(sorted(memfd_inodes())).encode()))
        os.close(w)
        in_child = set(eval(os.read(r, 1 << 16)))
        os.close(r)
        now = memfd_inodes()
        assert len(now & first) == 1  # the kept batch's region
        assert not in_child & first - now
        it = iter(DataLoader(ds, batch_size=None, num_workers=2))
        next(it)
        for worker in it._workers:  # none but the kept batch's, which they inherit
            assert memfd_inodes(worker.pid) & first <= now
        del it
    assert same_batch(kept[0], kept[1])


@pytest.mark.filterwarnings("ignore:This DataLoader will create")
def test_mappings_scale_with_workers(tmp_path, monkeypatch):
    """12 workers: each region a worker keeps is opened once (the 32 most recent mappings of
    all workers thrashed: 309 opens in 1,634 batches)."""
    path = tmp_path / "games.pgn"
    path.write_text(TEXT * 2)
    opened, shared_open = [], dirfill._dirfill._shared_open
    monkeypatch.setattr(dirfill._dirfill, "_shared_open",
                        lambda *a: opened.append(a) or shared_open(*a))
    with deadline(300):
        n = sum(1 for _ in DataLoader(PGNDataset([str(path)], 16), batch_size=None,
                                      num_workers=12))
    assert n > 1500
    assert len(opened) <= 12 * 8, len(opened)


def not_dumpable(worker_id):
    ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE


@pytest.mark.filterwarnings("ignore:This DataLoader will create")
def test_workers_that_are_not_dumpable_send_fds(files, monkeypatch):
    """A worker whose /proc/<pid>/fd other processes cannot open (not dumpable) sends its
    regions as fds: /proc is never tried (it failed with PermissionError), each region is still
    mapped once, every position comes once."""
    opened, shared_open = [], dirfill._dirfill._shared_open
    monkeypatch.setattr(dirfill._dirfill, "_shared_open",
                        lambda *a: opened.append(a) or shared_open(*a))
    dirfill.torch._MAPPINGS.clear()
    with deadline(120):
        copies = [{k: v.clone() for k, v in b.items()}
                  for b in DataLoader(PGNDataset(files, 50), batch_size=None, num_workers=2,
                                      worker_init_fn=not_dumpable)]
    assert not opened
    assert len(copies) > 3 * len(dirfill.torch._MAPPINGS)  # the regions were reused
    check_exactly_once(gather(copies), expected(files))


WRITER = "import sys; sys.stdout.buffer.write(open(sys.argv[1], 'rb').read())"


@pytest.mark.filterwarnings("ignore:This DataLoader will create")
@pytest.mark.parametrize("workers", [0, 2, 3])
def test_pipes_and_fifos_are_read_whole(files, tmp_path, workers):
    """A FIFO and a pipe given as /dev/fd/N (process substitution), beside files: each read
    whole by one share, every position once (they were skipped as empty files)."""
    text = tmp_path / "text.pgn"
    text.write_text(TEXT)
    fifo = str(tmp_path / "games.fifo")
    os.mkfifo(fifo)
    into_fifo = subprocess.Popen([sys.executable, "-c", WRITER.replace("sys.stdout.buffer",
                                                                       "open(sys.argv[2], 'wb')"),
                                  str(text), fifo])
    pipe = subprocess.Popen([sys.executable, "-c", WRITER, str(text)], stdout=subprocess.PIPE)
    sources = [files[0], fifo, "/dev/fd/%d" % pipe.stdout.fileno()]
    ds = PGNDataset(sources, 1000)
    assert [p[0] for s in range(3) for p in ds.shards(s, 3) if p[0] > 0] == [1, 2]
    with deadline(120):
        got = gather(DataLoader(ds, batch_size=None, num_workers=workers))
    into_fifo.wait(30)
    pipe.wait(30)
    pipe.stdout.close()
    whole = dirfill.pgn_positions(TEXT.encode(), threads=2)
    want = expected(files[:1])
    for i in (1, 2):
        want = {k: np.concatenate([want[k], whole[k] if k != "file" else
                                   np.full(len(whole["ply"]), i, np.int32)]) for k in want}
    check_exactly_once(got, want)


STDIN = textwrap.dedent("""
    import sys
    from torch.utils.data import DataLoader
    from dirfill.torch import PGNDataset
    for workers in (0, 2):
        ds = PGNDataset(["/dev/stdin"], 1000)
        print(sum(len(b["ply"]) for b in DataLoader(ds, batch_size=None, num_workers=workers)))
""")


def test_stdin_is_read_whole():
    n = len(dirfill.pgn_positions(TEXT.encode())["ply"])
    run = subprocess.run([sys.executable, "-c", STDIN], input=TEXT.encode(), capture_output=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr.decode()
    assert run.stdout.split() == [str(n).encode(), b"0"]  # read once: a second pass finds its end
