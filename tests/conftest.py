"""Shared fixtures: a demo benchmark generated once per test session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="session")
def demo_bench(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo preset (10 characters, ~4k tokens each), seed 0. Treat it as read-only."""
    from umb.bench._generate import generate, resolve_config

    out = tmp_path_factory.mktemp("bench") / "demo"
    generate(resolve_config("demo"), out)
    return out
