"""The peers' metric classes as :class:`~umb.scoring._scorer.Scorer` s, and the one builder.

``build_scorer(name)`` gives every scorer ``umb eval`` and ``umb score`` use: umb's family rules
(:class:`~umb.scoring._scorer.RuleScoring`), a peer answer metric or judge (:class:`PeerScoring`)
or a peer retrieval metric (:class:`RetrievalScoring`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from umb._errors import ConfigError
from umb._registry import did_you_mean
from umb.bench import Question
from umb.models import ModelAPI
from umb.scoring._judge import Judge
from umb.scoring._parsing import Policy
from umb.scoring._peer import (
    JUDGE_SCORERS,
    NATIVE_SCORER,
    PEER_SCORERS,
    answer_scorer_names,
    build_peer_scorer,
    load_retrieval_metric,
    retrieval_scorer_names,
)
from umb.scoring._record import Score
from umb.scoring._scorer import Prediction, Reads, RuleScoring, Scorer


def _score(record: dict[str, Any]) -> Score:
    """A peer record as a :class:`Score` (the record is its details)."""
    value = record.get("score")
    return Score(
        None if value is None else float(value),
        str(record["scorer"]),
        str(record["scorer_version"]),
        record,
    )


class PeerScoring:
    """A peer answer metric or judge as a :class:`~umb.scoring._scorer.Scorer`.

    Args:
        name: A peer answer scorer (see :func:`answer_scorer_names`).
        judge: The judge model, for judge scorers (a spec string only to aggregate).
    """

    reads: Reads = "answer_text"

    def __init__(
        self, name: str, judge: ModelAPI | str | None = None, templates: object | None = None
    ) -> None:
        self.name = name
        self.scorer = build_peer_scorer(name, judge, templates)
        self.version = str(self.scorer.version)
        self.higher_is_better = bool(self.scorer.higher_is_better)

    async def score_many(self, predictions: Sequence[Prediction]) -> list[Score]:
        """Score the answered predictions in one batch; the others get :meth:`failed`."""
        answered = [p for p in predictions if p.answer is not None]
        questions = [p.question for p in answered]
        texts = [str(p.answer) for p in answered]
        batch = getattr(self.scorer, "score_batch", None)
        if batch is not None:
            records = list(await batch(questions, texts))
        else:
            records = self.scorer.score_many(questions, texts)
        done = iter(records)
        return [
            _score(dict(next(done)))
            if p.answer is not None
            else _score(self.failed(p.question, p.failure or "no answer"))
            for p in predictions
        ]

    def failed(self, question: Question, reason: str) -> dict[str, Any]:
        """The record of a reply that gave no answer (invalid JSON, failed call): 0, as in umb.

        Items the peer never scores (Mem0's category 5) stay skipped; a judge is not asked.
        """
        if hasattr(self.scorer, "failed_record"):
            out = dict(self.scorer.failed_record(question))
        else:
            out = dict(self.scorer.score(question, ""))
            if out.get("score") is not None:
                out["score"] = 0.0
        out["reason"] = reason
        return out

    def aggregate(self, scores: Sequence[Score]) -> dict[str, Any]:
        """The peer's own summary of the records behind ``scores``."""
        return dict(self.scorer.aggregate([s.details for s in scores]))


_NO_RANKING: Final = "no retrieved ids given"


class RetrievalScoring:
    """A peer retrieval metric as a :class:`~umb.scoring._scorer.Scorer` over ``retrieved``."""

    reads: Reads = "retrieved"
    higher_is_better = True

    def __init__(self, name: str) -> None:
        self.name = name
        self.metric = load_retrieval_metric(name)
        self.version = str(self.metric.version)

    async def score_many(self, predictions: Sequence[Prediction]) -> list[Score]:
        """Score each ranking; a prediction without ``retrieved`` is counted, not scored."""
        out = []
        for p in predictions:
            if p.retrieved is None:
                details: dict[str, Any] = {"scorer": self.name, "scorer_version": self.version}
                details |= {"question_id": p.question.id, "score": None, "skipped": True}
                out.append(_score({**details, "skip_reason": _NO_RANKING}))
            else:
                # A metric with levels (LongMemEval) is told the unit; LoCoMo's reads the ids.
                levels = getattr(self.metric, "levels", ())
                options = {"level": p.unit} if p.unit in levels else {}
                record = self.metric.score_ranking(p.question, list(p.retrieved), **options)
                out.append(_score(record))
        return out

    def aggregate(self, scores: Sequence[Score]) -> dict[str, Any]:
        """The peer's own summary over the rankings that were given."""
        given = [s.details for s in scores if s.details.get("skip_reason") != _NO_RANKING]
        out = dict(self.metric.aggregate(given))
        out["n_without_ranking"] = len(scores) - len(given)
        return out


def build_scorer(
    name: str,
    *,
    judge_model: ModelAPI | str | None = None,
    judge: Judge | None = None,
    policy: Policy = "strict",
    templates: object | None = None,
) -> Scorer:
    """The :class:`~umb.scoring._scorer.Scorer` named ``name``.

    Args:
        name: ``umb``, a peer answer scorer or judge, or a peer retrieval metric.
        judge_model: The model a peer judge grades with.
        judge: umb's free-text judge, for ``umb`` only.
        policy: How ``umb`` parses answer text.
        templates: A peer judge's prompt set from the user (default: umb's wording).
    """
    if name == NATIVE_SCORER:
        return RuleScoring(policy=policy, judge=judge)
    if name in retrieval_scorer_names():
        return RetrievalScoring(name)
    if name not in PEER_SCORERS:
        names = (*answer_scorer_names(), *retrieval_scorer_names())
        raise ConfigError(
            f"unknown scorer {name!r}{did_you_mean(name, names)} (known: {', '.join(names)})"
        )
    return PeerScoring(name, judge_model, templates if name in JUDGE_SCORERS else None)
