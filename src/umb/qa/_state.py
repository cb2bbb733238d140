"""KU: an attribute's value as of question time, with the values it replaced."""

from __future__ import annotations

import random

from umb.bench import Question
from umb.qa._context import QAContext

KU_QUERIES: dict[str, str] = {
    "employer": "Which company does {first} work for now?",
    "job_title": "What is {first}'s job title now?",
    "city": "Which city does {first} live in now?",
    "relationship_status": "What is {first}'s relationship status now?",
    "partner": "Who is {first}'s partner now?",
    "pet": "What pet does {first} have now?",
    "car": "What car does {first} drive now?",
    "hobby": "What is {first}'s main hobby now?",
}
KU_ALTERNATES: dict[str, str] = {
    "employer": "Where does {first} work at present?",
    "job_title": "What job does {first} have at the moment?",
    "city": "Which city does {first} live in at present?",
    "relationship_status": "What is {first}'s relationship status at this point?",
    "partner": "Who is {first}'s partner at the moment?",
    "pet": "What pet does {first} have at the moment?",
    "car": "What car does {first} drive at the moment?",
    "hobby": "What is {first}'s main hobby at present?",
}


def ku_questions(ctx: QAContext, rng: random.Random, n: int) -> list[Question]:
    out: list[Question] = []
    attrs = [a for a, tl in ctx.world.timelines.items() if len(tl) > 1]
    rng.shuffle(attrs)
    for attr in attrs:
        if len(out) == n:
            break
        timeline = ctx.world.timelines[attr]
        latest, previous = timeline[-1], timeline[:-1]
        if latest["value"] == "none":
            continue
        query = rng.choice((KU_QUERIES[attr], KU_ALTERNATES[attr])).format(first=ctx.first)
        if str(latest["value"]).lower() in query.lower():
            continue
        old_values = [str(x["value"]) for x in previous if x["value"] != latest["value"]]
        if not old_values:
            continue
        fact_ids = [_state_fact(ctx, attr, p) for p in previous] + [_state_fact(ctx, attr, latest)]
        events = [
            e
            for e in ctx.world.events
            if e.id in {str(x["event_id"] or "") for x in timeline} or e.id.endswith("-E000")
        ]
        ev = ctx.evidence(events, fact_ids, ctx.end_at)
        gold = {
            "latest_state": latest["value"],
            "as_of_time": str(latest["at"])[:10],
            "deprecated_state": old_values[-1],
        }
        out.append(
            ctx.question(
                "KU",
                len(out) + 1,
                query,
                ctx.end_at,
                gold,
                [str(latest["value"])],
                ev,
                {"kind": "attribute", "attribute": attr, "deprecated_values": old_values},
            )
        )
    return out


def _state_fact(ctx: QAContext, attr: str, point: dict[str, str | None]) -> str:
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
