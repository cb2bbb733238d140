"""The raw history a memory system has ingested, with look-ups by turn and by time."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from umb.bench import Session, Turn
from umb.memory._render import render_session


def asked_after(started_at: str, asked_at: str) -> bool:
    """Whether a session that started at ``started_at`` precedes a question asked at ``asked_at``.

    Both are ``YYYY-MM-DDTHH:MM`` strings, which order as text. A question with no time sees
    everything.
    """
    return not asked_at or started_at < asked_at


class SessionLog:
    """The sessions ingested so far, in arrival (time) order, with a turn-id index."""

    def __init__(self) -> None:
        self.sessions: list[Session] = []
        self._where: dict[str, tuple[int, int]] = {}

    def __len__(self) -> int:
        return len(self.sessions)

    def append(self, session: Session) -> None:
        """Add one session and index its turns."""
        position = len(self.sessions)
        self.sessions.append(session)
        for i, turn in enumerate(session.turns):
            self._where[turn.id] = (position, i)

    def positions_before(self, asked_at: str) -> list[int]:
        """Positions of the sessions a question asked at ``asked_at`` may see."""
        return [i for i, s in enumerate(self.sessions) if asked_after(s.started_at, asked_at)]

    def locate(self, turn_id: str) -> tuple[int, int] | None:
        """``(session position, turn position)`` of a turn id, or ``None`` if not ingested."""
        return self._where.get(turn_id)

    def turn(self, session_position: int, turn_position: int) -> Turn:
        """The turn at a position."""
        return self.sessions[session_position].turns[turn_position]

    def excerpt(self, picks: Iterable[tuple[int, int]]) -> list[tuple[int, Session]]:
        """The picked turns as partial sessions, in time order, each with its position.

        Args:
            picks: ``(session position, turn position)`` pairs, in any order; duplicates are
                ignored.
        """
        by_session: dict[int, set[int]] = {}
        for s, t in picks:
            by_session.setdefault(s, set()).add(t)
        out = []
        for s in sorted(by_session):
            session = self.sessions[s]
            turns = tuple(session.turns[t] for t in sorted(by_session[s]))
            out.append((s, Session(session.id, session.started_at, turns)))
        return out


def render_positioned(sessions: Sequence[tuple[int, Session]]) -> str:
    """Render ``(position, session)`` pairs; a session id with no number shows position + 1."""
    return "\n\n".join(render_session(s, position + 1) for position, s in sessions)
