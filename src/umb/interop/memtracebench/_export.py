"""Export a trace as MemTraceBench / smartcomment execution-graph JSON, one file per dialogue.

smartcomment keeps variable versions as nodes and puts operations in a side table; an operation's
"subgraph" is the set of edges carrying its ``op_id``, the product of its inputs and outputs.
An operation with no inputs (or no outputs) gets the ``COMMENT:NONE@1`` sentinel on that side,
so every operation, even one that failed before writing anything, owns at least one edge.
Everything smartcomment has no field for (seq, status, error, latency, tokens, exact reads and
writes) travels in ``metadata["umb"]``, which :func:`import_memtrace` reads back losslessly.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import orjson

from umb._jsonio import atomic_write_bytes, dumps_pretty
from umb.trace import NodeKey, Operation, Trace, VarVersion

SENTINEL_NODE = "COMMENT:NONE@1"
SENTINEL_SESSION = "__none__"
SOURCE_FILE = "<umb-trace>"

ERROR_TYPE_TO_MEMTRACE = {"JudgeError": "LLMAsAJudgeError"}
"""umb error labels whose MemTraceBench spelling differs."""

_NODE_CATEGORY = {
    "turn": "message",
    "session": "message",
    "query": "message & query",
    "memory": "memory_entry",
    "context": "context",
    "answer": "prediction",
    "judgement": "judge_score",
}
_SESSION_OF_CATEGORY = {
    "retrieval": ("search", "memory_search"),
    "response": ("evaluation", "memory_evaluation"),
    "judge": ("evaluation", "memory_evaluation"),
    "evaluation": ("evaluation", "memory_evaluation"),
}


def _stamp(t: float) -> str:
    # smartcomment's format has no zone; ours is always UTC (said in the graph metadata).
    return datetime.fromtimestamp(t, tz=timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def _str_or_none(x: Any) -> str | None:
    return x if isinstance(x, str) else None


def _common(graph_id: str, t: float, lineno: int = 0) -> dict[str, Any]:
    return {
        "created_at": _stamp(t), "filename": SOURCE_FILE, "lineno": lineno,
        "graph_id": graph_id, "user_id": None, "project_id": None,
        "trigger_point": f"{SOURCE_FILE}:{lineno}",
    }  # fmt: skip


class _GraphBuilder:
    """Collects one dialogue's sessions, nodes, operations and edges."""

    def __init__(self, trace: Trace, dialogue_id: str, graph_id: str) -> None:
        self.trace = trace
        self.did = dialogue_id
        self.gid = graph_id
        self.sessions: dict[str, dict[str, Any]] = {}
        self.nodes: dict[str, dict[str, Any]] = {}
        self.ops: list[dict[str, Any]] = []
        self.edges: list[dict[str, Any]] = []

    def session_of(self, op: Operation) -> str:
        suffix, category = _SESSION_OF_CATEGORY.get(op.category, ("", "memory_construction"))
        sid = f"{self.did}:{suffix}" if suffix else str(op.attrs.get("session_id") or self.did)
        if sid not in self.sessions:
            self.sessions[sid] = {
                "session_id": sid, "session_name": sid, "comment": None,
                "category": category, "metadata": {}, **_common(self.gid, op.start),
            }  # fmt: skip
        return sid

    def node(self, key: NodeKey, op: Operation, sid: str) -> str:
        identity, version = key
        role, sep, name = identity.partition(":")
        class_name = role if sep else None
        name = name if sep else identity
        if not any(c.isalnum() for c in name):
            name = f"v{name}"  # smartcomment rejects names without a letter or digit
        full_name = f"{class_name}:{name}" if class_name else name
        full_id = f"{full_name}@{version}"
        if full_id in self.nodes:
            return full_id
        try:
            vv: VarVersion | None = self.trace.node(identity, version)
        except KeyError:
            vv = None
        value = self.trace.value(vv) if vv is not None else None
        self.nodes[full_id] = {
            "name": name, "version": version, "value": _text(value), "class_name": class_name,
            "session_id": sid, "comment": None,
            "category": _NODE_CATEGORY.get(role, "variable"),
            "metadata": {
                "umb_identity": identity,
                "umb_value_hash": vv.value_hash if vv else None,
                "umb_deleted": vv.deleted if vv else False,
                "umb_writer": vv.writer if vv else None,
            },
            "full_name": full_name, "node_id": f"{name}@{version}", "full_node_id": full_id,
            **_common(self.gid, op.start),
        }  # fmt: skip
        return full_id

    def sentinel(self, t: float) -> str:
        if SENTINEL_SESSION not in self.sessions:
            self.sessions[SENTINEL_SESSION] = {
                "session_id": SENTINEL_SESSION, "session_name": "NONE sentinel", "comment": None,
                "category": "sentinel", "metadata": {}, **_common(self.gid, t),
            }  # fmt: skip
            self.sessions[SENTINEL_SESSION]["filename"] = "<sentinel>"
        if SENTINEL_NODE not in self.nodes:
            self.nodes[SENTINEL_NODE] = {
                "name": "COMMENT:NONE", "version": 1, "value": "NONE", "class_name": None,
                "session_id": SENTINEL_SESSION, "comment": None, "category": "sentinel",
                "metadata": {}, "full_name": "COMMENT:NONE", "node_id": SENTINEL_NODE,
                "full_node_id": SENTINEL_NODE, **_common(self.gid, t),
            }  # fmt: skip
        return SENTINEL_NODE

    def add_op(self, op: Operation) -> None:
        sid = self.session_of(op)
        ins = list(dict.fromkeys(self.node(k, op, sid) for k in op.reads))
        # A version's session is that of the op that wrote it; an input's, its first reader's.
        outs = list(dict.fromkeys(self.node(k, op, sid) for k in op.writes))
        for nid in outs:
            self.nodes[nid]["session_id"] = sid
            self.nodes[nid]["created_at"] = _stamp(op.start)
        umb = {
            "seq": op.seq, "scope": op.scope, "attempt": op.attempt, "parent": op.parent,
            "status": op.status, "error": op.error, "start": op.start,
            "duration_us": op.duration_us, "model": op.model, "tokens_in": op.tokens_in,
            "tokens_out": op.tokens_out, "attrs": op.attrs,
            "reads": [list(k) for k in op.reads], "writes": [list(k) for k in op.writes],
            "deleted": [list(k) for k in op.writes if self._deleted(k)],
        }  # fmt: skip
        self.ops.append({
            "op_id": op.id, "op_name": op.name, "session_id": sid, "category": op.category,
            "comment": _str_or_none(op.attrs.get("comment")),
            "metadata": {"umb": umb}, **_common(self.gid, op.start, op.seq),
        })  # fmt: skip
        srcs = ins or [self.sentinel(op.start)]
        tgts = outs or [self.sentinel(op.start)]
        edge_meta = {"error": op.error} if op.error else {}
        for s in srcs:
            for t in tgts:
                self.edges.append({
                    "edge_id": f"edge-{op.id}#{len(self.edges)}", "op_id": op.id,
                    "session_id": sid, "category": op.category, "comment": f"[{op.name}]",
                    "source_full_node_id": s, "target_full_node_id": t, "metadata": edge_meta,
                    **_common(self.gid, op.start, op.seq),
                })  # fmt: skip

    def _deleted(self, key: NodeKey) -> bool:
        try:
            return self.trace.node(*key).deleted
        except KeyError:
            return False


