"""One question against one context: ranking, dating and short answers for the offline reader."""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta
from typing import Final

import numpy as np

from umb._dates import resolve_date
from umb.models._offline_index import ContextIndex, build_index, query_terms
from umb.models._offline_spans import answer_kind, best_span, cue_tail

NOT_MENTIONED: Final = "not mentioned"
WINDOW: Final = 3
# Events are told in a session up to about a month after they happen.
_TOLD_WITHIN: Final = timedelta(days=45)
_MONTH_NAMES: Final = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_IN_MONTH: Final = re.compile(
    r"\bin\s+(" + "|".join(_MONTH_NAMES) + r")\s+((?:19|20)\d{2})\b", re.IGNORECASE
)
_IN_YEAR: Final = re.compile(r"\bin\s+((?:19|20)\d{2})\b", re.IGNORECASE)


def period_of(query: str) -> tuple[date, date] | None:
    """The month or year a question pins itself to ("... in March 2021", "in 2021")."""
    m = _IN_MONTH.search(query)
    if m:
        year, month = int(m.group(2)), _MONTH_NAMES[m.group(1).lower()]
        return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])
    m = _IN_YEAR.search(query)
    if m:
        return date(int(m.group(1)), 1, 1), date(int(m.group(1)), 12, 31)
    return None


class Reader:
    """Ranks and dates the sentences of one context for one question."""

    def __init__(self, query: str, asked_at: str, context: str) -> None:
        self.query = query
        self.asked_on = datetime.strptime(asked_at[:10], "%Y-%m-%d").date()
        self.ix: ContextIndex = build_index(context)
        self.speakers = frozenset(w for s in self.ix.speakers for w in s.lower().split())
        self.exclude = self.speakers | frozenset(re.findall(r"[a-z0-9]+", query.lower()))
        self.period = period_of(query)

    def terms(self, text: str) -> list[str]:
        """Query terms of ``text`` less the speakers' names.

        A speaker's name labels their lines but is not in their text; left in, it would only
        match the other person's greetings.
        """
        return [t for t in query_terms(text) if t not in self.speakers]

    def rank(
        self, text: str, k: int = 10, *, smooth: bool = True, fallback: bool = True
    ) -> tuple[list[int], np.ndarray, np.ndarray]:
        """Top ``k`` sentences for ``text``, best first, with every sentence's raw score and
        coverage.

        With ``fallback``, a context that shares no word with ``text`` gives its first ``k``
        sentences instead of none: a small retrieved context is usually all on topic.
        """
        raw, coverage = self.ix.score(self.terms(text))
        scores = self._smooth(raw) if smooth else raw.copy()
        if self.period is not None and len(scores):
            said = self.ix.day
            lo, hi = self.period[0].toordinal(), (self.period[1] + _TOLD_WITHIN).toordinal()
            scores *= np.where((said >= lo) & (said <= hi), 1.0, 0.5)
        positive = np.flatnonzero(scores > 0)
        if len(positive) == 0 and fallback:
            return [int(i) for i in np.flatnonzero(self.ix.valid)[:k]], raw, coverage
        if len(positive) > k:
            positive = positive[np.argpartition(-scores[positive], k - 1)[:k]]
        order = positive[np.lexsort((positive, -scores[positive]))]
        return [int(i) for i in order], raw, coverage

    def _smooth(self, scores: np.ndarray) -> np.ndarray:
        """Add half the best neighbour's score (same session, within a few sentences).

        Facts are often spread over neighbouring sentences ("I enrolled in a pottery course."
        ... "The fee was $1,240."), so a sentence's neighbourhood counts for it too.
        """
        best = np.zeros_like(scores)
        n = len(scores)
        session = self.ix.session
        for d in range(1, WINDOW + 1):
            if d >= n:
                break
            same = session[d:] == session[:-d]
            best[d:] = np.maximum(best[d:], np.where(same, scores[:-d], 0))
            best[:-d] = np.maximum(best[:-d], np.where(same, scores[d:], 0))
        return scores + 0.5 * best * (scores > 0)

    def text(self, i: int) -> str:
        """Sentence ``i``."""
        return self.ix.sentence(i)

    def event_date(self, i: int) -> date:
        """The day sentence ``i`` talks about (its own date if it names none)."""
        said_on = self.ix.said_on(i) or self.asked_on
        return resolve_date(self.text(i), said_on)[0]

    def in_order(self, ids: list[int]) -> list[int]:
        """Sentences sorted by the day they talk about, then by position."""
        return sorted(ids, key=lambda i: (self.event_date(i), int(self.ix.starts[i])))

    def window(self, i: int, after: int = WINDOW) -> list[int]:
        """Sentence ``i`` and its valid neighbours in the same session."""
        ix = self.ix
        lo, hi = max(0, i - WINDOW), min(len(ix), i + after + 1)
        return [j for j in range(lo, hi) if ix.valid[j] and ix.session[j] == ix.session[i]]

    def short_answer(self, top: list[int], kind: str | None = None) -> str:
        """A short answer from around the best sentence.

        The best sentence usually names the event; the detail asked for is often in a sentence
        right after it. Sentences holding a question word the best one lacks (the attribute
        asked about, "result", "fee") are read first, then the best one, then what follows it.
        """
        if not top:
            return NOT_MENTIONED
        kind = kind or answer_kind(self.query)
        anchor = top[0]
        near = self.window(anchor, after=6)
        anchor_terms = set(self.terms(self.text(anchor)))
        head = [t for t in self.terms(self.query) if t not in anchor_terms and not t.isdigit()]
        questions = self.ix.questions()
        order = [j for j in near if j != anchor and _mentions(self.text(j), head)]
        order += [anchor] + [j for j in near if j > anchor] + [j for j in near if j < anchor]
        order += top[1:8]
        seen: set[int] = set()
        for j in order:
            if j in seen or questions[j]:
                continue
            seen.add(j)
            span = best_span(self.text(j), kind, self.exclude)
            if span:
                return span
        return cue_tail(self.text(anchor)) or self.text(anchor)


def _mentions(text: str, terms: list[str]) -> bool:
    low = text.lower()
    return any(re.search(rf"\b{re.escape(t)}", low) for t in terms)
