"""The two text shapes memory systems hand the answerer: dated sessions and dated memory units.

Sessions::

    [Session 3 | 2021-03-20 18:30]
    Maya: I finally adopted a dog last Tuesday, a beagle called Biscuit.
    Alex: Oh nice! ...

    [Session 4 | 2021-05-02 10:00]
    ...

Units, one per line: ``[2021-03-20] Maya adopted a beagle called Biscuit.``
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Protocol

from umb.bench import Session

_SESSION_NUMBER = re.compile(r"(\d+)\D*$")


def session_number(session_id: str, fallback: int) -> int:
    """The number a session id ends with (``D0001:S003`` -> 3), else ``fallback``."""
    last = session_id.rsplit(":", 1)[-1]
    match = _SESSION_NUMBER.search(last)
    return int(match.group(1)) if match else fallback


def session_header(session: Session, fallback_number: int) -> str:
    """``[Session 3 | 2021-03-20 18:30]`` for one session."""
    when = session.started_at.replace("T", " ")
    return f"[Session {session_number(session.id, fallback_number)} | {when}]"


def render_session(session: Session, fallback_number: int = 1) -> str:
    """One session block: its header, then one ``Speaker: text`` line per turn."""
    lines = [session_header(session, fallback_number)]
    lines += [f"{turn.speaker}: {turn.text}" for turn in session.turns]
    return "\n".join(lines)


def render_sessions(sessions: Sequence[Session]) -> str:
    """Render sessions (whole, or holding only some of their turns) separated by blank lines.

    Args:
        sessions: Sessions in the order to show them. A session whose id carries no number is
            numbered by its 1-based position in ``sessions``.

    Returns:
        The rendered history; an empty string when ``sessions`` is empty.
    """
    return "\n\n".join(render_session(s, i) for i, s in enumerate(sessions, start=1))


def unit_date(when: str) -> str:
    """The ``YYYY-MM-DD`` part of a ``YYYY-MM-DDTHH:MM`` time (a bare date passes through)."""
    return when[:10]


class DatedText(Protocol):
    """Anything with a ``date`` and a ``text``, such as a memory unit or a session summary."""

    @property
    def date(self) -> str: ...

    @property
    def text(self) -> str: ...


def render_units(units: Iterable[DatedText | tuple[str, str]]) -> str:
    """Render memory units as ``[YYYY-MM-DD] text`` lines.

    Args:
        units: Objects with ``date`` and ``text`` attributes, or ``(date, text)`` pairs. A date
            may be ``YYYY-MM-DD`` or ``YYYY-MM-DDTHH:MM``; newlines inside a text are folded to
            spaces so each unit stays on one line.
    """
    lines = []
    for unit in units:
        when, text = unit if isinstance(unit, tuple) else (unit.date, unit.text)
        lines.append(f"[{unit_date(when)}] {' '.join(text.split())}")
    return "\n".join(lines)
