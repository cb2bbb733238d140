"""Versioned memory units (``mem0_style``).

Nothing is ever thrown away: an update or a deletion appends a version, so a unit can say what
it said at any earlier time and which turns each version came from (attribution needs both).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from umb.memory._history import asked_after

Event = Literal["ADD", "UPDATE", "DELETE", "NONE"]
EVENTS: tuple[Event, ...] = ("ADD", "UPDATE", "DELETE", "NONE")


@dataclass(frozen=True)
class MemoryVersion:
    """One state of a memory unit."""

    version: int
    event: Event
    """``ADD`` (first version), ``UPDATE`` or ``DELETE`` (the unit's last words)."""
    text: str
    date: str
    """``YYYY-MM-DD`` of the session that wrote this version."""
    at: str
    """``YYYY-MM-DDTHH:MM`` start of that session, to order versions against questions."""
    session_id: str
    source_turn_ids: tuple[str, ...]


@dataclass(frozen=True)
class MemoryUnit:
    """A memory with its full version history; the last version is the current one."""

    id: str
    versions: tuple[MemoryVersion, ...]
    key: str | None = None
    """The changeable topic it tracks (``employer``), when the rule-based extractor knows it."""

    @property
    def current(self) -> MemoryVersion:
        return self.versions[-1]

    @property
    def text(self) -> str:
        return self.current.text

    @property
    def date(self) -> str:
        return self.current.date

    @property
    def version(self) -> int:
        return self.current.version

    @property
    def source_turn_ids(self) -> tuple[str, ...]:
        return self.current.source_turn_ids

    @property
    def deleted(self) -> bool:
        return self.current.event == "DELETE"

    @property
    def history(self) -> tuple[MemoryVersion, ...]:
        """Earlier versions, oldest first."""
        return self.versions[:-1]

    def as_of(self, asked_at: str) -> MemoryVersion | None:
        """The version a question asked at ``asked_at`` sees, or ``None`` (not yet, or deleted)."""
        seen = [v for v in self.versions if asked_after(v.at, asked_at)]
        if not seen or seen[-1].event == "DELETE":
            return None
        return seen[-1]


def versions_seen(
    units: Iterable[MemoryUnit], asked_at: str
) -> list[tuple[MemoryUnit, MemoryVersion]]:
    """Each unit with the version a question asked at ``asked_at`` sees (none: left out)."""
    return [(u, v) for u in units if (v := u.as_of(asked_at)) is not None]


def in_time_order(
    views: Iterable[tuple[MemoryUnit, MemoryVersion]],
) -> tuple[list[MemoryVersion], tuple[str, ...], tuple[str, ...]]:
    """Chosen ``(unit, version)`` pairs as a context holds them: the versions in time order,
    the unit ids, and the turns they came from."""
    chosen = sorted(views, key=lambda uv: (uv[1].at, uv[0].id))
    turn_ids = dict.fromkeys(t for _, v in chosen for t in v.source_turn_ids)
    return [v for _, v in chosen], tuple(u.id for u, _ in chosen), tuple(turn_ids)
