# SPDX-License-Identifier: MIT
"""Every code block of README.md and docs/*.md runs as written, or says why it is not run.

The rule (docs/testing.md): a fenced block is run as it stands, alone, in a scratch directory
that holds every PGN file it names (games written here, rated so that its filters keep some):
a ```python block in a fresh interpreter (no preamble: it imports what it uses), a ```sh block
by bash with -e and pipefail (each command must succeed), with build/, tests/ and bench/ of
this checkout linked there so that `build/release/dirfill`, `tests/data/...` and `bench/...` are
where the docs say. Or the line before its fence marks it:
  <!-- fragment: WHY -->   not run, WHY saying why (an install, a benchmark of minutes, an
                           output format, a piece of a program that tests/doc-check.sh compiles)
  <!-- examples/FILE -->   the block is that file of examples/, word for word (the tests build
                           and run it)
A block neither run nor marked (a ```c block, a fence without a language) fails, as does a
block that fails. After a python block, every name its module-level `for` loops bind must be
bound (a loop that never ran, a filter that kept nothing, fails), and a block that writes into
out/ must have written something there. The PyTorch block (it imports dirfill.torch) runs in
test_torch.py, where torch is required."""
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
PROGRAM = os.path.join(ROOT, "build", "release", "dirfill")
FILE = re.compile(r"(?<![\w/.-])([\w-]+(?:\.[\w-]+)*\.pgn(?:\.zst|\.gz)?)(?![\w.])")
MARK = re.compile(r"^<!-- (fragment: \S.*|examples/[\w./-]+) -->$")
RUN = ("python", "sh")


def parse(path, text):
    """The fenced blocks of a Markdown text: dicts of where (file:line), lang, code, mark (the
    marker comment's text, or None)."""
    found, lines, open_at = [], text.split("\n"), None
    for i, line in enumerate(lines):
        if not line.startswith("```"):
            continue
        if open_at is None:
            open_at, lang = i, line[3:].strip()
            continue
        mark = MARK.match(lines[open_at - 1]) if open_at else None
        found.append({"where": "%s:%d" % (os.path.relpath(path, ROOT), open_at + 1), "lang": lang,
                      "code": "\n".join(lines[open_at + 1:i]) + "\n",
                      "mark": mark.group(1) if mark else None})
        open_at = None
    if open_at is not None:
        found.append({"where": "%s:%d" % (os.path.relpath(path, ROOT), open_at + 1),
                      "lang": "unclosed", "code": "", "mark": None})
    return found


def blocks():
    return [b for path in GUIDES for b in parse(path, open(path, encoding="utf-8").read())]


def problems(found):
    """What is wrong with the blocks' marks: unmarked blocks that are not run, unknown marks,
    example blocks that differ from their file."""
    out = []
    for b in found:
        mark = b["mark"]
        if mark is None and b["lang"] not in RUN:
            out.append("%s: a ```%s block neither run nor marked (<!-- fragment: WHY --> on the "
                       "line before its fence)" % (b["where"], b["lang"]))
        elif mark and mark.startswith("examples/"):
            path = os.path.join(ROOT, mark)
            if not os.path.isfile(path) or open(path, encoding="utf-8").read() != b["code"]:
                out.append("%s: the block differs from %s" % (b["where"], mark))
    return out


def runnable(lang, torch=False):
    return [b for b in blocks() if b["mark"] is None and b["lang"] == lang
            and ("dirfill.torch" in b["code"]) == torch]


def rated(text):
    """The test games with both players rated, every other one 2000 or more, and a blitz time
    control."""
    count = itertools.count()
    return re.sub(r'^\[White "', lambda m: '[WhiteElo "%d"]\n[BlackElo "%d"]\n[TimeControl '
                  '"180+2"]\n[White "' % ((2100,) * 2 if next(count) % 2 else (1900,) * 2),
                  text, flags=re.M)


