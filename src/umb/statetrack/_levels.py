"""The prompt ladder's levels L01–L34: characters × schemas per character × facts per schema."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from umb._errors import ConfigError


@dataclass(frozen=True, slots=True)
class Level:
    """One rung of the ladder; a full sample has ``characters × schemas × facts`` fact lines."""

    number: int
    characters: int
    schemas: int
    facts: int

    @property
    def name(self) -> str:
        """``L01`` … ``L34``."""
        return f"L{self.number:02d}"

    @property
    def lines(self) -> int:
        """Fact lines of a full sample (before distractors)."""
        return self.characters * self.schemas * self.facts


def _ladder() -> tuple[Level, ...]:
    configs = [(1, 1, f) for f in range(1, 11)]
    configs += [(1, s, 10) for s in range(2, 11)]
    configs += [(c, 10, 10) for c in range(2, 11)]
    configs += [(c, 10, 10) for c in (15, 20, 25, 30, 35, 40)]
    return tuple(Level(i + 1, c, s, f) for i, (c, s, f) in enumerate(configs))


LEVELS: Final[tuple[Level, ...]] = _ladder()
"""The original's 34 level configurations."""

_BY_NAME: Final = {lv.name: lv for lv in LEVELS}
_TERM: Final = re.compile(r"^L?(\d+)(?:\s*-\s*L?(\d+))?$", re.IGNORECASE)


def level(name: str) -> Level:
    """The level called ``name`` (``L07`` or ``7``).

    Raises:
        ConfigError: No such level.
    """
    m = _TERM.match(name.strip())
    key = f"L{int(m.group(1)):02d}" if m and not m.group(2) else name
    if key not in _BY_NAME:
        raise ConfigError(f"unknown ladder level {name!r} (expected L01 … L{len(LEVELS):02d})")
    return _BY_NAME[key]


def parse_levels(text: str | None) -> list[Level]:
    """Levels from ``"all"``, ``"L01-L10,L20"`` or ``"1-3,34"``, in ladder order.

    Raises:
        ConfigError: A term names no level or a range runs backwards.
    """
    if text is None or text.strip().lower() in ("", "all"):
        return list(LEVELS)
    chosen: set[int] = set()
    for term in text.split(","):
        m = _TERM.match(term.strip())
        if not m:
            raise ConfigError(f"bad level term {term!r}: use L05, 5 or a range like L01-L10")
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        if hi < lo:
            raise ConfigError(f"level range {term!r} runs backwards")
        for n in range(lo, hi + 1):
            chosen.add(level(str(n)).number)
    return [lv for lv in LEVELS if lv.number in chosen]
