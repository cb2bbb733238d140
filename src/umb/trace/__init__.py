"""Execution-graph traces of memory operations.

Record with a :class:`Tracer` (or :func:`open_tracer`), read back with :func:`read_trace` into a
:class:`Trace` whose queries (lineage, paths, versions, readers) serve attribution; draw one
question's evidence subgraph. Recording, the file format, reading and pictures, nothing else:
attribution (:mod:`umb.attribute`) and the MemTraceBench format (:mod:`umb.interop.memtracebench`)
build on it.
"""

from umb.trace._append import TraceAppender, trace_records
from umb.trace._context import bind_context, current_op, current_tracer, run_in_thread
from umb.trace._decorator import operation, traced
from umb.trace._file import FORMAT_NAME, FORMAT_VERSION, RawTrace
from umb.trace._gc import paused_gc
from umb.trace._graph import Trace
from umb.trace._ids import (
    answer_var,
    context_var,
    encode_value,
    judgement_var,
    key_of,
    memory_var,
    memory_vars,
    query_var,
    role_of,
    session_var,
    turn_var,
    var,
)
from umb.trace._inputs import BenchmarkTurns, InputsRef, TurnTranscript
from umb.trace._model import NodeKey, Operation, ScopeInfo, StoredValue, Subgraph, VarVersion
from umb.trace._null import NULL_OP, NULL_TRACER, BaseTracer, NullTracer, OpHandle, use_tracer
from umb.trace._reader import check_trace_format, read_trace
from umb.trace._render import Format, render_subgraph
from umb.trace._resume import fill_op
from umb.trace._split import (
    CHUNK,
    Advance,
    DialogueSplitter,
    DialogueTrace,
    iter_dialogue_traces,
    iter_records,
    read_dialogues,
)
from umb.trace._tail import TraceTail
from umb.trace._tracer import TraceConfig, Tracer, open_tracer

__all__ = [
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
    "CHUNK",
    "DialogueTrace",
    "iter_dialogue_traces",
    "read_dialogues",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "NULL_TRACER",
    "BaseTracer",
    "BenchmarkTurns",
    "InputsRef",
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
    "TurnTranscript",
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
    "render_subgraph",
    "role_of",
    "run_in_thread",
    "session_var",
    "traced",
    "trace_records",
    "turn_var",
    "use_tracer",
    "var",
]
