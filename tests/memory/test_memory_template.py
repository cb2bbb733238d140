"""A memory system implements ingest and retrieve only; the base class traces and times both."""

from __future__ import annotations

import asyncio
from pathlib import Path

from memory_helpers import question, session

from umb.bench import Question, Session
from umb.memory import MemoryConfig, MemorySystem, RetrievedContext, read_items
from umb.trace import Tracer, context_var, query_var, read_trace, turn_var

LINES = [("user", "I adopted a beagle."), ("assistant", "Biscuit is her name.")]


def make_session() -> Session:
    return session(1, "2029-05-01T10:00", LINES)


def make_question() -> Question:
    return question("What is the dog called?")


class Plain(MemorySystem):
    """Keeps the last session's turns and hands them all back, with no tracing code."""

    ranked = True

    def __init__(self, config: MemoryConfig) -> None:
        super().__init__(config)
        self.turns: list[str] = []

    async def ingest(self, session: Session) -> None:
        self.turns = [t.id for t in session.turns]
        await asyncio.sleep(0.01)

    async def retrieve(self, question: Question) -> RetrievedContext:
        read_items(turn_var(t) for t in self.turns)
        return self._context("four words of context", item_ids=tuple(self.turns))


class Overriding(Plain):
    """Calls ``super()`` on both paths: still one operation each, timed once."""

    async def ingest(self, session: Session) -> None:
        await super().ingest(session)

    async def retrieve(self, question: Question) -> RetrievedContext:
        return await super().retrieve(question)


def _run(system: MemorySystem, path: Path) -> RetrievedContext:
    q = make_question()

    async def go() -> RetrievedContext:
        with Tracer(path) as tr, tr.activate():
            with tr.dialogue("D0001"):
                await system.ingest(make_session())
            with tr.question(q.id, dialogue_id="D0001"):
                return await system.retrieve(q)

    return asyncio.run(go())


def test_a_system_without_tracing_code_is_traced_timed_and_counted(tmp_path: Path) -> None:
    for cls in (Plain, Overriding):
        path = tmp_path / f"{cls.__name__}.jsonl"
        context = _run(cls(MemoryConfig()), path)
        trace = read_trace(path)
        assert [o.name for o in trace.ops] == ["ingest", "retrieve"]
        ingest, retrieve = trace.ops
        turns = [turn_var(t.id) for t in make_session().turns]
        assert [i for i, _ in ingest.reads] == turns
        assert retrieve.reads[0][0] == query_var(make_question().id)
        assert [i for i, _ in retrieve.reads[1:]] == turns
        assert retrieve.attrs["ranked"] is True
        assert [w[0] for w in retrieve.writes] == [context_var(make_question().id)]
        assert context.trace_op_id == retrieve.id
        assert context.tokens == 6  # estimate_tokens("four words of context")
        assert context.meta["write_latency_s"] >= 0.01
        assert context.meta["write_latency_s"] < 0.5  # timed once, not twice
        assert context.meta["retrieve_latency_s"] >= 0.0


def test_untraced_system_still_reports_latencies() -> None:
    system = Plain(MemoryConfig())

    async def go() -> RetrievedContext:
        await system.ingest(make_session())
        return await system.retrieve(make_question())

    context = asyncio.run(go())
    assert context.trace_op_id is None
    assert context.meta["write_latency_s"] >= 0.01
    assert context.tokens == 6
