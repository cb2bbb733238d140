"""The public surface of umb.trace, pinned: changing it must be deliberate."""

from __future__ import annotations

import subprocess
import sys

import umb.attribute
import umb.interop.memtracebench
import umb.trace

ATTRIBUTION = {
    "ATTRIBUTIONS",
    "ATTRIBUTION_SUMMARY",
    "ERROR_TYPES",
    "FAULT_KINDS",
    "Attribution",
    "AttributionRun",
    "FactChecker",
    "Fault",
    "FaultReport",
    "LLMFactChecker",
    "MEMORY_METRICS",
    "MemoryMetricsRun",
    "Need",
    "QuestionInputs",
    "attribute_question",
    "attribute_run",
    "build_needs",
    "NEEDS_RULES",
    "NeedsRule",
    "needs_rule",
    "memory_metrics_run",
    "memory_metrics_entry",
    "read_attributions",
    "read_memory_metrics",
    "run_fault_injection",
    # what the pipeline and the report read of a run's attribution and memory metrics
    "BackgroundAnalysis",
    "RATES",
    "read_memory_detail",
    "run_traces",
}
"""Attribution and fault injection (docs/tracing.md, Attribution): ``umb.attribute``."""

MEMTRACE = {"ERROR_TYPE_TO_MEMTRACE", "export_memtrace", "import_memtrace"}
"""The MemTraceBench format: ``umb.interop.memtracebench``."""

EXPECTED = {
    "BenchmarkTurns", "InputsRef", "TurnTranscript",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "NULL_TRACER",
    "BaseTracer",
    "NullTracer",
    "OpHandle",
    "Operation",
    "ScopeInfo",
    "StoredValue",
    "Subgraph",
    "Trace",
    "TraceAppender",
    "TraceConfig",
    "Tracer",
    "VarVersion",
    "answer_var",
    "bind_context",
    "context_var",
    "current_op",
    "current_tracer",
    "encode_value",
    "judgement_var",
    "key_of",
    "memory_var",
    "open_tracer",
    "operation",
    "query_var",
    "read_trace",
    "read_dialogues",
    "iter_dialogue_traces",
    "DialogueTrace",
    "CHUNK",
    "trace_records",
    "render_subgraph",
    "role_of",
    "run_in_thread",
    "session_var",
    "traced",
    "turn_var",
    "use_tracer",
    "var",
    "Advance",
    "DialogueSplitter",
    "Format",
    "NULL_OP",
    "NodeKey",
    "RawTrace",
    "TraceTail",
    "check_trace_format",
    "fill_op",
    "iter_records",
    "memory_vars",
    "paused_gc",
}


TYPE_ALIASES = {"Advance", "Format", "NodeKey"}
"""Exported annotations (a progress callback, a picture format, a node's key): no module or
docstring of their own."""


def test_exported_members() -> None:
    assert set(umb.trace.__all__) == EXPECTED
    for name in set(umb.trace.__all__) - TYPE_ALIASES:
        assert name.isupper() or getattr(umb.trace, name).__module__.startswith("umb.trace")
    assert set(umb.attribute.__all__) == ATTRIBUTION
    assert set(umb.interop.memtracebench.__all__) == MEMTRACE


def test_public_callables_have_docstrings() -> None:
    for name in set(umb.trace.__all__) - TYPE_ALIASES:
        obj = getattr(umb.trace, name)
        if callable(obj):
            assert obj.__doc__, name


def test_import_is_light() -> None:
    code = (
        "import sys, umb.trace; "
        "print(sorted(m for m in ('graphviz', 'pydantic', 'numpy') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stderr


def test_identities() -> None:
    from umb.trace import key_of, memory_var, role_of, turn_var, var

    assert turn_var("D0001:S003:T0004") == "turn:D0001:S003:T0004"
    assert memory_var("m17", "D0001") == "memory:D0001:m17"
    assert memory_var("m17") == "memory:m17"
    assert (role_of("turn:D1:S1:T1"), key_of("turn:D1:S1:T1")) == ("turn", "D1:S1:T1")
    assert (role_of("plain"), key_of("plain")) == ("", "plain")
    assert var("prompt", "qa") == "prompt:qa"
