"""TR: day counts between events, days since an event, and order within one day."""

from __future__ import annotations

import random
from datetime import date

from umb.bench import Question
from umb.qa._context import QAContext
from umb.world import Event, base_phrase

BETWEEN = (
    "How many days passed between the day {first} {a} and the day {pronoun} {b}?",
    "How many days were there between the day {first} {a} and the day {pronoun} {b}?",
)
SINCE = (
    "As of today, how many days ago did {first} {a_base}?",
    "How many days have passed since {first} {a}, counting to today?",
    "Counting from today, how many days ago did {first} {a_base}?",
)
SAME_DAY = (
    "On the day {first} {a}, did that happen before or after {pronoun} {b}?",
    "Did {first} {a_base} before or after {pronoun} {b}, on that same day?",
)


def _told(ctx: QAContext) -> list[Event]:
    """Events whose summary is unique in the character's history (so the query is unambiguous)."""
    events = ctx.own_events()
    counts: dict[str, int] = {}
    for e in events:
        counts[e.summary] = counts.get(e.summary, 0) + 1
    return [
        e
        for e in events
        if counts[e.summary] == 1
        and not e.participants
        and e.character_id == ctx.world.character.id
    ]


def _days(a: str, b: str) -> int:
    return (date.fromisoformat(b[:10]) - date.fromisoformat(a[:10])).days


def _query(
    rng: random.Random, ctx: QAContext, options: tuple[str, ...], a: Event, b: Event | None
) -> str:
    return rng.choice(options).format(
        first=ctx.first,
        pronoun=ctx.pronoun,
        a=a.summary,
        a_base=base_phrase(a.summary),
        b=b.summary if b is not None else "",
    )


def tr_questions(ctx: QAContext, rng: random.Random, n: int) -> list[Question]:
    events = _told(ctx)
    out: list[Question] = []
    kinds = ["days_between", "days_since", "same_day_order"]
    for i in range(n * 3):
        if len(out) == n:
            break
        kind = kinds[i % 3]
        q = None
        if kind == "days_between" and len(events) >= 2:
            a, b = sorted(rng.sample(events, 2), key=lambda e: e.at)
            if a.date != b.date:
                q = _between(ctx, a, b, len(out) + 1, _query(rng, ctx, BETWEEN, a, b))
        elif kind == "days_since" and events:
            e = rng.choice(events)
            q = _since(ctx, e, len(out) + 1, _query(rng, ctx, SINCE, e, None))
        elif kind == "same_day_order":
            q = _same_day(ctx, rng, events, len(out) + 1)
        if q is not None and all(x.query != q.query for x in out):
            out.append(q)
    return out


def _between(ctx: QAContext, a: Event, b: Event, k: int, query: str) -> Question:
    days = _days(a.at, b.at)
    gold = {"final_answer": f"{days} days", "days": days, "start_date": a.date, "end_date": b.date}
    facts = [ctx.world.facts[a.id][0].id, ctx.world.facts[b.id][0].id]
    ev = ctx.evidence([a, b], facts, ctx.end_at)
    return ctx.question(
        "TR",
        k,
        query,
        ctx.end_at,
        gold,
        [a.date, b.date, f"{days} days"],
        ev,
        {"kind": "days_between"},
    )


def _since(ctx: QAContext, e: Event, k: int, query: str) -> Question | None:
    # Asked at the start of a later session, so "today" is a date inside the dialogue.
    later = [s.started_at for s in ctx.dialogue.sessions if s.started_at > e.at]
    if len(later) < 2:
        return None
    asked_at = later[min(len(later) - 1, 1 + (len(e.id) % 3))]
    days = _days(e.at, asked_at)
    gold = {
        "final_answer": f"{days} days",
        "days": days,
        "start_date": e.date,
        "end_date": asked_at[:10],
    }
    try:
        ev = ctx.evidence([e], [ctx.world.facts[e.id][0].id], asked_at)
    except AssertionError:
        return None
    return ctx.question(
        "TR",
        k,
        query,
        asked_at,
        gold,
        [e.date, asked_at[:10], f"{days} days"],
        ev,
        {"kind": "days_since"},
    )


def _same_day(ctx: QAContext, rng: random.Random, events: list[Event], k: int) -> Question | None:
    pairs = [(a, b) for a, b in zip(events, events[1:], strict=False) if a.date == b.date]
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    first, second = (a, b) if rng.random() < 0.5 else (b, a)
    answer = "before" if first.at < second.at else "after"
    query = _query(rng, ctx, SAME_DAY, first, second)
    gold = {"final_answer": answer, "days": 0, "start_date": a.date, "end_date": a.date}
    facts = [ctx.world.facts[first.id][0].id, ctx.world.facts[second.id][0].id]
    ev = ctx.evidence([first, second], facts, ctx.end_at)
    return ctx.question(
        "TR",
        k,
        query,
        ctx.end_at,
        gold,
        [answer, first.at, second.at],
        ev,
        {"kind": "same_day_order"},
    )
