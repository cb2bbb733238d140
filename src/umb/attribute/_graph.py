"""One memory system's part of a trace, indexed for following facts through it.

A run's trace may hold several systems; every operation carries a ``system`` attribute, so the
view keeps only that system's operations (all of them when the trace names no system). It knows
each operation's kind in the vocabulary (``extract``, ``decide``, ``add``, ``update``,
``delete``, ``index``, ``ingest``, ``retrieve``, ``answer``, ``score``), which turns each
variable version came from, and what the store held just before a given operation.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson

from umb.trace import NodeKey, Operation, Trace, VarVersion, role_of, turn_var

STORED_ROLES = frozenset({"memory", "summary", "unit"})
"""Roles of what a system keeps and retrieves from (memory units, summaries, RAG units)."""

_BY_NAME = {
    "ingest": "ingest", "extract": "extract", "summarize": "extract", "summarise": "extract",
    "decide": "decide", "add": "add", "update": "update", "delete": "delete", "index": "index",
    "retrieve": "retrieve", "answer": "answer", "score": "score", "judge": "score",
}  # fmt: skip
_BY_CATEGORY = {
    "ingest": "ingest", "extraction": "extract", "decision": "decide", "addition": "add",
    "update": "update", "deletion": "delete", "indexing": "index", "retrieval": "retrieve",
    "response": "answer", "judge": "score",
}  # fmt: skip


def op_kind(op: Operation) -> str:
    """The vocabulary kind of an operation: by its name's last dotted part, else its category."""
    name = op.name.rsplit(".", 1)[-1].lower()
    return _BY_NAME.get(name) or _BY_CATEGORY.get(op.category, op.category)


def _named_sources(op: Operation, identity: str) -> frozenset[str] | None:
    """The turns an op says a written variable came from (its ``source_turn_ids``), if any."""
    raw = op.attrs.get("source_turn_ids")
    if isinstance(raw, dict):
        raw = raw.get(identity)
    if not isinstance(raw, list | tuple) or not raw:
        return None
    return frozenset(turn_var(str(t)) for t in raw)


def _not_turns(reads: tuple[NodeKey, ...]) -> list[NodeKey]:
    return [r for r in reads if not r[0].startswith(_TURN)]


_TURN = turn_var("")


