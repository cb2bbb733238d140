"""Repair: put each missing fact back into its session, near the right place.

Missing facts are grouped by event. A group gets a short user→assistant exchange inserted right
after the line that says the most about its event (else after the previous event's lines, else
after the opening), at a point where the speakers keep alternating. A group whose inserted
exchange still misses a fact gets that exchange rewritten in the next round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from umb.render._audit import FOUND, Finding
from umb.render._plan import EventBrief, FactSpec, SessionPlan
from umb.render._prompts import fact_line
from umb.render._reply import Line

CONTEXT_BEFORE = 3
CONTEXT_AFTER = 1


@dataclass(eq=False)
class WorkLine:
    """A line of a session being built; ``origin`` is ``write`` or ``repair:<group>``."""

    role: str
    text: str
    origin: str = "write"


@dataclass(frozen=True)
class RepairGroup:
    """The missing facts of one event (or of the profile) in one session."""

    key: str
    facts: tuple[FactSpec, ...]
    brief: EventBrief | None
    after: WorkLine | None
    """Insert after this line (None: at the start)."""


def missing_groups(
    plan: SessionPlan, lines: Sequence[WorkLine], findings: dict[str, Finding]
) -> list[RepairGroup]:
    """The repair groups of a session, in plan order."""
    groups: list[RepairGroup] = []
    previous_anchor: int | None = None
    blocks: list[tuple[str, tuple[FactSpec, ...], EventBrief | None]] = []
    if plan.profile:
        blocks.append(("profile", plan.profile, None))
    blocks += [(e.event_id, e.facts, e) for e in plan.news]
    for key, facts, brief in blocks:
        found = [findings[f.id].line for f in facts if findings[f.id].status == FOUND]
        anchor = max((x for x in found if x is not None), default=None)
        missing = tuple(f for f in facts if findings[f.id].status != FOUND)
        if missing:
            where = anchor if anchor is not None else previous_anchor
            if where is None:
                where = 0 if len(lines) > 1 else None
            groups.append(
                RepairGroup(key, missing, brief, lines[where] if where is not None else None)
            )
        if anchor is not None:
            previous_anchor = anchor
    return groups


def items(plan: SessionPlan, group: RepairGroup) -> list[str]:
    """The facts of a group as lines of the repair prompt."""
    out = []
    for f in group.facts:
        text = fact_line(plan, f, group.brief)
        if f.kind in ("slot", "change") and group.brief is not None:
            text += f" (about when {plan.first_name} {group.brief.summary})"
        out.append(text)
    return out


def insert_at(lines: Sequence[WorkLine], after: WorkLine | None) -> int:
    """Where a user→assistant exchange goes: the first point at or after ``after`` where the
    line before is the character's and the line after is the interlocutor's."""
    want = 0 if after is None else next(i for i, x in enumerate(lines) if x is after) + 1

    def fits(p: int) -> bool:
        before_ok = p == 0 or lines[p - 1].role == "assistant"
        after_ok = p == len(lines) or lines[p].role == "user"
        return before_ok and after_ok

    for p in range(want, len(lines) + 1):
        if fits(p) and not (p == len(lines) and p > 0 and lines[-1].role == "user"):
            return p
    return next((p for p in range(want, -1, -1) if fits(p)), len(lines))


def block_of(lines: Sequence[WorkLine], key: str) -> list[int]:
    """Indices of the lines an earlier repair of ``key`` inserted."""
    return [i for i, x in enumerate(lines) if x.origin == f"repair:{key}"]


def context(lines: Sequence[WorkLine], start: int, stop: int) -> tuple[list[Line], list[Line]]:
    """The lines shown before ``start`` and from ``stop`` on."""
    before = [(x.role, x.text) for x in lines[max(0, start - CONTEXT_BEFORE) : start]]
    after = [(x.role, x.text) for x in lines[stop : stop + CONTEXT_AFTER]]
    return before, after


def check_exchange(lines: Sequence[Line]) -> str | None:
    """Why a repair reply cannot be inserted, or None when it can."""
    if lines[0][0] != "user" or lines[-1][0] != "assistant":
        return "it must be a user turn followed by an assistant turn"
    return None
