"""What the three RAG systems share: chunking the history into units, masking by time, rendering.

A unit is a turn, a round (a user turn with the character's reply) or a whole session
(``config.granularity``). Retrieved units are put back in time order and rendered under their
session headers, so the answerer still sees when each thing was said.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from umb.bench import Question, Session, Turn
from umb.memory._api import Granularity, MemoryConfig, MemorySystem, RetrievedContext
from umb.memory._history import SessionLog, asked_after, render_positioned
from umb.memory._rank_options import RankOptions
from umb.memory._ranker import TurnRanker
from umb.memory._tracing import read_items, tracing, turn_reads, unit_var, write_op
from umb.models import ModelAPI
from umb.trace import TurnTranscript


@dataclass(frozen=True)
class Chunk:
    """One retrievable unit of history."""

    id: str
    """The turn id, the first turn id of a round, or the session id."""
    session_position: int
    turn_positions: tuple[int, ...]
    text: str
    """``Speaker: text`` lines, as indexed."""


def chunk_session(session: Session, position: int, granularity: Granularity) -> list[Chunk]:
    """Cut one session into units of ``granularity``.

    A round opens at each user (interlocutor) turn and takes the turns that follow until the
    next user turn; turns before the first user turn form a round of their own.
    """
    groups: list[list[int]]
    if granularity == "session":
        groups = [list(range(len(session.turns)))] if session.turns else []
    elif granularity == "turn":
        groups = [[i] for i in range(len(session.turns))]
    else:
        groups = []
        for i, turn in enumerate(session.turns):
            if not groups or turn.role == "user":
                groups.append([])
            groups[-1].append(i)
    chunks = []
    for group in groups:
        turns = [session.turns[i] for i in group]
        chunk_id = session.id if granularity == "session" else turns[0].id
        chunks.append(Chunk(chunk_id, position, tuple(group), _lines(turns)))
    return chunks


def _lines(turns: Sequence[Turn]) -> str:
    return "\n".join(f"{t.speaker}: {t.text}" for t in turns)


class RagMemory(MemorySystem):
    """Base of the RAG systems: a :class:`TurnRanker` with the subclass's :attr:`options`."""

    ranked = True
    options: ClassVar[RankOptions]
    """The signals this system ranks with (see :mod:`umb.memory._rank_options`)."""

    def __init__(
        self,
        config: MemoryConfig,
        extractor: ModelAPI | None = None,
        *,
        options: RankOptions | None = None,
    ) -> None:
        super().__init__(config, extractor)
        self.log = SessionLog()
        self.chunks: list[Chunk] = []
        self._started_at: list[str] = []
        # ``options`` overrides the class's: ablations build variants of one system.
        self.ranker = TurnRanker(options or self.options)

    async def ingest(self, session: Session) -> None:
        """Chunk the session and hand the chunks to the ranker (whose indexes build lazily)."""
        position = len(self.log)
        self.log.append(session)
        new = chunk_session(session, position, self.config.granularity)
        self.chunks.extend(new)
        self._started_at.extend(session.started_at for _ in new)
        self.ranker.add([c.text for c in new], position, session.started_at)
        if tracing():
            self._trace_units(session, new)

    def _trace_units(self, session: Session, chunks: Sequence[Chunk]) -> None:
        """One ``index`` operation per session: from its turns to its units.

        Each unit names its turns (``source_turn_ids``) and is written as their transcript, so a
        trace that refers to the benchmark stores the ids, not the text again.
        """
        sources: dict[str, list[str]] = {}
        with write_op("index", "indexing", session, turn_reads(session.turns)) as op:
            for chunk in chunks:
                turns = [session.turns[t] for t in chunk.turn_positions]
                identity = unit_var(chunk.id)
                op.write(identity, TurnTranscript(tuple(t.id for t in turns), chunk.text))
                sources[identity] = [t.id for t in turns]
            op.set(source_turn_ids=sources)

    def rank(self, query: str, allowed: npt.NDArray[np.bool_]) -> list[int]:
        """Chunk positions for ``query``, best first, only where ``allowed``."""
        return self.ranker.rank(query, allowed)

    def _turn_ids(self, chunk: Chunk) -> tuple[str, ...]:
        return tuple(self.log.turn(chunk.session_position, t).id for t in chunk.turn_positions)

    async def retrieve(self, question: Question) -> RetrievedContext:
        """Rank, keep ``top_k``, restore time order and render with session headers."""
        allowed = np.array(
            [asked_after(s, question.asked_at) for s in self._started_at], dtype=np.bool_
        )
        best = self.rank(question.query, allowed)[: self.config.top_k]
        if tracing():
            read_items(unit_var(self.chunks[i].id) for i in best)
        picked = sorted(best)  # chunk order is time order
        excerpt = self.log.excerpt(
            (self.chunks[i].session_position, t)
            for i in picked
            for t in self.chunks[i].turn_positions
        )
        return self._context(
            render_positioned(excerpt),
            item_ids=tuple(self.chunks[i].id for i in picked),
            source_turn_ids=tuple(t.id for _, s in excerpt for t in s.turns),
            granularity=self.config.granularity,
            chunks=len(self.chunks),
            # Best first, for retrieval@k; the rendered context above is in time order.
            ranking=tuple((self.chunks[i].id, self._turn_ids(self.chunks[i])) for i in best),
        )
