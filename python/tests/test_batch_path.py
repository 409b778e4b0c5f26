# SPDX-License-Identifier: MIT
"""The batch path under forks, threads, pipes and dead senders: shared-memory leases that a
forked child must never give back, one pgn_batches iterator used from several threads, stop
requests (Ctrl-C, close(), del) that must reach a read blocked on a pipe or a FIFO, or busy on
endless bytes, regions whose size and header must be checked before they are mapped, and the
sources' errors. A case that could hang or crash runs in a fresh interpreter under a timeout:
a regression fails the test, never the suite. dirfill.torch's side (DataLoader workers) is in
test_torch.py."""
import os
import subprocess
import sys
import textwrap

import pytest

import dirfill
from test_pgn import TEXT

HERE = os.path.dirname(os.path.abspath(__file__))
# A stop request must reach a blocked or busy reader within half a second (looser under the
# sanitizers, where code runs several times slower).
PROMPT = 2.0 if os.environ.get("DIRFILL_SANITIZED") else 0.5


def run_python(code, *args, timeout=60):
    """code (a str, or a list of parts each indented its own way) run in a fresh interpreter
    that sees these tests' modules; its stdout."""
    code = "".join(textwrap.dedent(part) for part in ([code] if isinstance(code, str) else code))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [HERE,
                                                                   os.environ.get("PYTHONPATH")])))
    r = subprocess.run([sys.executable, "-c", code] + [str(a) for a in args],
                       capture_output=True, text=True, timeout=timeout, env=env)
    assert r.returncode == 0, "exit status %d\n%s" % (r.returncode, r.stderr)
    return r.stdout


# ---- leases belong to the process that took them ----

# A region of this process packed, sent and taken back through a lease (the sender and the
# receiver in one process: what matters is the region's count). The handle is dropped: the
# lease alone holds the region, as in a DataLoader's main process.
LEASED = """
import gc, os, sys
import numpy as np
import dirfill

def leased(value):
    a = np.full(50000, value, np.int64)
    handle, offsets = dirfill._dirfill._shared_pack([a])
    pid, fd, key, size = handle.send()[:4]
    lease = dirfill._dirfill._shared_open(pid, fd, key, size).lease()
    return np.frombuffer(lease, np.int64, a.size, offsets[0])

def wait(pid):
    assert os.waitpid(pid, 0)[1] == 0
"""


@pytest.mark.parametrize("child", ["drop", "exit", "collect"])
def test_forked_child_never_gives_back_a_lease(child):
    """The child drops its copy of a batch the parent holds, exits normally (Python's
    finalization frees it), or its collector frees a garbage cycle that holds one: the parent's
    count of the region stays, and a region the parent holds is never filled again (it was:
    the child gave the count back, the next batch went into the parent's)."""
    out = run_python([LEASED, """
    child = sys.argv[1]
    gc.disable()
    held = leased(1)
    if child == "collect":  # the parent's batch only in a cycle its collector has not freed yet
        cycle = [held]
        cycle.append(cycle)
        del cycle, held
        held = leased(2)
    pid = os.fork()
    if pid == 0:
        if child == "drop":
            del held
            gc.collect()
            os._exit(0)
        if child == "collect":
            gc.collect()
            os._exit(0)
        sys.exit(0)  # held goes as the interpreter finalizes
    wait(pid)
    after = leased(3)  # not into a region the parent holds
    gc.collect()  # the parent frees its cycle: its count, once
    again = leased(4)
    first = 2 if child == "collect" else 1
    print(int((held != first).sum()), int((after != 3).sum()), int((again != 4).sum()))
    """], child)
    assert out.split() == ["0", "0", "0"], "rows of the parent's batches overwritten: " + out


def test_forked_child_cannot_send_or_fill_its_parents_region():
    """A handle inherited by a child belongs to its parent: sending it would count a receiver
    in the parent's region, its buffer would let the child write there."""
    out = run_python([LEASED, """
    handle, offsets = dirfill._dirfill._shared_pack([np.arange(10)])
    for call in (handle.send, lambda: memoryview(handle)):
        pid = os.fork()
        if pid == 0:
            try:
                call()
            except RuntimeError as e:
                os._exit(0 if "process that packed it" in str(e) else 2)
            os._exit(1)
        print(os.waitpid(pid, 0)[1] >> 8)
    print(len(memoryview(handle)) > 0, handle.send()[0] == os.getpid())  # the parent's own
    """])
    assert out.split() == ["0", "0", "True", "True"]


