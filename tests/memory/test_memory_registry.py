from __future__ import annotations

from pathlib import Path

import pytest

from umb import ConfigError
from umb.memory import (
    MEMORY_SYSTEMS,
    MemoryConfig,
    MemorySystem,
    build_memory,
    memory_system_names,
    register_memory_system,
)


def test_every_builtin_builds_with_its_name(demo_bench: Path) -> None:
    builtins = {name for name in MEMORY_SYSTEMS if not name.startswith("test_")}  # not plug-ins
    assert builtins == {
        "full_context", "no_context", "oracle_evidence", "oracle_memory", "rag_bm25", "rag_dense",
        "rag_hybrid", "mem0_style", "summary", "mem0",
    }  # fmt: skip
    for name in builtins:
        system = build_memory(name, MemoryConfig(bench=demo_bench))
        assert isinstance(system, MemorySystem)
        assert system.name == name


def test_oracle_memory_needs_the_benchmark(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="reads the benchmark's facts"):
        build_memory("oracle_memory", MemoryConfig())
    for name in ("manifest.json", "dialogues.jsonl", "questions.jsonl"):
        (tmp_path / name).write_text("{}" if name.endswith(".json") else "")
    with pytest.raises(ConfigError, match="has no facts.jsonl"):
        build_memory("oracle_memory", MemoryConfig(bench=tmp_path))


def test_unknown_name_suggests_close_ones() -> None:
    with pytest.raises(ConfigError, match="did you mean 'rag_bm25'"):
        build_memory("rag_bm52")
    with pytest.raises(ConfigError, match="unknown memory system 'zzz'"):
        build_memory("zzz")


@pytest.mark.parametrize(
    "kwargs", [{"granularity": "paragraph"}, {"top_k": 0}, {"max_input_tokens": 0}]
)
def test_bad_config_is_a_config_error(kwargs: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        MemoryConfig(**kwargs)  # type: ignore[arg-type]


def test_plugin_registration() -> None:
    @register_memory_system("test_plugin_memory")
    class Plugin(MemorySystem):
        name = "test_plugin_memory"

        async def ingest(self, session):  # type: ignore[no-untyped-def]
            pass

        async def retrieve(self, question):  # type: ignore[no-untyped-def]
            raise NotImplementedError

    assert "test_plugin_memory" in memory_system_names()
    assert isinstance(build_memory("test_plugin_memory"), Plugin)
    with pytest.raises(ConfigError, match="already registered"):
        register_memory_system("full_context")(Plugin)
