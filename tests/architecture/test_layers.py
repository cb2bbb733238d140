"""The package layers point down: no subpackage imports one above it, not even inside a function.

Imports under ``if TYPE_CHECKING:`` are annotations only and do not count. A function-local
import is allowed only to defer an optional heavy dependency, so only third-party modules may be
imported inside functions of library code, plus the few umb modules named in
:data:`HEAVY_SEAMS` whose import pulls in such a dependency (``umb._cli`` loads each verb lazily and
is exempt).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import umb

ROOT = Path(umb.__file__).parent

LAYERS: tuple[str, ...] = (
    "_cli",
    "parametric",
    "pipeline",
    "audit",
    "report",
    "attribute",
    "run",
    "statetrack",
    "interop",
    "scoring",
    "memory",
    "render",
    "models",
    "trace",
    "qa",
    "world",
    "bench",
)
"""Top to bottom (docs/architecture.md)."""

SHARED: frozenset[str] = frozenset(
    {
        "_registry", "_peer", "_lazy", "_errors", "_jsonio", "_recordlog", "_tokens", "_version",
        "_dates", "families", "testing",
    }  # fmt: skip
)
"""Bottom modules every layer may use; they import only each other."""


HEAVY_SEAMS: dict[str, str] = {
    "umb.models._openai": "its HTTP client takes ~0.3 s to import",
    "umb.models.offline": "numpy, through the offline reader's list answers",
    "umb.models._hf": "torch and transformers (extra hf)",
    "umb.models._llamacpp": "llama-cpp-python (extra llamacpp)",
    "umb.run._ray_eval": "ray (extra ray), for --executor ray",
    "umb.pipeline._generate_ray": "ray (extra ray), for --executor ray",
    "umb.report._context": "jinja2 and the page's templates, which the terminal's text needs not",
}
"""umb modules a function may import lazily, and why."""


def _imports(tree: ast.AST) -> Iterator[tuple[ast.ImportFrom | ast.Import, bool]]:
    """Every import node with whether it sits inside a function, skipping TYPE_CHECKING blocks."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for n in ast.walk(node))
    local: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            local.update(id(n) for n in ast.walk(node))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in skip:
            yield node, id(node) in local


def _targets(node: ast.ImportFrom | ast.Import) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    return [node.module or ""] if node.level == 0 else []


def _package(path: Path) -> str:
    return path.relative_to(ROOT).parts[0].removesuffix(".py")


def _rank(package: str) -> int:
    return len(LAYERS) if package in SHARED else LAYERS.index(package)


def test_every_package_has_a_layer() -> None:
    packages = {_package(p) for p in ROOT.rglob("*.py")} - {"__init__", "__main__"}
    assert packages <= set(LAYERS) | SHARED, packages - set(LAYERS) - SHARED


def test_imports_point_down() -> None:
    upward = []
    for path in sorted(ROOT.rglob("*.py")):
        source = _package(path)
        if source in ("__init__", "__main__"):
            continue
        for node, _ in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            for target in _targets(node):
                parts = target.split(".")
                if parts[0] != "umb" or len(parts) < 2 or parts[1] == source:
                    continue
                if _rank(parts[1]) < _rank(source):
                    upward.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {target}")
    assert not upward, "\n".join(upward)


def test_shared_modules_import_only_shared_modules() -> None:
    bad = []
    for name in sorted(SHARED - {"testing"}):
        path = ROOT / f"{name}.py"
        for node, _ in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            for target in _targets(node):
                parts = target.split(".")
                if parts[0] == "umb" and len(parts) > 1 and parts[1] not in SHARED:
                    bad.append(f"{name}.py:{node.lineno} imports {target}")
    assert not bad, "\n".join(bad)


def test_library_code_defers_only_third_party_imports() -> None:
    local = []
    for path in sorted(ROOT.rglob("*.py")):
        if _package(path) == "_cli":
            continue
        for node, in_function in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            targets = [t for t in _targets(node) if t.split(".")[0] == "umb"]
            if in_function and any(t not in HEAVY_SEAMS for t in targets):
                local.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not local, "function-local umb imports:\n" + "\n".join(local)


def test_the_cli_uses_only_public_names() -> None:
    """``umb._cli`` reaches other packages through their ``__init__`` (and the shared bottom
    modules, the registries among them), never through a private module; only the heavy seams
    are imported by their own names."""
    private = []
    for path in sorted((ROOT / "_cli").rglob("*.py")):
        for node, _ in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            for target in _targets(node):
                parts = target.split(".")
                if parts[0] != "umb" or len(parts) < 3 or parts[1] in ("_cli", *SHARED):
                    continue
                if target not in HEAVY_SEAMS and any(p.startswith("_") for p in parts[2:]):
                    private.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {target}")
    assert not private, "\n".join(private)


PRIVATE_SEAMS: dict[str, str] = {
    "umb.pipeline._api": "the root package's face: umb.evaluate and its siblings are not the "
    "pipeline's own evaluate and generate, so umb/__init__.py names their module",
}
"""Private modules another package may import from by name, and why (besides HEAVY_SEAMS)."""


def _private_target(target: str) -> bool:
    parts = target.split(".")
    return len(parts) > 2 and any(p.startswith("_") for p in parts[2:])


def test_packages_reach_each_other_through_public_names() -> None:
    """A package imports another's names from its ``__init__``, never from a private module,
    so each package's face is the whole of what the others use."""
    reached = []
    for path in sorted(ROOT.rglob("*.py")):
        source = _package(path)
        for node, _ in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            for target in _targets(node):
                parts = target.split(".")
                if parts[0] != "umb" or len(parts) < 3 or parts[1] in (source, *SHARED):
                    continue
                if _private_target(target) and target not in {*HEAVY_SEAMS, *PRIVATE_SEAMS}:
                    reached.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {target}")
    assert not reached, "\n".join(reached)


def test_tests_import_a_public_name_where_one_exists() -> None:
    """A test that imports from a private module does so only for names its package does not
    export (the internals it tests)."""
    import importlib

    tests = Path(__file__).resolve().parents[1]
    detour = []
    for path in sorted(tests.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
                continue
            parts = node.module.split(".")
            if parts[0] != "umb" or len(parts) < 2 or node.module in HEAVY_SEAMS:
                continue
            # A shared module's face is umb itself (umb.ConfigError); a layer's is its package.
            if parts[1] in SHARED and parts[1].startswith("_"):
                face_name = "umb"
            elif _private_target(node.module) and parts[1] not in SHARED:
                face_name = f"umb.{parts[1]}"
            else:
                continue
            module = importlib.import_module(node.module)
            face = importlib.import_module(face_name)
            public = [
                a.name
                for a in node.names
                if getattr(face, a.name, None) is getattr(module, a.name, object())
            ]
            if public:
                where = f"{path.relative_to(tests)}:{node.lineno}"
                detour.append(f"{where} imports {public} from {node.module}, not {face_name}")
    assert not detour, "\n".join(detour)
