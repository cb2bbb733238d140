"""IE: questions about one slot of one event."""

from __future__ import annotations

import random
import re

from umb.bench import Question
from umb.qa._context import QAContext
from umb.world._records import Event

SLOT_QUESTIONS: dict[str, str] = {
    "price": "How much did {first} pay for {desc}?",
    "colour": "What colour was {desc}?",
    "brand": "Which brand was {desc}?",
    "store": "Where did {first} buy {desc}?",
    "pet_name": "What is the name of {desc}?",
    "breed": "What breed is {desc}?",
    "restaurant": "At which restaurant was {desc}?",
    "dish": "What did {first} order on {desc}?",
    "destination": "Where did {desc} go?",
    "duration": "How long was {desc}?",
    "companion": "Who went with {first} on {desc}?",
    "activity": "What activity did {first} do on {desc}?",
    "band": "Which band played at {desc}?",
    "venue": "Where was {desc} held?",
    "ticket_price": "How much was the ticket for {desc}?",
    "grade": "What score did {first} get for {desc}?",
    "provider": "Who ran {desc}?",
    "fee": "How much was the fee for {desc}?",
    "salary": "What salary came with {desc}?",
    "clinic": "Which clinic was involved in {desc}?",
    "doctor": "Which doctor did {first} see for {desc}?",
    "result": "What was the result of {desc}?",
    "garage": "Which garage handled {desc}?",
    "repair_cost": "How much did the repair cost after {desc}?",
    "dealership": "Which dealership was {desc} at?",
    "author": "Who wrote {desc}?",
    "finish_time": "What was {first}'s finishing time in {desc}?",
    "sessions": "How many sessions did {desc} take?",
    "therapist": "Who was the therapist for {desc}?",
    "hours": "How many hours did {first} put into {desc}?",
    "rent": "What is the monthly rent after {desc}?",
    "guests": "How many guests came to {desc}?",
    "place": "Where did {first} meet the person from {desc}?",
    "topic": "What was the theme of {desc}?",
    "conference_city": "In which city was {desc}?",
    "adoption_fee": "How much was the adoption fee for {desc}?",
    "vet_bill": "How much was the bill for {desc}?",
    "cost": "How much did {desc} cost?",
    "issue": "What was the problem at {desc}?",
}

#: Second phrasings, chosen at random beside :data:`SLOT_QUESTIONS`.
SLOT_ALTERNATES: dict[str, str] = {
    "price": "What did {desc} cost {first}?",
    "colour": "Which colour did {first} pick for {desc}?",
    "store": "Which shop sold {first} {desc}?",
    "destination": "What was the destination of {desc}?",
    "duration": "How many days did {desc} last?",
    "companion": "Who was {first}'s travel companion on {desc}?",
    "band": "Who was playing at {desc}?",
    "venue": "What was the venue of {desc}?",
    "grade": "What was {first}'s final score for {desc}?",
    "fee": "What fee did {first} pay for {desc}?",
    "doctor": "Who was the doctor for {desc}?",
    "result": "What did {desc} find?",
    "author": "Who is the author of {desc}?",
    "rent": "How much rent does {first} pay after {desc}?",
    "guests": "How many people were guests at {desc}?",
    "topic": "What was {desc} about?",
    "conference_city": "Where was {desc} held?",
    "dish": "Which dish did {first} have on {desc}?",
    "vet_bill": "What did {desc} cost?",
    "issue": "Why was {desc} needed?",
    "breed": "Which breed is {desc}?",
    "pet_name": "What is {desc} called?",
}

MONEY = re.compile(r"^\$[\d,]+$")


def candidates(ctx: QAContext, rng: random.Random) -> list[tuple[Event, str, str]]:
    out = []
    for e in ctx.own_events():
        desc = ctx.describe(e)
        if desc is None:
            continue
        for slot, value in e.slots.items():
            if slot in SLOT_QUESTIONS and value.lower() not in desc.lower():
                out.append((e, slot, desc))
    rng.shuffle(out)
    return out


def ie_questions(ctx: QAContext, rng: random.Random, n: int) -> list[Question]:
    out: list[Question] = []
    used: set[str] = set()
    for e, slot, desc in candidates(ctx, rng):
        if len(out) == n or e.id in used:
            continue
        value = e.slots[slot]
        options = [
            SLOT_QUESTIONS[slot],
            *([SLOT_ALTERNATES[slot]] if slot in SLOT_ALTERNATES else []),
        ]
        query = rng.choice(options).format(first=ctx.first, desc=desc)
        query = query[0].upper() + query[1:]
        if value.lower() in query.lower():
            continue
        fid = ctx.slot_fact(e, slot)
        used.add(e.id)
        ev = ctx.evidence([e], [fid], ctx.end_at)
        text = ctx.world.facts[e.id][0].text
        out.append(
            ctx.question(
                "IE",
                len(out) + 1,
                query,
                ctx.end_at,
                {"answer": value, "evidence_snippets": [text]},
                [value],
                ev,
                {"kind": "slot", "slot": slot, "aliases": _aliases(value)},
            )
        )
    return out


def _aliases(value: str) -> list[str]:
    if MONEY.match(value):
        return [value.replace(",", ""), value[1:].replace(",", "") + " dollars"]
    if value.lower().startswith(("the ", "a ", "an ")):
        return [value.split(" ", 1)[1]]
    return []
