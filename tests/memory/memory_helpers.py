"""Hand-built dialogues for the memory-system tests, and a scripted stand-in extractor."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from umb.bench import Evidence, Question, Session, Turn
from umb.memory import MemoryConfig, MemorySystem, RetrievedContext, build_memory
from umb.models import GenerateRequest, GenerateResult

CHARACTER, FRIEND = "Maya", "Alex"


def session(number: int, started_at: str, lines: Sequence[tuple[str, str]]) -> Session:
    """A session of ``D0001``; each line is (``user`` | ``assistant``, text)."""
    sid = f"D0001:S{number:03d}"
    turns = tuple(
        Turn(f"{sid}:T{i:04d}", role, CHARACTER if role == "assistant" else FRIEND, text)
        for i, (role, text) in enumerate(lines, start=1)
    )
    return Session(sid, started_at, turns)


def question(
    query: str, asked_at: str = "2030-01-01T00:00", turn_ids: Sequence[str] = ()
) -> Question:
    return Question(
        id="Q-D0001-IE-01",
        dialogue_id="D0001",
        family="IE",
        query=query,
        asked_at=asked_at,
        gold={},
        answer_components=(),
        evidence=Evidence(turn_ids=tuple(turn_ids)),
    )


def run(
    name: str,
    sessions: Sequence[Session],
    query: str | Question,
    extractor: Any = None,
    **config: Any,
) -> tuple[MemorySystem, RetrievedContext]:
    """Build ``name``, ingest ``sessions`` in order and retrieve for ``query``."""
    system = build_memory(name, MemoryConfig(**config), extractor)
    q = question(query) if isinstance(query, str) else query

    async def go() -> RetrievedContext:
        for s in sessions:
            await system.ingest(s)
        return await system.retrieve(q)

    return system, asyncio.run(go())


def ingest(system: MemorySystem, sessions: Sequence[Session]) -> None:
    async def go() -> None:
        for s in sessions:
            await system.ingest(s)

    asyncio.run(go())


def retrieve(system: MemorySystem, q: Question) -> RetrievedContext:
    return asyncio.run(system.retrieve(q))


class ScriptedModel:
    """A fake extractor: answers each request with the next scripted reply, in order.

    A reply of ``None`` comes back as a failed call (``error`` set).
    """

    def __init__(self, replies: Sequence[str | None], spec: str = "openai/scripted") -> None:
        self.spec = spec
        self.replies = list(replies)
        self.requests: list[GenerateRequest] = []

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResult]:
        out = []
        for request in requests:
            self.requests.append(request)
            reply = self.replies.pop(0)
            if reply is None:
                out.append(GenerateResult(text="", error="HTTP 500 after retries"))
            else:
                out.append(GenerateResult(text=reply))
        return out
