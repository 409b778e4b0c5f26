# SPDX-License-Identifier: MIT
"""The arrows between the C files of the library and the program, and two rules on them.

A file points at another when it calls a function or reads a variable defined there, or
includes it. Files of one job are one node: a .c file, its header and its template (name.c,
name.h, name_tpl.h). The rules:
  - no circle: no node reaches itself through the arrows of others;
  - no arrow from a layer to one below it (docs/architecture.md's table, LAYERS here), except
    from the dispatch glue (src/'s top and the ISA folders, which instantiate every layer's
    templates) and the includes made by a template (*_tpl.h), whose code belongs to the layer
    that instantiates it.
Prints each broken rule with the arrows behind it; exit status 1 when one is broken.
    usage: python3 tests/file-graph.py SOURCE_DIR
"""
import os
import re
import sys

# Layers by folder, from the top: a file may point at its own layer and those above it.
LAYERS = [
    ("src/services/", 0, "services"),
    ("src/fill/", 2, "kernels"),
    ("src/lookup/", 3, "one-square lookups"),
    ("src/chess/", 4, "chess"),
    ("src/pgn/", 5, "game records"),
    ("src/nnue/", 6, "training inputs"),
    ("src/output/", 7, "outputs"),
    ("app/", 8, "clients"),
    ("cmdline/", 8, "clients"),
]
# The dispatch glue: the backend table, each backend's instance of every layer's templates.
GLUE = re.compile(r"^src/([^/]+|scalar/.*|avx2/.*|avx512/.*)$")
GLUE_LAYER = 2
FOLDERS = ("src", "app", "cmdline")


def layer(path):
    if GLUE.match(path):
        return GLUE_LAYER, "dispatch"
    for prefix, rank, name in LAYERS:
        if path.startswith(prefix):
            return rank, name
    raise SystemExit("file-graph.py: %s is in no layer: add its folder to LAYERS" % path)


def node(path):
    """The job a file belongs to: its path without the extension and a _tpl suffix; the
    dispatch glue is one job."""
    return "src/ (dispatch)" if GLUE.match(path) else re.sub(r"(_tpl)?\.[ch]$", "", path)


def function_bodies(text):
    """A header's function bodies only: its prototypes and types declare, they use nothing."""
    out, depth, start = [], 0, None
    for i, c in enumerate(text):
        if c == "{":
            if depth == 0 and text[:i].rstrip().endswith(")"):
                start = i
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0 and start is not None:
                out.append(text[start:i + 1])
                start = None
    return "\n".join(out)


def code_of(text):
    """The text without comments, strings and character constants (line count kept)."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"\"(\\.|[^\"\\\n])*\"|'(\\.|[^'\\\n])*'", '""', text)


# A definition at file scope: a line at column 0 that names a function (not a prototype) or a
# variable with an initialiser or an array size, not static and not a declaration.
DEFINITION = re.compile(r"(?:const\s+)?[A-Za-z_][\w \*]*?[\s\*]([A-Za-z_]\w*)\s*(\(|\[|=)")
NOT_DEFINITIONS = ("static", "typedef", "extern", "struct", "enum", "union", "#", "}", "{")


def main(root):
    files = sorted(
        os.path.relpath(os.path.join(d, f), root)
        for top in FOLDERS if os.path.isdir(os.path.join(root, top))
        for d, _, names in os.walk(os.path.join(root, top))
        for f in names if f.endswith((".c", ".h")))
    raw = {f: open(os.path.join(root, f), encoding="utf-8", errors="replace").read() for f in files}
    code = {f: code_of(t) for f, t in raw.items()}
    used = {f: code[f] if f.endswith((".c", "_tpl.h")) else function_bodies(code[f]) for f in files}

    defined = {}
    for f in files:
        if not f.endswith(".c"):
            continue
        for line in code[f].split("\n"):
            if not line or line[0] in " \t" or line.startswith(NOT_DEFINITIONS):
                continue
            m = DEFINITION.match(line)
            if m and (m.group(2) != "(" or not line.rstrip().endswith(";")):
                defined.setdefault(m.group(1), f)

    arrows = {}  # (from node, to node) -> (from file, why)
    for f in files:
        for name in set(re.findall(r"\b[A-Za-z_]\w*\b", used[f])):
            g = defined.get(name)
            if g and node(g) != node(f):
                arrows.setdefault((node(f), node(g)), (f, "uses %s" % name, g))
        for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', raw[f], flags=re.M):
            for base in (os.path.dirname(f), "src"):
                g = os.path.normpath(os.path.join(base, inc))
                if g in raw:
                    if node(g) != node(f):
                        arrows.setdefault((node(f), node(g)), (f, "includes %s" % inc, g))
                    break

    failed = False
    for (a, b), (f, why, g) in sorted(arrows.items()):
        (ra, la), (rb, lb) = layer(f), layer(g)
        if rb > ra and not GLUE.match(f) and not (why.startswith("includes") and
                                                   f.endswith("_tpl.h")):
            print("FAIL: %s (%s) %s of %s (%s), a layer below" % (f, la, why, g, lb))
            failed = True

    # Circles: the strongly connected components of more than one node (Tarjan's algorithm),
    # leaving out the glue's arrows to the layers and the instantiating includes of templates:
    # the backend table holds every layer's instance, and every layer calls through it.
    succ = {}
    for (a, b), (f, why, g) in arrows.items():
        if (GLUE.match(f) and not GLUE.match(g)) or (why.startswith("includes") and
                                                     g.endswith("_tpl.h")):
            continue
        succ.setdefault(a, []).append(b)
    index, low, stack, on, circles = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in succ.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                circles.append(sorted(part))

    sys.setrecursionlimit(10000)
    for v in sorted(succ):
        if v not in index:
            visit(v)
    for part in circles:
        print("FAIL: a circle between %s:" % ", ".join(part))
        for b_, w_ in sorted((a, b) for a in part for b in succ.get(a, ()) if b in part):
            f, why, g = arrows[(b_, w_)]
            if True:
                print("  %s %s of %s" % (f, why, g))
        failed = True
    if failed:
        return 1
    print("file graph: %d files, %d arrows between jobs, no circle, no arrow to a layer below"
          % (len(files), len(arrows)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
