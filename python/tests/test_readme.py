# SPDX-License-Identifier: MIT
"""The guides' Python examples run as written: each ```python block of README.md and of the
docs (docs/*.md) in a fresh interpreter, in a directory that holds every PGN file it names
(games written here, with rating tags so that its filters keep some), after a preamble that
defines only what a reader brings (a few FENs). After a block, every name its `for` loops bind must be bound: a loop that never ran
(a filter that keeps nothing, an empty file) fails too. The PyTorch block runs in test_torch.py
(torch_blocks), where torch is required."""
import ast
import gzip
import itertools
import os
import re
import subprocess
import sys

import pytest

from test_pgn import TEXT

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GUIDES = [os.path.join(ROOT, "README.md")] + sorted(
    os.path.join(ROOT, "docs", f) for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))
PREAMBLE = ("import dirfill\n"
            "fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3'\n"
            "fens = [fen, dirfill.Board().fen()]\n")
FILE = re.compile(r"[\"']([\w.-]+\.pgn(?:\.zst|\.gz)?)[\"']")


def blocks():
    """The ```python blocks of the README and the docs, in order."""
    found = []
    for path in GUIDES:
        text = open(path, encoding="utf-8").read()
        found += re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)
    return found


def rated(text):
    """The test games with both players rated, every other one 2000 or more."""
    count = itertools.count()
    return re.sub(r'^\[White "', lambda m: '[WhiteElo "%d"]\n[BlackElo "%d"]\n[White "'
                  % ((2100,) * 2 if next(count) % 2 else (1900,) * 2), text, flags=re.M)


def write_inputs(code, where):
    """Every PGN file the block names, in where (compressed as its name says); out/ for shards."""
    data = rated(TEXT).encode()
    for name in set(FILE.findall(code)):
        path = os.path.join(where, name)
        if name.endswith(".zst"):
            subprocess.run(["zstd", "-q", "-f", "-o", path], input=data, check=True)
            continue
        with (gzip.open if name.endswith(".gz") else open)(path, "wb") as f:
            f.write(data)
    os.makedirs(os.path.join(where, "out"), exist_ok=True)


def loop_names(node):
    """The names bound by the for-loops of node that run at module level (not in a function)."""
    names = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(child, ast.For):
            names += [n.id for n in ast.walk(child.target) if isinstance(n, ast.Name)]
        names += loop_names(child)
    return names


def run_block(code, where):
    """Runs one block as a reader would paste it: afterwards the names its for-loops bind at
    module level must be bound, and a block that writes into out/ must have written something."""
    write_inputs(code, where)
    loops = loop_names(ast.parse(code))
    check = "".join("assert %r in dir(), 'the loop over %s never ran'\n" % (v, v) for v in loops)
    if '"out/' in code:
        check += "import os\nassert os.listdir('out'), 'nothing written into out/'\n"
    return subprocess.run([sys.executable, "-c", PREAMBLE + code + "\n" + check], cwd=where,
                          capture_output=True, text=True, timeout=300)


def test_the_guides_have_their_examples():
    found = blocks()
    assert len(found) >= 4
    assert any("pgn_batches" in b for b in found) and any("PGNDataset" in b for b in found)


def torch_blocks():
    return [b for b in blocks() if "dirfill.torch" in b]


PLAIN = [b for b in blocks() if "dirfill.torch" not in b]


@pytest.mark.parametrize("code", PLAIN, ids=["block%d" % i for i in range(len(PLAIN))])
def test_readme_python_block_runs(code, tmp_path):
    r = run_block(code, str(tmp_path))
    assert r.returncode == 0, "README block:\n%s\n%s" % (code, r.stderr)


def test_a_broken_block_fails(tmp_path):
    """The runner reports an error and a loop that never ran."""
    assert run_block("dirfill.no_such_function()\n", str(tmp_path)).returncode != 0
    empty = run_block("for g in dirfill.read_pgn('none.pgn', where='WhiteElo>=9000'):\n    pass\n",
                      str(tmp_path))
    assert empty.returncode != 0 and "never ran" in empty.stderr
    silent = run_block('import numpy as np\nif False: np.save("out/x.npy", 0)\n', str(tmp_path))
    assert silent.returncode != 0 and "nothing written" in silent.stderr
