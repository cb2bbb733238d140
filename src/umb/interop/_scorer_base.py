"""What every peer scorer shares: the shapes of its classes, its record and the category lookup.

Every peer metric is used through :class:`umb.scoring.Scorer` (adapters in
:mod:`umb.scoring._peer`); the classes here keep the peers' own record shape.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from umb.bench import Question
from umb.interop.locomo._spec import CATEGORIES, FAMILY_TO_CATEGORY
from umb.scoring import PeerAnswerMetric, PeerRetrievalMetric

AnswerScorer = PeerAnswerMetric
"""The shape of a peer's answer metric class (:class:`umb.scoring.PeerAnswerMetric`)."""
RetrievalScorer = PeerRetrievalMetric
"""The shape of a peer's retrieval metric class (:class:`umb.scoring.PeerRetrievalMetric`)."""


def record(
    scorer: Any,
    question: Question,
    score: float | None,
    *,
    judge_model: str | None = None,
    prompt_hash: str | None = None,
    skipped: str | None = None,
    **details: Any,
) -> dict[str, Any]:
    """A score record: scorer name and version, judge model and prompt hash, the score.

    ``score`` is None when the item is skipped (``skipped`` says why) or the judge failed.
    """
    out: dict[str, Any] = {
        "scorer": scorer.name,
        "scorer_version": scorer.version,
        "question_id": question.id,
        "score": score,
        "skipped": skipped is not None,
        "judge_model": judge_model,
        "prompt_hash": prompt_hash,
    }
    if skipped is not None:
        out["skip_reason"] = skipped
    out.update(details)
    return out


score_record = record
"""The name :mod:`umb.interop` exports :func:`record` under."""


def locomo_category(question: Question) -> int:
    """The LoCoMo category of a question: native when imported, else by family."""
    cat = question.meta.get("native_category") if question.meta.get("source") == "locomo" else None
    if isinstance(cat, int) and cat in CATEGORIES:
        return cat
    return FAMILY_TO_CATEGORY.get(question.family, 4)


def mean(values: Sequence[float]) -> float | None:
    """Arithmetic mean; None for no values."""
    return sum(values) / len(values) if values else None


def scores_by_category(records: Sequence[dict[str, Any]]) -> dict[int, list[float]]:
    """The scored values of ``records`` per native ``category``, in record order."""
    out: dict[int, list[float]] = defaultdict(list)
    for r in records:
        if r["score"] is not None:
            out[int(r["category"])].append(float(r["score"]))
    return out