def _annotation(
    b: _GraphBuilder, question_id: str, attribution: Mapping[str, Any]
) -> dict[str, Any]:
    trace = b.trace
    query = _latest_node_id(b, f"query:{question_id}")
    answer_text = _latest_value(trace, f"answer:{question_id}")
    query_text = _latest_value(trace, f"query:{question_id}")
    error_type = attribution.get("error_type", attribution.get("final_error_type"))
    evidence = attribution.get("source_evidence_ids")
    if evidence is None:
        turns = attribution.get("evidence_turn_ids") or ()
        evidence = [n for t in turns if (n := _latest_node_id(b, f"turn:{t}"))]
    ann: dict[str, Any] = {
        "query_id": query or question_id,
        "query": attribution.get("query", query_text if isinstance(query_text, str) else ""),
        "golden_answers": attribution.get("golden_answers", attribution.get("gold", "")),
        "prediction": attribution.get("prediction", _text(answer_text)),
        "source_evidence_ids": list(evidence),
        "final_error_type": ERROR_TYPE_TO_MEMTRACE.get(str(error_type), error_type),
        "final_op_id": attribution.get("op_id", attribution.get("final_op_id")),
        "umb_question_id": question_id,
    }
    for k, v in attribution.items():
        ann.setdefault(k, v)
    return ann


