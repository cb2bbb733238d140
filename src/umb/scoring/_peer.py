"""Choosing a run's scorer: umb's own family rules, or a peer benchmark's answer scorer.

``umb eval --scorer NAME`` takes ``umb`` (the default) or an answer scorer of
:data:`PEER_SCORERS`, which collects every registered peer's scorers (:data:`umb._peer.PEERS`).
The retrieval scorers there are not answer scorers: their metrics are computed for every record
of an imported benchmark whatever the scorer (:mod:`umb.scoring._retrieval`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from umb._errors import ConfigError
from umb._peer import PEERS
from umb._registry import Registry, did_you_mean
from umb.bench import Question
from umb.models._api import GenerateRequest, GenerateResult, ModelAPI

NATIVE_SCORER: Final = "umb"
JUDGE_SCORERS: Final = frozenset({"longmemeval_judge"})
"""Peer scorers that grade with the ``--judge`` model."""


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


def load_peer_scorer(name: str, **kwargs: Any) -> Any:
    """Build the registered peer scorer ``name`` (kwargs go to its constructor).

    Raises:
        ConfigError: For an unknown name, suggesting the closest registered one.
    """
    return PEER_SCORERS.get_or_raise(name)(**kwargs)


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


def build_peer_scorer(name: str, judge: ModelAPI | str | None = None) -> Any:
    """An instance of the peer answer scorer ``name``; judge scorers get ``judge``.

    ``judge`` may be a model spec string when the scorer is only needed for ``aggregate``.
    """
    cls = PEER_SCORERS.get_or_raise(name)
    if name in JUDGE_SCORERS:
        if judge is None:
            raise ConfigError(f"--scorer {name} grades with a judge model: give --judge")
        return cls(_SpecOnly(judge) if isinstance(judge, str) else judge)
    return cls()


class PeerScoring:
    """A peer answer scorer as the runner uses it: one prediction at a time, async.

    Args:
        name: A peer answer scorer (see :func:`answer_scorer_names`).
        judge: The judge model, for judge scorers.
    """

    def __init__(self, name: str, judge: ModelAPI | None = None) -> None:
        self.name = name
        self.scorer = build_peer_scorer(name, judge)
        self.version = str(self.scorer.version)

    async def score(self, question: Question, prediction: str) -> dict[str, Any]:
        """The peer's score record of one prediction."""
        if hasattr(self.scorer, "score_batch"):
            (record,) = await self.scorer.score_batch([question], [prediction])
            return dict(record)
        return dict(self.scorer.score(question, prediction))

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


def peer_scorer_header(name: str) -> dict[str, Any]:
    """What a run's header pins about peer scorer ``name``: version and scorer-specific fields."""
    cls = PEER_SCORERS.get_or_raise(name)
    version = getattr(cls, "version")  # noqa: B009 - every peer scorer class declares it
    return {"name": name, "version": str(version), **getattr(cls, "header_fields", {})}
