"""The "list the whole period" answers to ES and MSR questions: a gaming baseline.

For an ES question, every event of the character in the year asked about; for an MSR question,
every event of the character from the chain's first step to its last; in time order, as event
summaries. A precision-aware list scorer must not give these full credit
(``benchmarks/es_msr_listing.py``, docs/scoring.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # records only as annotations: testing/ sits below every layer
    from umb.bench import Benchmark, Question


def period_listing(question: Question, events: Sequence[dict[str, Any]]) -> list[str]:
    """Every event summary of the question's character in the period it asks about."""
    own = [e for e in events if e["kind"] != "initial_state"]
    if question.family == "ES":
        start, end = str(question.gold["time_span"]).split(" to ")
    else:
        dates = [e["at"][:10] for e in own if e["id"] in question.evidence.event_ids]
        start, end = min(dates), max(dates)
    return [
        e["summary"] for e in sorted(own, key=lambda e: e["at"]) if start <= e["at"][:10] <= end
    ]


def listing_answer(question: Question, events: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The family's answer object whose list is :func:`period_listing`."""
    items = period_listing(question, events)
    if question.family == "ES":
        return {"time_span": question.gold["time_span"], "key_turning_points": items,
                "summary": "; ".join(items)}  # fmt: skip
    return {"event_chain": items, "final_outcome": items[-1] if items else ""}


def events_by_character(bench: Benchmark) -> dict[str, list[dict[str, Any]]]:
    """The world's events per character id."""
    out: dict[str, list[dict[str, Any]]] = {}
    for e in bench.world["events"]:
        for who in (e["character_id"], *e.get("participants", ())):
            out.setdefault(who, []).append(e)
    return out


def character_of(question: Question) -> str:
    """The character a question is about, from its first evidence fact id
    (``C0001-E007/C0001/F0``; a joint event's id, ``J-C0001-C0027-1``, names two)."""
    return question.evidence.fact_ids[0].split("/")[1]
