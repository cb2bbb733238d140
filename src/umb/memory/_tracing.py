"""How the built-in memory systems describe their work to a tracer (see docs/tracing.md).

Every helper here looks the tracer up in the current context and does nothing when tracing is
off, so a memory system used on its own pays one context-variable read per call. The
identities and operation names form the vocabulary attribution reads: ``ingest``, ``extract``,
``summarize``, ``decide``, ``add``, ``update``, ``delete``, ``index`` and ``retrieve``.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Coroutine, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from umb.bench import Question, Session, Turn
from umb.trace import context_var, current_op, current_tracer, operation, query_var, turn_var, var
from umb.trace._null import NULL_OP, OpHandle

if TYPE_CHECKING:
    from umb.memory._api import MemorySystem, RetrievedContext

S = TypeVar("S", bound="MemorySystem")

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


def traced_retrieve(
    ranked: bool,
) -> Callable[
    [Callable[[S, Question], Coroutine[Any, Any, RetrievedContext]]],
    Callable[[S, Question], Coroutine[Any, Any, RetrievedContext]],
]:
    """Record each call of a system's ``retrieve`` as the question's ``retrieve`` operation.

    The operation reads the query; the method adds what it placed in the context with
    :func:`read_items` (best first when ``ranked``); the context text is written as the
    question's context. The returned context carries the operation id (``trace_op_id``).
    """

    def decorate(
        fn: Callable[[S, Question], Coroutine[Any, Any, RetrievedContext]],
    ) -> Callable[[S, Question], Coroutine[Any, Any, RetrievedContext]]:
        @functools.wraps(fn)
        async def retrieve(self: S, question: Question) -> RetrievedContext:
            if not current_tracer().enabled:
                return await fn(self, question)
            reads = [(query_var(question.id), question.query)]
            with operation("retrieve", "retrieval", reads=reads, ranked=ranked) as op:
                context = await fn(self, question)
                text = context.text
                if len(text) <= MAX_CONTEXT_VALUE_CHARS:
                    op.write(context_var(question.id), text)
                else:
                    op.write(context_var(question.id))
                    op.set(context_chars=len(text))
                op.set(items=len(context.item_ids))
            return dataclasses.replace(context, trace_op_id=op.id)

        return retrieve

    return decorate
