"""Retrieval metrics of each record of an imported benchmark, with the peer's own definitions.

LoCoMo questions get LoCoMo's RAG recall (``locomo_recall``: the share of the released evidence
ids among the retrieved turns); LongMemEval questions get its ``recall_any@k``,
``recall_all@k`` and ``ndcg_any@k`` (``longmemeval_retrieval``). Other questions get none.

``@k`` needs a ranking: a RAG system reports its units best first
(``RetrievedContext.meta["ranking"]``, unit id and turn ids), and ``k`` counts those units, so
with ``--granularity turn`` it is the peers' turn-level recall@k. Only cut-offs up to the
system's ``top_k`` are reported. Every system, ranked or not, also gets the metric over all it
handed over (LoCoMo ``recall``; LongMemEval ``…@all``), e.g. how much evidence a full history
kept after truncation.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any, Final

from umb.bench import Question
from umb.scoring._peer import load_retrieval_metric

LOCOMO_KS: Final = (5, 10, 25, 50)
LONGMEMEVAL_KS: Final = (1, 3, 5, 10, 30, 50)

Ranking = Sequence[tuple[str, Sequence[str]]]
"""Retrieved units best first: (unit id, the turn ids it holds)."""


def retrieval_record(
    question: Question,
    context_turns: Sequence[str],
    ranking: Ranking | None,
    *,
    top_k: int,
    granularity: str | None = None,
) -> dict[str, Any] | None:
    """The peer retrieval metrics of one answered question, or None for other benchmarks.

    Args:
        question: The question (its ``meta["source"]`` picks the metric).
        context_turns: Every turn id the context came from.
        ranking: The system's units best first, or None when it does not rank.
        top_k: The memory systems' ``top_k``: no cut-off above it is reported.
        granularity: The unit of ``ranking`` (``turn``, ``round``, ``session``).
    """
    source = question.meta.get("source")
    if source == "locomo":
        out = _locomo(question, context_turns, ranking, top_k)
    elif source == "longmemeval":
        out = _longmemeval(question, context_turns, ranking, top_k, granularity)
    else:
        return None
    out["unit"] = granularity if ranking is not None else "context"
    return out


def _locomo(
    question: Question, turns: Sequence[str], ranking: Ranking | None, top_k: int
) -> dict[str, Any]:
    scorer = load_retrieval_metric("locomo_recall")
    out = scorer.score_ranking(question, list(turns), ks=())
    if ranking is not None:
        for k in (k for k in LOCOMO_KS if k <= top_k):
            flat = [t for _, unit_turns in ranking[:k] for t in unit_turns]
            out[f"recall@{k}"] = scorer.score_ranking(question, flat, ks=())["recall"]
    return out


def _longmemeval(
    question: Question,
    turns: Sequence[str],
    ranking: Ranking | None,
    top_k: int,
    granularity: str | None,
) -> dict[str, Any]:
    scorer = load_retrieval_metric("longmemeval_retrieval")
    if ranking is not None:
        level = "session" if granularity == "session" else "turn"
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


def aggregate_retrieval(records: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """Per retrieval scorer, the peer's ``aggregate`` over the records that have its metrics."""
    by_scorer: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        block = r.get("retrieval")
        if isinstance(block, dict) and block.get("scorer"):
            by_scorer[str(block["scorer"])].append(block)
    if not by_scorer:
        return None
    out: dict[str, Any] = {}
    for name, blocks in sorted(by_scorer.items()):
        summary = load_retrieval_metric(name).aggregate(blocks)
        summary["unit"] = blocks[0].get("unit")
        out[name] = summary
    return out
