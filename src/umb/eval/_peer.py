"""Choosing a run's scorer: umb's own family rules, or a peer benchmark's answer scorer.

``umb eval --scorer NAME`` takes ``umb`` (the default) or an answer scorer of
:data:`umb.interop.scorers.PEER_SCORERS`. The retrieval scorers there are not answer scorers:
their metrics are computed for every record of an imported benchmark whatever the scorer
(:mod:`umb.eval._retrieval`).
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Sequence
from typing import Any, Final

from umb._errors import ConfigError
from umb.bench import Question
from umb.models._api import GenerateRequest, GenerateResult, ModelAPI

NATIVE_SCORER: Final = "umb"
JUDGE_SCORERS: Final = frozenset({"longmemeval_judge"})
"""Peer scorers that grade with the ``--judge`` model."""


def _peer_class(name: str) -> Any:
    from umb.interop.scorers import PEER_SCORERS

    module, attr = PEER_SCORERS[name].split(":")
    return getattr(importlib.import_module(module), attr)


def answer_scorer_names() -> tuple[str, ...]:
    """Every name ``--scorer`` accepts: ``umb`` first, then the peer answer scorers."""
    from umb.interop.scorers import PEER_SCORERS

    peers = [n for n in PEER_SCORERS if not hasattr(_peer_class(n), "score_ranking")]
    return (NATIVE_SCORER, *peers)


def check_scorer(name: str, judge: str | None) -> None:
    """Refuse an unknown scorer, a retrieval scorer, or a judge the scorer would not use.

    Raises:
        ConfigError: Naming the problem (with a "did you mean" for a typo).
    """
    if name == NATIVE_SCORER:
        return
    from umb.interop.scorers import PEER_SCORERS

    names = answer_scorer_names()
    if name in PEER_SCORERS and name not in names:
        raise ConfigError(
            f"{name} is a retrieval metric, not an answer scorer; umb eval computes it for every "
            f"record of an imported benchmark. Pick --scorer from: {', '.join(names)}"
        )
    if name not in names:
        close = difflib.get_close_matches(name, names, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise ConfigError(f"unknown scorer {name!r}{hint} (known: {', '.join(names)})")
    if name in JUDGE_SCORERS and not judge:
        raise ConfigError(f"--scorer {name} grades with a judge model: give --judge")
    if judge and name != NATIVE_SCORER and name not in JUDGE_SCORERS:
        raise ConfigError(f"--scorer {name} uses no judge; drop --judge")


class _SpecOnly:
    """Stands in for the judge model when only its name is needed (aggregating records)."""

    def __init__(self, spec: str) -> None:
        self.spec = spec

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResult]:
        raise RuntimeError("this judge stand-in only names the model; it cannot be asked")


def build_peer_scorer(name: str, judge: ModelAPI | str | None = None) -> Any:
    """An instance of the peer answer scorer ``name``; judge scorers get ``judge``.

    ``judge`` may be a model spec string when the scorer is only needed for ``aggregate``.
    """
    cls = _peer_class(name)
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
        if self.name in JUDGE_SCORERS:
            from umb.interop.scorers._base import record
            from umb.interop.scorers.longmemeval_judge import is_abstention, question_type

            out = record(
                self.scorer,
                question,
                0.0,
                judge_model=self.scorer.judge.spec,
                question_type=question_type(question),
                abstention=is_abstention(question),
                judge_error=None,
            )
        else:
            out = dict(self.scorer.score(question, ""))
            if out.get("score") is not None:
                out["score"] = 0.0
        out["reason"] = reason
        return out


def scorer_header(name: str) -> dict[str, Any]:
    """What a run's header pins about its scorer (part of the run's identity)."""
    if name == NATIVE_SCORER:
        return {"name": NATIVE_SCORER}
    from umb.eval._profiles import PROFILE_VERSION

    out: dict[str, Any] = {
        "name": name,
        "version": str(_peer_class(name).version),
        "answer_profiles_version": PROFILE_VERSION,
    }
    if name == "longmemeval_judge":
        from umb.interop.scorers.longmemeval_judge import PROMPT_SET_HASH

        out["judge_prompt_set_hash"] = PROMPT_SET_HASH
    return out
