"""Rebuild the graph from a trace file, checking that what is kept is consistent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from umb.trace._file import scan_trace
from umb.trace._graph import Trace
from umb.trace._ids import preview_of
from umb.trace._model import NodeKey, Operation, ScopeInfo, StoredValue, VarVersion
from umb.trace._resume import Selection, select


def read_trace(path: str | Path) -> Trace:
    """Read a trace file written by :class:`Tracer` (possibly over several resumed runs).

    Keeps, per scope, the latest committed attempt (or the latest attempt when none committed),
    so every operation appears once. A torn last line, left by a killed writer, is skipped
    (``trace.torn_tail``). Inconsistencies are listed in ``trace.issues``.

    Raises:
        DataError: The file is missing or damaged before its last line.
    """
    raw = scan_trace(Path(path))
    sel = select(raw)
    trace = build_trace(sel)
    trace.torn_tail = raw.torn_tail
    return trace


def _operation(rec: dict[str, Any], scope_attrs: dict[str, Any]) -> Operation:
    own = rec.get("attrs") or {}
    return Operation(
        id=rec["id"],
        seq=rec["seq"],
        name=rec["name"],
        category=rec.get("cat", "operation"),
        scope=rec["scope"],
        attempt=rec.get("a", 1),
        reads=tuple((r[0], r[1]) for r in rec.get("reads", ())),
        writes=tuple((w[0], w[1]) for w in rec.get("writes", ())),
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


def build_trace(sel: Selection) -> Trace:
    """Turn sorted records into a :class:`Trace`, listing any inconsistency in its issues."""
    issues: list[str] = []
    values = {
        h: StoredValue(h, r.get("size", 0), preview_of(r.get("value")), r.get("value"))
        for h, r in sel.values.items()
    }
    nodes: dict[NodeKey, VarVersion] = {}
    for rec in sel.sources:
        nodes.setdefault((rec["var"], rec["v"]), VarVersion(rec["var"], rec["v"], rec.get("h")))
    ops: dict[str, Operation] = {}
    scopes: dict[str, ScopeInfo] = {}
    for key, att in sel.kept.items():
        scopes[key] = ScopeInfo(
            key, att.kind, att.attrs, len(sel.attempts[key]), att.attempt, att.committed
        )
        for rec in att.ops:
            if rec["id"] in ops:
                issues.append(f"operation {rec['id']} recorded twice in one attempt")
                continue
            op = ops[rec["id"]] = _operation(rec, att.attrs)
            for w in rec.get("writes", ()):
                wkey = (w[0], w[1])
                if wkey in nodes:
                    issues.append(f"{w[0]}@{w[1]} written twice (by {nodes[wkey].writer}, {op.id})")
                    continue
                deleted = len(w) > 3 and w[3] == "d"
                nodes[wkey] = VarVersion(w[0], w[1], w[2], deleted, op.id)
    for op in ops.values():
        for identity, version in op.reads:
            if (identity, version) not in nodes:
                issues.append(f"{op.id} read {identity}@{version}, which the trace does not hold")
    for rec in sel.diverged:
        issues.append(f"replay of scope {rec['scope']} diverged: {rec.get('detail', '')}")
    meta = dict(sel.opens[0].get("meta") or {}) if sel.opens else {}
    return Trace(ops.values(), nodes.values(), values, scopes=scopes, meta=meta, issues=issues)
