"""The world package's public face: the layers above import its names from ``umb.world``, never
from its private modules."""

from __future__ import annotations

import ast
from pathlib import Path

import umb
import umb.world

ROOT = Path(umb.__file__).parent


def test_other_packages_use_only_the_world_s_public_names() -> None:
    private = []
    for path in sorted(ROOT.rglob("*.py")):
        if path.parent.name == "world":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("umb.world._"):
                private.append(f"{path.relative_to(ROOT)}: {node.module}")
    assert not private, private


def test_every_exported_name_is_there_and_documented() -> None:
    assert umb.world.__doc__
    assert len(umb.world.__all__) == len(set(umb.world.__all__))
    for name in umb.world.__all__:
        assert getattr(umb.world, name) is not None, name
