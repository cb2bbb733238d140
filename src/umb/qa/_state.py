"""KU: an attribute's value as of question time, with the values it replaced.

A KU question is asked *between* two changes of an attribute: after the session that tells value
k of its timeline (k ≥ 1, so a value was replaced) and before value k+1 happens or is told. The
dialogue goes on to tell later values, so "the last value said anywhere" is not the answer, and
the value asked about is neither the initial (profile) one nor the final one, so neither the
session-1 profile nor the first or last mention gives it away. Relationship status is not asked:
its few values follow a fixed order (single, in a relationship, engaged, married), so the
wording alone guesses it; ``partner`` follows the same story with names nobody can guess.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from umb.bench import Question
from umb.qa._context import QAContext

KU_QUERIES: dict[str, str] = {
    "employer": "Which company does {first} work for now?",
    "job_title": "What is {first}'s job title now?",
    "city": "Which city does {first} live in now?",
    "partner": "Who is {first}'s partner now?",
    "pet": "What pet does {first} have now?",
    "car": "What car does {first} drive now?",
    "hobby": "What is {first}'s main hobby now?",
}
KU_ALTERNATES: dict[str, str] = {
    "employer": "Where does {first} work at present?",
    "job_title": "What job does {first} have at the moment?",
    "city": "Which city does {first} live in at present?",
    "partner": "Who is {first}'s partner at the moment?",
    "pet": "What pet does {first} have at the moment?",
    "car": "What car does {first} drive at the moment?",
    "hobby": "What is {first}'s main hobby at present?",
}

Point = dict[str, str | None]


def ku_questions(ctx: QAContext, rng: random.Random, n: int) -> list[Question]:
    """Up to ``n`` questions, each about one intermediate value of one attribute's timeline;
    distinct attributes first, then further values of the same attribute (asked at other
    times, in the other wording)."""
    said = stated_values(ctx)
    picks = [
        (a, k)
        for a, tl in ctx.world.timelines.items()
        if a in KU_QUERIES
        for k in _asked(tl, said.get(a, []))
        if not _from_storyline(ctx, tl[k])
    ]
    rng.shuffle(picks)
    firsts: dict[str, tuple[str, int]] = {}
    for attr, k in picks:
        firsts.setdefault(attr, (attr, k))
    ordered = [*firsts.values(), *(p for p in picks if p not in firsts.values())]
    out: list[Question] = []
    wordings: dict[str, int] = {}
    for attr, k in ordered:
        if len(out) == n:
            break
        turn = wordings.get(attr, rng.randrange(2))
        wordings[attr] = turn + 1
        question = _question(ctx, attr, k, (KU_QUERIES, KU_ALTERNATES)[turn % 2], len(out) + 1)
        if question is not None:
            out.append(question)
    return out


def _asked(timeline: list[Point], said: list[str]) -> list[int]:
    """Timeline positions worth asking about: a real change from the value before, not "none"
    (no partner), and neither the first nor the last value of the timeline or of what the
    dialogue states for the attribute (a later retelling or a breakup names an older value)."""
    ends = {timeline[0]["value"], timeline[-1]["value"], "none", *said[:1], *said[-1:]}
    return [
        k
        for k in range(1, len(timeline) - 1)
        if timeline[k]["value"] not in ends and timeline[k]["value"] != timeline[k - 1]["value"]
    ]


def _from_storyline(ctx: QAContext, point: Point) -> bool:
    """Whether a storyline chose this hobby: its hobbies come from short lists (three travel
    finds, seven gentle hobbies after an injury), which the wording alone would guess."""
    return any(
        e.id == point["event_id"] and e.kind == "hobby_change" and "storyline" in e.meta
        for e in ctx.world.events
    )


def stated_values(ctx: QAContext) -> dict[str, list[str]]:
    """Attribute -> the character's values of it in the order the dialogue states them."""
    facts = {f.id: f for fs in ctx.world.facts.values() for f in fs}
    own = ctx.world.character.id
    out: dict[str, list[str]] = {}
    for s in ctx.dialogue.sessions:
        for t in s.turns:
            for fid in t.fact_ids:
                f = facts.get(fid)
                if f is not None and f.character_id == own:
                    out.setdefault(f.attribute, []).append(f.value)
    return out


def _question(
    ctx: QAContext, attr: str, k: int, wording: dict[str, str], number: int
) -> Question | None:
    timeline = ctx.world.timelines[attr]
    point, previous = timeline[k], timeline[:k]
    query = wording[attr].format(first=ctx.first)
    if str(point["value"]).lower() in query.lower():
        return None
    fact_ids = [_state_fact(ctx, attr, p) for p in timeline[: k + 1]]
    following = timeline[k + 1]
    asked_at = _asked_at(ctx, fact_ids[-1], following, _state_fact(ctx, attr, following))
    if asked_at is None:
        return None
    old_values = [str(x["value"]) for x in previous if x["value"] != point["value"]]
    event_ids = {str(x["event_id"] or "") for x in timeline[: k + 1]}
    events = [e for e in ctx.world.events if e.id in event_ids or e.id.endswith("-E000")]
    gold = {
        "latest_state": point["value"],
        "as_of_time": str(point["at"])[:10],
        "deprecated_state": old_values[-1],
    }
    meta = {"kind": "attribute", "attribute": attr, "deprecated_values": old_values}
    ev = ctx.evidence(events, fact_ids, asked_at)
    return ctx.question("KU", number, query, asked_at, gold, [str(point["value"])], ev, meta)


def _asked_at(ctx: QAContext, told: str, following: Point, next_fact: str) -> str | None:
    """The morning after the last session that may be seen while value k still holds: after the
    session first telling it (``told``), before the next value happens or is told; None if no
    session fits."""
    said = ctx.said.get(told)
    later = ctx.said.get(next_fact)
    if not said or not later:
        return None
    bound = min(str(following["at"]), later[0][2])
    starts = [s.started_at for s in ctx.dialogue.sessions if said[0][2] <= s.started_at < bound]
    if not starts:
        return None
    last = datetime.strptime(starts[-1], "%Y-%m-%dT%H:%M")
    morning = (last + timedelta(days=1)).replace(hour=9, minute=0).strftime("%Y-%m-%dT%H:%M")
    if morning < bound:
        return morning
    # No full night before the change: ask an hour after that session started.
    hour = (last + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    return hour if hour < bound else None


def _state_fact(ctx: QAContext, attr: str, point: Point) -> str:
    """The fact that states one point of an attribute's timeline."""
    event_id = point["event_id"] or f"{ctx.world.character.id}-E000"
    for f in ctx.world.facts[event_id]:
        if (
            f.attribute == attr
            and f.value == point["value"]
            and (point["event_id"] is None or "changed from" in f.text)
        ):
            return str(f.id)
    raise KeyError(f"{event_id}:{attr}")
