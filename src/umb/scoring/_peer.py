"""Choosing a run's scorer: umb's own family rules, or a peer benchmark's answer scorer.

``umb eval --scorer NAME`` takes ``umb`` (the default) or an answer scorer of
:data:`PEER_SCORERS`, which collects every registered peer's scorers (:data:`umb._peer.PEERS`).
The retrieval scorers there are not answer scorers: their metrics are computed for every record
of an imported benchmark whatever the scorer (:mod:`umb.scoring._retrieval`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence, Set
from typing import Any, Final, Protocol, runtime_checkable

from umb._errors import ConfigError
from umb._peer import PEERS
from umb._registry import Registry, did_you_mean
from umb.bench import Question
from umb.models import GenerateRequest, GenerateResult, ModelAPI

NATIVE_SCORER: Final = "umb"


@runtime_checkable
class PeerAnswerMetric(Protocol):
    """A peer's answer metric class: one record (a dict) per prediction, the peer's way.

    Judges add ``async score_batch(questions, predictions)`` and ``failed_record(question)``,
    and declare ``needs_judge = True`` (their constructor takes the judge model). A class may
    declare ``description``, its one line in the report's glossary.
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
            if not registry.has(name):
                registry.add_lazy(name, target)


def _is_class(name: str, obj: object) -> type:
    if not isinstance(obj, type):
        raise TypeError(f"peer scorer {name!r} is not a class: {obj!r}")
    return obj


PEER_SCORERS: Registry[type] = Registry(
    "peer scorer", "scorer", check=_is_class, fill=_fill_from_peers
)
"""Scorer name -> class, from every peer's ``scorers`` (imported on first use)."""


class _JudgeScorers(Set[str]):
    """The peer scorers whose class declares ``needs_judge = True``, asked of
    :data:`PEER_SCORERS` on every use (so a plug-in's judge counts as soon as it registers)."""

    def __contains__(self, name: object) -> bool:
        return (
            isinstance(name, str)
            and name in PEER_SCORERS
            and bool(getattr(PEER_SCORERS[name], "needs_judge", False))
        )

    def __iter__(self) -> Iterator[str]:
        return iter([n for n in PEER_SCORERS if n in self])

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"JUDGE_SCORERS({sorted(self)})"


JUDGE_SCORERS: Final[Set[str]] = _JudgeScorers()
"""Peer scorers that grade with the ``--judge`` model (``needs_judge`` on their class)."""


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


def peer_scorer_header(name: str) -> dict[str, Any]:
    """What a run's header pins about peer scorer ``name``: version and scorer-specific fields."""
    cls = PEER_SCORERS.get_or_raise(name)
    version = getattr(cls, "version")  # noqa: B009 - every peer scorer class declares it
    return {"name": name, "version": str(version), **getattr(cls, "header_fields", {})}
