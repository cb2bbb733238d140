"""IE: questions about one slot of one event."""

from __future__ import annotations

import random
import re

from umb.bench import Question
from umb.qa._context import QAContext
from umb.qa._describe import pointers
from umb.world import Event

# Templates fill in ``{desc}`` (the event, naming the character), ``{own}`` (the same pointer
# after the name was said: "the car she bought …"), ``{first}``, ``{pronoun}``, ``{possessive}``,
# ``{month}`` and ``{item}``; see :func:`umb.qa._describe.pointers`. A question names the
# character once and says "she"/"her" after that.
SLOT_QUESTIONS: dict[str, str] = {
    "price": "How much did {first} pay for {own}?",
    "colour": "What colour was {desc}?",
    "brand": "Which brand was {desc}?",
    "store": "Where did {first} buy {possessive} new {item} in {month}?",
    "pet_name": "What is the name of {desc}?",
    "breed": "What breed is {desc}?",
    "restaurant": "At which restaurant was {desc}?",
    "dish": "What did {first} order on {own}?",
    "destination": "What was the destination of {desc}?",
    "duration": "How long was {desc}?",
    "companion": "Who went with {first} on {own}?",
    "activity": "What activity did {first} do on {own}?",
    "band": "Which band played at {desc}?",
    "venue": "Where was {desc} held?",
    "ticket_price": "How much was the ticket for {desc}?",
    "grade": "What score did {first} get for {own}?",
    "provider": "Who ran {desc}?",
    "fee": "How much was the fee for {desc}?",
    "salary": "What salary came with {desc}?",
    "clinic": "Which clinic treated {first} for {own}?",
    "doctor": "Which doctor did {first} see for {own}?",
    "result": "What was the result of {desc}?",
    "garage": "Which garage handled {desc}?",
    "repair_cost": "How much did the repair cost after {desc}?",
    "dealership": "At which dealership did {first} test-drive a car in {month}?",
    "author": "Who wrote {desc}?",
    "finish_time": "What was {first}'s finishing time in {own}?",
    "sessions": "How many sessions did {desc} take?",
    "therapist": "Who was the therapist for {desc}?",
    "hours": "How many hours did {first} put into {own}?",
    "rent": "How much rent did {first} pay after {own}?",
    "guests": "How many guests came to {desc}?",
    "place": "Where was {first} when {pronoun} met someone new in {month}?",
    "topic": "What was the theme of {desc}?",
    "conference_city": "In which city was {desc}?",
    "adoption_fee": "How much was the adoption fee for {desc}?",
    "vet_bill": "How much was the bill for {desc}?",
    "cost": "How much did {desc} cost?",
    "issue": "What was the reason for {desc}?",
}

#: Second phrasings, chosen at random beside :data:`SLOT_QUESTIONS`.
SLOT_ALTERNATES: dict[str, str] = {
    "price": "What did {desc} cost?",
    "colour": "Which colour did {first} pick for {own}?",
    "brand": "Which brand of {item} did {first} buy in {month}?",
    "store": "Which shop sold {first} {own}?",
    "destination": "Where did {first} go on {own}?",
    "duration": "How many days did {desc} last?",
    "companion": "Who was {first}'s travel companion on {own}?",
    "activity": "What was the highlight of {desc}?",
    "band": "Who was playing at {desc}?",
    "venue": "What was the venue of {desc}?",
    "grade": "What was {first}'s final score for {own}?",
    "fee": "What fee did {first} pay for {own}?",
    "doctor": "Who was the doctor at {desc}?",
    "result": "What did {desc} find?",
    "author": "Who is the author of {desc}?",
    "finish_time": "How long did {first} take to finish {own}?",
    "rent": "What was the monthly rent after {desc}?",
    "guests": "How many people were guests at {desc}?",
    "place": "Where did {first} meet the person {pronoun} got to know in {month}?",
    "topic": "What was {desc} about?",
    "conference_city": "Where was {desc} held?",
    "dish": "Which dish did {first} have on {own}?",
    "vet_bill": "What did {desc} cost?",
    "issue": "Why did {first} take {possessive} pet to the vet in {month}?",
    "breed": "Which breed is {desc}?",
    "pet_name": "What is {desc} called?",
}

#: Phrasings for one kind's slot (``kind:slot``) where the slot's own do not fit the event:
#: one is not "on" an injury, and a vet visit has no name of its own.
KIND_QUESTIONS: dict[str, tuple[str, ...]] = {
    "injury:activity": (
        "What was {first} doing when {pronoun} got injured in {month}?",
        "What activity led to {desc}?",
    ),
    "injury:clinic": (
        "Which clinic treated {first} for {own}?",
        "Where was {first} treated for {own}?",
    ),
    "checkup:clinic": (
        "At which clinic did {first} have {own}?",
        "Where did {first} have {own}?",
    ),
    "vet_visit:pet_name": (
        "What is the name of the pet {first} took to the vet in {month}?",
        "Which pet did {first} take to the vet in {month}?",
    ),
    "test_drive:brand": (
        "Which make of car did {first} test-drive in {month}?",
        "Which car brand did {first} try out on {own}?",
    ),
    "book_trip:destination": (
        "What was the destination of {desc}?",
        "Where did {first} book a trip to in {month}?",
    ),
    "engagement:place": (
        "Where did {first} get engaged in {month}?",
        "Where did {desc} take place?",
    ),
}


def phrasings(kind: str, slot: str) -> tuple[str, ...]:
    """The question templates for ``slot`` of an event of ``kind``."""
    own = KIND_QUESTIONS.get(f"{kind}:{slot}")
    if own is not None:
        return own
    alternate = SLOT_ALTERNATES.get(slot)
    return (SLOT_QUESTIONS[slot], *((alternate,) if alternate else ()))


def ie_query(template: str, fields: dict[str, str]) -> str:
    """A filled-in template, its first letter capitalised."""
    query = template.format(**fields)
    return query[0].upper() + query[1:]


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
    for e, slot, _desc in candidates(ctx, rng):
        if len(out) == n or e.id in used:
            continue
        value = e.slots[slot]
        fields = pointers(
            e.kind,
            first=ctx.first,
            pronoun=ctx.pronoun,
            possessive=ctx.possessive,
            stamp=e.at,
            item=e.slots.get("item", ""),
        )
        query = ie_query(rng.choice(phrasings(e.kind, slot)), fields)
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
