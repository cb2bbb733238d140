"""One ranker for the three RAG systems: lexical and dense scores, the turns around a unit,
the period a query names and pseudo-relevance feedback, fused as :class:`RankOptions` says.

Each signal's scores are spread to same-session neighbours, put on one scale (standard scores
over the units the question may see) and summed with their weights; a unit whose session falls
in the period the query names gets a bonus on that scale.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import numpy as np
import numpy.typing as npt

from umb._dates import MONTHS
from umb.memory._feedback import expansion_terms
from umb.memory._index import DenseIndex, FloatArray, LexicalIndex, ranking, standardised
from umb.memory._query_time import in_periods, query_periods
from umb.memory._rank_options import RankOptions
from umb.memory._text import STOPWORDS, index_terms, words

BoolArray = npt.NDArray[np.bool_]


def with_neighbours(
    scores: FloatArray,
    sessions: npt.NDArray[np.int64],
    share: float,
    lenders: BoolArray | None = None,
) -> FloatArray:
    """Add ``share`` of the previous and the next unit's score, within one session.

    Only units where ``lenders`` is true lend their score (all of them when it is ``None``).
    """
    if share <= 0 or len(scores) < 2:
        return scores
    lent = scores if lenders is None else np.where(lenders, scores, 0).astype(scores.dtype)
    same = sessions[1:] == sessions[:-1]
    out = scores.copy()
    out[1:] += share * np.where(same, lent[:-1], 0)
    out[:-1] += share * np.where(same, lent[1:], 0)
    return out


class TurnRanker:
    """Index units of a growing history and rank them for a query."""

    def __init__(self, options: RankOptions) -> None:
        self.options = options
        self.lexical = LexicalIndex() if options.lexical > 0 else None
        self.dense = DenseIndex() if options.dense > 0 else None
        self._sessions: list[int] = []
        self._days: list[int] = []
        """Each unit's session day, as a proleptic ordinal (``date.toordinal``)."""
        self._asks: list[bool] = []
        """Whether each unit asks something (holds a question mark)."""

    def add(self, texts: Sequence[str], session: int, started_at: str) -> None:
        """Append the units of one session, in order."""
        day = date.fromisoformat(started_at[:10])
        self._sessions.extend(session for _ in texts)
        self._days.extend(day.toordinal() for _ in texts)
        self._asks.extend("?" in t for t in texts)
        if self.lexical is not None:
            stamp = f"\n{MONTHS[day.month - 1]} {day.year}" if self.options.dated else ""
            self.lexical.add([t + stamp for t in texts])
        if self.dense is not None:
            self.dense.add([self._for_dense(t) for t in texts])

    def rank(self, query: str, allowed: BoolArray) -> list[int]:
        """Allowed positions, best first (ties keep the earlier position)."""
        scores, kept = self.scores(query, allowed)
        return ranking(scores, kept)

    def scores(self, query: str, allowed: BoolArray) -> tuple[FloatArray, BoolArray]:
        """The fused score of every unit, and which units may be ranked."""
        o = self.options
        sessions = np.asarray(self._sessions, dtype=np.int64)
        fused = np.zeros(len(self._sessions), dtype=np.float32)
        kept = allowed.copy()
        lexical = None
        if self.lexical is not None:
            terms = index_terms(query)
            lexical = self._spread(self.lexical.term_scores(terms), sessions)
            fused += o.lexical * standardised(lexical, allowed)
        if self.dense is not None:
            similarity = self.dense.scores(self._for_dense(query))
            dense = self._spread(similarity, sessions)
            fused += o.dense * standardised(dense, allowed)
        fused += self._time_bonus(query, allowed)
        if lexical is not None and o.strict_lexical:
            # Decided before feedback: a unit that holds none of the query's own terms is
            # no lexical match, whatever terms the expansion adds.
            kept &= lexical > 0
        if lexical is not None and o.feedback_terms > 0 and o.feedback_weight > 0:
            extra = self._feedback(terms, fused, allowed, sessions)
            fused += o.lexical * o.feedback_weight * standardised(extra, allowed)
        return fused, kept

    def _for_dense(self, text: str) -> str:
        if not self.options.content_words:
            return text
        return " ".join(w for w in words(text) if w not in STOPWORDS)

    def _time_bonus(self, query: str, allowed: BoolArray) -> FloatArray:
        if self.options.temporal <= 0 or not allowed.any():
            return np.zeros(len(self._days), dtype=np.float32)
        days = np.asarray(self._days, dtype=np.int64)
        periods = query_periods(query, date.fromordinal(int(days[allowed].max())))
        if not periods:
            return np.zeros(len(days), dtype=np.float32)
        return self.options.temporal * in_periods(days, periods)

    def _feedback(
        self,
        query: list[str],
        first: FloatArray,
        allowed: BoolArray,
        sessions: npt.NDArray[np.int64],
    ) -> FloatArray:
        """BM25 scores of the expansion terms drawn from the first pass's best units."""
        assert self.lexical is not None
        order = np.argsort(-first, kind="stable")
        best = [int(i) for i in order[allowed[order]][: self.options.feedback_docs]]
        expansion = expansion_terms(
            [self.lexical.terms(i) for i in best],
            [1.0 / rank for rank in range(1, len(best) + 1)],
            query,
            self.lexical.document_frequency(),
            len(self.lexical),
            self.options.feedback_terms,
        )
        extra = np.zeros(len(self._sessions), dtype=np.float32)
        for term, weight in expansion:
            extra += weight * self.lexical.term_scores([term])
        return self._spread(extra, sessions)

    def _spread(self, scores: FloatArray, sessions: npt.NDArray[np.int64]) -> FloatArray:
        """``scores`` with the neighbours' shares that :class:`RankOptions` asks for."""
        o = self.options
        lenders = np.asarray(self._asks, dtype=np.bool_) if o.question_neighbours else None
        return with_neighbours(scores, sessions, o.neighbours, lenders)
