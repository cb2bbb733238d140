"""Atomic state facts from a benchmark's world, each with an exact schema (no LLM).

Every fact of ``facts.jsonl`` that carries a value becomes one state fact of its character:

* the initial state (the profile pseudo-event) and every state change go to the tracked
  attribute's schema (``employer``, ``job title``, ``city``, …);
* every other slot of an event goes to the per-kind slot schema ``"<kind> <slot>"``
  (``trip destination``, ``purchase price``, ``concert venue``, …; a word the kind and the slot
  share is said once: ``conference city``, ``admin task``);
* the "it happened" fact (``F0``) is left out: it repeats what the slots say and has no single
  value; so is a slot that repeats the event's own state change (``job_change`` names the new
  employer both as a slot and as the change).

So within a schema each fact comes from a different event, every fact has a value, and its text
states that value after ``was`` or ``changed to``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import date
from typing import Any, Final, Literal

from umb._errors import DataError
from umb.bench import Benchmark, Fact

Origin = Literal["initial", "change", "slot"]

EPOCH: Final = date(1970, 1, 1)
PROFILE_KIND: Final = "initial_state"
# Slot names that read badly inside "<kind> <slot>"; the rest only lose their underscores.
_SLOT_LABELS: Final = {"with": "companions"}


def day_number(timestamp: str) -> int:
    """Days since 1970-01-01 of a ``YYYY-MM-DD`` day (the original's ``day_ts``)."""
    return (date.fromisoformat(timestamp[:10]) - EPOCH).days


def day_text(day: int) -> str:
    """The ``YYYY-MM-DD`` of a day number."""
    return date.fromordinal(EPOCH.toordinal() + day).isoformat()


def attribute_schema(attribute: str) -> str:
    """The schema of a tracked attribute: ``job_title`` -> ``job title``."""
    return attribute.replace("_", " ")


def slot_schema(kind: str, slot: str) -> str:
    """The schema of an event kind's slot, without saying a word twice.

    (``trip``, ``destination``) -> ``trip destination``; (``conference``, ``conference_city``)
    -> ``conference city``; (``admin_task``, ``task``) -> ``admin task``.
    """
    k = kind.replace("_", " ")
    s = _SLOT_LABELS.get(slot, slot.replace("_", " "))
    if s.startswith(k + " "):
        return s
    if k == s or k.endswith(" " + s):
        return k
    return f"{k} {s}"


def _slot_labels(pairs: set[tuple[str, str]], taken: set[str]) -> dict[tuple[str, str], str]:
    """A schema per (kind, slot); a short form that two pairs (or an attribute) would share
    falls back to the plain ``"<kind> <slot>"``, so the mapping stays one to one."""
    short = {p: slot_schema(*p) for p in pairs}
    counts: dict[str, int] = defaultdict(int)
    for label in short.values():
        counts[label] += 1
    out = {}
    for (kind, slot), label in short.items():
        if counts[label] > 1 or label in taken:
            label = f"{kind.replace('_', ' ')} {slot.replace('_', ' ')}"
        if label in taken:
            label += " detail"
        out[(kind, slot)] = label
    return out


@dataclass(frozen=True, slots=True)
class StateFact:
    """One atomic state fact of one character.

    The first five fields are the original release's ``facts.json`` contract; the rest let umb
    compute golds without re-reading the world.
    """

    fact: str
    fact_id: str
    """6 digits, consecutive per character in time order."""
    timestamp: str
    """``YYYY-MM-DD``."""
    state_repr: str
    schema: str
    character_id: str
    character: str
    """The character's full name, the subject of ``fact``."""
    value: str
    """The state the fact states, verbatim in ``fact``."""
    day: int
    """Days since 1970-01-01."""
    source: str
    """The fact id in the benchmark's ``facts.jsonl``."""
    origin: Origin

    def contract(self) -> dict[str, str]:
        """The record as the original's ``facts.json`` has it (exactly five fields)."""
        return {
            "fact": self.fact,
            "fact_id": self.fact_id,
            "timestamp": self.timestamp,
            "state_repr": self.state_repr,
            "schema": self.schema,
        }

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> StateFact:
        return cls(**d)


def _fact_number(fact_id: str) -> int:
    return int(fact_id.rsplit("/F", 1)[1])


def _make(
    fact: Fact, name: str, schema: str, origin: Origin, at: str
) -> tuple[tuple[str, str, str, int], dict[str, Any]]:
    verb = "changed to" if origin == "change" else "was"
    timestamp = at[:10]
    fields = {
        "fact": f"{name}'s {schema} {verb} {fact.value}.",
        "timestamp": timestamp,
        "state_repr": f"{schema}: {fact.value}",
        "schema": schema,
        "character_id": fact.character_id,
        "character": name,
        "value": fact.value,
        "day": day_number(timestamp),
        "source": fact.id,
        "origin": origin,
    }
    # Same-day facts keep their clock and source order, so fact ids follow the story's order.
    return (timestamp, at, fact.event_id, _fact_number(fact.id)), fields


def _event_state_facts(
    event: dict[str, Any],
    facts: list[Fact],
    name: str,
    path: str,
    labels: dict[tuple[str, str], str],
) -> Iterable[tuple[tuple[str, str, str, int], dict[str, Any]]]:
    kind = str(event["kind"])
    at = str(event["at"])
    if kind == PROFILE_KIND:
        for f in facts:
            yield _make(f, name, attribute_schema(f.attribute), "initial", at)
        return
    slots = list(event.get("slots", {}))
    changes = [(str(c["attribute"]), str(c["new"])) for c in event.get("state_changes", [])]
    expected = ["event", *slots, *(a for a, _ in changes)]
    got = [f.attribute for f in facts]
    if got != expected:
        raise DataError(
            path,
            None,
            f"facts of {event['id']} for {facts[0].character_id} are {got}, "
            f"expected {expected} (F0, slots, state changes)",
        )
    new_values = dict(changes)
    for f in facts[1 : 1 + len(slots)]:
        if new_values.get(f.attribute) == f.value:
            continue  # the change fact states it
        yield _make(f, name, labels[(kind, f.attribute)], "slot", at)
    for f in facts[1 + len(slots) :]:
        yield _make(f, name, attribute_schema(f.attribute), "change", at)


def build_state_facts(bench: Benchmark) -> dict[str, list[StateFact]]:
    """All state facts of every character of ``bench``, each list in ``fact_id`` order.

    Raises:
        DataError: The benchmark has no world (imported benchmarks), two characters share a
            name, or an event's facts do not match its slots and state changes.
    """
    world = bench.world
    world_path = str(bench.root / "world.json")
    if not world or "events" not in world or "characters" not in world:
        raise DataError(world_path, None, "state tracking needs the world of a generated benchmark")
    names: dict[str, str] = {}
    for ch in world["characters"]:
        if ch["name"] in names.values():
            raise DataError(world_path, None, f"two characters are called {ch['name']!r}")
        names[str(ch["id"])] = str(ch["name"])
    events = {str(e["id"]): e for e in world["events"]}
    grouped: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    for f in bench.facts.values():
        grouped[(f.character_id, f.event_id)].append(f)
    facts_path = str(bench.root / "facts.jsonl")
    tracked = {attribute_schema(a) for ch in world["characters"] for a in ch["initial_state"]}
    pairs = {(str(e["kind"]), str(s)) for e in events.values() for s in e.get("slots", {})}
    labels = _slot_labels(pairs, tracked)
    rows: dict[str, list[tuple[tuple[str, str, str, int], dict[str, Any]]]] = defaultdict(list)
    for (cid, eid), group in sorted(grouped.items()):
        if cid not in names or eid not in events:
            raise DataError(facts_path, None, f"fact of unknown character/event {cid}/{eid}")
        group.sort(key=lambda f: _fact_number(f.id))
        rows[cid].extend(_event_state_facts(events[eid], group, names[cid], facts_path, labels))
    out: dict[str, list[StateFact]] = {}
    for cid in sorted(rows):
        ordered = sorted(rows[cid], key=lambda r: r[0])
        made = [
            StateFact(fact_id=f"{i + 1:06d}", **fields) for i, (_, fields) in enumerate(ordered)
        ]
        clash = {f.schema for f in made if f.origin == "slot"} & tracked
        if clash:
            raise DataError(
                world_path, None, f"slot schema(s) {sorted(clash)} clash with attributes"
            )
        out[cid] = made
    return out


def facts_contract(facts: dict[str, list[StateFact]]) -> dict[str, list[dict[str, str]]]:
    """``{character name: [contract records]}``: the original's ``facts.json``."""
    return {fs[0].character: [f.contract() for f in fs] for fs in facts.values() if fs}
