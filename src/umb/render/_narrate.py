"""Tell one event in connected speech: an opener naming several slots, follow-ups for the rest.

Every line lists the fact ids it states: the opener the event fact (with its exact day) and the
slots its template names; each answer the slots it names; an interlocutor line that repeats a
value the character just said lists that fact too, so a fact spread over two turns names both.
"""

from __future__ import annotations

import random
import re

from umb.bench import Fact
from umb.render import _kindtalk as K
from umb.render import _phrases as P
from umb.render._vary import pick, vary
from umb.world._morph import article, capitalise, definite, gerund, plural
from umb.world._records import Event

Line = tuple[str, str, tuple[str, ...]]
_FIELD = re.compile(r"\{(\w+)\}")
_SUFFIXES = ("_a", "_the", "_cap", "_pl")


# Sentence starts that read right in lower case after "Oh, and"; names and "I" keep capitals.
_COMMON_STARTS = frozenset(
    "It It's The They That There We My Tickets Their Before Roughly About Adoption Leaving No "
    "Turned Goodbye Finally Everything Yesterday Today Earlier On Last Exactly A So Big Guess "
    "Meet We're They're There's That's Two Three Four Five Six Seven Eight Nine Ten Officially "
    "Okay Probably Honestly Not Sort Yes Ask Long Don't Funny Only In Absolutely We'll Recently "
    "Lately Once Anyway Oh Well Meanwhile Also Somehow Apparently Guess Right Nobody Remember "
    "Random Whatever Ah Ha Goodbye Now".split()
)


def lower_start(text: str) -> str:
    """``It was ...`` -> ``it was ...``, but ``I ...`` and names stay as they are."""
    head = text.split(" ", 1)[0].rstrip(".,!?;:")  # "Probably. I ..." starts with "Probably"
    return text[:1].lower() + text[1:] if head in _COMMON_STARTS else text


def fields(e: Event, other: str | None) -> dict[str, str]:
    """Slot values and the agreeing forms templates use (``x_a``, ``x_the``, ``x_cap``)."""
    out: dict[str, str] = {}
    for slot, value in e.slots.items():
        if value == "none":
            continue  # said with its own words (NONE_SAY); no template may paste "none"
        out[slot] = value
        out[f"{slot}_a"] = value if value.startswith(("a ", "an ", "the ")) else article(value)
        out[f"{slot}_the"] = definite(value)
        out[f"{slot}_cap"] = capitalise(value)
        out[f"{slot}_pl"] = plural(value)
    if "activity" in e.slots:
        out["gerund"] = gerund(e.slots["activity"])
    if other:
        out["other"] = other
    return out


def slots_of(template: str) -> list[str]:
    """The slots a template states, in order (``{course_a}`` states ``course``)."""
    out: list[str] = []
    for name in _FIELD.findall(template):
        if name == "gerund":
            name = "activity"
        for suffix in _SUFFIXES:
            if name.endswith(suffix):
                name = name[: -len(suffix)]
        if name not in ("when", "other") and name not in out:
            out.append(name)
    return out


#: How the character says that a slot has no value.
NONE_SAY = {
    "previous_car": ("It's my first car ever.", "I never had a car before, so it's my first car."),
    "car": ("I don't have a car, so I borrowed one.", "We went without a car of my own."),
    "partner": ("No partner at the time.",),
    "pet": ("No pets back then.",),
}


def _say(kind: str, slot: str, rng: random.Random, value: str) -> str:
    if value == "none":
        return pick(rng, NONE_SAY.get(slot, ("None, actually.",)))
    options = K.SAY.get(f"{kind}:{slot}") or K.SAY.get(slot) or ("It was {" + slot + "}.",)
    return pick(rng, options)


def _fits(template: str, values: dict[str, str]) -> bool:
    return all(name in values for name in _FIELD.findall(template))


_DOUBLE_THE = re.compile(r"\b([Tt]he) The ")


