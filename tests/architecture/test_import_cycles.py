"""No two files of umb import each other, directly or around a circle.

The graph has one node per file (a package's ``__init__`` is the package's node) and an edge
for every import of an umb module anywhere in the file: inside functions and under
``if TYPE_CHECKING:`` too, since an annotation-only import still ties the two files together.
``from pkg import name`` points at ``pkg.name`` when that is a submodule, else at ``pkg``, so a
module that imports from its own package's ``__init__`` closes a circle with it. A circle is
cut by moving what both files need into a third small module, or by the lower file declaring
the protocol it needs (docs/architecture.md).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import umb

ROOT = Path(umb.__file__).parent

KNOWN: set[frozenset[str]] = set()
"""Circles still allowed, each exactly as its strongly connected set of modules."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imported(module: str, is_package: bool, node: ast.ImportFrom) -> str | None:
    """The module an ``ImportFrom`` names, relative imports resolved."""
    if not node.level:
        return node.module
    base = module.split(".")
    if not is_package:
        base.pop()
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def import_graph() -> dict[str, set[str]]:
    """umb module -> the umb modules it imports."""
    files = {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}
    graph: dict[str, set[str]] = {m: set() for m in files}
    for module, path in files.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                source = _imported(module, is_package, node)
                if source is not None:
                    targets = [
                        f"{source}.{a.name}" if f"{source}.{a.name}" in files else source
                        for a in node.names
                    ]
            graph[module].update(t for t in targets if t in files and t != module)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected sets of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in graph:
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph[succ]))))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    members = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        members.add(member)
                        if member == node:
                            break
                    if len(members) > 1:
                        found.append(frozenset(members))
    return found


def test_the_cycle_finder_sees_a_circle_through_a_package_init() -> None:
    graph = {
        "p": {"p._a"},
        "p._a": {"p._b"},
        "p._b": {"p"},  # ``from p import x`` inside p/_b.py
        "p._c": {"p._a"},
        "q": set(),
    }
    assert cycles(graph) == [frozenset({"p", "p._a", "p._b"})]


def test_the_graph_resolves_submodules_and_relative_imports() -> None:
    graph = import_graph()
    assert "umb.trace._file" in graph["umb.trace._op"]  # from umb.trace._file import ...
    assert "umb.world._vocab" in graph["umb.world._kinds"]  # from umb.world import _vocab
    assert "umb.memory._api" in graph["umb.memory"]  # a package's __init__ is a node


def _listed(found: list[frozenset[str]]) -> str:
    return "\n".join("  " + " <-> ".join(sorted(c)) for c in found)


def test_no_import_cycles() -> None:
    found = [c for c in cycles(import_graph()) if c not in KNOWN]
    hint = "files importing each other (move what both need to a third module):"
    assert not found, f"{hint}\n{_listed(found)}"


def test_every_allowed_cycle_still_exists() -> None:
    found = set(cycles(import_graph()))
    stale = [c for c in KNOWN if c not in found]
    assert not stale, f"no longer a cycle; delete it from KNOWN in this file:\n{_listed(stale)}"
