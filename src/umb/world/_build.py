"""Build the world of one character: profile event, timeline, timelines and facts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from umb._errors import UmbError
from umb.bench import Fact
from umb.world._characters import build_population
from umb.world._facts import PROFILE_KIND, event_facts
from umb.world._records import Character, Event
from umb.world._simulate import (
    DEFAULT_PER_YEAR,
    attribute_timelines,
    check_timeline,
    joint_events,
    simulate_character,
)


class WorldCheckError(UmbError):
    """The simulator produced an inconsistent world (a bug: please report it)."""


@dataclass(frozen=True)
class CharacterWorld:
    """Everything the simulator knows about one character."""

    character: Character
    events: list[Event]
    """In time order; ``events[0]`` is the profile (initial state) pseudo-event."""
    facts: dict[str, list[Fact]]
    """Facts per event id, from this character's point of view."""
    timelines: dict[str, list[dict[str, str | None]]]


class WorldBuilder:
    """Builds characters one at a time; the population and joint events are shared."""

    def __init__(
        self,
        seed: int,
        n_characters: int,
        start: date,
        end: date,
        per_year: tuple[int, int] = DEFAULT_PER_YEAR,
    ) -> None:
        self.seed, self.start, self.end, self.per_year = seed, start, end, per_year
        self.population = build_population(seed, n_characters)
        self.by_id = {c.id: c for c in self.population}
        self.joint = joint_events(seed, self.population, start, end)

    def build(self, index: int) -> CharacterWorld:
        ch = self.population[index]
        profile = Event(
            f"{ch.id}-E000",
            ch.id,
            f"{self.start.isoformat()}T00:00",
            "profile",
            PROFILE_KIND,
            "profile",
            dict(ch.initial_state),
        )
        events = [profile] + simulate_character(
            self.seed, ch, self.start, self.end, self.joint[ch.id], self.per_year
        )
        problems = check_timeline(ch, events)
        if problems:
            raise WorldCheckError("; ".join(problems[:5]))
        facts = {e.id: event_facts(e, ch) for e in events}
        return CharacterWorld(ch, events, facts, attribute_timelines(ch, events, self.start))
