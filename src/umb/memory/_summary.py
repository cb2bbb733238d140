"""``summary``: one rolling summary per session; the answerer reads all of them.

With a language-model extractor each summary is written by the model, which also sees the
previous session's summary. Without one (``offline`` or none) the summary is extractive: the
session's most salient sentences (dates, numbers, names, changes), rewritten in the third person.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from umb.bench import Question, Session, Turn
from umb.memory._api import MemoryConfig, MemorySystem, RetrievedContext
from umb.memory._history import asked_after
from umb.memory._llm_prompts import summary_request
from umb.memory._mem0_rules import character_name
from umb.memory._render import render_units, unit_date
from umb.memory._rules import clean_sentence, salience, third_person
from umb.memory._text import split_sentences
from umb.memory._tracing import (
    read_items,
    summary_var,
    tracing,
    turn_reads,
    write_op,
)
from umb.models import ModelAPI
from umb.trace import current_op

#: Sentences an extractive summary keeps per session.
SUMMARY_SENTENCES = 4
#: Sentences shorter than this many words are chit-chat, not summary material.
MIN_WORDS = 4


@dataclass(frozen=True)
class SessionSummary:
    """The summary of one session."""

    session_id: str
    at: str
    text: str
    source_turn_ids: tuple[str, ...]

    @property
    def date(self) -> str:
        return unit_date(self.at)


def extractive_summary(
    session: Session, limit: int = SUMMARY_SENTENCES
) -> tuple[str, tuple[str, ...]]:
    """The ``limit`` most salient sentences of a session, in order, and the turns they came from.

    Questions and very short sentences are skipped; the character's own sentences get a small
    bonus over the interlocutor's.
    """
    scored: list[tuple[int, int, Turn, str]] = []
    for turn in session.turns:
        for raw in split_sentences(turn.text):
            sentence = clean_sentence(raw)
            if sentence.endswith("?") or len(sentence.split()) < MIN_WORDS:
                continue
            score = salience(sentence, by_character=turn.role == "assistant")
            scored.append((score, len(scored), turn, sentence))
    best = sorted(scored, key=lambda s: (-s[0], s[1]))[:limit]
    best.sort(key=lambda s: s[1])
    text = " ".join(third_person(sentence, turn.speaker) for _, _, turn, sentence in best)
    return text, tuple(dict.fromkeys(turn.id for _, _, turn, _ in best))


class SummaryMemory(MemorySystem):
    """Summarise each session as it arrives; hand over every summary before the question."""

    name = "summary"
    description = "One rolling summary per session; the answerer reads them all."

    def __init__(self, config: MemoryConfig, extractor: ModelAPI | None = None) -> None:
        super().__init__(config, extractor)
        self.summaries: list[SessionSummary] = []
        self.stats: Counter[str] = Counter()

    async def ingest(self, session: Session) -> None:
        """Summarise the session and keep the summary."""
        summary = await self.summarize(session)
        if summary.text:
            self.summaries.append(summary)

    async def summarize(self, session: Session) -> SessionSummary:
        """Summarise one session (traced as its ``summarize`` operation).

        Asks the extractor when it is a language model, else (or when the call fails or the
        reply is empty) writes the extractive summary; see :meth:`_summarize`.
        """
        reads = turn_reads(session.turns) if tracing() else []
        if reads and self.uses_llm and self.summaries:
            reads.append((summary_var(self.summaries[-1].session_id), self.summaries[-1].text))
        with write_op("summarize", "extraction", session, reads) as op:
            summary = await self._summarize(session)
            op.write(summary_var(session.id), summary.text)
            op.set(source_turn_ids=list(summary.source_turn_ids))
        return summary

    async def _summarize(self, session: Session) -> SessionSummary:
        """Ask the extractor for a summary; use the extractive one without a model or on failure.

        A failed call or an empty reply is counted in ``stats["failed_calls"]`` before falling
        back, so a run can tell how many summaries the model really wrote.
        """
        if self.uses_llm:
            assert self.extractor is not None
            previous = self.summaries[-1].text if self.summaries else ""
            request = summary_request(
                session, character_name(session), len(self.summaries) + 1, previous
            )
            self.stats["llm_calls"] += 1
            (result,) = await self.extractor.generate([request])
            op = current_op()
            op.usage(self.extractor.spec, result.input_tokens, result.output_tokens)
            text = " ".join(result.text.split())
            if result.error is None and text:
                turn_ids = tuple(t.id for t in session.turns)
                return SessionSummary(session.id, session.started_at, text, turn_ids)
            self.stats["failed_calls"] += 1
            op.set(fallback=True, llm_error=result.error or "empty reply")
        text, turn_ids = extractive_summary(session)
        return SessionSummary(session.id, session.started_at, text, turn_ids)

    async def retrieve(self, question: Question) -> RetrievedContext:
        """Every summary of a session before the question, ``[date] summary`` per line."""
        seen = [s for s in self.summaries if asked_after(s.at, question.asked_at)]
        turn_ids = dict.fromkeys(t for s in seen for t in s.source_turn_ids)
        if tracing():
            read_items(summary_var(s.session_id) for s in seen)
        return self._context(
            render_units(seen),
            item_ids=tuple(s.session_id for s in seen),
            source_turn_ids=tuple(turn_ids),
            write_stats=dict(sorted(self.stats.items())),
        )
