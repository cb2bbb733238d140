"""Fixtures: a small benchmark, a prepared project, and one reduced end-to-end run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="session")
def small_bench(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Eight characters with short dialogues (about 1,200 estimated tokens each)."""
    from umb.pipeline import generate, resolve_config

    out = tmp_path_factory.mktemp("pbench") / "bench"
    config = resolve_config(
        "demo", characters=8, seed=3, target_tokens=1000, start="2022-01-01", end="2023-06-30"
    )
    generate(config, out)
    return out


@pytest.fixture(scope="session")
def ci_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The ``ci`` preset run end to end once: benchmark, project, training, eval, retention."""
    for module in ("torch", "transformers", "peft", "tokenizers"):
        pytest.importorskip(module, reason="needs the train extra: pip install -e '.[dev,train]'")
    from umb.parametric import run_preset

    out = tmp_path_factory.mktemp("pci") / "ci"
    summary = run_preset("ci", out)
    return {"out": out, "summary": summary}
