"""MA: a question about one slot of an event whose premise states another slot, often wrongly."""

from __future__ import annotations

import random

from umb.bench import Question
from umb.qa._context import QAContext
from umb.qa._slots import MONEY, SLOT_QUESTIONS, candidates
from umb.world import _vocab as V

#: Slots a premise can get wrong, with the pool a wrong value is drawn from.
PREMISE_POOLS: dict[str, tuple[str, ...]] = {
    "colour": V.COLOURS,
    "destination": V.DESTINATIONS,
    "restaurant": V.RESTAURANTS,
    "band": V.BANDS,
    "venue": V.VENUES,
    "clinic": V.CLINICS,
    "doctor": V.DOCTORS,
    "pet_name": V.PET_NAMES,
    "dish": V.DISHES,
    "store": V.STORES,
}
PREMISES = (
    "Given that the {label} of {desc} was {value}, what was its {asked}?",
    "Since the {label} of {desc} was {value}, what was its {asked}?",
)


def _wrong(rng: random.Random, slot: str, value: str) -> str | None:
    if MONEY.match(value):
        amount = int(value[1:].replace(",", ""))
        return f"${int(amount * rng.choice((1.5, 2, 0.5))) // 5 * 5:,}"
    pool = [x for x in PREMISE_POOLS.get(slot, ()) if x.lower() != value.lower()]
    return rng.choice(pool) if pool else None


def ma_questions(ctx: QAContext, rng: random.Random, n: int) -> list[Question]:
    """False premises (two of every three) and true-premise controls."""
    out: list[Question] = []
    used: set[str] = set()
    for e, slot, desc in candidates(ctx, rng):
        if (
            len(out) == n
            or e.id in used
            or (slot not in PREMISE_POOLS and not MONEY.match(e.slots[slot]))
        ):
            continue
        asked = [
            s
            for s in e.slots
            if s in SLOT_QUESTIONS and s != slot and e.slots[s].lower() not in desc.lower()
        ]
        if not asked:
            continue
        asked_slot = rng.choice(asked)
        true_value, answer = e.slots[slot], e.slots[asked_slot]
        false_premise = len(out) % 3 != 2
        premise_value = _wrong(rng, slot, true_value) if false_premise else true_value
        if premise_value is None:
            continue
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
