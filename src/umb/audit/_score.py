"""Scoring baseline answers with the family rule scorers, and per-family means with 95 % CIs."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from umb.bench import Question
from umb.scoring import aggregate, score_reply


@dataclass(frozen=True, slots=True)
class Scored:
    """One baseline's score on one question."""

    question_id: str
    family: str
    value: float
    subset: bool = True
    """Whether the question counts towards the baseline's thresholded figure (first- and
    latest-mention count only questions whose attribute changed)."""


def score_answer(question: Question, answer: Mapping[str, Any] | None) -> float:
    """The family rule score of ``answer`` sent as a JSON reply; no answer scores 0."""
    text = "" if answer is None else orjson.dumps(dict(answer)).decode()
    _, score = score_reply(question, text)
    return float(score.value or 0.0)


def family_figures(scored: Iterable[Scored], *, subset_only: bool = False) -> dict[str, Any]:
    """Family -> ``{"n", "mean", "ci95"}`` in percent (bootstrap, seeded: same input, same CI)."""
    rows = [s for s in scored if s.subset or not subset_only]
    if not rows:
        return {}
    records = [
        {"system": "audit", "model": "audit", "family": s.family, "score": s.value,
         "invalid_json": False, "context_tokens": None, "latency_s": None}
        for s in rows
    ]  # fmt: skip
    group = aggregate(records)["groups"][0]
    out: dict[str, Any] = {}
    for family, entry in group["families"].items():
        ci = entry["ci95"]
        out[family] = {
            "n": entry["n"],
            "mean": _pct(entry["mean"]),
            "ci95": None if ci is None else [_pct(ci[0]), _pct(ci[1])],
        }
    return out


def _pct(x: float | None) -> float | None:
    return None if x is None else round(100 * x, 1)
