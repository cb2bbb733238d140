"""``no_context``: no history at all, the parametric baseline."""

from __future__ import annotations

import time

from umb.bench import Question, Session
from umb.memory._api import MemorySystem, RetrievedContext
from umb.memory._tracing import traced_retrieve


class NoContext(MemorySystem):
    """Remember nothing: the answerer sees only the question."""

    name = "no_context"
    stores_nothing = True

    async def ingest(self, session: Session) -> None:
        """Ignore the session."""
        with self._timed_write(session):
            pass

    @traced_retrieve(ranked=False)
    async def retrieve(self, question: Question) -> RetrievedContext:
        """Return an empty context."""
        return self._context("", time.perf_counter())
