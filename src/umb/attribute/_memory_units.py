"""A system's memory units as its trace recorded them: every version, per dialogue, in order.

Only the :class:`~umb.trace.Trace` query API is used (identities, versions, the writing
operation), so the metrics do not depend on how the trace file stores values. A memory unit is
a variable of role ``memory`` (``mem0_style``, ``mem0``, ``oracle_memory``) or ``summary``
(``summary``); each version belongs to the session whose ingest wrote it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from umb._tokens import estimate_tokens
from umb.trace import Operation, Trace

#: Trace roles that hold memory units (what a system keeps, as opposed to raw turns).
MEMORY_ROLES = ("memory", "summary")


@dataclass(frozen=True, slots=True)
class UnitVersion:
    """One version of one memory unit."""

    identity: str
    version: int
    text: str
    deleted: bool
    session_id: str | None
    """The session whose ingest wrote it (``None`` when the trace does not say)."""
    op_id: str
    op_name: str
    """``add``, ``update``, ``delete``, ``summarize``, … (the writer's name)."""
    seq: int

    @property
    def node_id(self) -> str:
        """``identity@version``, as the trace names it."""
        return f"{self.identity}@{self.version}"


@dataclass
class DialogueUnits:
    """The unit versions of one dialogue, and what its write path cost."""

    versions: list[UnitVersion] = field(default_factory=list)
    ingested: set[str] = field(default_factory=set)
    """Ids of the sessions the system ingested (a run limited to some questions stops early)."""
    model_tokens: Counter[str] = field(default_factory=Counter)
    """``tokens_in`` / ``tokens_out`` of the extractor calls of its write path."""


def _session_of(op: Operation, trace: Trace) -> str | None:
    # A write made inside an ingest carries the session itself, or its parent does.
    seen = 0
    cur: Operation | None = op
    while cur is not None and seen < 8:
        sid = cur.attrs.get("session_id")
        if isinstance(sid, str):
            return sid
        cur = trace.op(cur.parent) if cur.parent else None
        seen += 1
    return None


def _unit_identities(trace: Trace) -> list[str]:
    # One pass over the identities for every memory role (an identity is ``role:...``).
    return [i for i in trace.identities() if i.partition(":")[0] in MEMORY_ROLES]


def has_memory_units(trace: Trace) -> bool:
    """Whether the trace records any memory unit."""
    return any(i.partition(":")[0] in MEMORY_ROLES for i in trace.identities())


def memory_units(trace: Trace, system: str | None = None) -> dict[str, DialogueUnits]:
    """Every memory-unit version of the trace, grouped by dialogue, in write order.

    Args:
        trace: A system's trace (or one trace of several systems).
        system: Keep only this system's operations (for a trace shared by several).
    """
    out: dict[str, DialogueUnits] = {}

    def mine(op: Operation) -> bool:
        return system is None or op.attrs.get("system") in (None, system)

    for op in trace.ops:
        did = op.dialogue_id
        if did is None or op.question_id is not None or not mine(op):
            continue
        # get() first: setdefault would build a DialogueUnits for every operation
        units = out.get(did) or out.setdefault(did, DialogueUnits())
        sid = op.attrs.get("session_id")
        if op.category == "ingest" and isinstance(sid, str):
            units.ingested.add(sid)
        if op.tokens_in or op.tokens_out:  # the write path's own model calls
                units.model_tokens["tokens_in"] += op.tokens_in
                units.model_tokens["tokens_out"] += op.tokens_out
    sessions: dict[str, str | None] = {}  # op id -> its session (many versions share a writer)
    for identity in _unit_identities(trace):
        for node in trace.versions(identity):
            if node.writer is None:
                continue
            op = trace.op(node.writer)
            did = op.dialogue_id
            if did is None or not mine(op):
                continue
            value = trace.value(node)
            text = value if isinstance(value, str) else ""
            if op.id not in sessions:
                sessions[op.id] = _session_of(op, trace)
            (out.get(did) or out.setdefault(did, DialogueUnits())).versions.append(UnitVersion(
                identity, node.version, text, node.deleted, sessions[op.id],
                op.id, op.name, op.seq))  # fmt: skip
    for units in out.values():
        units.versions.sort(key=lambda v: (v.seq, v.identity, v.version))
    return out


def tokens_written(versions: list[UnitVersion]) -> int:
    """Estimated tokens of every version written (tombstones excluded)."""
    return sum(estimate_tokens(v.text) for v in versions if not v.deleted)
