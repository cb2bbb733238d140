"""Original-release task objects -> umb family codes and family gold fields.

The gold mapping follows how the release itself turned a task into its QA-SFT target
(specs/umb-release-format.md §8), so scores line up with the original's tables.
"""

from __future__ import annotations

import re
from typing import Any, Final

from umb.families import FAMILY_NAMES
from umb.interop._log import InteropLog

_ALIASES: Final[dict[str, str]] = {
    "false premise": "MA",
    "state tracking": "KU",
    "knowledge update": "KU",
    "multi-hop reasoning": "MSR",
    "temporal": "TR",
}
_ISO = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")
_DAYS = re.compile(r"\b(\d+)\s*days?\b", re.IGNORECASE)
_YEARS = re.compile(r"\b(20\d\d|19\d\d)\b")
_INCORRECT = re.compile(
    r"\b(incorrect|false|not true|wrong|mistaken|inaccurate|actually|never|did not|didn't)\b",
    re.IGNORECASE,
)
_CORRECT = re.compile(r"\b(correct|true|accurate|right)\b", re.IGNORECASE)


def task_family(task_type: str) -> str | None:
    """Canonical name, alias or code (any case) -> family code; None if unknown."""
    key = task_type.strip().lower()
    for code, name in FAMILY_NAMES.items():
        if key in (name.lower(), code.lower()):
            return code if code != "ABS" else None
    return _ALIASES.get(key)


def gold_from_task(
    code: str, task: dict[str, Any], where: str, log: InteropLog
) -> tuple[dict[str, Any], tuple[str, ...], str]:
    """The family gold fields, answer components and ``meta.kind`` of one task."""
    answer = task.get("gold_answer")
    if not isinstance(answer, str):
        log.warn("answer_not_string", where, f"gold_answer {answer!r} cast to str")
        answer = "" if answer is None else str(answer)
    comps_raw = task.get("answer_components", [])
    if not isinstance(comps_raw, list):
        log.warn("components_malformed", where, "answer_components is not a list")
        comps_raw = []
    comps = tuple(str(c) for c in comps_raw)
    if code == "IE":
        return {"answer": answer, "evidence_snippets": []}, comps, "umb_release_ie"
    if code == "TR":
        days_m = next((m for c in comps if (m := _DAYS.search(c))), None)
        dates = [d for c in comps for d in _ISO.findall(c)]
        if days_m is None or len(dates) < 2:
            log.warn("tr_fields_missing", where, "no 'N days' or two ISO dates in components")
        gold = {
            "final_answer": answer,
            "days": int(days_m.group(1)) if days_m else None,
            "start_date": dates[0] if dates else "",
            "end_date": dates[1] if len(dates) > 1 else "",
        }
        return gold, comps, "days_between"
    if code == "KU":
        old = task.get("old_state_value")
        if not isinstance(old, str) or not task.get("old_state_event_id"):
            log.warn("ku_old_state_missing", where, "KU task without old_state_value/_event_id")
        gold = {"latest_state": answer, "as_of_time": "", "deprecated_state": str(old or "")}
        return gold, comps, "attribute"
    if code == "MSR":
        return {"event_chain": list(comps), "final_outcome": answer}, comps, "causal_chain"
    if code == "ES":
        gold = {
            "time_span": _time_span(str(task.get("query", ""))),
            "key_turning_points": list(comps),
            "summary": answer,
        }
        return gold, comps, "period"
    verdict = (
        "incorrect" if _INCORRECT.search(answer) else "correct" if _CORRECT.search(answer) else ""
    )
    gold = {
        "premise_verdict": verdict,
        "premise_error": "",
        "corrected_facts": list(comps),
        "final_answer": answer,
    }
    return gold, comps, "false_premise"


def _time_span(query: str) -> str:
    """Years named in an ES query -> ``YYYY-01-01 to YYYY-12-31``; ``""`` when none."""
    years = sorted({int(y) for y in _YEARS.findall(query)})
    if not years:
        return ""
    return f"{years[0]}-01-01 to {years[-1]}-12-31"
