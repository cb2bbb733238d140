"""``oracle_evidence``: only the gold evidence turns, an upper bound on retrieval."""

from __future__ import annotations

from umb.bench import Question, Session
from umb.memory._api import MemoryConfig, MemorySystem, RetrievedContext
from umb.memory._history import SessionLog, render_positioned
from umb.memory._tracing import read_items, tracing
from umb.models import ModelAPI
from umb.trace import turn_var


class OracleEvidence(MemorySystem):
    """Hand the answerer exactly the turns in ``question.evidence.turn_ids``.

    The turns are grouped under their session headers in time order. Evidence turns that were
    never ingested are counted in ``meta["missing_evidence_turns"]``; a question without
    evidence (abstention) gets an empty context.
    """

    name = "oracle_evidence"
    description = "Only the gold evidence turns: an upper bound for retrieval."

    def __init__(self, config: MemoryConfig, extractor: ModelAPI | None = None) -> None:
        super().__init__(config, extractor)
        self.log = SessionLog()

    async def ingest(self, session: Session) -> None:
        """Keep the session and index its turns by id."""
        self.log.append(session)

    async def retrieve(self, question: Question) -> RetrievedContext:
        """Render the evidence turns of ``question``."""
        located = [self.log.locate(t) for t in question.evidence.turn_ids]
        picks = [p for p in located if p is not None]
        excerpt = self.log.excerpt(picks)
        turn_ids = tuple(t.id for _, s in excerpt for t in s.turns)
        if tracing():
            read_items(turn_var(t) for t in turn_ids)
        return self._context(
            render_positioned(excerpt),
            item_ids=turn_ids,
            source_turn_ids=turn_ids,
            missing_evidence_turns=len(located) - len(picks),
        )