def refer(ref: str, values: dict[str, str]) -> str:
    """A kind's reference filled in: ``the {band} gig`` with ``The Northern Keys`` says
    ``the Northern Keys gig``, not ``the The Northern Keys gig``."""
    return _DOUBLE_THE.sub(r"\1 ", ref.format(**values))


def _link(rng: random.Random, cause: Event, cause_facts: list[Fact]) -> tuple[str, list[str]]:
    """A sentence naming the event that caused this one, and the cause's facts it states."""
    ref = K.REF.get(cause.kind)
    values = fields(cause, None)
    if ref is None or not _fits(ref, values):
        return "", []
    by_slot = {f.attribute: f.id for f in cause_facts[1 : 1 + len(cause.slots)]}
    text = pick(rng, K.LINKS).format(cause=refer(ref, values))
    return f" {text}", [by_slot[s] for s in slots_of(ref) if s in by_slot]


def tell_event(
    rng: random.Random,
    e: Event,
    facts: list[Fact],
    when: str,
    other: str | None,
    cause: tuple[Event, list[Fact]] | None = None,
) -> list[Line]:
    """The lines that tell ``e``; ``facts`` = [event fact, one per slot, one per change].

    ``cause`` (the event that led to ``e``, with its facts) is sometimes named in the opener.
    """
    n = len(e.slots)
    main, slot_facts, change_facts = facts[0], facts[1 : 1 + n], facts[1 + n :]
    by_slot = {f.attribute: f for f in slot_facts}
    values = fields(e, other) | {"when": when}
    openers = [t for t in K.OPENERS.get(e.kind, ()) if _fits(t, values)]
    opener = vary(rng, rng.choice(openers)) if openers else "{when} I " + e.summary + "."
    said = slots_of(opener)
    text = capitalise(opener.format(**values))
    ids = [main.id, *(by_slot[s].id for s in said)]
    if cause is not None and rng.random() < 0.9:
        link, cause_ids = _link(rng, *cause)
        text += link
        ids += cause_ids
    lines: list[Line] = [("assistant", text, tuple(ids))]
    ref = K.REF.get(e.kind)
    ref_text = refer(ref, values) if ref is not None and _fits(ref, values) else None
    pending = [s for s in e.slots if s not in said]
    rng.shuffle(pending)
    echoed = [s for s in said if s in e.slots and e.slots[s][:1].isupper()]
    while pending:
        take = pending[: rng.randint(1, 2)]
        pending = pending[len(take) :]
        ask = rng.random() < 0.75
        user_ids: tuple[str, ...] = ()
        react = pick(rng, K.reactions(e.kind))
        if echoed and rng.random() < 0.4:
            slot = echoed.pop(0)
            react = f"Wait, {e.slots[slot]}? {react}"
            user_ids = (by_slot[slot].id,)
        if ask:
            react = f"{react} {pick(rng, K.ASK.get(take[0], ('Tell me more?',)))}"
        lines.append(("user", react, user_ids))
        answer = " ".join(_say(e.kind, s, rng, e.slots[s]).format(**values) for s in take)
        if ask and ref_text and rng.random() < 0.7:
            answer = f"{capitalise(ref_text)}? {answer}"  # answering with the thing asked about
        if not ask:
            answer = f"{pick(rng, P.ADD_ONS)} {lower_start(answer)}"
        lines.append(("assistant", answer, tuple(by_slot[s].id for s in take)))
    for sc, f in zip(e.state_changes, change_facts, strict=True):
        key = sc.attribute
        if key == "partner" and sc.new == "none":
            key = "partner_none"
        elif key == "car" and sc.old == "none":
            key = "car_first"
        forms = {"old": sc.old, "new": sc.new, "old_a": article(sc.old), "new_a": article(sc.new)}
        lines.append(("assistant", pick(rng, P.CHANGE_PHRASES[key]).format(**forms), (f.id,)))
    return lines
