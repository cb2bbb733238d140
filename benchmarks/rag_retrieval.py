"""Turn-level retrieval recall@k of the RAG rankers on one benchmark, with every ablation row.

Usage::

    python benchmarks/rag_retrieval.py BENCH_DIR [--rows all|systems] [--out FILE]

``BENCH_DIR`` is a umb benchmark directory: one generated with ``umb generate`` (recall@k is
the share of a question's evidence turns among the first k ranked turns, averaged over the
questions with evidence) or LoCoMo imported with ``umb import locomo`` (LoCoMo's official
``locomo_recall`` v2 over all 1,986 questions, as ``umb eval`` reports it). Each row ranks the
turns with the same code as ``umb eval --granularity turn --top-k 50`` and prints R@5/10/25/50
and its index and query cost. No model is downloaded: the dense side is wordllama's bundled
weights.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from umb.bench import Benchmark, Dialogue, Question
from umb.interop.locomo._scorers import LoCoMoRecall
from umb.memory import MemoryConfig
from umb.memory import _rank_options as ro
from umb.memory._history import asked_after
from umb.memory._index import reciprocal_rank_fusion
from umb.memory._rag import RagMemory
from umb.memory._rag_hybrid import RagHybrid

KS = (5, 10, 25, 50)
PLAIN = ro.RankOptions(strict_lexical=True)
"""BM25 over ``Speaker: text`` turns, as ``rag_bm25`` ranked before the signals below."""
PLAIN_DENSE = ro.RankOptions(lexical=0.0, dense=1.0)

Ranker = ro.RankOptions | tuple[ro.RankOptions, ...]
"""One ranking, or a tuple of them fused by reciprocal rank (the old ``rag_hybrid``)."""

SYSTEMS: dict[str, Ranker] = {
    "rag_bm25": ro.BM25,
    "rag_dense": ro.DENSE,
    "rag_hybrid": ro.HYBRID,
}
OLD: dict[str, Ranker] = {
    "old rag_bm25: BM25 over `Speaker: text` turns": PLAIN,
    "old rag_dense: wordllama cosine": PLAIN_DENSE,
    "old rag_hybrid: RRF (k=60) of the two": (PLAIN, PLAIN_DENSE),
}


def ablations() -> dict[str, Ranker]:
    """Each signal added alone to plain BM25, then each removed from the shipped hybrid."""
    bm25, hybrid = ro.BM25, ro.HYBRID
    return {
        "BM25 + every neighbour's score": PLAIN.but(neighbours=bm25.neighbours),
        "BM25 + neighbouring questions' score": PLAIN.but(
            neighbours=bm25.neighbours, question_neighbours=True
        ),
        "BM25 + session month/year indexed": PLAIN.but(dated=True),
        "BM25 + query period bonus": PLAIN.but(temporal=bm25.temporal or 1.0),
        "BM25 + RM3 feedback": PLAIN.but(
            feedback_terms=bm25.feedback_terms or 10, feedback_weight=bm25.feedback_weight or 0.3
        ),
        "rag_bm25 without the shared-term filter": bm25.but(strict_lexical=False),
        "rag_bm25 without neighbours": bm25.but(neighbours=0.0),
        "rag_bm25 borrowing from every neighbour": bm25.but(question_neighbours=False),
        "dense + neighbouring questions' score": PLAIN_DENSE.but(
            neighbours=ro.DENSE.neighbours, question_neighbours=True
        ),
        "rag_dense without neighbours": ro.DENSE.but(neighbours=0.0),
        "rag_hybrid without dense": hybrid.but(dense=0.0),
        "rag_hybrid without neighbours": hybrid.but(neighbours=0.0),
        "rag_hybrid without month/year": hybrid.but(dated=False),
        "rag_hybrid without period bonus": hybrid.but(temporal=0.0),
        "rag_hybrid without feedback": hybrid.but(feedback_terms=0),
    }


@dataclass
class Row:
    """One ranker's recall@k (percent) and cost."""

    name: str
    recall: dict[int, float]
    index_s: float
    query_s: float
    turns: int
    questions: int


def build(dialogue: Dialogue, options: ro.RankOptions) -> RagMemory:
    """A turn-level RAG system with ``options``, fed every session of ``dialogue``."""
    system = RagHybrid(MemoryConfig(top_k=max(KS), granularity="turn"), options=options)

    async def feed() -> None:
        for session in dialogue.sessions:
            await system.ingest(session)

    asyncio.run(feed())
    return system


