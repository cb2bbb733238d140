"""A scripted renderer for the test server: replies built from session plans.

Each reply states the plan's facts the way a careful writer would, except the ones a test
asks it to omit, and can carry a leaked later value or be broken JSON.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from umb.render import DialoguePlan, FactSpec, SessionPlan
from umb.render._timeexpr import clock

NONE_SAYINGS = {
    "partner": "I'm single, not seeing anyone.",
    "pet": "I have no pets.",
    "car": "I have no car.",
    "previous_car": "It was my first car.",
}


def fact_sentence(f: FactSpec, plan: SessionPlan) -> str:
    """One sentence stating ``f`` with its exact value."""
    label = f.attribute.replace("_", " ")
    if f.kind == "event":
        brief = next(e for e in (*plan.news, *plan.callbacks) if e.event_id == f.event_id)
        at = f" at {clock(brief.time)}" if brief.clock else ""
        return f"{brief.when[0].upper()}{brief.when[1:]}{at}, I {brief.summary}."
    if f.value == "none":
        if f.kind == "change":
            return f"{f.old} is gone, I'm afraid; that ended."
        return NONE_SAYINGS.get(f.attribute, f"My {label}: nothing.")
    if f.kind == "change":
        return f"My {label} went from {f.old} to {f.value}."
    return f"The {label} was {f.value}."


def session_turns(
    plan: SessionPlan, omit: Iterable[str] = (), say: dict[str, str] | None = None
) -> list[dict[str, str]]:
    """Alternating turns stating every required fact not in ``omit`` (``say`` overrides the
    sentence of some facts)."""
    skip, say = set(omit), say or {}
    other = plan.interlocutor.name.split()[0]
    turns = [{"role": "user", "text": f"Hi {plan.first_name}! How have you been?"}]
    facts = [f for f in plan.required_facts() if f.id not in skip]
    for k in range(0, len(facts), 2):
        said = " ".join(say.get(f.id) or fact_sentence(f, plan) for f in facts[k : k + 2])
        turns.append({"role": "assistant", "text": said})
        turns.append({"role": "user", "text": "Really? Tell me more."})
    turns.append({"role": "assistant", "text": f"That's all from me, {other}. Bye for now!"})
    turns.append({"role": "user", "text": "Take care!"})
    return turns


def session_reply(
    plan: SessionPlan,
    omit: Iterable[str] = (),
    leak: str | None = None,
    say: dict[str, str] | None = None,
) -> str:
    """The JSON reply for one session."""
    turns = session_turns(plan, omit, say)
    if leak:
        turns.insert(1, {"role": "assistant", "text": f"Oh, and guess what: {leak}."})
        turns.insert(2, {"role": "user", "text": "Wow."})
    return json.dumps({"turns": turns})


def exchange_reply(plan: SessionPlan, facts: Iterable[FactSpec]) -> str:
    """A repair exchange stating ``facts``."""
    said = " ".join(fact_sentence(f, plan) for f in facts) or "Nothing much, honestly."
    return json.dumps(
        {
            "turns": [
                {"role": "user", "text": "Wait, tell me the details again?"},
                {"role": "assistant", "text": said},
            ]
        }
    )


def write_rules(plans: Iterable[DialoguePlan], omit: Iterable[str] = ()) -> list[dict[str, object]]:
    """One rule per session answering its write request."""
    skip = set(omit)
    return [
        {"match": f"Write session {s.session_id}", "reply": session_reply(s, skip)}
        for p in plans
        for s in p.sessions
    ]
