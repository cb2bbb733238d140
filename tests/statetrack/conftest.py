"""Fixtures: a small dense world (30 years, 4 characters) and a few-sample ladder built on it."""

from __future__ import annotations

from pathlib import Path

import pytest

from umb.statetrack import LadderOptions, build_ladder, parse_levels

# Low rungs, the last one-character rung and one multi-character rung: enough to cover every
# configuration shape while keeping the suite fast.
LEVELS = "L01-L03,L10,L11,L19,L20"


@pytest.fixture(scope="session")
def dense_bench(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """4 characters over 1996-2025: every character can fill 10 schemas × 10 facts."""
    from umb.pipeline import generate, resolve_config

    out = tmp_path_factory.mktemp("st-bench") / "dense"
    config = resolve_config("demo", characters=4, start="1996-01-01", target_tokens=1000)
    generate(config, out)
    return out


@pytest.fixture(scope="session")
def dense_ladder(dense_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three samples per level of :data:`LEVELS`, default options."""
    out = tmp_path_factory.mktemp("st-ladder") / "ladder"
    build_ladder(dense_bench, out, LadderOptions(samples=3), parse_levels(LEVELS))
    return out
