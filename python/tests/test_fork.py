# SPDX-License-Identifier: MIT
"""Batch iterators in a child of os.fork(): the reader's thread is the parent's, so a child that
inherits a running nnue_batches or pgn_batches iterator can drop it (del, close(), the end of
the process) without waiting for a thread it does not have, and using it there is a
RuntimeError that says to make a new one; the parent goes on as before, and a child makes and
reads iterators of its own. The sources: a path, a file object that never ends and a FIFO whose
writer sends nothing more (each keeps the parent's reader busy or waiting when it forks).
read_pgn reads on the calling thread: a child may drop it or go on with it."""
import gc
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import dirfill
from test_pgn import TEXT

# Seconds a child may take (one that waits on its parent's reader never ends).
TIMEOUT = 30 if os.environ.get("DIRFILL_SANITIZED") else 10

# .plain records of the start position, each a whole entry.
RECORD = b"fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nmove e2e4\n" \
         b"score 10\nply 0\nresult 0\ne\n"
PLAIN = RECORD * 4000
PGN = TEXT.encode()


def in_child(action):
    """Runs action() in a forked child and returns what it returned (a str); fails when the
    child raised or did not exit within TIMEOUT seconds."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never back into pytest
        code = 1
        try:
            os.close(r)
            out = action() or ""
            code = 0
        except BaseException as e:  # noqa: B036 -- reported to the parent
            out = "%s: %s" % (type(e).__name__, e)
        finally:
            try:
                os.write(w, out.encode()[:4000])
            finally:
                os._exit(code)
    os.close(w)
    deadline = time.monotonic() + TIMEOUT
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(r)
            pytest.fail("the forked child did not exit within %d s" % TIMEOUT)
        time.sleep(0.01)
    with os.fdopen(r, "rb") as f:
        out = f.read().decode()
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, out
    return out


class Endless:
    """A binary file object that never ends: the reader fills the queue and waits."""

    def __init__(self, data):
        self.data = data

    def read(self, n=-1):
        return self.data[:n]


class Fifo:
    """A FIFO whose writer sends data (less than the pipe holds), then nothing, and stays open
    until stop()."""

    def __init__(self, tmp_path, name, data):
        self.path = str(tmp_path / name)
        os.mkfifo(self.path)
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._write, args=(data,))
        self.thread.start()

    def _write(self, data):
        try:
            fd = os.open(self.path, os.O_WRONLY)  # once a reader opens it
            try:
                os.write(fd, data)
                self.done.wait()
            finally:
                os.close(fd)
        except OSError:  # the reader went away
            pass

    def stop(self):
        self.done.set()
        self.thread.join(1)
        if self.thread.is_alive():  # never opened by a reader: its writer still waits
            os.close(os.open(self.path, os.O_RDONLY | os.O_NONBLOCK))
            self.thread.join()


def make(kind, source, threads=2):
    if kind == "nnue":
        return dirfill.nnue_batches(source, 64, "HalfKAv2_hm", threads=threads, format="plain")
    return dirfill.pgn_batches(source, 64, threads=threads)


@pytest.fixture(params=["path", "file object", "fifo"])
def source(request, tmp_path):
    """kind -> (a source, whether it ends, the threads to read it on: one for a FIFO, whose
    few bytes the threaded PGN reader would keep until a run's worth came)."""
    fifos = []

    def of(kind):
        data, name = (PLAIN, "x.plain") if kind == "nnue" else (PGN, "x.pgn")
        if request.param == "path":
            p = tmp_path / name
            p.write_bytes(data)
            return str(p), True, 2
        if request.param == "file object":
            return Endless(data), False, 2
        fifos.append(Fifo(tmp_path, name, data[:60000]))
        return fifos[-1].path, False, 1

    yield of
    for f in fifos:
        f.stop()


def rows(batch):
    return len(batch["score"] if "score" in batch else batch["ply"])


def expected_rows(kind):
    if kind == "nnue":
        return PLAIN.count(b"\ne\n")
    return len(dirfill.pgn_positions(PGN, threads=1)["ply"])


def drop(box):
    box.pop()
    gc.collect()


def close_and_drop(box):
    box[0].close()
    box[0].close()  # any number of times
    drop(box)


def use(box):
    """next(), stats and failures raise RuntimeError naming the parent; the iterator is then
    dropped."""
    parent = os.getppid()
    for what in ("next", "stats", "failures"):
        try:
            next(box[0]) if what == "next" else getattr(box[0]._it, what)
        except RuntimeError as e:
            message = str(e)
            assert ("made in process %d" % parent in message and "os.fork()" in message
                    and "make a new one" in message), (what, message)
        else:
            raise AssertionError("%s worked in a forked child" % what)
    drop(box)
    return message


@pytest.mark.parametrize("kind", ["nnue", "pgn"])
@pytest.mark.parametrize("child", [drop, close_and_drop, use])
def test_a_forked_child_drops_or_refuses_the_iterator(kind, child, source):
    src, finite, threads = source(kind)
    box = [make(kind, src, threads)]
    got = rows(next(box[0]))
    time.sleep(0.05)  # the reader fills the queue and waits for room (or for the FIFO)
    said = in_child(lambda: child(box))
    if child is use:
        assert ("this %s_batches iterator" % kind) in said
    # The parent's iterator is as it was: the rest of its rows.
    it = box.pop()
    if finite:
        got += sum(rows(b) for b in it)
        assert got == expected_rows(kind)
    else:
        assert rows(next(it)) == 64
    it.close()


@pytest.mark.parametrize("kind", ["nnue", "pgn"])
def test_a_forked_child_reads_iterators_of_its_own(kind, source):
    """While the parent's reader runs, a child makes its own and reads them to their end; its
    parent's, inherited, it drops."""
    src, _, threads = source(kind)
    box = [make(kind, src, threads)]
    next(box[0])

    def child():
        data = PLAIN if kind == "nnue" else PGN
        n = sum(rows(b) for b in make(kind, data))
        assert n == expected_rows(kind), n
        if kind == "pgn":
            assert len(dirfill.pgn_positions(PGN, threads=2)["ply"]) == n
            assert len(list(dirfill.read_pgn(PGN))) == PGN.count(b"[Event ")
        drop(box)

    in_child(child)
    box.pop().close()


def test_read_pgn_has_no_thread_a_child_goes_on_with():
    games = dirfill.read_pgn(PGN)
    first = next(games)
    box = [games]

    def child():
        n = 1 + sum(1 for _ in box[0])
        assert n == PGN.count(b"[Event "), n
        drop(box)

    in_child(child)
    in_child(lambda: drop(box))
    assert first.index == 0 and sum(1 for _ in box[0]) == PGN.count(b"[Event ") - 1


SCRIPT = textwrap.dedent("""
    import os, sys, time
    import dirfill

    class Endless:
        def __init__(self, data):
            self.data = data

        def read(self, n=-1):
            return self.data[:n]

    def main(kind, how):
        if kind == "nnue":
            data = b"fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\\n" \\
                   b"move e2e4\\nscore 10\\nply 0\\nresult 0\\ne\\n" * 100
            it = dirfill.nnue_batches(Endless(data), 64, "HalfKAv2_hm", format="plain")
        else:
            data = b'[Event "e"]\\n\\n1. e4 e5 2. Nf3 Nc6 1-0\\n\\n' * 100
            it = dirfill.pgn_batches(Endless(data), 64)
        next(it)
        time.sleep(0.05)
        pid = os.fork()
        if pid == 0:
            if how == "close":
                it.close()
            return 0  # the child's iterator goes with this frame, then the interpreter ends
        deadline = time.monotonic() + %d
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                it.close()
                return 0 if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 else 3
            time.sleep(0.01)
        os.kill(pid, 9)
        return 4

    sys.exit(main(sys.argv[1], sys.argv[2]))
""" % TIMEOUT)


@pytest.mark.parametrize("kind", ["nnue", "pgn"])
@pytest.mark.parametrize("how", ["close", "exit"])
def test_a_forked_child_exits_normally(kind, how):
    """A child that ends as a script ends (after close(), or not), its iterator dropped by the
    interpreter's finalization."""
    r = subprocess.run([sys.executable, "-c", SCRIPT, kind, how], capture_output=True,
                       text=True, timeout=TIMEOUT + 30)
    assert r.returncode == 0, (r.returncode, r.stderr)


EXIT_OPEN = textwrap.dedent("""
    import atexit, io, os, sys
    # Registered first, so run last: after the package's own handler at exit.
    atexit.register(lambda: print("threads at exit", len(os.listdir("/proc/self/task")),
                                  flush=True))
    import dirfill

    raw = open(sys.argv[1], "rb").read()

    class Endless(io.RawIOBase):
        def readable(self):
            return True

        def read(self, size=-1):
            return raw[:size]  # the file's start, again and again

    print("threads before", len(os.listdir("/proc/self/task")), flush=True)
    if sys.argv[2] == "nnue":
        it = dirfill.nnue_batches(Endless(), 100, format="plain", threads=1)
    else:
        it = dirfill.pgn_batches(Endless(), 100, threads=1)
    next(it)
""")


@pytest.mark.parametrize("kind", ["nnue", "pgn"])
def test_readers_open_at_exit_are_stopped_first(tmp_path, kind):
    """An iterator still reading a file object when the interpreter exits: its reader thread is
    stopped and joined before the interpreter finalizes (else the thread, calling read() as
    the interpreter goes, is ended in the middle of the library's code)."""
    path = tmp_path / "data"
    path.write_bytes(PLAIN if kind == "nnue" else PGN)
    r = subprocess.run([sys.executable, "-c", EXIT_OPEN, str(path), kind], capture_output=True,
                       text=True, timeout=6 * TIMEOUT)
    assert r.returncode == 0, r.stderr
    before = int(r.stdout.split("threads before")[1].split()[0])
    at_exit = int(r.stdout.split("threads at exit")[1].split()[0])
    assert at_exit == before, r.stdout
    assert "AddressSanitizer" not in r.stderr
