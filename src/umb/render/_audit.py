"""Coverage audit and leak check of one written session, by exact value matching.

For every fact a session had to state, find the line that states it: the event's day in a
common written form next to the words of its summary (and the clock time where another event
shares the day), or a slot's value in any common written form. Each fact comes out ``found``
(with its line), ``unsure`` (a line says part of it: a verifier model may decide) or
``missing``. The leak check looks for values of later sessions' facts that the session cannot
know yet.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from umb.render._dates import DayMatcher, mentions_clock
from umb.render._plan import EventBrief, FactSpec, SessionPlan
from umb.render._reply import Line, merge_speakers
from umb.render._values import (
    ENDING_CUES,
    ValueMatcher,
    content_tokens,
    coverage,
    matcher,
    none_cue,
    normalise,
)

FOUND, UNSURE, MISSING = "found", "unsure", "missing"
_ENDING = re.compile(ENDING_CUES)
#: Share of an event summary's words that identifies the event in a line and its neighbours.
EVENT_COVERAGE = 0.5


@dataclass(frozen=True)
class Finding:
    """Where (and whether) a session states one fact."""

    fact_id: str
    status: str
    """``found``, ``unsure`` or ``missing``."""
    line: int | None = None
    """Index of the stating line in the session (for ``unsure``: the best candidate)."""
    how: str = ""
    """``match`` or ``verifier`` for found facts."""


class _EventCheck:
    def __init__(self, brief: EventBrief, session_day: date, self_names: Sequence[str]) -> None:
        self.brief = brief
        self.day = DayMatcher(date.fromisoformat(brief.day), session_day)
        self.tokens = content_tokens(normalise(brief.summary), drop=_words(self_names))
        self.slots = [
            m
            for f in brief.facts
            if f.kind == "slot"
            for m in [ValueMatcher(f.value, f.attribute, self_names)]
            if m.distinctive
        ]

    def _identifies(self, window: str) -> bool:
        if coverage(self.tokens, window) >= EVENT_COVERAGE:
            return True
        return any(m.match(window) == "exact" for m in self.slots)

    def find(self, norm: Sequence[str]) -> tuple[str, int | None]:
        candidate = None
        for i, text in enumerate(norm):
            if not self.day.mentions(text):
                continue
            window = " ".join(norm[max(0, i - 1) : i + 2])
            clock_ok = self.brief.clock is None or mentions_clock(window, self.brief.time)
            if self._identifies(window) and clock_ok:
                return FOUND, i
            if candidate is None and coverage(self.tokens, window) > 0:
                candidate = i
        if candidate is None:
            candidate = next(
                (i for i, t in enumerate(norm) if coverage(self.tokens, t) >= EVENT_COVERAGE), None
            )
        return (UNSURE, candidate) if candidate is not None else (MISSING, None)


class _ValueCheck:
    def __init__(self, fact: FactSpec, self_names: Sequence[str]) -> None:
        self.fact = fact
        self.value = ValueMatcher(fact.value, fact.attribute, self_names)
        self.old = (
            ValueMatcher(fact.old, fact.attribute, self_names)
            if fact.old and fact.value == "none"
            else None
        )

    def grade(self, text: str) -> str | None:
        if self.old is not None:  # a change to "none": the old value, and that it ended
            if self.old.match(text) is None:
                return None
            cue = none_cue(self.fact.attribute)
            ended = _ENDING.search(text) or (cue is not None and cue.search(text))
            return "exact" if ended else "partial"
        return self.value.match(text)

    def find(self, norm: Sequence[str], anchor: int | None) -> tuple[str, int | None]:
        grades = [self.grade(t) for t in norm]
        exact = [i for i, g in enumerate(grades) if g == "exact"]
        if exact:
            after = [i for i in exact if anchor is None or i >= anchor - 1]
            return FOUND, (after or exact)[0]
        partial = [i for i, g in enumerate(grades) if g == "partial"]
        return (UNSURE, partial[0]) if partial else (MISSING, None)


def _words(names: Sequence[str]) -> list[str]:
    return [w for n in names for w in normalise(n).split()]


class SessionAuditor:
    """Audits the lines of one session against its plan; build once, audit after each repair.

    Args:
        plan: The session's plan.
        self_names: The character's names (present in every line the character says).
    """

    def __init__(self, plan: SessionPlan, self_names: Sequence[str]) -> None:
        self.plan = plan
        day = date.fromisoformat(plan.started_at[:10])
        self.events = [(e, _EventCheck(e, day, self_names)) for e in plan.news + plan.callbacks]
        self.values = {
            f.id: _ValueCheck(f, self_names)
            for f in (*plan.profile, *(f for e in plan.news for f in e.facts))
            if f.kind != "event"
        }
        self.forbidden = [matcher(v, a) for a, v in plan.forbidden]

    def audit(self, lines: Sequence[Line]) -> dict[str, Finding]:
        """A finding for every required and optional fact of the session."""
        norm = [normalise(text) for _, text in lines]
        out: dict[str, Finding] = {}
        for f in self.plan.profile:
            status, line = self.values[f.id].find(norm, None)
            out[f.id] = Finding(f.id, status, line, "match" if status == FOUND else "")
        for brief, check in self.events:
            status, anchor = check.find(norm)
            head = brief.facts[0]
            out[head.id] = Finding(head.id, status, anchor, "match" if status == FOUND else "")
            for f in brief.facts[1:]:
                status, line = self.values[f.id].find(norm, anchor if status == FOUND else None)
                out[f.id] = Finding(f.id, status, line, "match" if status == FOUND else "")
        return out

    def leaks(self, lines: Sequence[Line]) -> list[tuple[int, str]]:
        """(line index, value) for every value of a later fact that a line gives away."""
        out = []
        for i, (_, text) in enumerate(lines):
            norm = normalise(text)
            out += [(i, m.value) for m in self.forbidden if m.leaks(norm, text)]
        return out


def scrub(lines: Sequence[Line], leaking: set[int]) -> list[Line]:
    """Drop leaking lines with their partner line (question and answer), keeping alternation."""
    drop: set[int] = set()
    for i in leaking:
        drop.add(i)
        partner = i - 1 if lines[i][0] == "assistant" else i + 1
        if 0 <= partner < len(lines):
            drop.add(partner)
    return merge_speakers([x for k, x in enumerate(lines) if k not in drop])
