"""The toy peer's own metric: exact match after lower-casing and trimming."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from umb import Question
from umb.interop import score_record


class ToyExact:
    """1 when the prediction equals the gold answer (case and surrounding space ignored)."""

    name = "toy_exact"
    description = "Exact match of the normalised answer."
    version = "1"
    higher_is_better = True

    def score(self, question: Question, prediction_text: str) -> dict[str, Any]:
        """One score record."""
        gold = str(question.gold.get("answer", "")).strip().lower()
        return score_record(self, question, float(prediction_text.strip().lower() == gold))

    def score_many(
        self, questions: Sequence[Question], predictions: Sequence[str]
    ) -> list[dict[str, Any]]:
        """One record per pair, in order."""
        return [self.score(q, p) for q, p in zip(questions, predictions, strict=True)]

    def aggregate(self, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """The mean exact match."""
        scores = [r["score"] for r in records]
        return {"scorer": self.name, "exact": sum(scores) / len(scores) if scores else None}
