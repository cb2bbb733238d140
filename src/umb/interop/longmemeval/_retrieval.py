"""LongMemEval's retrieval metrics: recall_any@k, recall_all@k and ndcg_any@k.

Semantics of ``src/retrieval/eval_utils.py`` (specs/peer-benchmarks.md §3.5): binary relevance;
DCG = rel_1 + sum_{i>=2} rel_i / log2(i); the ideal DCG sorts the relevance of every corpus
item. Turn rankings are also projected to sessions: each turn id becomes its session id and k
widens until the top k rows cover k distinct sessions; the non-evidence turns of an evidence
session become a session of their own, never gold (the authors' ``noans`` renaming).
Abstention questions and questions without gold are skipped.

Gold: for imported LongMemEval questions, the native rule (user turns marked ``has_answer`` in
sessions whose id carries ``answer``), stored at import in ``meta.retrieval_gold``; for other
questions, the evidence turn and session ids. Without ``corpus_ids`` the corpus is taken to
be the ranking plus any unranked gold ids after it, which is exact for recall and for NDCG
whenever every gold id is ranked.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Final, Literal

from umb.bench import Question
from umb.interop._scorer_base import mean, record
from umb.interop.longmemeval._judge import is_abstention

Level = Literal["turn", "session"]
DEFAULT_KS = (1, 3, 5, 10, 30, 50)


def dcg(relevances: Sequence[float], k: int) -> float:
    """LongMemEval's DCG@k (the first two ranks are not discounted)."""
    rel = list(relevances)[:k]
    if not rel:
        return 0.0
    return rel[0] + sum(r / math.log2(i) for i, r in enumerate(rel[1:], start=2))


def evaluate_ranking(
    ranked: Sequence[str], gold: Sequence[str], corpus: Sequence[str], k: int
) -> tuple[float, float, float]:
    """``(recall_any, recall_all, ndcg_any)`` at k; ``ranked`` lists corpus ids best first."""
    gold_set = set(gold)
    top = set(ranked[:k])
    recall_any = float(any(g in top for g in gold_set))
    recall_all = float(all(g in top for g in gold_set))
    ideal = dcg(sorted((1.0 if c in gold_set else 0.0 for c in corpus), reverse=True), k)
    actual = dcg([1.0 if r in gold_set else 0.0 for r in ranked[:k]], k)
    return recall_any, recall_all, (actual / ideal if ideal else 0.0)


def default_session_of(question: Question) -> Callable[[str], str]:
    """How a turn id of ``question``'s benchmark names its session."""
    source = question.meta.get("source")
    if source == "longmemeval":
        return lambda tid: tid.rsplit("_", 1)[0]
    if source == "locomo":

        def locomo(tid: str) -> str:
            dialogue, dia = tid.rsplit(":", 2)[0], tid.rsplit(":", 2)[1]
            return f"{dialogue}:S{dia[1:]}"

        return locomo
    return lambda tid: tid.rsplit(":", 1)[0]


class LongMemEvalRetrieval:
    """Turn- or session-level retrieval metrics with LongMemEval's definitions."""

    name = "longmemeval_retrieval"
    description = "LongMemEval's turn- and session-level retrieval metrics (recall and NDCG at k)."
    version = "2"
    """2: turn2session projects an evidence session's non-evidence turns apart, as the authors'
    ``run_retrieval`` does (1: to the evidence session)."""
    levels: Final = ("turn", "session")
    """The units a ranking may name."""

    def gold(self, question: Question, level: Level) -> list[str]:
        """The gold ids of ``question`` at ``level``."""
        native = question.meta.get("retrieval_gold")
        if isinstance(native, dict) and level in native:
            return [str(g) for g in native[level]]
        ev = question.evidence
        return list(ev.turn_ids if level == "turn" else ev.session_ids)

    def score_ranking(
        self,
        question: Question,
        ranked_ids: Sequence[str],
        *,
        level: Level = "turn",
        corpus_ids: Sequence[str] | None = None,
        ks: Sequence[int] = DEFAULT_KS,
        session_of: Callable[[str], str] | None = None,
    ) -> dict[str, Any]:
        """Metrics of one ranking; a turn ranking also gets the projected session metrics."""
        if is_abstention(question):
            return record(self, question, None, skipped="abstention question", level=level)
        gold = self.gold(question, level)
        if not gold:
            return record(self, question, None, skipped="no gold ids", level=level)
        ranked = list(ranked_ids)
        corpus = (
            list(corpus_ids)
            if corpus_ids is not None
            else ranked + [g for g in gold if g not in set(ranked)]
        )
        metrics: dict[str, float] = {}
        for k in ks:
            any_, all_, ndcg = evaluate_ranking(ranked, gold, corpus, k)
            metrics.update(
                {
                    f"{level}/recall_any@{k}": any_,
                    f"{level}/recall_all@{k}": all_,
                    f"{level}/ndcg_any@{k}": ndcg,
                }
            )
        if level == "turn":
            project = session_of or default_session_of(question)
            metrics.update(self._projected(ranked, gold, corpus, ks, project))
        # One number for tables: recall_all@5 as LongMemEval prints it, else at the largest k.
        headline = metrics[f"{level}/recall_all@{5 if 5 in ks else max(ks)}"]
        out = record(
            self,
            question,
            headline,
            level=level,
            corpus="given" if corpus_ids is not None else "ranked+gold",
        )
        out.update(metrics)
        return out

    @staticmethod
    def _projected(
        ranked: list[str],
        gold: list[str],
        corpus: list[str],
        ks: Sequence[int],
        project: Callable[[str], str],
    ) -> dict[str, float]:
        gold_turns = set(gold)
        gold_s = list(dict.fromkeys(project(g) for g in gold))
        evidence_sessions = set(gold_s)

        def session(tid: str) -> str:
            # The authors' run_retrieval renames the other turns of an evidence session
            # (``answer`` -> ``noans``), so they project to a session that is never gold.
            sid = project(tid)
            return sid if tid in gold_turns or sid not in evidence_sessions else f"{sid}#noans"

        ranked_s = [session(r) for r in ranked]
        corpus_s = [session(c) for c in corpus]
        out: dict[str, float] = {}
        for k in ks:
            eff = k
            while eff <= len(corpus_s) and len(set(ranked_s[:eff])) < k:
                eff += 1
            any_, all_, ndcg = evaluate_ranking(ranked_s, gold_s, corpus_s, eff)
            out.update(
                {
                    f"turn2session/recall_any@{k}": any_,
                    f"turn2session/recall_all@{k}": all_,
                    f"turn2session/ndcg_any@{k}": ndcg,
                }
            )
        return out

    def aggregate(self, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """Mean of every metric over the records that were not skipped."""
        kept = [r for r in records if not r["skipped"]]
        keys = sorted({k for r in kept for k in r if "@" in k})
        return {
            "scorer": self.name,
            "scorer_version": self.version,
            "n": len(kept),
            "n_skipped": len(records) - len(kept),
            **{k: mean([float(r[k]) for r in kept if k in r]) for k in keys},
        }
