"""Execution-graph traces of memory operations.

Record with a :class:`Tracer` (or :func:`open_tracer`), read back with :func:`read_trace` into a
:class:`Trace` whose queries (lineage, paths, versions, readers) serve attribution; export to and
import from MemTraceBench / smartcomment graphs; draw one question's evidence subgraph.
:func:`attribute_run` gives each failed question of a run its error type and decisive faulty
operation; :func:`run_fault_injection` checks it against faults injected for real.
"""

from umb.trace._attribution import attribute_question
from umb.trace._attribution_evidence import FactChecker, QuestionInputs
from umb.trace._attribution_facts import Need, build_needs
from umb.trace._attribution_llm import LLMFactChecker
from umb.trace._attribution_run import (
    ATTRIBUTION_SUMMARY,
    ATTRIBUTIONS,
    AttributionRun,
    attribute_run,
    read_attributions,
)
from umb.trace._attribution_types import ERROR_TYPES, Attribution
from umb.trace._context import bind_context, current_op, current_tracer, run_in_thread, use_tracer
from umb.trace._decorator import operation, traced
from umb.trace._faults import FAULT_KINDS, Fault
from umb.trace._faults_run import FaultReport, run_fault_injection
from umb.trace._file import FORMAT_NAME, FORMAT_VERSION
from umb.trace._graph import Trace
from umb.trace._ids import (
    answer_var,
    context_var,
    encode_value,
    judgement_var,
    key_of,
    memory_var,
    query_var,
    role_of,
    session_var,
    turn_var,
    var,
)
from umb.trace._memtrace_export import ERROR_TYPE_TO_MEMTRACE, export_memtrace
from umb.trace._memtrace_import import import_memtrace
from umb.trace._model import Operation, ScopeInfo, StoredValue, Subgraph, VarVersion
from umb.trace._null import NULL_TRACER, BaseTracer, NullTracer, OpHandle
from umb.trace._reader import read_trace
from umb.trace._render import render_subgraph
from umb.trace._tracer import TraceConfig, Tracer, open_tracer

__all__ = [
    "ATTRIBUTIONS",
    "ATTRIBUTION_SUMMARY",
    "ERROR_TYPES",
    "ERROR_TYPE_TO_MEMTRACE",
    "FAULT_KINDS",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "NULL_TRACER",
    "Attribution",
    "AttributionRun",
    "BaseTracer",
    "FactChecker",
    "Fault",
    "FaultReport",
    "LLMFactChecker",
    "Need",
    "NullTracer",
    "OpHandle",
    "Operation",
    "QuestionInputs",
    "ScopeInfo",
    "StoredValue",
    "Subgraph",
    "Trace",
    "TraceConfig",
    "Tracer",
    "VarVersion",
    "answer_var",
    "attribute_question",
    "attribute_run",
    "bind_context",
    "build_needs",
    "context_var",
    "current_op",
    "current_tracer",
    "encode_value",
    "export_memtrace",
    "import_memtrace",
    "judgement_var",
    "key_of",
    "memory_var",
    "open_tracer",
    "operation",
    "query_var",
    "read_attributions",
    "read_trace",
    "render_subgraph",
    "role_of",
    "run_fault_injection",
    "run_in_thread",
    "session_var",
    "traced",
    "turn_var",
    "use_tracer",
    "var",
]
