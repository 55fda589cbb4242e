"""The house stays tidy: no two modules import each other, not even lazily (an
import inside a function is still a cycle to follow when reading the code),
in the firmware and in the host tools."""

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ROOTS = (REPO / "firmware", REPO / "host_tools")


def modules():
    """Module name -> path, for every .py file under the roots."""
    found = {}
    for root in ROOTS:
        for path in root.rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            if parts:
                found[".".join(parts)] = path
    return found


def imports(path, known):
    """The known modules a file imports, anywhere in it (top level or in a function)."""
    package = path.parent
    deps = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            deps.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from . import x
                here = [p for p in known if known[p].parent == package and known[p].name == "__init__.py"]
                base = (here[0] if here else "") + ("." + base if base else "")
            if base in known:
                deps.add(base)
            deps.update(base + "." + a.name for a in node.names if base + "." + a.name in known)
    return deps


def test_no_two_modules_import_each_other():
    known = modules()
    graph = {name: imports(path, known) - {name} for name, path in known.items()}
    pairs = sorted((a, b) for a in graph for b in graph[a]
                   if a < b and a in graph.get(b, ()))
    assert pairs == [], "modules importing each other: %s" % pairs


def test_the_check_sees_a_lazy_import(tmp_path):
    a = tmp_path / "a.py"
    a.write_text("def f():\n    from pkg import b\n")
    assert imports(a, {"pkg.b": tmp_path / "b.py", "a": a}) == {"pkg.b"}
