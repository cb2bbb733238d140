"""The one interface every memory system implements.

Write path: :meth:`MemorySystem.ingest` receives the sessions of one dialogue in time order.
Read path: :meth:`MemorySystem.retrieve` returns the context handed to the answerer for a
question asked at ``question.asked_at`` (only sessions before that time have been ingested).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from umb.bench import Dialogue, Question, Session
from umb.models._api import ModelAPI


@dataclass(frozen=True)
class RetrievedContext:
    """The context a memory system hands the answerer for one question."""

    text: str
    """Rendered history or memories, with dates, ready to go into the prompt."""
    item_ids: tuple[str, ...] = ()
    """Ids of what was retrieved: turn ids (``D0001:S003:T0004``) or memory-unit ids."""
    source_turn_ids: tuple[str, ...] = ()
    """Turn ids the retrieved items came from (for retrieval recall and attribution)."""
    tokens: int = 0
    meta: dict[str, Any] = field(default_factory=dict)
    """System-specific notes, e.g. ``dropped_sessions`` when a context was truncated."""


@dataclass(frozen=True)
class MemoryConfig:
    """Options shared by the built-in memory systems."""

    top_k: int = 10
    granularity: str = "round"
    """RAG unit: ``turn``, ``round`` (a user turn and the reply) or ``session``."""
    max_input_tokens: int = 120_000


class MemorySystem(ABC):
    """A memory system under test. One instance serves one dialogue."""

    name: str = ""

    def __init__(self, config: MemoryConfig, extractor: ModelAPI | None = None) -> None:
        self.config = config
        self.extractor = extractor
        self.write_latency_s = 0.0

    def start(self, dialogue: Dialogue) -> None:  # noqa: B027 - optional hook
        """Called once before the first session of ``dialogue`` is ingested."""

    @abstractmethod
    async def ingest(self, session: Session) -> None:
        """Take in one session; sessions arrive in time order."""

    @abstractmethod
    async def retrieve(self, question: Question) -> RetrievedContext:
        """Return the context for ``question``."""
