"""A memory system in 30 lines: keep every turn, hand back the ones sharing most words with the
question. The base class traces, times and counts it; registering it is one decorator.

    umb eval --bench bench --system keyword_overlap ...   (after importing this module)
"""

from __future__ import annotations

from umb import Question, Session, Turn
from umb.memory import MemorySystem, RetrievedContext, register_memory_system


def _words(text: str) -> set[str]:
    return {w.strip(".,!?'\"").lower() for w in text.split() if len(w) > 3}


@register_memory_system("keyword_overlap")
class KeywordOverlap(MemorySystem):
    """Every turn kept as it was said; the ``top_k`` with the most words in common come back."""

    name = "keyword_overlap"
    description = "The top-k turns sharing most words with the question."
    ranked = True

    def start(self, dialogue: object) -> None:
        self.turns: list[tuple[str, Turn]] = []

    async def ingest(self, session: Session) -> None:
        self.turns += [(session.started_at, turn) for turn in session.turns]

    async def retrieve(self, question: Question) -> RetrievedContext:
        asked = [(when, t) for when, t in self.turns if when < question.asked_at]
        query = _words(question.query)
        best = sorted(asked, key=lambda wt: -len(query & _words(wt[1].text)))[: self.config.top_k]
        text = "\n".join(f"[{when}] {t.speaker}: {t.text}" for when, t in best)
        ids = tuple(t.id for _, t in best)
        return self._context(text, item_ids=ids, source_turn_ids=ids)
