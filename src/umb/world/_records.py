"""Records of the simulated world: characters, events and state changes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Attributes whose value the simulator tracks over time (old -> new on each change).
TRACKED_ATTRIBUTES = (
    "employer",
    "job_title",
    "city",
    "relationship_status",
    "partner",
    "pet",
    "car",
    "hobby",
)

CATEGORIES = ("career", "study", "relationships", "hobbies", "health", "travel", "life_admin")


@dataclass(frozen=True, slots=True)
class SpeechProfile:
    """How a character talks, derived from the MBTI-style personality."""

    formality: str
    """``casual`` or ``formal``."""
    verbosity: str
    """``terse`` or ``chatty``."""
    openers: tuple[str, ...]
    """Words the character likes to start with (``Honestly,``, ``Well,``)."""
    catchphrase: str
    exclaims: bool


@dataclass(frozen=True, slots=True)
class Relation:
    """A tie from one character to another character of the world."""

    character_id: str
    kind: str
    """``friend``, ``sibling``, ``colleague`` or ``neighbour``."""


@dataclass(frozen=True, slots=True)
class Character:
    """A person of the world with a profile and an initial state."""

    id: str
    name: str
    first_name: str
    age: int
    """Age on the world's start date."""
    gender: str
    home_city: str
    occupation: str
    mbti: str
    speech: SpeechProfile
    relations: tuple[Relation, ...]
    initial_state: dict[str, str]


@dataclass(frozen=True, slots=True)
class StateChange:
    """One tracked attribute changing from ``old`` to ``new``."""

    attribute: str
    old: str
    new: str


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened to a character at an exact time."""

    id: str
    character_id: str
    """The owner; joint events list the other people in ``participants``."""
    at: str
    """``YYYY-MM-DDTHH:MM``."""
    category: str
    kind: str
    summary: str
    """A short verb phrase (``adopted a beagle named Biscuit``)."""
    slots: dict[str, str]
    participants: tuple[str, ...] = ()
    caused_by: tuple[str, ...] = ()
    state_changes: tuple[StateChange, ...] = ()
    lookalike_of: str | None = None
    """An earlier event of the same kind this one can be confused with."""
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def date(self) -> str:
        return self.at[:10]
