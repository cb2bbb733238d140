from __future__ import annotations

import subprocess
import sys

import umb.memory


def test_public_api_is_pinned() -> None:
    assert sorted(umb.memory.__all__) == sorted([
        "Granularity", "MEMORY_SYSTEMS", "MemoryConfig", "MemorySystem", "MemoryUnit",
        "MemoryVersion", "RetrievedContext", "build_memory",
        "memory_system_class", "memory_system_names", "read_items", "register_memory_system",
        "render_session", "render_sessions", "render_units", "traced_retrieve",
        # the systems' own classes and parts, for code that subclasses one (fault injection)
        "CandidateFact", "Decision", "FullContext", "GRANULARITIES", "Mem0Style",
        "OracleEvidence", "RagMemory", "SessionLog", "SummaryMemory", "split_sentences",
    ])  # fmt: skip
    for name in umb.memory.__all__:
        assert getattr(umb.memory, name) is not None


def test_import_loads_no_retrieval_backend() -> None:
    code = (
        "import sys, umb.memory; "
        "print(sorted(m for m in ('bm25s', 'wordllama', 'rapidfuzz') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