# A sender process (a DataLoader worker's part) packs each batch of a read of the file into a
# region when asked and sends the region's fd; this process takes batches through leases, keeps
# some, drops some, leaves some in garbage cycles, collects, and forks children that drop their
# copies, drop everything, collect the parent's cycles, or exit through Python's finalization.
STRESS = """
import gc, os, pickle, random, socket, sys
import numpy as np
import dirfill
shm = dirfill._dirfill
path, steps = sys.argv[1], int(sys.argv[2])
COLUMNS = ("pieces", "game", "ply", "eval")
want = [[b[k].copy() for k in COLUMNS] for b in dirfill.pgn_batches(path, 64, threads=1)]
ours, theirs = socket.socketpair()
if os.fork() == 0:
    ours.close()
    for b in dirfill.pgn_batches(path, 64, threads=1):
        if not theirs.recv(1):
            break
        handle, offsets = shm._shared_pack([b[k] for k in COLUMNS])
        pid, fd, key, size = handle.send()[:4]
        socket.send_fds(theirs, [pickle.dumps((key, size, offsets))], [fd])
        del handle  # as a DataLoader worker drops a batch once it is sent
    os._exit(0)
theirs.close()

def take():
    ours.send(b"?")
    message, fds, _, _ = socket.recv_fds(ours, 1 << 16, 1)
    key, size, offsets = pickle.loads(message)
    lease = shm._shared_map(fds[0], key, size).lease()
    return [np.frombuffer(lease, w.dtype, w.size, at).reshape(w.shape)
            for w, at in zip(want[taken], offsets)]

def same(k):
    return all(a.tobytes() == b.tobytes() for a, b in zip(held[k], want[k]))

rng = random.Random(50)
held, taken, forks = {}, 0, 0
gc.freeze()  # a child's collection walks the objects made since, not every module's
gc.disable()
for step in range(steps):
    r = rng.random()
    if r < 0.4 and taken < len(want):
        held[taken] = take()
        taken += 1
    elif r < 0.6 and held:
        del held[rng.choice(list(held))]
    elif r < 0.68 and held:  # garbage that only a collector frees
        cycle = [held.pop(rng.choice(list(held)))]
        cycle.append(cycle)
        del cycle
    elif r < 0.74:
        gc.collect()
    elif r < 0.82:
        kind = rng.choice(["drop"] * 3 + ["clear"] * 3 + ["collect"] * 3 + ["exit"])
        victim = rng.choice(list(held) or [None])
        forks += 1
        pid = os.fork()
        if pid == 0:
            if kind == "drop" and victim is not None:
                del held[victim]
            elif kind == "clear":
                held.clear()
            elif kind == "exit":
                sys.exit(0)  # held goes as the interpreter finalizes
            gc.collect()
            os._exit(0)
        assert os.waitpid(pid, 0)[1] == 0
    elif held:
        k = rng.choice(list(held))
        assert same(k), "batch %d changed at step %d" % (k, step)
changed = [k for k in held if not same(k)]
assert not changed, "batches changed: %s" % changed
ours.close()  # the sender's end of the read
os.wait()
print(taken, len(held), forks)
"""


def test_fork_and_drop_stress(tmp_path):
    """1,000 random steps: every batch kept is, at every check and at the end, byte for byte
    the batch of a fresh read of the file (a child gave its parent's counts back: the sender
    refilled regions under batches kept)."""
    path = tmp_path / "games.pgn"
    path.write_text(TEXT * 2)
    taken, held, forks = map(int, run_python(STRESS, path, 1000, timeout=120).split())
    assert taken > 300 and held > 50 and forks > 60


# ---- a region is mapped only once its size and header are checked ----

