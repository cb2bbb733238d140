"""ES: a period's turning points."""

from __future__ import annotations

import random

from umb.bench import Question
from umb.qa._chains import step_keys
from umb.qa._context import QAContext
from umb.world._records import Event

ES_QUERIES = (
    "What were the key turning points in {first}'s life in {year}? Summarize that year.",
    "Looking back at {first}'s life in {year}, what were the turning points? Give a summary.",
)


def es_questions(ctx: QAContext, rng: random.Random, n: int) -> list[Question]:
    by_year: dict[str, list[Event]] = {}
    for e in ctx.own_events():
        if e.character_id == ctx.world.character.id and (e.state_changes or e.caused_by):
            by_year.setdefault(e.at[:4], []).append(e)
    years = [y for y, evs in sorted(by_year.items()) if len(evs) >= 2]
    rng.shuffle(years)
    out: list[Question] = []
    for year in sorted(years[:n]):
        points = by_year[year]
        query = rng.choice(ES_QUERIES).format(first=ctx.first, year=year)
        turning = [e.summary for e in points]
        summary = f"In {year}, {ctx.first} " + "; then ".join(turning) + "."
        facts = [ctx.world.facts[e.id][0].id for e in points]
        ev = ctx.evidence(points, facts, ctx.end_at)
        gold = {
            "time_span": f"{year}-01-01 to {year}-12-31",
            "key_turning_points": turning,
            "summary": summary,
        }
        out.append(
            ctx.question(
                "ES",
                len(out) + 1,
                query,
                ctx.end_at,
                gold,
                turning,
                ev,
                {"kind": "period", "point_keys": [step_keys(e) for e in points]},
            )
        )
    return out
