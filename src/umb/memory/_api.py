"""The one interface every memory system implements.

Write path: :meth:`MemorySystem.ingest` receives the sessions of one dialogue in time order.
Read path: :meth:`MemorySystem.retrieve` returns the context handed to the answerer for a
question asked at ``question.asked_at`` (only sessions before that time have been ingested).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal

from umb._errors import ConfigError
from umb.bench import Dialogue, Question, Session
from umb.memory._retrieved import RetrievedContext
from umb.memory._tracing import traced_ingest, traced_retrieve
from umb.models import ModelAPI, spec_provider

Granularity = Literal["turn", "round", "session"]
GRANULARITIES: tuple[Granularity, ...] = ("turn", "round", "session")


@dataclass(frozen=True)
class MemoryConfig:
    """Options shared by the built-in memory systems."""

    top_k: int = 10
    """How many units (RAG) or memories (``mem0_style``) a retrieval returns."""
    granularity: Granularity = "round"
    """RAG unit: ``turn``, ``round`` (a user turn and the reply) or ``session``."""
    max_input_tokens: int = 120_000
    """``full_context`` drops the oldest sessions until its history fits in this many tokens."""
    work_dir: Path | None = None
    """Where a system may keep files (vector stores, databases): the run's ``memory/`` folder."""
    bench: Path | None = None
    """The benchmark directory, for reference systems that read its gold (``oracle_memory``)."""

    def __post_init__(self) -> None:
        if self.granularity not in GRANULARITIES:
            raise ConfigError(
                f"granularity must be one of {', '.join(GRANULARITIES)}, not {self.granularity!r}"
            )
        if self.top_k < 1:
            raise ConfigError(f"top_k must be at least 1, not {self.top_k}")
        if self.max_input_tokens < 1:
            raise ConfigError(f"max_input_tokens must be at least 1, not {self.max_input_tokens}")


class MemorySystem(ABC):
    """A memory system under test. One instance serves one dialogue.

    Subclasses implement :meth:`ingest` and :meth:`retrieve` and nothing else: when a subclass
    is defined, the base class wraps the two (see :func:`~umb.memory.traced_retrieve`), so every
    system's write and read paths are traced, timed and their contexts' tokens counted the same
    way. :meth:`_context` packages a retrieval.
    """

    name: str = ""
    description: ClassVar[str] = ""
    """One line on what the system does: its entry in the report's glossary."""
    stores_nothing: bool = False
    """True for a system that keeps nothing of what it ingests (``no_context``): its memory
    metrics are zeros, not missing (docs/memory-metrics.md)."""

    ranked: ClassVar[bool] = False
    """Whether :meth:`retrieve` reads its items best first (the ``retrieve`` op's ``ranked``)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # The template: the wrappers around each subclass's own ingest and retrieve do the
        # tracing and timing, so a new system cannot forget them.
        for name, wrap in (("ingest", traced_ingest), ("retrieve", traced_retrieve)):
            if name in cls.__dict__:
                setattr(cls, name, wrap(cls.__dict__[name]))

    def __init__(self, config: MemoryConfig, extractor: ModelAPI | None = None) -> None:
        self.config = config
        self.extractor = extractor
        self.write_latency_s = 0.0

    @property
    def uses_llm(self) -> bool:
        """Whether the extractor is a language model (not ``None``, ``offline`` or ``oracle``)."""
        if self.extractor is None:
            return False
        found = spec_provider(self.extractor.spec)
        return found is None or found.llm

    def start(self, dialogue: Dialogue) -> None:  # noqa: B027 - optional hook
        """Called once before the first session of ``dialogue`` is ingested."""

    @abstractmethod
    async def ingest(self, session: Session) -> None:
        """Take in one session; sessions arrive in time order."""

    @abstractmethod
    async def retrieve(self, question: Question) -> RetrievedContext:
        """Return the context for ``question``."""

    def _context(
        self,
        text: str,
        *,
        item_ids: tuple[str, ...] = (),
        source_turn_ids: tuple[str, ...] = (),
        **meta: Any,
    ) -> RetrievedContext:
        """Package a retrieval (the wrapper adds its tokens and latencies)."""
        return RetrievedContext(
            text=text, item_ids=item_ids, source_turn_ids=source_turn_ids, meta=meta
        )
