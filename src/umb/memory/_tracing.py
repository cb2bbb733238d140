"""How the built-in memory systems describe their work to a tracer (see docs/tracing.md).

Every helper here looks the tracer up in the current context and does nothing when tracing is
off, so a memory system used on its own pays one context-variable read per call. The
identities and operation names form the vocabulary attribution reads: ``ingest``, ``extract``,
``summarize``, ``decide``, ``add``, ``update``, ``delete``, ``index`` and ``retrieve``.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Callable, Coroutine, Iterable, Sequence
from contextvars import ContextVar
from typing import Any, Protocol, TypeVar

from umb._tokens import estimate_tokens
from umb.bench import Question, Session, Turn
from umb.memory._retrieved import RetrievedContext
from umb.trace import (
    NULL_OP,
    OpHandle,
    context_var,
    current_op,
    current_tracer,
    operation,
    query_var,
    turn_var,
    var,
)


class TracedSystem(Protocol):
    """What the wrappers read and update on the system they wrap (a :class:`MemorySystem`).

    Declared here so this module does not import the interface that applies the wrappers.
    """

    write_latency_s: float

    @property
    def ranked(self) -> bool: ...


S = TypeVar("S", bound=TracedSystem)

#: Set on a wrapped ``ingest`` / ``retrieve``, so a method is never wrapped twice.
WRAPPED = "__umb_traced__"

# The system whose ingest / retrieve is running in this task: an overriding method that calls
# ``super()`` runs the wrapper twice, and only the outer call records and times.
_WRITING: ContextVar[object] = ContextVar("umb_memory_writing", default=None)
_READING: ContextVar[object] = ContextVar("umb_memory_reading", default=None)

#: Contexts longer than this are written without their text: a whole long history per question
#: would make the trace as big as every prompt put together.
MAX_CONTEXT_VALUE_CHARS = 65_536


def tracing() -> bool:
    """Whether a recording tracer is active here."""
    return current_tracer().enabled


def candidate_var(session_id: str, n: int) -> str:
    """Identity of the ``n``-th (from 1) candidate fact extracted from a session."""
    return var("candidate", f"{session_id}:{n}")


def unit_var(unit_id: str) -> str:
    """Identity of a RAG unit (a turn, a round keyed by its first turn, or a session)."""
    return var("unit", unit_id)


def summary_var(session_id: str) -> str:
    """Identity of a session's summary."""
    return var("summary", session_id)


def turn_reads(turns: Iterable[Turn]) -> list[tuple[str, str]]:
    """Turn identities with their texts, as ``reads`` that register each turn on first sight."""
    return [(turn_var(t.id), t.text) for t in turns]


def write_op(
    name: str,
    category: str,
    session: Session,
    reads: Iterable[str | tuple[str, Any]] = (),
    **attrs: Any,
) -> OpHandle:
    """Open a write-path operation on ``session`` (the no-op handle when not tracing)."""
    if not current_tracer().enabled:
        return NULL_OP
    return operation(name, category, reads=reads, session_id=session.id, **attrs)


def ingest_op(session: Session) -> OpHandle:
    """The ``ingest`` operation of one session: it reads every turn of the session."""
    if not current_tracer().enabled:
        return NULL_OP
    return operation("ingest", "ingest", reads=turn_reads(session.turns), session_id=session.id)


def extract_op(session: Session, model: str | None = None) -> OpHandle:
    """The ``extract`` operation of one session's batch (it reads every turn)."""
    if not current_tracer().enabled:
        return NULL_OP
    return operation(
        "extract",
        "extraction",
        reads=turn_reads(session.turns),
        model=model,
        session_id=session.id,
    )


def write_candidates(
    op: OpHandle, session: Session, facts: Sequence[tuple[str, Sequence[str]]]
) -> list[str]:
    """Write a batch's candidate facts ``(text, source turn ids)``; return their identities."""
    if not current_tracer().enabled:
        return []
    ids = []
    sources: dict[str, list[str]] = {}
    for n, (text, turn_ids) in enumerate(facts, start=1):
        identity = candidate_var(session.id, n)
        op.write(identity, text)
        sources[identity] = list(turn_ids)
        ids.append(identity)
    op.set(source_turn_ids=sources)
    return ids


def read_items(identities: Iterable[str]) -> None:
    """Record that the current operation read these variables (in this order)."""
    op = current_op()
    for identity in identities:
        op.read(identity)


def traced_ingest(
    fn: Callable[[S, Session], Coroutine[Any, Any, None]],
) -> Callable[[S, Session], Coroutine[Any, Any, None]]:
    """Time each call of a system's ``ingest`` and record it as the session's ``ingest`` operation.

    :class:`MemorySystem` applies it to every subclass's ``ingest`` when the class is defined.
    The time spent is added to ``write_latency_s``; the operation reads every turn of the session
    and is the parent of the operations recorded inside. A subclass's ``ingest`` that calls
    ``super().ingest`` is one operation, timed once.
    """
    if getattr(fn, WRAPPED, False):
        return fn

    @functools.wraps(fn)
    async def ingest(self: S, session: Session) -> None:
        if _WRITING.get() is self:  # an overriding ingest calling super().ingest
            return await fn(self, session)
        token = _WRITING.set(self)
        started = time.perf_counter()
        try:
            with ingest_op(session):
                await fn(self, session)
        finally:
            self.write_latency_s += time.perf_counter() - started
            _WRITING.reset(token)

    setattr(ingest, WRAPPED, True)
    return ingest


def traced_retrieve(
    fn: Callable[[S, Question], Coroutine[Any, Any, RetrievedContext]],
) -> Callable[[S, Question], Coroutine[Any, Any, RetrievedContext]]:
    """Time, count and record each call of a system's ``retrieve``.

    :class:`MemorySystem` applies it to every subclass's ``retrieve`` when the class is defined.
    The call is the question's ``retrieve`` operation: it reads the query; the method adds what it
    placed in the context with :func:`read_items` (best first when the class sets ``ranked``);
    the context text is written as the question's context. The returned context carries the
    operation id (``trace_op_id``), its token estimate, and ``write_latency_s`` (ingest time so
    far) and ``retrieve_latency_s`` (this call) in its ``meta``.
    """
    if getattr(fn, WRAPPED, False):
        return fn

    @functools.wraps(fn)
    async def retrieve(self: S, question: Question) -> RetrievedContext:
        if _READING.get() is self:  # an overriding retrieve calling super().retrieve
            return await fn(self, question)
        token = _READING.set(self)
        started = time.perf_counter()
        op_id = None
        try:
            if not current_tracer().enabled:
                context = await fn(self, question)
            else:
                reads = [(query_var(question.id), question.query)]
                with operation("retrieve", "retrieval", reads=reads, ranked=self.ranked) as op:
                    context = await fn(self, question)
                    text = context.text
                    if len(text) <= MAX_CONTEXT_VALUE_CHARS:
                        op.write(context_var(question.id), text)
                    else:
                        op.write(context_var(question.id))
                        op.set(context_chars=len(text))
                    op.set(items=len(context.item_ids))
                op_id = op.id
        finally:
            _READING.reset(token)
        meta = {
            **context.meta,
            "write_latency_s": self.write_latency_s,
            "retrieve_latency_s": time.perf_counter() - started,
        }
        return dataclasses.replace(
            context, tokens=estimate_tokens(context.text), meta=meta, trace_op_id=op_id
        )

    setattr(retrieve, WRAPPED, True)
    return retrieve
