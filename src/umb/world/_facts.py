"""Atomic facts: what a dialogue turn can state about an event, one fact per slot or change."""

from __future__ import annotations

from dataclasses import replace

from umb.bench import Fact
from umb.world._records import Character, Event

PROFILE_KIND = "initial_state"


def slot_label(slot: str) -> str:
    return slot.replace("_", " ")


def as_told_by(event: Event, character: Character) -> Event:
    """``event`` as ``character`` knows it: a joint event's ``with`` names the others, not them
    ("Arjun Becker", not "Nadia Umeh and Arjun Becker" in Nadia's history), so nobody's facts
    or dialogue name them in the third person."""
    together = event.slots.get("with")
    if not together:
        return event
    others = [n for n in together.split(" and ") if n != character.name]
    if len(others) == len(together.split(" and ")):
        return event
    return replace(event, slots={**event.slots, "with": " and ".join(others)})


def event_facts(event: Event, character: Character) -> list[Fact]:
    """The facts of ``event`` in ``character``'s history (joint events: one set per participant,
    each from that participant's side, :func:`as_told_by`)."""
    event = as_told_by(event, character)
    base = f"{event.id}/{character.id}/F"
    name = character.name
    facts: list[Fact] = []
    # F0 is always the "it happened" fact; the profile has none, so its facts start at F1.
    offset = 1 if event.kind == PROFILE_KIND else 0
    if event.kind != PROFILE_KIND:
        facts.append(
            Fact(
                f"{base}0",
                character.id,
                event.id,
                event.at,
                "event",
                event.summary,
                f"{name} {event.summary} on {event.date}.",
            )
        )
    for slot, value in event.slots.items():
        text = (
            f"On {event.date}, {name}'s {slot_label(slot)} was {value}."
            if event.kind == PROFILE_KIND
            else f"{name} {event.summary} on {event.date} ({slot_label(slot)}: {value})."
        )
        facts.append(
            Fact(
                f"{base}{len(facts) + offset}", character.id, event.id, event.at, slot, value, text
            )
        )
    for ch in event.state_changes:
        label = slot_label(ch.attribute)
        text = f"On {event.date}, {name}'s {label} changed from {ch.old} to {ch.new}."
        facts.append(
            Fact(
                f"{base}{len(facts) + offset}",
                character.id,
                event.id,
                event.at,
                ch.attribute,
                ch.new,
                text,
            )
        )
    return facts
