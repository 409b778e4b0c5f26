# SPDX-License-Identifier: MIT
"""The package's shape: its modules import one another one way only (no circle, nothing
imports dirfill.torch), __init__.py only re-exports, and the classes of the readers' results
pickle under their public names whichever module defines them."""
import ast
import os
import pickle

import pytest

import dirfill

PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "dirfill")
MODULES = sorted(f[:-3] for f in os.listdir(PACKAGE) if f.endswith(".py"))
#: What a module may import from the package: its .py modules and the C extension.
IMPORTABLE = set(MODULES) | {"_dirfill"}
PGN = b'[Event "x"]\n[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 1-0\n'


def package_imports(module):
    """The package's modules that module imports."""
    with open(os.path.join(PACKAGE, module + ".py"), encoding="utf-8") as f:
        return imports_of(f.read())


def imports_of(source):
    """The package's modules a module's source imports, anywhere in it (a function's lazy
    import too): ``from . import X`` is module X when the package has one, else a name of
    __init__; ``from .x import``, ``from dirfill.x import`` and ``import dirfill.x`` are x;
    ``from dirfill import`` is as ``from . import``, ``import dirfill`` is __init__."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                inside = node.module or ""
            elif node.level == 0 and node.module and node.module.split(".")[0] == "dirfill":
                inside = node.module.partition(".")[2]
            else:
                continue
            if inside:
                found.add(inside.split(".")[0])
            else:
                found.update(a.name if a.name in IMPORTABLE else "__init__" for a in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "dirfill":
                    found.add(parts[1] if len(parts) > 1 else "__init__")
    return found


def import_circle(graph):
    """A circle of the graph (module -> the modules it imports) as a list of modules, the first
    again at its end, or None."""
    done, path = set(), []

    def visit(module):
        if module in path:
            return path[path.index(module):] + [module]
        if module in done:
            return None
        path.append(module)
        for imported in sorted(graph.get(module, ())):
            circle = visit(imported)
            if circle:
                return circle
        path.pop()
        done.add(module)
        return None

    for module in sorted(graph):
        circle = visit(module)
        if circle:
            return circle
    return None


def test_the_graph_sees_each_form_of_import():
    assert imports_of("from . import _pgn, PLANES") == {"_pgn", "__init__"}
    assert imports_of("from ._batches import _Renamed as R") == {"_batches"}
    assert imports_of("from dirfill import SourceError") == {"__init__"}
    assert imports_of("from dirfill._nnue import DEFAULT_FEATURES") == {"_nnue"}
    assert imports_of("import dirfill.torch\nimport dirfill") == {"torch", "__init__"}
    assert imports_of("def f():\n    from . import _planes\n") == {"_planes"}
    assert imports_of("import torch\nfrom numpy import uint8") == set()
    assert package_imports("__init__") >= {"_batches", "_pgn", "_nnue", "_dirfill"}
    assert import_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert import_circle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_no_import_circle():
    graph = {m: package_imports(m) for m in MODULES}
    unknown = {m: sorted(i - IMPORTABLE - {"__init__"}) for m, i in graph.items()
               if i - IMPORTABLE - {"__init__"}}
    assert not unknown, "imports of no module of the package: %s" % unknown
    circle = import_circle(graph)
    assert circle is None, "import circle: %s" % " -> ".join(circle)


def test_nothing_imports_torch_module():
    importers = [m for m in MODULES if "torch" in package_imports(m)]
    assert not importers, "import dirfill must not import torch: %s do" % importers


def test_init_only_reexports():
    with open(os.path.join(PACKAGE, "__init__.py"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    defined = [n.name for n in ast.walk(tree)
               if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    assert not defined, "__init__.py defines %s: define it in a module and import it" % defined
    for i, node in enumerate(tree.body):
        docstring = i == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        imports = isinstance(node, (ast.Import, ast.ImportFrom))
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AugAssign) else [])
        dunders = targets and all(isinstance(t, ast.Name) and t.id in ("__all__", "__version__")
                                  for t in targets)
        assert docstring or imports or dunders, (
            "__init__.py line %d is not an import, __all__ or __version__" % node.lineno)


def test_public_names_resolve():
    missing = [n for n in dirfill.__all__ if not hasattr(dirfill, n)]
    assert not missing
    assert (dirfill.A1, dirfill.E4, dirfill.H8) == (0, 28, 63)


@pytest.mark.parametrize("make", [
    lambda: next(dirfill.read_pgn(PGN)),
    lambda: dirfill.pgn_positions(PGN),
    lambda: dirfill.pgn_positions(PGN)["stats"],
    lambda: next(iter(dirfill.pgn_batches(PGN)))["headers"],
    lambda: dirfill.SourceError(None, "truncated zstd stream", "a.pgn.zst"),
], ids=["Game", "positions", "stats", "batch headers", "SourceError"])
def test_results_pickle_under_public_names(make):
    """A pickle names a class by its __module__ and qualified name: dirfill.X, which every
    release can import, not the module that defines it now."""
    obj = make()
    cls = type(obj)
    assert cls.__module__ == "dirfill" and getattr(dirfill, cls.__qualname__) is cls
    back = pickle.loads(pickle.dumps(obj))
    assert type(back) is cls
    if isinstance(obj, dirfill.SourceError):
        assert (back.errno, back.strerror, back.filename) == (None, obj.strerror, obj.filename)
    elif isinstance(obj, dirfill.Game):
        assert (back.index, back.uci, back.headers) == (obj.index, obj.uci, obj.headers)
    else:
        assert list(back) == list(obj)
