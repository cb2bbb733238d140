"""Import a MemTraceBench / smartcomment execution-graph JSON file as a :class:`Trace`.

Files exported by umb carry the exact reads, writes and op fields in ``metadata["umb"]`` and come
back unchanged. Other graphs (MemTraceBench's) only have edges ``source -> target`` tagged with an
``op_id``; they are read as follows, in operation order (``created_at``, then file order):
an edge source is a read; an edge target is a write if no earlier operation produced that node,
otherwise a read (MemTraceBench's retrieval edges point from the query to existing memory units).
Nodes that no edge targets are inputs (sources). The ``COMMENT:NONE@1`` sentinel is dropped.
``data.annotations`` is kept verbatim in :attr:`Trace.annotations`, unknown keys included.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from umb._errors import DataError
from umb._jsonio import read_json
from umb.interop.memtracebench._export import SENTINEL_NODE
from umb.trace import NodeKey, Operation, StoredValue, Trace, VarVersion, encode_value


def _full_name(n: dict[str, Any]) -> str:
    cls = n.get("class_name")
    return f"{cls}:{n['name']}" if cls else str(n["name"])


def _time(stamp: Any) -> float:
    try:
        return datetime.strptime(str(stamp), "%Y-%m-%d %H:%M:%S.%f").timestamp()
    except ValueError:
        return 0.0


def import_memtrace(path: str | Path) -> Trace:
    """Read one smartcomment graph file (a MemTraceBench graph, or one umb exported).

    Raises:
        DataError: The file is not JSON or not a smartcomment graph.
    """
    p = Path(path)
    obj = read_json(p)
    data = obj.get("data") if isinstance(obj, dict) else None
    if not isinstance(data, dict):
        raise DataError(str(p), None, "not a smartcomment graph (no 'data' object)")
    try:
        return _build(obj, data, p)
    except (KeyError, TypeError, ValueError) as e:
        raise DataError(str(p), None, f"bad graph record ({type(e).__name__}: {e})") from None


def _build(obj: dict[str, Any], data: dict[str, Any], path: Path) -> Trace:
    sessions = {s["session_id"]: s for s in data.get("sessions", [])}
    values: dict[str, StoredValue] = {}
    key_of_id: dict[str, NodeKey] = {}
    raw_nodes: dict[NodeKey, dict[str, Any]] = {}
    node_meta: dict[str, dict[str, Any]] = {}
    for n in data.get("nodes", []):
        meta = n.get("metadata") or {}
        identity = meta.get("umb_identity") or _full_name(n)
        full_id = n.get("full_node_id") or f"{_full_name(n)}@{n.get('version', 1)}"
        if full_id == SENTINEL_NODE:
            continue
        key = (identity, int(n.get("version", 1)))
        key_of_id[full_id] = key
        raw_nodes[key] = n
        if meta:
            node_meta[f"{key[0]}@{key[1]}"] = meta
    edges_of: dict[str, list[dict[str, Any]]] = {}
    targeted: set[str] = set()
    for e in data.get("edges", []):
        edges_of.setdefault(e["op_id"], []).append(e)
        targeted.add(e["target_full_node_id"])
    op_recs = data.get("operations", [])
    order = sorted(range(len(op_recs)), key=lambda i: (str(op_recs[i].get("created_at", "")), i))
    produced = {fid for fid in key_of_id if fid not in targeted}
    writer: dict[NodeKey, str] = {}
    ops: list[Operation] = []
    for seq, i in enumerate(order, start=1):
        rec = op_recs[i]
        umb = (rec.get("metadata") or {}).get("umb")
        if isinstance(umb, dict):
            op = _umb_op(rec, umb)
        else:
            op = _plain_op(rec, seq, edges_of.get(rec["op_id"], []), key_of_id, produced)
            sess = sessions.get(rec.get("session_id", ""), {})
            op.attrs.setdefault("session_category", sess.get("category"))
        for k in op.writes:
            writer.setdefault(k, op.id)
        ops.append(op)
    deleted = {tuple(k) for op_rec in op_recs for k in _umb_deleted(op_rec)}
    nodes = []
    for key, n in raw_nodes.items():
        meta = n.get("metadata") or {}
        text = n.get("value", "")
        enc = encode_value(text)
        # umb's own export says which versions had no recorded value (exported as "").
        h = meta["umb_value_hash"] if "umb_value_hash" in meta else enc.hash
        if h is not None and h not in values:
            values[h] = StoredValue(h, enc.size, enc.preview, text)
        nodes.append(VarVersion(key[0], key[1], h, key in deleted, writer.get(key)))
    meta_top = {
        "graph_id": obj.get("graph_id"), "metadata": obj.get("metadata") or {},
        "source_file": path.name, "node_metadata": node_meta,
    }  # fmt: skip
    return Trace(ops, nodes, values, meta=meta_top, annotations=data.get("annotations") or [])


def _umb_deleted(rec: dict[str, Any]) -> list[list[Any]]:
    umb = (rec.get("metadata") or {}).get("umb")
    return list(umb.get("deleted", [])) if isinstance(umb, dict) else []


def _umb_op(rec: dict[str, Any], umb: dict[str, Any]) -> Operation:
    return Operation(
        id=rec["op_id"],
        seq=int(umb["seq"]),
        name=rec.get("op_name") or rec["op_id"],
        category=rec.get("category") or "operation",
        scope=umb.get("scope", rec.get("session_id", "")),
        attempt=int(umb.get("attempt", 1)),
        reads=tuple((r[0], int(r[1])) for r in umb.get("reads", [])),
        writes=tuple((w[0], int(w[1])) for w in umb.get("writes", [])),
        status=umb.get("status", "ok"),
        error=umb.get("error"),
        start=float(umb.get("start", 0.0)),
        duration_us=float(umb.get("duration_us", 0.0)),
        model=umb.get("model"),
        tokens_in=int(umb.get("tokens_in", 0)),
        tokens_out=int(umb.get("tokens_out", 0)),
        parent=umb.get("parent"),
        attrs=dict(umb.get("attrs") or {}),
    )


def _plain_op(
    rec: dict[str, Any],
    seq: int,
    edges: list[dict[str, Any]],
    key_of_id: dict[str, NodeKey],
    produced: set[str],
) -> Operation:
    made = [
        e["target_full_node_id"]
        for e in edges
        if e["target_full_node_id"] in key_of_id and e["target_full_node_id"] not in produced
    ]
    writes = {key_of_id[t]: None for t in made}
    reads: dict[NodeKey, None] = {}
    for e in edges:
        for end in (e["source_full_node_id"], e["target_full_node_id"]):
            if end in key_of_id and key_of_id[end] not in writes:
                reads[key_of_id[end]] = None
    produced.update(made)
    meta = rec.get("metadata") or {}
    attrs: dict[str, Any] = {"session_id": rec.get("session_id")}
    if rec.get("comment"):
        attrs["comment"] = rec["comment"]
    if meta:
        attrs["metadata"] = meta
    return Operation(
        id=rec["op_id"],
        seq=seq,
        name=rec.get("op_name") or rec["op_id"],
        category=rec.get("category") or "operation",
        scope=rec.get("session_id", ""),
        attempt=1,
        reads=tuple(reads),
        writes=tuple(writes),
        start=_time(rec.get("created_at")),
        attrs=attrs,
    )
