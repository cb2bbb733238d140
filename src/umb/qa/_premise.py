"""MA: a question about one slot of an event whose premise states another slot, often wrongly.

Both slots must be ones the dialogue states for several events, with this event's values neither
the first nor the last stated: a reader has to find *this* event, not take the earliest or the
most recent value of the slot (primacy or recency must not answer it). A false premise names
the slot's first or last stated value, which belongs to another event: the misattribution a
reader that confuses events, or leans on primacy or recency, would accept.

False premises and true-premise controls alternate from a seeded start, so each is half of the
family: with two false premises in three, "the premise is wrong" alone earned a third of MA.
"""

from __future__ import annotations

import random

from umb.bench import Question
from umb.qa._context import QAContext
from umb.qa._slots import MONEY, SLOT_QUESTIONS, candidates
from umb.qa._state import stated_values

#: Slots a premise can name (besides money): ones whose wrong value reads as a plain mix-up.
PREMISE_SLOTS = frozenset(
    ("colour", "destination", "restaurant", "band", "venue", "clinic", "doctor", "pet_name")
    + ("dish", "store")
)
PREMISES = (
    "Given that the {label} of {desc} was {value}, what was its {asked}?",
    "Since the {label} of {desc} was {value}, what was its {asked}?",
)


def _ends(said: list[str]) -> list[str]:
    """The first and the last stated value of a slot (one if they are the same)."""
    return list(dict.fromkeys(said[:1] + said[-1:]))


def _inside(value: str, said: list[str]) -> bool:
    """Whether ``value`` is stated for the slot and is neither its first nor its last value."""
    return value in said and value not in _ends(said)


def ma_questions(ctx: QAContext, rng: random.Random, n: int) -> list[Question]:
    """False premises and true-premise controls, alternating from a seeded start."""
    out: list[Question] = []
    first_false = rng.random() < 0.5
    used: set[str] = set()
    said = stated_values(ctx)
    for e, slot, desc in candidates(ctx, rng):
        if (
            len(out) == n
            or e.id in used
            or (slot not in PREMISE_SLOTS and not MONEY.match(e.slots[slot]))
            or not _inside(e.slots[slot], said.get(slot, []))
        ):
            continue
        asked = [
            s
            for s in e.slots
            if s in SLOT_QUESTIONS
            and s != slot
            and e.slots[s].lower() not in desc.lower()
            and _inside(e.slots[s], said.get(s, []))
        ]
        if not asked:
            continue
        asked_slot = rng.choice(asked)
        true_value, answer = e.slots[slot], e.slots[asked_slot]
        false_premise = (len(out) % 2 == 0) == first_false
        premise_value = rng.choice(_ends(said[slot])) if false_premise else true_value
        label = slot.replace("_", " ")
        query = rng.choice(PREMISES).format(
            label=label, desc=desc, value=premise_value, asked=asked_slot.replace("_", " ")
        )
        if answer.lower() in query.lower():
            continue
        used.add(e.id)
        facts = [ctx.slot_fact(e, slot), ctx.slot_fact(e, asked_slot)]
        ev = ctx.evidence([e], facts, ctx.end_at)
        if false_premise:
            gold = {
                "premise_verdict": "incorrect",
                "premise_error": f"The {label} was {true_value}, not {premise_value}.",
                "corrected_facts": [f"The {label} was {true_value}."],
                "final_answer": answer,
            }
            kind = "false_premise"
        else:
            gold = {
                "premise_verdict": "correct",
                "premise_error": "",
                "corrected_facts": [],
                "final_answer": answer,
            }
            kind = "true_premise"
        meta = {"kind": kind, "slot": slot, "true_value": true_value, "asked_slot": asked_slot}
        if false_premise:
            meta["wrong_value"] = premise_value
        out.append(
            ctx.question(
                "MA", len(out) + 1, query, ctx.end_at, gold, [true_value, answer], ev, meta
            )
        )
    return out
