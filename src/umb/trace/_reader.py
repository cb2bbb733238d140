"""Rebuild the graph from a trace file, checking that what is kept is consistent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from umb._errors import DataError
from umb.trace._file import FORMAT_NAME, FORMAT_VERSION, RawTrace, scan_trace
from umb.trace._gc import paused_gc
from umb.trace._graph import Trace
from umb.trace._ids import preview_of
from umb.trace._inputs import TURN_PREFIX, BenchmarkTurns, inputs_of
from umb.trace._model import NodeKey, Operation, ScopeInfo, StoredValue, VarVersion
from umb.trace._resume import Selection, select
from umb.trace._runs import decode_reads


def read_trace(path: str | Path, *, inputs: BenchmarkTurns | None = None) -> Trace:
    """Read a trace file written by :class:`Tracer` (possibly over several resumed runs).

    Keeps, per scope, the latest committed attempt (or the latest attempt when none committed),
    so every operation appears once. A torn last line, left by a killed writer, is skipped
    (``trace.torn_tail``). Inconsistencies are listed in ``trace.issues``.

    Args:
        path: The trace file.
        inputs: The turns of the benchmark the trace refers to (format 2). By default they are
            read, when a value needs them, from the benchmark the header names.

    Raises:
        DataError: The file is missing, damaged before its last line, or of a format this
            version of umb cannot read.
    """
    with paused_gc():
        raw = scan_trace(Path(path))
        check_trace_format(raw)
        sel = select(raw)
        del raw.records[:]  # the selection holds the records it keeps
        try:
            trace = build_trace(sel)
        except ValueError as e:
            raise DataError(str(path), None, f"bad trace record ({e})") from None
    trace.torn_tail = raw.torn_tail
    if "inputs" in trace.meta:
        dialogues = {s.attrs["dialogue_id"] for s in trace.scopes.values()
                     if isinstance(s.attrs.get("dialogue_id"), str)}  # fmt: skip
        trace.inputs = inputs or inputs_of(trace.meta, Path(path), dialogues)
    return trace


def check_trace_format(raw: RawTrace) -> None:
    """Refuse a trace whose header names another format or a newer version than this reader's."""
    for lineno, rec in raw.records:
        if rec["t"] != "open":
            continue
        version = rec.get("version")
        if rec.get("format") != FORMAT_NAME or not isinstance(version, int):
            raise DataError(str(raw.path), lineno, "not an umb trace (no umb-trace header)")
        if version > FORMAT_VERSION:
            why = f"trace format {version} is newer than this umb reads (1 to {FORMAT_VERSION})"
            raise DataError(str(raw.path), lineno, f"{why}; upgrade umb")


def _operation(
    rec: dict[str, Any], scope_attrs: dict[str, Any], keys: dict[NodeKey, NodeKey]
) -> Operation:
    own = rec.get("attrs") or {}
    return Operation(
        id=rec["id"],
        seq=rec["seq"],
        name=rec["name"],
        category=rec.get("cat", "operation"),
        scope=rec["scope"],
        attempt=rec.get("a", 1),
        reads=decode_reads(rec.get("reads", ()), keys),
        writes=tuple([_key(keys, w[0], w[1]) for w in rec.get("writes", ())]),
        status=rec.get("status", "ok"),
        error=rec.get("error"),
        start=rec.get("start", 0.0),
        duration_us=rec.get("dur_us", 0.0),
        model=rec.get("model"),
        tokens_in=rec.get("tok_in", 0),
        tokens_out=rec.get("tok_out", 0),
        parent=rec.get("parent"),
        attrs={**scope_attrs, **own} if scope_attrs else dict(own),
    )


def _key(keys: dict[NodeKey, NodeKey], identity: str, version: int) -> NodeKey:
    k = (identity, version)
    return keys.setdefault(k, k)


def build_trace(sel: Selection) -> Trace:
    """Turn sorted records into a :class:`Trace`, listing any inconsistency in its issues.

    The attempts' op records are consumed (their lists emptied): a long trace's records and its
    operations are not held at once.
    """
    issues: list[str] = []
    values = {
        h: StoredValue(h, r.get("size", 0), preview_of(r.get("value")), r.get("value"))
        if "turns" not in r
        else StoredValue(h, r.get("size", 0), "", None, tuple(r["turns"]))
        for h, r in sel.values.items()
    }
    nodes: dict[NodeKey, VarVersion] = {}
    for rec in sel.sources:
        nodes.setdefault((rec["var"], rec["v"]), VarVersion(rec["var"], rec["v"], rec.get("h")))
    ops: dict[str, Operation] = {}
    scopes: dict[str, ScopeInfo] = {}
    keys: dict[NodeKey, NodeKey] = {}  # one tuple per version, however many ops read it
    for key, att in sel.kept.items():
        scopes[key] = ScopeInfo(
            key, att.kind, att.attrs, len(sel.attempts[key]), att.attempt, att.committed
        )
        records, att.ops = att.ops, []  # each record is dropped once it is an Operation
        for rec in records:
            if rec["id"] in ops:
                issues.append(f"operation {rec['id']} recorded twice in one attempt")
                continue
            op = ops[rec["id"]] = _operation(rec, att.attrs, keys)
            for w in rec.get("writes", ()):
                wkey = _key(keys, w[0], w[1])
                if wkey in nodes:
                    issues.append(f"{w[0]}@{w[1]} written twice (by {nodes[wkey].writer}, {op.id})")
                    continue
                deleted = len(w) > 3 and w[3] == "d"
                nodes[wkey] = VarVersion(wkey[0], w[1], w[2], deleted, op.id)
    # Format 2 records a benchmark turn by its identity alone: it is an input, version 1.
    by_reference = any("inputs" in (o.get("meta") or {}) for o in sel.opens)
    for op in ops.values():
        for identity, version in op.reads:
            if (identity, version) in nodes:
                continue
            if by_reference and identity.startswith(TURN_PREFIX):
                nodes[(identity, version)] = VarVersion(identity, version, None)
            else:
                issues.append(f"{op.id} read {identity}@{version}, which the trace does not hold")
    for rec in sel.diverged:
        issues.append(f"replay of scope {rec['scope']} diverged: {rec.get('detail', '')}")
    meta = dict(sel.opens[0].get("meta") or {}) if sel.opens else {}
    for o in sel.opens:  # a trace resumed by a newer umb: the inputs of its later opens
        if "inputs" in (o.get("meta") or {}):
            meta["inputs"] = o["meta"]["inputs"]
    return Trace(ops.values(), nodes.values(), values, scopes=scopes, meta=meta, issues=issues)
