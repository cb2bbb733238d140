"""Offline recipes that follow the timeline: KU (value changes), MSR (chains) and ES (periods)."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any, Final

import numpy as np

from umb._dates import resolve_date
from umb.models._offline_reader import NOT_MENTIONED, Reader
from umb.models._offline_spans import best_span, cue_tail, split_change

_TRAILING_NOW: Final = re.compile(
    r"[\s,]+(?:for now|now|these days|at the moment|anymore)$", re.IGNORECASE
)
_MAX_CHANGES: Final = 12
_MAX_STEPS: Final = 4
_LOOK_AHEAD: Final = 60
_LINK_TERMS: Final = 5
_TIME_WORDS: Final = frozenset(
    "am pm ago yesterday today tonight tomorrow last next morning afternoon evening week weeks "
    "month months year years one two three four five six seven eight nine ten eleven twelve "
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday st nd rd th suppose".split()
)
_MAX_POINTS: Final = 6


def _clean_state(clause: str) -> str:
    return _TRAILING_NOW.sub("", clause.strip().rstrip(".!?")).strip()


def _key_value(r: Reader, clause: str) -> str:
    """The part of a state clause worth searching for later ("Northwind Labs", "knitting")."""
    clause = _clean_state(clause)
    return best_span(clause, "name", r.exclude) or cue_tail(clause) or clause


def _replaced(r: Reader, value: str, after: int) -> int | None:
    """The first sentence after ``after`` that names ``value`` as the old value of a change."""
    needle = value.lower().strip()
    if len(needle) < 3:
        return None
    pos = np.fromiter((m.start() for m in re.finditer(re.escape(needle), r.ix.lower)), np.int64)
    idx = np.unique(np.searchsorted(r.ix.starts, pos, side="right") - 1)
    for i in idx[(idx > after)]:
        if r.ix.valid[i] and needle in split_change(r.text(int(i)))[1].lower():
            return int(i)
    return None


def answer_ku(r: Reader) -> dict[str, Any]:
    """Latest value: the latest matching statement, then every later change away from it."""
    top, scores, _ = r.rank(r.query, k=10)
    if not top:
        return {"latest_state": NOT_MENTIONED, "as_of_time": "", "deprecated_state": ""}
    strong = [i for i in top if scores[i] >= 0.5 * scores[top[0]]] or top[:1]
    latest = r.in_order(strong)[-1]
    current, old = split_change(r.text(latest))
    previous = _clean_state(old)
    for _ in range(_MAX_CHANGES):
        nxt = _replaced(r, _key_value(r, current), latest)
        if nxt is None:
            break
        previous = _clean_state(current)
        latest = nxt
        current = split_change(r.text(nxt))[0]
    return {
        "latest_state": _clean_state(current),
        "as_of_time": r.event_date(latest).isoformat(),
        "deprecated_state": previous,
    }


def _link_terms(r: Reader, i: int) -> set[str]:
    """Words that can tie a step to the next one: no numbers, no clock or date words."""
    return {t for t in r.terms(r.text(i)) if not t.isdigit() and t not in _TIME_WORDS}


def answer_msr(r: Reader) -> dict[str, Any]:
    """A chain: the best dated sentence for the question, then, step by step, the later event
    sharing the most words with the step before it (else simply the next event)."""
    top, _, _ = r.rank(r.query, k=10, smooth=False)
    if not top:
        return {"event_chain": [], "final_outcome": NOT_MENTIONED}
    ix = r.ix
    events = ix.dated() & ~ix.questions()
    steps = [next((i for i in top if events[i]), top[0])]
    used = _link_terms(r, steps[0])
    lines = {int(ix.line[steps[0]])}
    while len(steps) < _MAX_STEPS:
        prev = steps[-1]
        # The rarest few words carry the link; common ones only cost time.
        link = sorted(_link_terms(r, prev), key=lambda t: (len(ix.hits(t)), t))[:_LINK_TERMS]
        scores, _ = ix.score(link)
        later = np.flatnonzero(events & (ix.starts > ix.starts[prev]))
        later = later[np.lexsort((later, -scores[later]))][:_LOOK_AHEAD]
        prev_day = r.event_date(prev)
        picked = None
        for i in (int(x) for x in later):
            # A retelling of an earlier step adds no new words, and a chain runs forward in time.
            terms = _link_terms(r, i)
            if int(ix.line[i]) not in lines and terms - used and r.event_date(i) >= prev_day:
                picked = i
                break
        if picked is None:
            break
        steps.append(picked)
        lines.add(int(ix.line[picked]))
        used |= _link_terms(r, picked)
    chain = [r.text(i) for i in steps]
    return {"event_chain": chain, "final_outcome": chain[-1]}


def _event_text(r: Reader, i: int, expression: str) -> str:
    """The sentence, or the one before it when it only dates it ("That was on March 3rd.")."""
    text = r.text(i)
    rest = text.replace(expression, " ")
    if len(re.findall(r"[A-Za-z]+", rest)) <= 4 and i > 0 and r.ix.line[i - 1] == r.ix.line[i]:
        return f"{r.text(i - 1)} {text}"
    return text


def answer_es(r: Reader) -> dict[str, Any]:
    """Turning points: dated sentences whose event falls in the period, in time order."""
    ix = r.ix
    said = ix.day
    if r.period is not None:
        start, end = r.period
    else:
        known = said[ix.valid & (said > 0)]
        if not len(known):
            return {"time_span": "", "key_turning_points": [], "summary": NOT_MENTIONED}
        start, end = date.fromordinal(int(known.min())), date.fromordinal(int(known.max()))
    hi = (end + timedelta(days=45)).toordinal()
    candidates = np.flatnonzero(ix.dated() & (said >= start.toordinal()) & (said <= hi))
    events: list[tuple[date, int, str]] = []
    seen: list[set[str]] = []
    for i in candidates:
        text = r.text(int(i))
        if text.endswith("?"):
            continue
        when, expression = resolve_date(text, ix.said_on(int(i)) or r.asked_on)
        if expression is None or not start <= when <= end:
            continue
        text = _event_text(r, int(i), expression)
        words = set(r.terms(text))
        if any(len(words & s) >= 0.6 * max(len(words), 1) for s in seen):
            continue
        seen.append(words)
        events.append((when, int(i), text))
    events.sort()
    points = [t for _, _, t in events[:_MAX_POINTS]]
    return {
        "time_span": f"{start.isoformat()} to {end.isoformat()}",
        "key_turning_points": points,
        "summary": " ".join(points[:3]) or NOT_MENTIONED,
    }
