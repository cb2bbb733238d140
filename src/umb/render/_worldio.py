"""Rebuild each character's world from a benchmark directory (``world.json`` + ``facts.jsonl``).

The result equals what the simulator handed the template renderer, so a world re-rendered from
disk gets the same plans and questions as one rendered straight after simulation.
"""

from __future__ import annotations

from typing import Any

from umb._errors import DataError
from umb.bench import Benchmark, Fact
from umb.world import Character, CharacterWorld, Event, Relation, SpeechProfile, StateChange


def character_from(d: dict[str, Any]) -> Character:
    """A :class:`Character` from its ``world.json`` record."""
    sp = d["speech"]
    return Character(
        d["id"],
        d["name"],
        d["first_name"],
        d["age"],
        d["gender"],
        d["home_city"],
        d["occupation"],
        d["mbti"],
        SpeechProfile(
            sp["formality"],
            sp["verbosity"],
            tuple(sp["openers"]),
            sp["catchphrase"],
            sp["exclaims"],
        ),
        tuple(Relation(r["character_id"], r["kind"]) for r in d.get("relations", ())),
        dict(d["initial_state"]),
    )


def event_from(d: dict[str, Any]) -> Event:
    """An :class:`Event` from its ``world.json`` record."""
    return Event(
        d["id"],
        d["character_id"],
        d["at"],
        d["category"],
        d["kind"],
        d["summary"],
        dict(d["slots"]),
        tuple(d.get("participants", ())),
        tuple(d.get("caused_by", ())),
        tuple(StateChange(c["attribute"], c["old"], c["new"]) for c in d.get("state_changes", ())),
        d.get("lookalike_of"),
        dict(d.get("meta", {})),
    )


def load_worlds(bench: Benchmark) -> tuple[dict[str, CharacterWorld], dict[str, str]]:
    """Every character's world, by character id, and every known character's first name.

    Raises:
        DataError: The benchmark has no world (an import), or the world is incomplete.
    """
    raw = bench.world
    path = str(bench.root / "world.json")
    if not raw or "characters" not in raw:
        raise DataError(path, None, "no world to render (imported benchmarks cannot be rendered)")
    try:
        characters = [character_from(c) for c in raw["characters"]]
        events = [event_from(e) for e in raw["events"]]
    except (KeyError, TypeError, ValueError) as e:
        raise DataError(path, None, f"bad world record ({type(e).__name__}: {e})") from None
    facts: dict[tuple[str, str], list[Fact]] = {}
    for f in bench.facts.values():
        facts.setdefault((f.character_id, f.event_id), []).append(f)
    timelines = raw.get("timelines", {})
    worlds: dict[str, CharacterWorld] = {}
    for ch in characters:
        own = sorted(
            (e for e in events if e.character_id == ch.id or ch.id in e.participants),
            key=lambda e: (e.at, e.id),
        )
        if not own or not own[0].id.endswith("-E000") or own[0].character_id != ch.id:
            raise DataError(path, None, f"{ch.id} has no profile event {ch.id}-E000")
        worlds[ch.id] = CharacterWorld(
            ch,
            own,
            {e.id: facts.get((ch.id, e.id), []) for e in own},
            timelines.get(ch.id, {}),
        )
    return worlds, {c.id: c.first_name for c in characters}
