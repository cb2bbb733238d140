"""Retrieval metrics of each record of an imported benchmark, with the peer's own definitions.

A question of a peer that declares ``PEER.retrieval`` gets that peer's metrics: LoCoMo its RAG
recall (``locomo_recall``: the share of the released evidence ids among the retrieved turns),
LongMemEval its ``recall_any@k``, ``recall_all@k`` and ``ndcg_any@k``
(``longmemeval_retrieval``). Other questions get none.

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
from typing import Any

from umb._peer import PEERS
from umb._registry import load_target
from umb.bench import Question
from umb.scoring._peer import load_retrieval_metric

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
        question: The question (its ``meta["source"]`` names the peer, whose ``retrieval``
            computes the metrics).
        context_turns: Every turn id the context came from.
        ranking: The system's units best first, or None when it does not rank.
        top_k: The memory systems' ``top_k``: no cut-off above it is reported.
        granularity: The unit of ``ranking`` (``turn``, ``round``, ``session``).
    """
    peer = PEERS.get(str(question.meta.get("source")))
    if peer is None or peer.retrieval is None:
        return None
    metrics = load_target(peer.retrieval)
    out: dict[str, Any] = metrics(question, context_turns, ranking, top_k, granularity)  # type: ignore[operator]
    out["unit"] = granularity if ranking is not None else "context"
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