def test_region_checked_before_it_is_mapped(tmp_path):
    """A (pid, fd) that names an empty or short file (a dead sender's pid reused), or a size
    larger than the region: an error, never SIGBUS."""
    out = run_python("""
    import os, sys
    import numpy as np
    import dirfill
    shm = dirfill._dirfill
    empty = os.open(os.path.join(sys.argv[1], "empty"), os.O_RDWR | os.O_CREAT)
    errors = []
    for call in (lambda: shm._shared_open(os.getpid(), empty, 1, 65536),
                 lambda: shm._shared_map(os.dup(empty), 1, 65536)):
        try:
            call().lease()
        except (OSError, ValueError) as e:
            errors.append(str(e))
    handle, offsets = shm._shared_pack([np.arange(10)])
    pid, fd, key, size = handle.send()[:4]
    try:
        shm._shared_open(pid, fd, key, size + 65536).lease()
    except (OSError, ValueError) as e:
        errors.append(str(e))
    print(len(errors))
    print("\\n".join(errors))
    """, tmp_path)
    assert out.split("\n")[0] == "3", out
    assert "smaller than" in out


def test_non_dumpable_sender_passes_the_fd():
    """A process that is not dumpable (prctl PR_SET_DUMPABLE 0: its /proc/<pid>/fd is then
    closed to other processes without privileges) sends its kept regions as fds, never as a
    /proc path."""
    out = run_python([LEASED, """
    import ctypes
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE
        handle, offsets = dirfill._dirfill._shared_pack([np.arange(10)])
        sent = handle.send()
        os.write(w, repr((sent[4], sent[5])).encode())
        os._exit(0)
    os.close(w)
    print(os.read(r, 100).decode())
    wait(pid)
    handle, offsets = dirfill._dirfill._shared_pack([np.arange(10)])
    print(repr(handle.send()[4:]))
    """])
    child, parent = out.split("\n")[:2]
    assert child == "(0, False)"  # kept in slot 0, sent by fd
    assert parent == "(0, True)"  # a dumpable sender: through /proc


# ---- one iterator, many threads ----

THREADS = """
import sys, threading, time
import numpy as np
import dirfill
from test_pgn import TEXT
from test_pgn_batches import Endless
bound = float(sys.argv[1])
"""


@pytest.mark.parametrize("threads", [1, 2])
def test_close_from_another_thread(threads):
    """close() from one thread while another iterates: both return (it hung on every run), the
    iterating thread with the iterator over; close() again, and from many threads at once, is
    a no-op."""
    out = run_python([THREADS, """
    threads = int(sys.argv[2])
    worst = 0
    for round in range(10):
        it = dirfill.pgn_batches(Endless(), 100, threads=threads)
        ended = []
        def drain():
            for b in it:
                pass
            ended.append(time.monotonic())
        t = threading.Thread(target=drain, daemon=True)
        t.start()
        time.sleep(0.02)
        start = time.monotonic()
        closers = [threading.Thread(target=it.close, daemon=True) for _ in range(3)]
        for c in closers:
            c.start()
        it.close()
        for c in closers:
            c.join(5)
        t.join(5)
        assert not t.is_alive() and not any(c.is_alive() for c in closers), "hung"
        worst = max(worst, time.monotonic() - start)
        it.close()
    print(worst)
    """], PROMPT, threads, timeout=30)
    assert float(out) < PROMPT


@pytest.mark.parametrize("threads", [1, 2])
def test_two_threads_share_an_iterator(threads):
    """Two threads draining one iterator get distinct batches that together are every row
    once, and both end."""
    out = run_python([THREADS, """
    threads = int(sys.argv[2])
    text = (TEXT * 3).encode()
    want = dirfill.pgn_positions(text, threads=2)
    for round in range(5):
        it = dirfill.pgn_batches(text, 100, threads=threads)
        got = [[], []]
        def drain(mine):
            for b in it:
                mine.append(b)
        ts = [threading.Thread(target=drain, args=(g,), daemon=True) for g in got]
        for t in ts:
            t.start()
        for t in ts:
            t.join(20)
        assert not any(t.is_alive() for t in ts), "hung"
        batches = got[0] + got[1]
        assert all(got), [len(g) for g in got]  # both took some
        key = np.concatenate([b["game"] << 16 | b["ply"].astype(np.int64) for b in batches])
        assert len(np.unique(key)) == len(key) == len(want["ply"])
        assert np.array_equal(np.sort(key), np.sort(want["game"] << 16 | want["ply"]))
    print("ok")
    """], PROMPT, threads, timeout=60)
    assert out.strip() == "ok"