def write_inputs(code, where):
    """Every PGN file the block names, in where (compressed as its name says)."""
    data = rated(TEXT).encode()
    for name in set(FILE.findall(code)):
        path = os.path.join(where, name)
        if name.endswith(".zst"):
            subprocess.run(["zstd", "-q", "-f", "-o", path], input=data, check=True)
            continue
        with (gzip.open if name.endswith(".gz") else open)(path, "wb") as f:
            f.write(data)


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
    """Runs one python block as a reader would paste it: afterwards the names its for-loops
    bind at module level must be bound, and a block that writes into out/ must have written
    something."""
    write_inputs(code, where)
    loops = loop_names(ast.parse(code))
    check = "".join("assert %r in dir(), 'the loop over %s never ran'\n" % (v, v) for v in loops)
    if '"out/' in code:
        check += "import os\nassert os.listdir('out'), 'nothing written into out/'\n"
    return subprocess.run([sys.executable, "-c", code + "\n" + check], cwd=where,
                          capture_output=True, text=True, timeout=300)


def run_shell(code, where):
    """Runs one sh block in where, with build/, tests/ and bench/ of this checkout linked there."""
    write_inputs(code, where)
    for name in ("build", "tests", "bench"):
        os.symlink(os.path.join(ROOT, name), os.path.join(where, name))
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    return subprocess.run(["bash", "-e", "-o", "pipefail", "-c", code], cwd=where, env=env,
                          capture_output=True, text=True, timeout=300)


def test_every_block_is_run_or_marked():
    found = blocks()
    assert len(found) >= 20 and sum(b["lang"] == "python" for b in found) >= 5
    assert not problems(found), "\n".join(problems(found))


def test_the_rule_catches_what_it_must():
    """An unmarked C block, a fence without a language and an example that differs from its
    file are problems; a marked fragment and a word-for-word example are not."""
    example = open(os.path.join(ROOT, "examples", "attack_maps.c"), encoding="utf-8").read()
    text = ("```c\nint x;\n```\n\n```\n{\"out\": 1}\n```\n\n<!-- fragment: a piece -->\n```c\n"
            "int y;\n```\n\n<!-- examples/attack_maps.c -->\n```c\n" + example + "```\n\n"
            "<!-- examples/attack_maps.c -->\n```c\nint z;\n```\n\n```sh\ntrue\n```\n")
    found = parse(os.path.join(ROOT, "x.md"), text)
    assert [b["lang"] for b in found] == ["c", "", "c", "c", "c", "sh"]
    assert problems(found) == [
        "x.md:1: a ```c block neither run nor marked (<!-- fragment: WHY --> on the line before "
        "its fence)",
        "x.md:5: a ``` block neither run nor marked (<!-- fragment: WHY --> on the line before "
        "its fence)",
        "x.md:%d: the block differs from examples/attack_maps.c" % (text.split("\n").index(
            "int z;")),
    ]
    assert problems(parse(os.path.join(ROOT, "x.md"), "<!-- fragment: -->\n```c\nint x;\n```\n"))


PYTHON = runnable("python")
SHELL = runnable("sh")


@pytest.mark.parametrize("block", PYTHON, ids=[b["where"] for b in PYTHON])
def test_python_block_runs(block, tmp_path):
    r = run_block(block["code"], str(tmp_path))
    assert r.returncode == 0, "%s:\n%s\n%s" % (block["where"], block["code"], r.stderr)


@pytest.mark.parametrize("block", SHELL, ids=[b["where"] for b in SHELL])
def test_shell_block_runs(block, tmp_path):
    assert os.path.exists(PROGRAM), "build/release/dirfill is not built (make test builds it)"
    r = run_shell(block["code"], str(tmp_path))
    assert r.returncode == 0, "%s:\n%s\n%s\n%s" % (block["where"], block["code"], r.stdout,
                                                   r.stderr)


def test_a_broken_block_fails(tmp_path):
    """The runners report an error, a loop that never ran, nothing written into out/ and a
    failing command in the middle of a shell block or of a pipe."""
    where = {k: tmp_path / k for k in "abcde"}
    for d in where.values():
        d.mkdir()
    (where["c"] / "out").mkdir()
    assert run_block("import dirfill\ndirfill.no_such_function()\n", str(where["a"])).returncode
    empty = run_block("import dirfill\nfor g in dirfill.read_pgn('none.pgn', "
                      "where='WhiteElo>=9000'):\n    pass\n", str(where["b"]))
    assert empty.returncode != 0 and "never ran" in empty.stderr
    silent = run_block('import numpy as np\nif False: np.save("out/x.npy", 0)\n', str(where["c"]))
    assert silent.returncode != 0 and "nothing written" in silent.stderr
    assert run_shell("false\necho after\n", str(where["d"])).returncode != 0
    assert run_shell("false | true\n", str(where["e"])).returncode != 0
