"""``no_context``: no history at all, the parametric baseline."""

from __future__ import annotations

from umb.bench import Question, Session
from umb.memory._api import MemorySystem, RetrievedContext


class NoContext(MemorySystem):
    """Remember nothing: the answerer sees only the question."""

    name = "no_context"
    description = "No history at all: what the question alone gives."
    stores_nothing = True

    async def ingest(self, session: Session) -> None:
        """Ignore the session."""

    async def retrieve(self, question: Question) -> RetrievedContext:
        """Return an empty context."""
        return self._context("")
