"""One interface for every scorer: umb's family rules (with or without the judge), the peers'
answer metrics and judges, and the peers' retrieval metrics.

A :class:`Scorer` takes :class:`Prediction` s (a question, what was answered, what was
retrieved) and returns one :class:`~umb.scoring.Score` each, batched and async so that judges
send one batch to their model; ``aggregate`` summarises its own scores the way its authors do.
``umb eval`` and ``umb score`` both build scorers with :func:`build_scorer`.

The peers' metric classes keep their own shapes (:class:`PeerAnswerMetric`,
:class:`PeerRetrievalMetric`, records as dicts); the adapters here are the only code that
reads those shapes, and a peer record becomes ``Score.details``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

import orjson

from umb.bench import Question
from umb.scoring._family import score_replies
from umb.scoring._judge import Judge
from umb.scoring._parsing import Policy
from umb.scoring._record import Score, get_scorer

Reads = Literal["answer_object", "answer_text", "retrieved"]
"""What a scorer reads of a prediction: umb's answer object, a free-text answer, or a ranking."""


@dataclass(frozen=True, slots=True)
class Prediction:
    """What a system produced for one question."""

    question: Question
    answer: str | dict[str, Any] | None
    """The family's answer object (or its JSON text) for umb's rules, the text for peers'
    answer metrics; None when there is no answer (``failure`` says why)."""
    retrieved: tuple[str, ...] | None = None
    """Retrieved turn or session ids, best first, for the retrieval metrics."""
    failure: str | None = None
    """Why there is no answer (``model_error``, ``invalid_json``, …): scored 0, never judged."""
    unit: Literal["turn", "session"] = "turn"
    """What the ``retrieved`` ids name."""


@runtime_checkable
class Scorer(Protocol):
    """Scores predictions one way; the shape every scorer has."""

    name: str
    version: str
    higher_is_better: bool
    reads: Reads

    async def score_many(self, predictions: Sequence[Prediction]) -> list[Score]:
        """One :class:`~umb.scoring.Score` per prediction, in order."""
        ...

    def aggregate(self, scores: Sequence[Score]) -> dict[str, Any]:
        """This scorer's own summary of its scores."""
        ...


class RuleScoring:
    """umb's family rule scorers (``umb``), optionally with the free-text judge."""

    name = "umb"
    higher_is_better = True
    reads: Reads = "answer_object"

    def __init__(self, *, policy: Policy = "strict", judge: Judge | None = None) -> None:
        self.policy: Policy = policy
        self.judge = judge
        self.version = "rules" + ("+judge" if judge else "")

    async def score_many(self, predictions: Sequence[Prediction]) -> list[Score]:
        """Parse each answer (an object is taken as its JSON text) under the policy; rule-score.

        No answer scores 0 with its ``failure`` as the reason, and is never judged.
        """
        texts = [
            p.answer if isinstance(p.answer, str) else orjson.dumps(p.answer).decode()
            for p in predictions
            if p.answer is not None
        ]
        answered = [p.question for p in predictions if p.answer is not None]
        scored = iter(await score_replies(answered, texts, policy=self.policy, judge=self.judge))
        out: list[Score] = []
        for p in predictions:
            if p.answer is None:
                rule = get_scorer(p.question.family)
                details = {"reason": p.failure or "no answer"}
                out.append(Score(0.0, rule.name, rule.version, details))
            else:
                out.append(next(scored)[1])
        return out

    def aggregate(self, scores: Sequence[Score]) -> dict[str, Any]:
        """Mean per rule scorer (one per family) and over every scored item."""
        by_rule: dict[str, list[float]] = defaultdict(list)
        for s in scores:
            if s.value is not None:
                by_rule[s.scorer].append(float(s.value))
        every = [v for vs in by_rule.values() for v in vs]
        return {
            "scorer": self.name,
            "per_rule": {k: {"n": len(v), "mean": sum(v) / len(v)} for k, v in by_rule.items()},
            "n": len(every),
            "n_unscored": len(scores) - len(every),
            "mean": sum(every) / len(every) if every else None,
        }
