"""Shared fixtures: a demo benchmark generated once per test session."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from umb.testing import OpenAIServer

os.environ.setdefault("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="session")
def demo_bench(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo preset (10 characters, ~4k tokens each), seed 0. Treat it as read-only."""
    from umb.pipeline import generate, resolve_config

    out = tmp_path_factory.mktemp("bench") / "demo"
    generate(resolve_config("demo"), out)
    return out


@pytest.fixture(scope="session")
def first_dialogue(demo_bench: Path) -> int:
    """How many of the demo's first questions are D0001's: a ``limit`` that runs one dialogue."""
    from umb.bench import Benchmark

    ids = [q.dialogue_id for q in Benchmark.open(demo_bench).questions]
    return ids.index(next(d for d in ids if d != ids[0]))


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


@pytest.fixture(scope="session")
def ray_address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A local Ray cluster of 2 CPUs for the whole session, joined by this process; its address.

    Started as umb starts one (on 127.0.0.1 only), and only by the tests that ask for it (they
    skip when the ``ray`` extra is missing).
    """
    ray = pytest.importorskip("ray", reason="the ray extra is not installed")
    from umb.run._ray_cluster import start_local_cluster

    temp_dir = tempfile.mkdtemp(prefix="umb-ray-test-")  # short: Ray keeps sockets there
    yield start_local_cluster(2, temp_dir)
    ray.shutdown()
    shutil.rmtree(temp_dir, ignore_errors=True)
