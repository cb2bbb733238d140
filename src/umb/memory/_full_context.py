"""``full_context``: the whole history so far, cut from the oldest end to fit the token budget."""

from __future__ import annotations

from umb._tokens import estimate_tokens
from umb.bench import Question, Session
from umb.memory._api import MemoryConfig, MemorySystem, RetrievedContext
from umb.memory._history import SessionLog, render_positioned
from umb.memory._render import render_session
from umb.memory._tracing import read_items, tracing
from umb.models import ModelAPI
from umb.trace import turn_var


class FullContext(MemorySystem):
    """Hand the answerer every session before the question, rendered with dates.

    When the history is over ``config.max_input_tokens`` the oldest sessions go first, and
    ``meta`` records how many (``dropped_sessions``) and which (``dropped_session_ids``). Should
    the newest session alone still be too long, its earliest turns go too (``dropped_turns``).
    """

    name = "full_context"
    description = (
        "The whole dialogue history in the prompt (oldest sessions dropped beyond the input limit)."
    )

    def __init__(self, config: MemoryConfig, extractor: ModelAPI | None = None) -> None:
        super().__init__(config, extractor)
        self.log = SessionLog()

    async def ingest(self, session: Session) -> None:
        """Keep the session as it is."""
        self.log.append(session)

    async def retrieve(self, question: Question) -> RetrievedContext:
        """Render the sessions before ``question.asked_at``, dropping the oldest to fit."""
        budget = self.config.max_input_tokens
        kept = [(p, self.log.sessions[p]) for p in self.log.positions_before(question.asked_at)]
        blocks = [render_session(s, p + 1) for p, s in kept]
        # Track the joined length ("\n\n" between blocks) instead of re-joining per drop; the
        # token estimate of the joined text is then ceil(chars / 4), as in estimate_tokens.
        chars = sum(len(b) for b in blocks) + 2 * max(len(blocks) - 1, 0)
        dropped: list[str] = []
        while len(kept) > 1 and (chars + 3) // 4 > budget:
            chars -= len(blocks.pop(0)) + 2
            dropped.append(kept.pop(0)[1].id)
        dropped_turns = 0
        if kept and (chars + 3) // 4 > budget:
            kept[0], dropped_turns = _trim_turns(kept[0], budget)
        text = render_positioned(kept)
        source_turn_ids = tuple(t.id for _, s in kept for t in s.turns)
        if tracing():
            read_items(turn_var(t) for t in source_turn_ids)
        return self._context(
            text,
            item_ids=tuple(s.id for _, s in kept),
            source_turn_ids=source_turn_ids,
            dropped_sessions=len(dropped),
            dropped_session_ids=dropped,
            dropped_turns=dropped_turns,
        )


def _trim_turns(positioned: tuple[int, Session], budget: int) -> tuple[tuple[int, Session], int]:
    """Drop a session's earliest turns until its rendering fits ``budget`` tokens."""
    position, session = positioned
    turns = list(session.turns)
    dropped = 0
    while turns:
        candidate = Session(session.id, session.started_at, tuple(turns))
        if estimate_tokens(render_session(candidate, position + 1)) <= budget:
            return (position, candidate), dropped
        turns.pop(0)
        dropped += 1
    return (position, Session(session.id, session.started_at, ())), dropped
