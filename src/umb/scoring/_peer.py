"""Choosing a run's scorer: umb's own family rules, or a peer benchmark's answer scorer.

``umb eval --scorer NAME`` takes ``umb`` (the default) or an answer scorer of
:data:`PEER_SCORERS`, which collects every registered peer's scorers (:data:`umb._peer.PEERS`).
The retrieval scorers there are not answer scorers: their metrics are computed for every record
of an imported benchmark whatever the scorer (:mod:`umb.scoring._retrieval`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Protocol, runtime_checkable

from umb._errors import ConfigError
from umb._peer import PEERS
from umb._registry import Registry, did_you_mean
from umb.bench import Question
from umb.models._api import GenerateRequest, GenerateResult, ModelAPI
from umb.scoring._judge import Judge
from umb.scoring._parsing import Policy
from umb.scoring._record import Score
from umb.scoring._scorer import Prediction, Reads, RuleScoring, Scorer

NATIVE_SCORER: Final = "umb"
JUDGE_SCORERS: Final = frozenset({"longmemeval_judge", "mem0_judge"})
"""Peer scorers that grade with the ``--judge`` model."""


@runtime_checkable
class PeerAnswerMetric(Protocol):
    """A peer's answer metric class: one record (a dict) per prediction, the peer's way.

    Judges add ``async score_batch(questions, predictions)`` and ``failed_record(question)``.
    """

    name: str
    version: str
    higher_is_better: bool

    def score(self, question: Question, prediction_text: str) -> dict[str, Any]:
        """One record: ``scorer``, ``scorer_version``, ``score``, ``skipped``, details."""
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
class PeerRetrievalMetric(Protocol):
    """A peer's retrieval metric class: one record per ranked list of retrieved ids."""

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


PeerMetric = PeerAnswerMetric | PeerRetrievalMetric


def _fill_from_peers(registry: Registry[type]) -> None:
    for peer in PEERS.values():
        for name, target in peer.scorers.items():
            registry.add_lazy(name, target)


def _is_class(name: str, obj: object) -> type:
    if not isinstance(obj, type):
        raise TypeError(f"peer scorer {name!r} is not a class: {obj!r}")
    return obj


PEER_SCORERS: Registry[type] = Registry(
    "peer scorer", "scorer", check=_is_class, fill=_fill_from_peers
)
"""Scorer name -> class, from every peer's ``scorers`` (imported on first use)."""


def load_peer_scorer(name: str, **kwargs: Any) -> PeerMetric:
    """Build the registered peer metric ``name`` (kwargs go to its constructor).

    Raises:
        ConfigError: For an unknown name, suggesting the closest registered one.
    """
    metric = PEER_SCORERS.get_or_raise(name)(**kwargs)
    if not isinstance(metric, PeerAnswerMetric | PeerRetrievalMetric):
        raise TypeError(f"peer scorer {name!r} has neither score nor score_ranking: {metric!r}")
    return metric


def load_retrieval_metric(name: str) -> PeerRetrievalMetric:
    """The registered peer retrieval metric ``name``."""
    metric = load_peer_scorer(name)
    if not isinstance(metric, PeerRetrievalMetric):
        raise ConfigError(f"{name} is an answer scorer, not a retrieval metric")
    return metric


def retrieval_scorer_names() -> tuple[str, ...]:
    """The registered peer retrieval metrics."""
    return tuple(n for n, cls in PEER_SCORERS.items() if hasattr(cls, "score_ranking"))


def answer_scorer_names() -> tuple[str, ...]:
    """Every name ``--scorer`` accepts: ``umb`` first, then the peer answer scorers."""
    peers = [n for n, cls in PEER_SCORERS.items() if not hasattr(cls, "score_ranking")]
    return (NATIVE_SCORER, *peers)


def check_scorer(name: str, judge: str | None) -> None:
    """Refuse an unknown scorer, a retrieval scorer, or a judge the scorer would not use.

    Raises:
        ConfigError: Naming the problem (with a "did you mean" for a typo).
    """
    if name == NATIVE_SCORER:
        return
    names = answer_scorer_names()
    if name in PEER_SCORERS and name not in names:
        raise ConfigError(
            f"{name} is a retrieval metric, not an answer scorer; umb eval computes it for every "
            f"record of an imported benchmark. Pick --scorer from: {', '.join(names)}"
        )
    if name not in names:
        raise ConfigError(
            f"unknown scorer {name!r}{did_you_mean(name, names)} (known: {', '.join(names)})"
        )
    if name in JUDGE_SCORERS and not judge:
        raise ConfigError(f"--scorer {name} grades with a judge model: give --judge")
    if judge and name != NATIVE_SCORER and name not in JUDGE_SCORERS:
        raise ConfigError(f"--scorer {name} uses no judge; drop --judge")


class _SpecOnly:
    """Stands in for the judge model when only its name is needed (aggregating records)."""

    def __init__(self, spec: str) -> None:
        self.spec = spec

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResult]:
        raise ConfigError("this judge stand-in only names the model; it cannot be asked")


def build_peer_scorer(
    name: str, judge: ModelAPI | str | None = None, templates: object | None = None
) -> PeerAnswerMetric:
    """An instance of the peer answer metric ``name``; judge scorers get ``judge``.

    ``judge`` may be a model spec string when the scorer is only needed for ``aggregate``;
    ``templates`` is a judge's prompt set from the user (``umb.interop._judge_templates``).
    """
    cls = PEER_SCORERS.get_or_raise(name)
    if name in JUDGE_SCORERS:
        if judge is None:
            raise ConfigError(f"--scorer {name} grades with a judge model: give --judge")
        model = _SpecOnly(judge) if isinstance(judge, str) else judge
        metric = cls(model, templates) if templates is not None else cls(model)
    else:
        metric = cls()
    if not isinstance(metric, PeerAnswerMetric):
        raise ConfigError(f"{name} is a retrieval metric, not an answer scorer")
    return metric


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


def peer_scorer_header(name: str) -> dict[str, Any]:
    """What a run's header pins about peer scorer ``name``: version and scorer-specific fields."""
    cls = PEER_SCORERS.get_or_raise(name)
    version = getattr(cls, "version")  # noqa: B009 - every peer scorer class declares it
    return {"name": name, "version": str(version), **getattr(cls, "header_fields", {})}
