"""Fixtures of the renderer tests: a tiny template benchmark and its session plans."""

from __future__ import annotations

from pathlib import Path

import pytest

from umb.bench import Benchmark
from umb.render import DialoguePlan, load_worlds, plan_dialogue

TINY_SEED = 3


@pytest.fixture(scope="session")
def tiny_bench(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A template benchmark of two characters (about 30 sessions each). Read-only."""
    from umb.pipeline import generate, resolve_config

    out = tmp_path_factory.mktemp("render") / "tiny"
    generate(resolve_config("demo", characters=2, seed=TINY_SEED, target_tokens=1000), out)
    return out


@pytest.fixture(scope="session")
def tiny_plans(tiny_bench: Path) -> list[DialoguePlan]:
    """The session plans of ``tiny_bench``."""
    bench = Benchmark.open(tiny_bench)
    worlds, names = load_worlds(bench)
    return [
        plan_dialogue(TINY_SEED, worlds[d.character_id], d, names) for d in bench.iter_dialogues()
    ]