def turn_ids(system: RagMemory, positions: Sequence[int]) -> list[str]:
    """The turn ids of ranked chunk positions (turn granularity: one turn each)."""
    chunks = [system.chunks[i] for i in positions]
    return [system.log.turn(c.session_position, c.turn_positions[0]).id for c in chunks]


def dialogue_rankings(
    dialogue: Dialogue, questions: Sequence[Question], ranker: Ranker
) -> tuple[dict[str, list[str]], float, float, int]:
    """Ranked turn ids (the first 50) of each question, index and query seconds, turns."""
    started = time.perf_counter()
    parts = [build(dialogue, o) for o in (ranker if isinstance(ranker, tuple) else (ranker,))]
    everything = np.ones(len(parts[0].chunks), dtype=np.bool_)
    for part in parts:
        part.rank("index", everything)  # the indexes build lazily, at the first query
    index_s = time.perf_counter() - started
    started = time.perf_counter()
    out = {}
    for q in questions:
        allowed = np.array(
            [asked_after(s.started_at, q.asked_at) for s in dialogue.sessions
             for _ in s.turns], dtype=np.bool_,
        )  # fmt: skip
        lists = [p.rank(q.query, allowed) for p in parts]
        best = lists[0] if len(lists) == 1 else reciprocal_rank_fusion(lists)
        out[q.id] = turn_ids(parts[0], best[: max(KS)])
    return out, index_s, time.perf_counter() - started, len(parts[0].chunks)


def recall(bench: Benchmark, ranked: dict[str, list[str]]) -> dict[int, float]:
    """Recall@k in percent: LoCoMo's official metric on LoCoMo, evidence share elsewhere."""
    questions = bench.questions
    if questions and questions[0].meta.get("source") == "locomo":
        scorer = LoCoMoRecall()
        records: list[dict[str, Any]] = [
            scorer.score_ranking(q, ranked[q.id], ks=KS) for q in questions
        ]
        summary = scorer.aggregate(records)
        return {k: 100 * float(summary[f"recall@{k}"]) for k in KS}
    with_evidence = [q for q in questions if q.evidence.turn_ids]
    out = {}
    for k in KS:
        shares = [
            len(set(q.evidence.turn_ids) & set(ranked[q.id][:k])) / len(set(q.evidence.turn_ids))
            for q in with_evidence
        ]
        out[k] = 100 * sum(shares) / max(1, len(shares))
    return out


def measure(bench: Benchmark, name: str, ranker: Ranker) -> Row:
    """One row: every question of ``bench`` ranked by ``ranker``."""
    by_dialogue: dict[str, list[Question]] = {}
    for q in bench.questions:
        by_dialogue.setdefault(q.dialogue_id, []).append(q)
    ranked: dict[str, list[str]] = {}
    index_s = query_s = 0.0
    turns = 0
    for dialogue in bench.iter_dialogues():
        got, i_s, q_s, n = dialogue_rankings(dialogue, by_dialogue.get(dialogue.id, []), ranker)
        ranked.update(got)
        index_s, query_s, turns = index_s + i_s, query_s + q_s, turns + n
    return Row(name, recall(bench, ranked), index_s, query_s, turns, len(ranked))


def table(rows: Sequence[Row]) -> str:
    """The rows as a Markdown table."""
    lines = [
        "| ranker | R@5 | R@10 | R@25 | R@50 | index s / 1k turns | query ms |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        cells = " | ".join(f"{r.recall[k]:.1f}" for k in KS)
        per_1k = 1000 * r.index_s / max(1, r.turns)
        per_q = 1000 * r.query_s / max(1, r.questions)
        lines.append(f"| {r.name} | {cells} | {per_1k:.3f} | {per_q:.2f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bench", type=Path, help="a umb benchmark directory")
    parser.add_argument("--rows", choices=("all", "systems"), default="all")
    parser.add_argument("--only", default="", help="comma-separated row names to run")
    parser.add_argument("--out", type=Path, help="also write the table here")
    opts = parser.parse_args()
    bench = Benchmark.open(opts.bench)
    rankers: dict[str, Ranker] = dict(SYSTEMS)
    if opts.rows == "all":
        rankers |= OLD | ablations()
    if opts.only:
        rankers = {n: r for n, r in rankers.items() if n in opts.only.split(",")}
    rows = []
    for name, ranker in rankers.items():
        rows.append(measure(bench, name, ranker))
        print(table(rows[-1:]).splitlines()[-1], flush=True)
    text = f"{len(bench.questions)} questions in {opts.bench.name}\n\n{table(rows)}\n"
    print("\n" + text)
    if opts.out:
        opts.out.parent.mkdir(parents=True, exist_ok=True)
        opts.out.write_text(text)


if __name__ == "__main__":
    main()