class SystemView:
    """The operations of one system in a trace, with the indexes attribution needs."""

    def __init__(self, trace: Trace, system: str | None) -> None:
        self.trace = trace
        self.system = system
        named = {o.attrs.get("system") for o in trace.ops} - {None}
        keep = system is None or not named
        self.ops = tuple(o for o in trace.ops if keep or o.attrs.get("system") == system)
        self._questions: dict[str, list[Operation]] = {}
        self._writes: dict[str, list[Operation]] = {}
        self._writer: dict[NodeKey, Operation] = {}
        self._readers: dict[NodeKey, list[Operation]] = {}
        for o in self.ops:
            qid = o.question_id
            if qid is not None:
                self._questions.setdefault(qid, []).append(o)
            elif o.dialogue_id is not None:
                self._writes.setdefault(o.dialogue_id, []).append(o)
            for k in o.writes:
                self._writer[k] = o
            for k in o.reads:
                self._readers.setdefault(k, []).append(o)
        self._ancestry: dict[NodeKey, frozenset[str]] = {}
        self._other_reads: dict[str, list[NodeKey]] = {}
        self._derived: dict[str, tuple[dict[str, set[NodeKey]], set[NodeKey]]] = {}
        self._stored: dict[str, list[tuple[int, VarVersion]]] = {}

    # -- lookups -----------------------------------------------------------------------------

    def question_ops(self, question_id: str) -> list[Operation]:
        """The read path of one question (retrieve, answer, score), in seq order."""
        return list(self._questions.get(question_id, ()))

    def write_ops(self, dialogue_id: str, before: int | None = None) -> list[Operation]:
        """The write path of one dialogue, in seq order, only ops started before ``before``."""
        ops = self._writes.get(dialogue_id, ())
        return [o for o in ops if before is None or o.seq < before]

    def writer(self, key: NodeKey) -> Operation | None:
        """The operation of this system that wrote a version (``None`` for inputs)."""
        return self._writer.get(key)

    def readers(self, key: NodeKey) -> list[Operation]:
        """The operations of this system that read a version, in seq order."""
        return list(self._readers.get(key, ()))

    def node(self, key: NodeKey) -> VarVersion | None:
        """The version ``key``, or ``None`` when the trace does not have it."""
        try:
            return self.trace.node(*key)
        except KeyError:
            return None

    def text(self, key: NodeKey) -> str:
        """A version's value as text (JSON for structured values; ``""`` when not recorded)."""
        node = self.node(key)
        value: Any = self.trace.value(node) if node is not None else None
        if value is None:
            return ""
        if isinstance(value, str):
            return value
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()

    # -- provenance --------------------------------------------------------------------------

    def ancestry(self, key: NodeKey) -> frozenset[str]:
        """Identities of the turns a version was derived from (through any chain of ops)."""
        memo = self._ancestry
        if key in memo:
            return memo[key]
        stack: list[tuple[NodeKey, bool]] = [(key, False)]
        while stack:
            k, expanded = stack.pop()
            if k in memo:
                continue
            if k[0].startswith(_TURN):
                memo[k] = frozenset((k[0],))
                continue
            op = self._writer.get(k) or self._any_writer(k)
            if op is None:
                memo[k] = frozenset()
                continue
            named = _named_sources(op, k[0])
            # Named source turns replace the op's turn reads: an extraction reads a whole
            # session, but each candidate comes from the turns it names.
            if named is None:
                reads: list[NodeKey] | tuple[NodeKey, ...] = op.reads
            else:
                reads = self._other_reads.get(op.id)  # type: ignore[assignment]
                if reads is None:  # one op writes many units: filter its reads once
                    reads = self._other_reads[op.id] = _not_turns(op.reads)
            if not expanded:
                stack.append((k, True))
                stack.extend((r, False) for r in reads if r not in memo)
            else:
                found = frozenset().union(*(memo.get(r, frozenset()) for r in reads))
                memo[k] = found | named if named is not None else found
        return memo[key]

    def _any_writer(self, key: NodeKey) -> Operation | None:
        ops = self.trace.writers(*key)
        return ops[0] if ops else None

    def derived_from(self, dialogue_id: str, turns: Iterable[str]) -> set[NodeKey]:
        """Stored versions of a dialogue derived from any of ``turns`` (turn identities), and
        those with no recorded ancestry: the only ones that may carry a fact of those turns.

        The index is built once per dialogue, so a question does not test every stored unit.
        """
        index = self._derived.get(dialogue_id)
        if index is None:
            by_turn: dict[str, set[NodeKey]] = {}
            orphans: set[NodeKey] = set()
            for op in self.write_ops(dialogue_id):
                for k in op.writes:
                    if role_of(k[0]) not in STORED_ROLES:
                        continue
                    found = self.ancestry(k)
                    if not found:
                        orphans.add(k)
                    for t in found:
                        by_turn.setdefault(t, set()).add(k)
            index = self._derived[dialogue_id] = (by_turn, orphans)
        by_turn, orphans = index
        out = set(orphans)
        for t in turns:
            out |= by_turn.get(t, set())
        return out

    def stored_versions(self, dialogue_id: str, before: int) -> dict[str, list[VarVersion]]:
        """Per stored identity (memory, summary, unit), the versions written before ``before``."""
        written = self._stored.get(dialogue_id)
        if written is None:  # once per dialogue: (seq, node) of every stored version, in order
            written = self._stored[dialogue_id] = [
                (op.seq, node)
                for op in self.write_ops(dialogue_id)
                for k in op.writes
                if role_of(k[0]) in STORED_ROLES and (node := self.node(k)) is not None
            ]
        out: dict[str, list[VarVersion]] = {}
        for seq, node in written:
            if seq >= before:
                break
            out.setdefault(node.identity, []).append(node)
        return out

    def path(self, sources: Iterable[str], target: NodeKey) -> list[str]:
        """The shortest path from any of ``sources`` (turn identities) to ``target``."""
        best: list[str] = []
        # Sorted: of two paths as short, the same one wins whatever the hash seed.
        for source in sorted(sources):
            try:
                found = self.trace.paths(source, target[0], target_version=target[1], limit=3)
            except KeyError:
                continue
            for p in found:
                if not best or len(p) < len(best):
                    best = p
        return best