# ---- stop requests reach blocked and busy reads ----

# Each stop request in turn, each on a fresh source of its kind: Ctrl-C while the main thread
# waits in pgn_batches or in pgn_positions, close() from the main thread while another waits
# in pgn_batches, del of an iterator nobody waits in. Prints each case's latency.
STOPS = """
import io, os, signal, sys, threading, time
import dirfill
from test_pgn import TEXT

kind, tmp, threads_list = sys.argv[1], sys.argv[2], [int(t) for t in sys.argv[3].split(",")]
games = TEXT.encode()[:60000]  # a few games, then a game cut short: the reader waits for more
ends = []

class Slow(io.RawIOBase):
    def readable(self):
        return True
    def read(self, n=-1):
        time.sleep(0.01)
        return TEXT.encode()[:min(n, 2000)]

def source():
    if kind == "fifo" or kind == "fifo-no-writer":
        path = os.path.join(tmp, "fifo%d" % time.monotonic_ns())
        os.mkfifo(path)
        if kind == "fifo":  # a writer that writes some games and stays open
            done = threading.Event()
            def write():
                with open(path, "wb") as w:
                    w.write(games)
                    w.flush()
                    done.wait()
            t = threading.Thread(target=write, daemon=True)
            t.start()
            ends.append(done.set)
        return path
    if kind == "pipe":  # as process substitution gives it: /dev/fd/N
        r, w = os.pipe()
        os.write(w, games)
        ends.append(lambda: (os.close(w), os.close(r)))
        return "/dev/fd/%d" % r
    if kind == "zero":
        return "/dev/zero"
    if kind == "junk":  # 2 GB of bytes that are not PGN (a sparse file: no disk)
        path = os.path.join(tmp, "junk.pgn")
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.truncate(2 << 30)
        return path
    return Slow()

def interrupt_after(seconds):
    main, sent = threading.main_thread().ident, []
    def fire():
        time.sleep(seconds)
        sent.append(time.monotonic())
        signal.pthread_kill(main, signal.SIGINT)
    threading.Thread(target=fire, daemon=True).start()
    return sent

def ctrl_c(call):
    sent = interrupt_after(0.15)
    try:
        call()
    except KeyboardInterrupt:
        return time.monotonic() - sent[0]
    raise AssertionError("no KeyboardInterrupt")

for threads in threads_list:
    late = ctrl_c(lambda: [b for b in dirfill.pgn_batches(source(), 100, threads=threads)])
    print("ctrl-c", threads, late)
    late = ctrl_c(lambda: dirfill.pgn_positions(source(), threads=threads))
    print("positions-ctrl-c", threads, late)

    it = dirfill.pgn_batches(source(), 100, threads=threads)
    t = threading.Thread(target=lambda: [b for b in it], daemon=True)
    t.start()
    time.sleep(0.15)
    start = time.monotonic()
    it.close()
    t.join(5)
    assert not t.is_alive()
    print("close", threads, time.monotonic() - start)

    it = dirfill.pgn_batches(source(), 100, threads=threads)
    time.sleep(0.15)
    start = time.monotonic()
    del it
    print("del", threads, time.monotonic() - start)
    while ends:
        ends.pop()()
"""


@pytest.mark.parametrize("kind,threads", [("fifo", "1,2"), ("fifo-no-writer", "2"),
                                          ("pipe", "2"), ("zero", "1,2"), ("junk", "2"),
                                          ("slow", "2")])
def test_stop_reaches_blocked_and_busy_reads(tmp_path, kind, threads):
    """A FIFO whose writer stays open (Ctrl-C came 14 s late, close() took 9 s), one no writer
    opened yet, a pipe given as /dev/fd/N, /dev/zero (never returned), 2 GB of bytes that are
    not PGN (the interrupt waited for the rest to be read) and a slow file object: Ctrl-C,
    close() and del each stop the reader within PROMPT."""
    out = run_python(STOPS, kind, tmp_path, threads, timeout=60)
    cases = [line.split() for line in out.strip().split("\n")]
    assert len(cases) == 4 * len(threads.split(","))
    late = [(c[0], c[1], float(c[2])) for c in cases if float(c[2]) >= PROMPT]
    assert not late, out


