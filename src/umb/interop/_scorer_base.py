"""What every peer scorer shares: the protocols, the score record and the category lookup."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from umb.bench._records import Question
from umb.interop.locomo._spec import CATEGORIES, FAMILY_TO_CATEGORY


@runtime_checkable
class AnswerScorer(Protocol):
    """Scores one prediction against one question's gold, the peer's way."""

    name: str
    version: str
    higher_is_better: bool

    def score(self, question: Question, prediction_text: str) -> dict[str, Any]:
        """One score record (see :func:`record`)."""
        ...

    def score_many(
        self, questions: Sequence[Question], predictions: Sequence[str]
    ) -> list[dict[str, Any]]:
        """One record per (question, prediction) pair, in order."""
        ...

    def aggregate(self, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """The peer's summary numbers over a whole set of records."""
        ...


@runtime_checkable
class RetrievalScorer(Protocol):
    """Scores one ranked list of retrieved ids against a question's evidence."""

    name: str
    version: str

    def score_ranking(
        self, question: Question, ranked_ids: Sequence[str], **options: Any
    ) -> dict[str, Any]:
        """One record of metrics at each cut-off."""
        ...

    def aggregate(self, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """Means over the records that were not skipped."""
        ...


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


def locomo_category(question: Question) -> int:
    """The LoCoMo category of a question: native when imported, else by family."""
    cat = question.meta.get("native_category") if question.meta.get("source") == "locomo" else None
    if isinstance(cat, int) and cat in CATEGORIES:
        return cat
    return FAMILY_TO_CATEGORY.get(question.family, 4)


def mean(values: Sequence[float]) -> float | None:
    """Arithmetic mean; None for no values."""
    return sum(values) / len(values) if values else None
