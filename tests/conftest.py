"""Shared fixtures: a demo benchmark generated once per test session."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from umb.testing import OpenAIServer

os.environ.setdefault("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="session")
def demo_bench(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo preset (10 characters, ~4k tokens each), seed 0. Treat it as read-only."""
    from umb.pipeline._generate import generate, resolve_config

    out = tmp_path_factory.mktemp("bench") / "demo"
    generate(resolve_config("demo"), out)
    return out


@pytest.fixture(scope="session")
def _openai_server_process() -> Iterator[OpenAIServer]:
    from umb.testing import running_server

    with running_server() as server:
        yield server


@pytest.fixture
def openai_server(_openai_server_process: OpenAIServer) -> OpenAIServer:
    """A real OpenAI-compatible server process on 127.0.0.1 (one per session), reset for each
    test. Point a model at ``openai_server.base_url``; script it with ``set_rules``/``control``
    and read ``stats()`` (see umb.testing)."""
    _openai_server_process.reset()
    return _openai_server_process
