"""The write path of the extracting systems (``mem0_style``, ``mem0``) as trace operations.

One :class:`BatchTrace` follows one extraction batch (a session): ``extract`` writes the batch's
candidate facts, ``decide`` reads them with the memories they were compared with, and ``add`` /
``update`` / ``delete`` carry a candidate into a memory unit's next version. Everything is a
no-op when no tracer is recording.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from umb.bench import Session
from umb.memory._text import index_terms
from umb.memory._tracing import extract_op, tracing, write_candidates
from umb.trace import NULL_OP, OpHandle, memory_var, memory_vars, operation

#: Operation name -> category, for the three ways a decision changes the store.
APPLY_CATEGORIES = {"add": "addition", "update": "update", "delete": "deletion"}


class Fact(Protocol):
    """A candidate fact: its text and the turns it came from."""

    @property
    def text(self) -> str: ...

    @property
    def source_turn_ids(self) -> tuple[str, ...]: ...


class BatchTrace:
    """Trace identities of the candidates of one extraction batch.

    Args:
        session: The session being ingested (None outside an ingest: no ``session_id`` then).
    """

    def __init__(self, session: Session | None = None) -> None:
        self.session = session
        self._ids: dict[int, str] = {}
        self._terms: list[tuple[str, frozenset[str]]] | None = None
        self._facts: list[Fact] = []  # keeps the facts alive, so their id() stays theirs
        self._candidates: list[str] = []

    def _attrs(self) -> dict[str, Any]:
        return {"session_id": self.session.id} if self.session is not None else {}

    def extract(self, model: str | None = None) -> OpHandle:
        """Open the batch's ``extract`` operation (it reads every turn of the session)."""
        if self.session is None or not tracing():
            return NULL_OP
        return extract_op(self.session, model)

    def candidates(self, op: OpHandle, facts: Sequence[Fact]) -> None:
        """Write the batch's candidates from the ``extract`` operation ``op``."""
        if self.session is None or not tracing():
            return
        ids = write_candidates(op, self.session, [(f.text, f.source_turn_ids) for f in facts])
        self._facts = list(facts)
        self._candidates = ids
        self._ids = {id(f): i for f, i in zip(facts, ids, strict=True)}
        self._terms = None

    def candidate_of(self, fact: Fact) -> str | None:
        """The candidate a fact is, or (for a model's rewording) the one sharing most words."""
        found = self._ids.get(id(fact))
        if found is not None or not self._candidates:
            return found
        if self._terms is None:  # only a model's reworded decisions get here
            self._terms = [
                (i, frozenset(index_terms(f.text)))
                for f, i in zip(self._facts, self._candidates, strict=True)
            ]
        terms = frozenset(index_terms(fact.text))
        # max() keeps the first of equals: the earliest candidate wins a tie.
        return max(self._terms, key=lambda c: len(c[1] & terms))[0]

    def decide(
        self, facts: Iterable[Fact], offered: Iterable[str], model: str | None = None
    ) -> OpHandle:
        """Open a ``decide`` operation over ``facts`` and the memory units ``offered`` (ids)."""
        if not tracing():
            return NULL_OP
        reads: list[str] = [c for f in facts if (c := self.candidate_of(f)) is not None]
        reads += memory_vars(offered)
        return operation("decide", "decision", reads=reads, model=model, **self._attrs())

    def decided(
        self, op: OpHandle, decisions: Sequence[Any], *, with_candidates: bool = False
    ) -> None:
        """Record what was decided: a batch's ``decisions`` (with their candidates), or one
        candidate's ``decision``, its ``target`` (when it has one) and, when there are several,
        every ``decisions`` row."""
        if not tracing():
            return
        rows: list[list[str | None]] = []
        for d in decisions:
            target = memory_var(d.target_id) if d.target_id is not None else None
            row = [d.event, target]
            if with_candidates:
                row.append(self.candidate_of(d.fact))
            rows.append(row)
        if with_candidates:
            op.set(decisions=rows)
            return
        # One candidate's decide (the rule path, 44 per session): only what the first decision
        # does not already say, since these ops were a third of a trace.
        first = rows[0] if rows else ["NONE", None]
        op.set(decision=first[0])
        if first[1] is not None:
            op.set(target=first[1])
        if len(rows) > 1:
            op.set(decisions=rows)

    def apply(self, name: str, fact: Fact, unit_id: str | None = None) -> OpHandle:
        """Open an ``add``, ``update`` or ``delete`` operation of ``fact`` (on ``unit_id``)."""
        if not tracing():
            return NULL_OP
        reads: list[str] = []
        candidate = self.candidate_of(fact)
        if candidate is not None:
            reads.append(candidate)
        if unit_id is not None:
            reads.append(memory_var(unit_id))
        return operation(
            name,
            APPLY_CATEGORIES[name],
            reads=reads,
            source_turn_ids=list(fact.source_turn_ids),
            **self._attrs(),
        )


def wrote(op: OpHandle, unit_id: str, text: str) -> None:
    """Record that ``op`` wrote ``text`` as the next version of memory unit ``unit_id``."""
    if tracing():
        op.write(memory_var(unit_id), text)
