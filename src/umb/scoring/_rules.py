"""Rule scorers for the value families: IE, TR, KU, MA and ABS.

Each rule compares the parsed answer with the structured gold (``question.gold``) and the
helpers in ``question.meta``; it never reads the raw reply. Details say why a value was given.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from umb.bench import Question
from umb.scoring._normalise import as_int, as_text, as_text_list, contains_value, match_value
from umb.scoring._record import RuleScorer

_ISO_DAY = re.compile(r"\A\s*(\d{4}-\d{2}-\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2})?)?\s*\Z")
_ORDER_WORD = re.compile(r"\b(before|after)\b", re.IGNORECASE)
_NOT_MENTIONED = re.compile(
    r"\b(not|never|no)\s+(?:been\s+|ever\s+)?(mentioned|mention|stated|said|discussed|"
    r"specified|recorded|available|information|record)\b"
    r"|\b(?:does|did|do)\s*(?:not|n't)\s+(?:say|mention|state|specify|contain)\b"
    r"|\bdoesn'?t\s+(?:say|mention)\b|\bunknown\b|\bunanswerable\b|\bcannot\s+be\s+(?:determined|answered)\b"
    r"|\bnot\s+in\s+the\s+(?:history|conversation)\b",
    re.IGNORECASE,
)


def _candidates(primary: Any, meta: dict[str, Any]) -> list[str]:
    return [as_text(primary), *(as_text(a) for a in meta.get("aliases", ()))]


def score_ie(question: Question, answer: dict[str, Any]) -> tuple[float | None, dict[str, Any]]:
    """1 if ``answer`` is the gold value (or an alias), or a short answer containing it."""
    prediction = as_text(answer.get("answer"))
    candidates = _candidates(question.gold.get("answer"), question.meta)
    if not any(c.strip() for c in candidates):
        return None, {"reason": "gold has no answer value"}
    matched, how = match_value(prediction, candidates)
    details: dict[str, Any] = {"prediction": prediction, "matched": matched, "how": how}
    components = [c for c in question.answer_components if c.strip()]
    if matched is None and len(components) > 1:
        # Multi-slot questions: every component must be there.
        found = [c for c in components if contains_value(prediction, c)]
        details["components_found"] = found
        if len(found) == len(components):
            details["how"] = "all_components"
            return 1.0, details
    return (1.0 if matched is not None else 0.0), details


def _as_day(value: Any) -> dt.date | None:
    if not isinstance(value, str):
        return None
    m = _ISO_DAY.match(value)
    if not m:
        return None
    try:
        return dt.date.fromisoformat(m.group(1))
    except ValueError:
        return None


def _order_words(text: str) -> set[str]:
    return {w.lower() for w in _ORDER_WORD.findall(text)}


def _tr_kind(question: Question) -> str:
    kind = question.meta.get("kind")
    if kind in ("days_between", "days_since", "same_day_order"):
        return str(kind)
    return (
        "same_day_order"
        if _order_words(as_text(question.gold.get("final_answer")))
        else "days_between"
    )


def score_tr(question: Question, answer: dict[str, Any]) -> tuple[float | None, dict[str, Any]]:
    """1 if the day count and the dates agree with the gold (see docs/scoring.md).

    Unlike the original release there is no fallback to the first number in the raw reply:
    an answer that is not valid JSON scores 0 here as in every other family.
    """
    gold = question.gold
    kind = _tr_kind(question)
    details: dict[str, Any] = {"kind": kind}
    if kind == "same_day_order":
        expected = _order_words(as_text(gold.get("final_answer")))
        said = _order_words(as_text(answer.get("final_answer")))
        details.update(expected=sorted(expected), said=sorted(said))
        if len(expected) != 1:
            return None, {**details, "reason": "gold final_answer is not 'before' or 'after'"}
        # The day must be right too, so a coin toss on the order word alone earns nothing.
        day_ok = _as_day(answer.get("start_date")) == _as_day(gold.get("start_date"))
        details["day_ok"] = day_ok
        return (1.0 if said == expected and day_ok else 0.0), details

    days = as_int(answer.get("days"))
    start, end = _as_day(answer.get("start_date")), _as_day(answer.get("end_date"))
    g_start, g_end = _as_day(gold.get("start_date")), _as_day(gold.get("end_date"))
    g_days = as_int(gold.get("days"))
    days_ok = days is not None and days == g_days
    if kind == "days_since":
        dates_ok = start is not None and start == g_start
    else:
        dates_ok = start is not None and end is not None and {start, end} == {g_start, g_end}
    details.update(
        days=days,
        gold_days=g_days,
        days_ok=days_ok,
        dates=[str(start) if start else None, str(end) if end else None],
        dates_ok=dates_ok,
    )
    return (1.0 if days_ok and dates_ok else 0.0), details


def score_ku(question: Question, answer: dict[str, Any]) -> tuple[float | None, dict[str, Any]]:
    """1 if ``latest_state`` is the current value and names no superseded value."""
    gold_latest = as_text(question.gold.get("latest_state"))
    prediction = as_text(answer.get("latest_state"))
    matched, how = match_value(prediction, _candidates(gold_latest, question.meta))
    deprecated = [as_text(v) for v in question.meta.get("deprecated_values", ())]
    if not deprecated and question.gold.get("deprecated_state"):
        deprecated = [as_text(question.gold["deprecated_state"])]
    # An old value inside the current one ("Acme" in "Acme Labs") is not a stale answer.
    deprecated = [d for d in deprecated if d.strip() and not contains_value(gold_latest, d)]
    stale = [d for d in deprecated if contains_value(prediction, d)]
    details = {"prediction": prediction, "matched": matched, "how": how, "stale_values": stale}
    return (1.0 if matched is not None and not stale else 0.0), details


def _verdict(value: Any) -> str | None:
    text = as_text(value).strip().lower()
    for verdict in ("incorrect", "correct"):
        if text.startswith(verdict):
            return verdict
    return None


def score_ma(question: Question, answer: dict[str, Any]) -> tuple[float | None, dict[str, Any]]:
    """1: right verdict, the true value stated (false premise) and the right final answer.

    0.5: right verdict with one of the other two missing; 0: wrong verdict. A true-premise control
    therefore needs its final answer, so "correct" with "not mentioned" earns only 0.5.
    """
    expected = _verdict(question.gold.get("premise_verdict"))
    said = _verdict(answer.get("premise_verdict"))
    details: dict[str, Any] = {"expected_verdict": expected, "verdict": said}
    if expected is None:
        return None, {**details, "reason": "gold premise_verdict is not correct/incorrect"}
    if said != expected:
        return 0.0, details
    gold_answer = as_text(question.gold.get("final_answer"))
    answer_ok = bool(gold_answer.strip()) and contains_value(
        as_text(answer.get("final_answer")), gold_answer
    )
    details["final_answer_ok"] = answer_ok
    if expected == "correct":
        return (1.0 if answer_ok else 0.5), details
    true_value = as_text(question.meta.get("true_value"))
    if not true_value.strip():
        return None, {**details, "reason": "meta.true_value is missing"}
    stated = "; ".join(
        [*as_text_list(answer.get("corrected_facts")), as_text(answer.get("final_answer"))]
    )
    values = [true_value, *(as_text(a) for a in question.meta.get("aliases", ()))]
    slot_ok = any(contains_value(stated, v) for v in values if v.strip())
    details["true_value_stated"] = slot_ok
    return (1.0 if slot_ok and answer_ok else 0.5), details


def _as_bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no"):
        return value.strip().lower() in ("true", "yes")
    return None


def score_abs(question: Question, answer: dict[str, Any]) -> tuple[float | None, dict[str, Any]]:
    """1 if the answer abstains: ``answerable`` false, or an answer saying it was not mentioned."""
    answerable = _as_bool(answer.get("answerable"))
    text = as_text(answer.get("answer"))
    says_absent = bool(_NOT_MENTIONED.search(text))
    details = {"answerable": answerable, "answer_says_not_mentioned": says_absent}
    return (1.0 if answerable is False or says_absent else 0.0), details


# The entries of umb.scoring.SCORERS (BUILTIN_RULES in _record.py).
IE = RuleScorer("IE", "ie_value_match", "1", score_ie)
TR = RuleScorer("TR", "tr_days_dates", "2", score_tr)
KU = RuleScorer("KU", "ku_latest_not_deprecated", "1", score_ku)
MA = RuleScorer("MA", "ma_verdict_slot_answer", "2", score_ma)
ABS = RuleScorer("ABS", "abs_abstain", "1", score_abs)