def _latest_node_id(b: _GraphBuilder, identity: str) -> str | None:
    try:
        node = b.trace.node(identity)
    except KeyError:
        return None
    return f"{node.node_id}" if node.node_id in b.nodes else None


def _latest_value(trace: Trace, identity: str) -> Any:
    try:
        return trace.value(trace.node(identity))
    except KeyError:
        return None


def export_memtrace(
    trace: Trace,
    out_dir: str | Path,
    *,
    attributions: Mapping[str, Mapping[str, Any]] | None = None,
    split: str | None = None,
) -> list[Path]:
    """Write one smartcomment graph JSON per dialogue of ``trace``.

    Args:
        trace: The trace to export. Operations without a ``dialogue_id`` are left out.
        out_dir: Where to write; files go to ``out_dir/[split/]<dialogue_id>.json``.
        attributions: Per question id, an attribution (``error_type``, ``op_id``, ``reason``,
            ``evidence_turn_ids`` or ``source_evidence_ids``, ``golden_answers``, …). Each becomes
            one entry of ``data.annotations`` in its dialogue's file, with MemTraceBench's keys
            filled and every other key kept.
        split: Optional sub-directory, as MemTraceBench's per-system splits (``rag``, ``mem0``).

    Returns:
        The files written, in dialogue order.
    """
    groups: dict[str, list[Operation]] = {}
    for op in trace.ops:
        if op.dialogue_id is not None:
            groups.setdefault(op.dialogue_id, []).append(op)
    base = Path(out_dir) / split if split else Path(out_dir)
    run_id = str(trace.meta.get("run_id", ""))
    written: list[Path] = []
    for did in sorted(groups):
        ops = groups[did]
        gid = "graph-" + hashlib.sha256(f"{run_id}\0{did}".encode()).hexdigest()[:32]
        b = _GraphBuilder(trace, did, gid)
        for op in ops:
            b.add_op(op)
        questions = {op.question_id for op in ops if op.question_id}
        annotations = [
            _annotation(b, qid, att)
            for qid, att in sorted((attributions or {}).items())
            if qid in questions or att.get("dialogue_id") == did
        ]
        name = f"{did}.json"
        graph = {
            "graph_id": gid, "user_id": None, "project_id": None, "storage_path": None,
            "strict": False, "driver_type": "in_memory", "created_at": _stamp(ops[0].start),
            "metadata": {"memtracebench_graph_filename": name, "dialogue_id": did,
                         "umb_format": "umb-trace", "umb_time_zone": "UTC",
                         "umb_meta": trace.meta},
            "data": {"nodes": list(b.nodes.values()), "edges": b.edges, "operations": b.ops,
                     "sessions": list(b.sessions.values()), "annotations": annotations},
        }  # fmt: skip
        path = base / name
        atomic_write_bytes(path, dumps_pretty(graph))
        written.append(path)
    return written
