"""LoCoMo's retrieval metric of one answered question: RAG recall, over all and at each k."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from umb.bench import Question
from umb.interop.locomo._scorers import LoCoMoRecall

LOCOMO_KS: Final = (5, 10, 25, 50)


def locomo_retrieval(
    question: Question,
    turns: Sequence[str],
    ranking: Sequence[tuple[str, Sequence[str]]] | None,
    top_k: int,
    granularity: str | None = None,
) -> dict[str, Any]:
    """``recall`` over every turn handed over, and ``recall@k`` over the first k ranked units."""
    scorer = LoCoMoRecall()
    out = scorer.score_ranking(question, list(turns), ks=())
    if ranking is not None:
        for k in (k for k in LOCOMO_KS if k <= top_k):
            flat = [t for _, unit_turns in ranking[:k] for t in unit_turns]
            out[f"recall@{k}"] = scorer.score_ranking(question, flat, ks=())["recall"]
    return out