# ---- sources: what a non-regular file is, and errors that name their path ----

def test_fifo_and_pipe_sources_are_read_whole(tmp_path):
    """A FIFO and a pipe (/dev/fd/N) are read to their end as a file is, whatever the size of
    each write."""
    out = run_python("""
    import os, sys, threading
    import numpy as np
    import dirfill
    from test_pgn import TEXT
    text = (TEXT * 2).encode()
    want = dirfill.pgn_positions(text, threads=2)
    fifo = os.path.join(sys.argv[1], "games.fifo")
    os.mkfifo(fifo)
    def write(path_or_fd):
        with open(path_or_fd, "wb", buffering=0) as w:
            for at in range(0, len(text), 10000):
                w.write(text[at:at + 10000])
    for threads in (1, 2):
        for kind in ("fifo", "pipe"):
            if kind == "fifo":
                source, target = fifo, fifo
            else:
                r, target = os.pipe()
                source = "/dev/fd/%d" % r
            t = threading.Thread(target=write, args=(target,), daemon=True)
            t.start()
            got = dirfill.pgn_positions(source, threads=threads)
            t.join()
            if kind == "pipe":
                os.close(r)
            assert np.array_equal(got["pieces"], want["pieces"]), (kind, threads)
            assert got["stats"]["games"] == want["stats"]["games"]
    print("ok")
    """, tmp_path, timeout=60)
    assert out.strip() == "ok"


def test_byte_range_of_a_fifo_is_refused(tmp_path):
    """A byte range needs a regular file: a FIFO is refused at once (it blocked, holding the
    GIL, until a writer came)."""
    out = run_python("""
    import os, sys
    import dirfill
    fifo = os.path.join(sys.argv[1], "part.fifo")
    os.mkfifo(fifo)
    try:
        dirfill.pgn_positions(fifo, byte_range=(0, 100))
    except (OSError, ValueError) as e:
        print(type(e).__name__, e)
    """, tmp_path, timeout=30)
    assert str(tmp_path / "part.fifo") in out and "regular file" in out


class Greedy:
    """A file object whose read(n) returns more than n bytes."""

    def read(self, n=-1):
        return b" " * (n + 1)


class Text:
    def read(self, n=-1):
        return TEXT[:n]


@pytest.mark.parametrize("call", [
    lambda src: list(dirfill.pgn_batches(src, 100, threads=1)),
    lambda src: list(dirfill.pgn_batches(src, 100, threads=2)),
    lambda src: dirfill.pgn_positions(src, threads=2),
    lambda src: list(dirfill.read_pgn(src)),
], ids=["batches_1", "batches_2", "positions", "read_pgn"])
def test_file_object_errors_say_what_went_wrong(call):
    with pytest.raises(OSError, match=r"read\(\d+\) returned \d+ bytes, more than asked"):
        call(Greedy())
    with pytest.raises(TypeError, match="binary mode"):
        call(Text())


@pytest.mark.parametrize("call", [
    lambda src: list(dirfill.pgn_batches(src, 100, threads=1)),
    lambda src: list(dirfill.pgn_batches(src, 100, threads=2)),
    lambda src: dirfill.pgn_positions(src, threads=2),
    lambda src: list(dirfill.read_pgn(src)),
    lambda src: dirfill.pgn_cuts(src, [0, 100]),
], ids=["batches_1", "batches_2", "positions", "read_pgn", "cuts"])
def test_source_errors_name_the_path(tmp_path, call):
    """A directory is refused as it is opened, a corrupt .zst as it is read: each error names
    the path (a directory said only "read error: Is a directory")."""
    with pytest.raises(OSError) as e:
        call(str(tmp_path))
    assert str(tmp_path) in str(e.value) and "directory" in str(e.value).lower()
    bad = tmp_path / "bad.pgn.zst"
    bad.write_bytes(b"\x28\xb5\x2f\xfd" + bytes(range(200)))  # a zstd magic, then garbage
    with pytest.raises(OSError) as e:
        call(str(bad))
    assert str(bad) in str(e.value) and "zstd" in str(e.value)
