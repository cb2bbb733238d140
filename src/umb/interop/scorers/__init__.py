"""Peer scorers: each peer benchmark's own metric, as a plug-in with a name and a version.

Answer scorers take ``score(question, prediction_text) -> dict`` (plus ``score_many`` and
``aggregate``); retrieval scorers take ``score_ranking(question, ranked_ids, ...)``. Every
record carries ``scorer``, ``scorer_version``, ``judge_model`` and ``prompt_hash``.
Build one by name with :func:`load_peer_scorer`; :data:`PEER_SCORERS` lists them.
"""

from umb.interop.scorers._base import (
    PEER_SCORERS,
    AnswerScorer,
    RetrievalScorer,
    load_peer_scorer,
    locomo_category,
)

__all__ = [
    "PEER_SCORERS",
    "AnswerScorer",
    "RetrievalScorer",
    "load_peer_scorer",
    "locomo_category",
]
