# SPDX-License-Identifier: MIT
"""Every code block of README.md and docs/*.md runs as written, or says why it is not run.

The rule (docs/testing.md): a fenced block is run as it stands, alone, the way a newcomer runs
it: from a fresh shell (HOME and the system's PATH only: no venv active, no PYTHONPATH, nothing
of the interpreter running these tests), in a scratch directory that holds every PGN file it
names (games written here, rated so that its filters keep some) and build/, tests/ and bench/ of
this checkout linked there, so that `build/release/dirfill`, `build/venv/bin/python`,
`tests/data/...` and `bench/...` are where the docs say. A ```python block names its interpreter
on its first line, `# run in build/venv/bin/python`, and runs in that one, fresh (no preamble: it
imports what it uses); a ```sh block runs by bash with -e and pipefail (each command must
succeed), so a block that runs `python3` for dirfill fails as it would for a reader. Or the line
before its fence marks it:
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

import pytest

from test_pgn import TEXT

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GUIDES = [os.path.join(ROOT, "README.md")] + sorted(
    os.path.join(ROOT, "docs", f) for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))
PROGRAM = os.path.join(ROOT, "build", "release", "dirfill")
FILE = re.compile(r"(?<![\w/.-])([\w-]+(?:\.[\w-]+)*\.pgn(?:\.zst|\.gz)?)(?![\w.])")
MARK = re.compile(r"^<!-- (fragment: \S.*|examples/[\w./-]+) -->$")
RUN = ("python", "sh")
# A python block's first line: the interpreter it runs in, as the reader is told to run it.
INTERPRETER = re.compile(r"^# run in (\S+)")
# A new terminal's environment: HOME and the system's PATH, as `env -i` leaves them.
PLAIN_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


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
    """What is wrong with the blocks' marks: unmarked blocks that are not run, python blocks
    that do not name their interpreter, unknown marks, example blocks that differ from their
    file."""
    out = []
    for b in found:
        mark = b["mark"]
        if mark is None and b["lang"] not in RUN:
            out.append("%s: a ```%s block neither run nor marked (<!-- fragment: WHY --> on the "
                       "line before its fence)" % (b["where"], b["lang"]))
        elif mark is None and b["lang"] == "python" and not INTERPRETER.match(b["code"]):
            out.append("%s: a ```python block that names no interpreter (its first line: "
                       "# run in build/venv/bin/python)" % b["where"])
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


def fresh_shell(where):
    """where as a reader's working directory: build/, tests/ and bench/ of this checkout linked
    there; and the environment of a new terminal (a HOME of its own, the system's PATH)."""
    for name in ("build", "tests", "bench"):
        if not os.path.lexists(os.path.join(where, name)):
            os.symlink(os.path.join(ROOT, name), os.path.join(where, name))
    home = os.path.join(where, ".home")
    os.makedirs(home, exist_ok=True)
    return {"HOME": home, "PATH": PLAIN_PATH}


def run_block(code, where):
    """Runs one python block as a reader would paste it into the interpreter its first line
    names, from a fresh shell: afterwards the names its for-loops bind at module level must be
    bound, and a block that writes into out/ must have written something."""
    named = INTERPRETER.match(code)
    if not named:
        return subprocess.CompletedProcess(code, 1, "", "the block names no interpreter: its "
                                           "first line must be # run in build/venv/bin/python")
    write_inputs(code, where)
    loops = loop_names(ast.parse(code))
    check = "".join("assert %r in dir(), 'the loop over %s never ran'\n" % (v, v) for v in loops)
    if '"out/' in code:
        check += "import os\nassert os.listdir('out'), 'nothing written into out/'\n"
    # bash finds the interpreter as the reader's shell would: a path from where, a name on PATH.
    return subprocess.run(["bash", "-c", 'exec "$0" -c "$1"', named.group(1), code + "\n" + check],
                          cwd=where, env=fresh_shell(where), capture_output=True, text=True,
                          timeout=300)


def run_shell(code, where):
    """Runs one sh block in where from a fresh shell (fresh_shell)."""
    write_inputs(code, where)
    return subprocess.run(["bash", "-e", "-o", "pipefail", "-c", code], cwd=where,
                          env=fresh_shell(where), capture_output=True, text=True, timeout=300)


def test_every_block_is_run_or_marked():
    found = blocks()
    assert len(found) >= 20 and sum(b["lang"] == "python" for b in found) >= 5
    assert not problems(found), "\n".join(problems(found))


def test_blocks_run_as_in_a_new_terminal(tmp_path):
    """No venv, no PYTHONPATH, nothing of this interpreter reaches a block: `python3` there is
    the system's, without dirfill, so a block that runs it for dirfill fails, and so does a
    python block that names no interpreter or python3; the venv named by its path works."""
    where = {k: tmp_path / k for k in "abcdef"}
    for d in where.values():
        d.mkdir()
    bare = run_shell("python3 -c 'import dirfill'\n", str(where["a"]))
    assert bare.returncode != 0 and "No module named 'dirfill'" in bare.stderr
    named = run_block("# run in python3\nimport dirfill\n", str(where["b"]))
    assert named.returncode != 0 and "No module named 'dirfill'" in named.stderr
    unnamed = run_block("import dirfill\n", str(where["c"]))
    assert unnamed.returncode != 0 and "names no interpreter" in unnamed.stderr
    assert problems(parse(os.path.join(ROOT, "x.md"), "```python\nimport dirfill\n```\n"))
    venv = run_shell("build/venv/bin/python -c 'import dirfill'\n", str(where["d"]))
    assert venv.returncode == 0, venv.stderr
    env = run_block("# run in build/venv/bin/python\nimport os\nassert not {'VIRTUAL_ENV', "
                    "'PYTHONPATH', 'PYTHONHOME'} & set(os.environ), dict(os.environ)\n",
                    str(where["e"]))
    assert env.returncode == 0, env.stderr
    shell_env = run_shell('[ "$PATH" = %s ] && [ -z "${VIRTUAL_ENV:-}" ]\n' % PLAIN_PATH,
                          str(where["f"]))
    assert shell_env.returncode == 0, shell_env.stderr


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
    venv = "# run in build/venv/bin/python\n"
    failing = run_block(venv + "import dirfill\ndirfill.no_such_function()\n", str(where["a"]))
    assert failing.returncode != 0 and "no_such_function" in failing.stderr
    empty = run_block(venv + "import dirfill\nfor g in dirfill.read_pgn('none.pgn', "
                      "where='WhiteElo>=9000'):\n    pass\n", str(where["b"]))
    assert empty.returncode != 0 and "never ran" in empty.stderr
    silent = run_block(venv + 'import numpy as np\nif False: np.save("out/x.npy", 0)\n',
                       str(where["c"]))
    assert silent.returncode != 0 and "nothing written" in silent.stderr
    assert run_shell("false\necho after\n", str(where["d"])).returncode != 0
    assert run_shell("false | true\n", str(where["e"])).returncode != 0
