"""LongMemEval's retrieval metrics of one answered question: recall_any/all@k and ndcg_any@k."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from umb.bench import Question
from umb.interop.longmemeval._retrieval import Level, LongMemEvalRetrieval

LONGMEMEVAL_KS: Final = (1, 3, 5, 10, 30, 50)


def longmemeval_retrieval(
    question: Question,
    turns: Sequence[str],
    ranking: Sequence[tuple[str, Sequence[str]]] | None,
    top_k: int,
    granularity: str | None,
) -> dict[str, Any]:
    """At each k up to ``top_k`` over the ranked units; ``@all`` over an unranked context."""
    scorer = LongMemEvalRetrieval()
    if ranking is not None:
        level: Level = "session" if granularity == "session" else "turn"
        ks = tuple(k for k in LONGMEMEVAL_KS if k <= top_k) or (top_k,)
        ids = [unit for unit, _ in ranking]
        return dict(scorer.score_ranking(question, ids, level=level, ks=ks))
    # Unranked: one cut-off at everything handed over, named @all; NDCG needs an order, so none.
    n = max(len(turns), 1)
    raw = scorer.score_ranking(question, list(turns), level="turn", ks=(n,))
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if "@" not in key:
            out[key] = value
        elif "ndcg" not in key:
            out[key.replace(f"@{n}", "@all")] = value
    return out
