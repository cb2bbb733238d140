"""The records of a trace once read back: operations, variable versions, values, scopes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from umb.trace._ids import key_of, role_of

NodeKey = tuple[str, int]
"""A variable version: ``(identity, version)``."""


@dataclass(frozen=True, slots=True)
class Operation:
    """One recorded operation (a node of the bipartite graph)."""

    id: str
    """Deterministic id ``scope/n``: the n-th operation started in its scope."""
    seq: int
    """Run-wide start order (monotonic; a re-run of an unfinished scope keeps the old numbers)."""
    name: str
    category: str
    """Stage: ``extraction``, ``update``, ``deletion``, ``addition``, ``retrieval``, …"""
    scope: str
    attempt: int
    """Which attempt of its scope recorded it (1 unless the run was resumed)."""
    reads: tuple[NodeKey, ...]
    writes: tuple[NodeKey, ...]
    status: str = "ok"
    """``ok``, ``error`` (an exception or :meth:`OpHandle.fail`) or ``cancelled``."""
    error: str | None = None
    start: float = 0.0
    """Wall-clock start, seconds since the epoch."""
    duration_us: float = 0.0
    model: str | None = None
    tokens_in: int = 0
    tokens_out: int = 0
    parent: str | None = None
    """Id of the operation this one ran inside, if any."""
    attrs: dict[str, Any] = field(default_factory=dict)
    """Free attributes, including the scope's (``question_id``, ``dialogue_id``)."""

    @property
    def question_id(self) -> str | None:
        """The question this operation served, if any."""
        qid = self.attrs.get("question_id")
        return qid if isinstance(qid, str) else None

    @property
    def dialogue_id(self) -> str | None:
        """The dialogue this operation served, if any."""
        did = self.attrs.get("dialogue_id")
        return did if isinstance(did, str) else None


@dataclass(frozen=True, slots=True)
class VarVersion:
    """One version of a variable (the other kind of node)."""

    identity: str
    version: int
    value_hash: str | None
    """Key into :attr:`Trace.values`; ``None`` when the value was not recorded."""
    deleted: bool = False
    """A tombstone: the operation that wrote this version deleted the variable."""
    writer: str | None = None
    """Id of the operation that wrote it; ``None`` for an input (a source)."""

    @property
    def key(self) -> NodeKey:
        """``(identity, version)``."""
        return (self.identity, self.version)

    @property
    def node_id(self) -> str:
        """``identity@version``, as in MemTraceBench's ``full_node_id``."""
        return f"{self.identity}@{self.version}"

    @property
    def role(self) -> str:
        """The role part of the identity (``turn``, ``memory``, …)."""
        return role_of(self.identity)

    @property
    def name(self) -> str:
        """The key part of the identity."""
        return key_of(self.identity)


@dataclass(frozen=True, slots=True)
class StoredValue:
    """A value, stored once however many versions hold it."""

    hash: str
    size: int
    preview: str
    value: Any
    turns: tuple[str, ...] | None = None
    """For a transcript stored by reference: its turns' ids (``value`` is then ``None``;
    :meth:`Trace.value` builds the text from the benchmark)."""


@dataclass(frozen=True, slots=True)
class ScopeInfo:
    """What the trace says about one scope (a dialogue, a question, or a run's top level)."""

    key: str
    kind: str
    attrs: dict[str, Any]
    attempts: int
    """How many times it was entered across runs of this trace."""
    kept_attempt: int
    """The attempt whose operations the trace keeps."""
    committed: bool
    """Whether the kept attempt finished (committed); ``False`` means its ops are partial."""


@dataclass(frozen=True)
class Subgraph:
    """A part of a trace: operations and variable versions, edges implied by reads and writes."""

    ops: tuple[Operation, ...]
    nodes: tuple[VarVersion, ...]
    truncated: bool = False
    """Whether a size limit cut the subgraph short."""

    def edges(self) -> list[tuple[str, str, str]]:
        """Return ``(source, target, kind)`` edges between node ids and op ids inside the subgraph.

        ``kind`` is ``read`` (variable version -> operation) or ``write`` (operation -> version).
        """
        present = {n.key for n in self.nodes}
        out: list[tuple[str, str, str]] = []
        for op in self.ops:
            out.extend((f"{i}@{v}", op.id, "read") for i, v in op.reads if (i, v) in present)
            out.extend((op.id, f"{i}@{v}", "write") for i, v in op.writes if (i, v) in present)
        return out
