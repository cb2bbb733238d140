"""How the RAG systems rank a unit: which signals, and with what weights.

Every weight below was chosen on umb's own generated presets (``umb generate --preset small``)
and never on a peer benchmark, which stays a held-out test; ``benchmarks/rag_retrieval.py``
measures each signal's ablation. A weight of 0 switches a signal off.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class RankOptions:
    """The signals of one ranking and their weights."""

    lexical: float = 1.0
    """Weight of the BM25 score (z-normalised over the allowed units) in the fused score."""
    dense: float = 0.0
    """Weight of the wordllama cosine similarity (z-normalised) in the fused score."""
    content_words: bool = True
    """Embed only the content words of units and queries (no stop words, as BM25 indexes):
    function words otherwise dominate the mean of a short turn's word vectors."""
    neighbours: float = 0.0
    """Share of each same-session neighbour's score added to a unit: a turn is ranked with the
    turns around it as context (an answer often shares no word with the question it answers)."""
    question_neighbours: bool = False
    """Borrow only from a neighbour that asks something (holds a ``?``): the turn a reply
    answers, or the follow-up question a statement prompts, not the chat around it."""
    dated: bool = False
    """Index each unit with its session's month and year, so "in May 2023" can match it."""
    temporal: float = 0.0
    """Bonus, in standard deviations of the fused score, for a unit whose session falls in the
    period a query names ("in May 2023", "last week"), resolved by :mod:`umb._dates`."""
    feedback_terms: int = 0
    """Pseudo-relevance feedback (RM3): terms taken from the first pass's best units."""
    feedback_docs: int = 10
    """Units of the first pass the feedback terms are drawn from."""
    feedback_weight: float = 0.0
    """Weight of the expansion terms' BM25 score against the query's own (1 = equal)."""
    strict_lexical: bool = False
    """Leave out units that share no term with the query (plain BM25's behaviour)."""

    def but(self, **changes: object) -> RankOptions:
        """A copy with ``changes`` (ablations)."""
        return replace(self, **changes)  # type: ignore[arg-type]


#: BM25 with the signals that helped on the small preset. Borrowing from every neighbour did
#: not (its row); borrowing from a neighbouring question did, at every k.
BM25 = RankOptions(
    strict_lexical=True,
    dated=True,
    temporal=2.0,
    feedback_terms=10,
    feedback_weight=0.3,
    neighbours=0.3,
    question_neighbours=True,
)
#: wordllama over content words, with the same period bonus and question neighbours.
DENSE = RankOptions(lexical=0.0, dense=1.0, temporal=2.0, neighbours=0.3, question_neighbours=True)
#: BM25's signals plus half-weight dense; every unit may rank (dense scores them all).
HYBRID = BM25.but(strict_lexical=False, dense=0.5)
