# SPDX-License-Identifier: MIT
"""examples/engine/weights.h read and written: the weights a tuner fits, in the format the
engine compiles (one W(name, mg, eg) a line of an X-macro, clang-format's layout, so that a
written file needs no reformatting and a hand-formatted one reads back the same)."""

import re
import textwrap

_HEAD = """\
/* SPDX-License-Identifier: MIT */
/* The evaluation's weights: W(term, middlegame, endgame), centipawns per unit of the term's
 * count (eval.c says what each term counts). A tuner (examples/engine/tune/) writes this file:
 * one W() a line, in the order and with the names of eval.c's terms.
"""
_GUARD = "#ifndef DFENGINE_WEIGHTS_H\n#define DFENGINE_WEIGHTS_H\n\n"
_WIDTH = 100  # .clang-format's ColumnLimit: the backslashes stand in its last column
_TERM = re.compile(r"^\s*W\((\w+),\s*(-?\d+),\s*(-?\d+)\)\s*\\?\s*$")


def read_header(path):
    """The terms of a weights.h, [(name, mg, eg)], and its source text (after "Source:")."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    terms = []
    for line in text.splitlines():
        m = _TERM.match(line)
        if m:
            terms.append((m.group(1), int(m.group(2)), int(m.group(3))))
    if not terms:
        raise ValueError(f"{path}: no W(name, mg, eg) lines")
    m = re.search(r"Source: (.*?)\s*\*/", text, re.S)
    source = " ".join(part.strip(" *") for part in m.group(1).splitlines()) if m else ""
    return terms, source


def format_header(terms, source):
    """weights.h's text for terms [(name, mg, eg)] (integers) with a source line."""
    lines = textwrap.wrap("Source: " + source, _WIDTH - 4, break_on_hyphens=False)
    out = _HEAD + "".join(" * " + line + "\n" for line in lines[:-1])
    out += " * " + lines[-1] + " */\n" + _GUARD
    body = ["#define DFENGINE_WEIGHTS(W)"]
    body += [f"    W({name}, {int(mg)}, {int(eg)})" for name, mg, eg in terms]
    for i, line in enumerate(body):
        out += (line.ljust(_WIDTH - 1) + "\\" if i < len(body) - 1 else line) + "\n"
    return out + "\n#endif\n"


def write_header(path, terms, source):
    with open(path, "w", encoding="utf-8") as f:
        f.write(format_header(terms, source))
