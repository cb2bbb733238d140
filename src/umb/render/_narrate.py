"""Tell one event in connected speech: an opener naming several slots, follow-ups for the rest.

Every line lists the fact ids it states: the opener the event fact (with its exact day) and the
slots its template names; each answer the slots it names; an interlocutor line that repeats a
value the character just said lists that fact too, so a fact spread over two turns names both.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from umb.bench import Fact
from umb.render import _kindtalk as K
from umb.render import _phrases as P
from umb.render._vary import pick, vary
from umb.world import Event, article, capitalise, definite, gerund, plural

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


#: How often a cause is named by its values although its kind and month alone would do, and how
#: often the friend guesses the cause instead of the character saying it.
NAME_RATE = 0.1
ASK_RATE = 0.3


def month_phrase(rng: random.Random, at: str, told_at: str) -> str:
    """When an event of ``at`` happened, as its month said by someone telling news of
    ``told_at``: ``in March``, ``back in March``, ``in early March``; with the year once it is
    more than ten months back (the session comes within a month of the news, so a bare month
    always means its latest past occurrence)."""
    then, now = date.fromisoformat(at[:10]), date.fromisoformat(told_at[:10])
    month = then.strftime("%B")
    back = (now.year - then.year) * 12 + now.month - then.month
    if back > 10:
        return rng.choice((f"in {month} {then.year}", f"back in {month} {then.year}"))
    options = [f"in {month}"]
    if back >= 2:
        options.append(f"back in {month}")
    if then.day <= 10:
        options.append(f"in early {month}")
    elif then.day >= 21:
        options.append(f"in late {month}")
    return rng.choice(options)


_YOU = {"I": "you", "my": "your", "myself": "yourself", "our": "your", "us": "you two"}
_PERSON = re.compile(r"\b(" + "|".join(_YOU) + r")\b")


def _to_you(template: str) -> str:
    """A reference template as the friend says it: ``my accident`` -> ``your accident``."""
    return _PERSON.sub(lambda m: _YOU[m.group(1)], template)


@dataclass(frozen=True, slots=True)
class Reference:
    """How an earlier event is referred to: as the character says it (``mine``), as the friend
    says it (``yours``), and the event's facts the words state."""

    mine: str
    yours: str
    ids: tuple[str, ...] = ()


def _by_name(cause: Event, cause_facts: list[Fact], time: str = "") -> Reference | None:
    """The cause named by its distinctive values (:data:`K.REF`), and the slot facts it states."""
    ref = K.REF.get(cause.kind)
    values = fields(cause, None)
    if ref is None or not _fits(ref, values):
        return None
    by_slot = {f.attribute: f.id for f in cause_facts[1 : 1 + len(cause.slots)]}
    ids = tuple(by_slot[s] for s in slots_of(ref) if s in by_slot)
    return Reference(refer(ref + time, values), refer(_to_you(ref) + time, values), ids)


def _by_kind(rng: random.Random, cause: Event, time: str) -> Reference:
    template = rng.choice(K.KIND_REF[cause.kind])
    return Reference(template.format(time=time), _to_you(template).format(time=time))


#: The first session after an event comes within this many days of it (the renderer plans one
#: so), so an event up to then may already be known when the event is told.
_TOLD_WITHIN = timedelta(days=31)


def reference(
    rng: random.Random, cause: Event, cause_facts: list[Fact], told_at: str, told: Sequence[Event]
) -> Reference | None:
    """How the character refers to ``cause`` when telling news of ``told_at``; None when no
    wording is unambiguous given ``told`` (the dialogue's events).

    Mostly by kind ("my accident"), which only a reader who knows the earlier sessions
    resolves: bare when no other event of a :func:`K.ref_group` kind is known by then, with the
    month ("that holiday in March") when none falls in that month. Otherwise, and now and then,
    by name; by name and month when another event has the same name. Without ``told`` nothing
    can be checked, so by name.
    """
    rivals = [o for o in told if o.id != cause.id]
    group = K.ref_group(cause.kind)
    kin = [o for o in rivals if o.kind in group]
    by_then = (datetime.fromisoformat(told_at) + _TOLD_WITHIN).isoformat(timespec="minutes")
    time = " " + month_phrase(rng, cause.at, told_at)
    if told and cause.kind in K.KIND_REF and rng.random() >= NAME_RATE:
        if not any(o.at < by_then for o in kin):
            return _by_kind(rng, cause, "")
        if not any(o.at[:7] == cause.at[:7] for o in kin):
            return _by_kind(rng, cause, time)
    namesakes = [
        o for o in rivals if o.kind == cause.kind and _by_name(o, []) == _by_name(cause, [])
    ]
    if any(o.at[:7] == cause.at[:7] for o in namesakes):
        return None
    return _by_name(cause, cause_facts, time if namesakes else "")


def _link(
    rng: random.Random,
    e: Event,
    cause: tuple[Event, list[Fact]],
    told: Sequence[Event],
) -> tuple[str, list[str], list[Line]]:
    """The sentence that ties ``e`` to its cause (appended to the opener) with the cause's facts
    it states, or, when the friend guesses the cause, the question and its confirmation."""
    ref = reference(rng, *cause, e.at, told)
    if ref is None:
        return "", [], []
    if rng.random() < ASK_RATE:
        ask = rng.choice(K.ASK_LINKS).format(cause=ref.yours, Cause=capitalise(ref.yours))
        return "", [], [("user", ask, ref.ids), ("assistant", rng.choice(K.CONFIRMS), ())]
    options = K.LINKS["any"] + K.LINKS.get(K.mood_of(e.kind), ())
    text = rng.choice(options).format(cause=ref.mine, Cause=capitalise(ref.mine))
    return f" {text}", list(ref.ids), []


def tell_event(
    rng: random.Random,
    e: Event,
    facts: list[Fact],
    when: str,
    other: str | None,
    cause: tuple[Event, list[Fact]] | None = None,
    told: Sequence[Event] = (),
) -> list[Line]:
    """The lines that tell ``e``; ``facts`` = [event fact, one per slot, one per change].

    ``cause`` (the event that led to ``e``, with its facts) is usually named after the opener,
    checked against ``told`` (the dialogue's events) so that the reference is unambiguous.
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
    guess: list[Line] = []
    if cause is not None and rng.random() < 0.9:
        link, cause_ids, guess = _link(rng, e, cause, told)
        text += link
        ids += cause_ids
    lines: list[Line] = [("assistant", text, tuple(ids)), *guess]
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
