"""Orchestration of the layers below: generate, merge, evaluate, the quick start.

Names load on first use: ``umb generate`` must not import the model layer, nor ``umb eval`` the
renderer.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY: dict[str, str] = {
    "evaluate": "umb.pipeline._evaluate",
    "PRESETS": "umb.pipeline._generate",
    "GenerateConfig": "umb.pipeline._generate",
    "generate": "umb.pipeline._generate",
    "parse_shard": "umb.pipeline._generate",
    "resolve_config": "umb.pipeline._generate",
    "generate_llm": "umb.pipeline._generate_llm",
    "generate_llm_dry_run": "umb.pipeline._generate_llm",
    "merge_shards": "umb.pipeline._merge",
    "DEFAULT_SYSTEMS": "umb.pipeline._quickstart",
    "QuickstartOutcome": "umb.pipeline._quickstart",
    "run_quickstart": "umb.pipeline._quickstart",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'umb.pipeline' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
