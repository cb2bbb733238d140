"""Cutting a dialogue into pre-training windows that start and end on turn boundaries.

Sizes use :func:`umb._tokens.estimate_tokens` (``ceil(chars / 4)``), as the original did, so a
project's windows do not depend on which model will be trained on them.
"""

from __future__ import annotations

from dataclasses import dataclass

from umb._tokens import estimate_tokens
from umb.bench import Dialogue
from umb.parametric._config import Chunking, LineStyle


@dataclass(frozen=True, slots=True)
class Line:
    """One turn as a line of training text."""

    turn_index: int
    turn_id: str
    session_header: str
    """The header of the turn's session (``""`` in the ``role`` style)."""
    first_of_session: bool
    text: str


@dataclass(frozen=True, slots=True)
class Window:
    """A run of whole turns ``[start, end)`` and its text."""

    start: int
    end: int
    text: str
    approx_tokens: int


def session_header(index: int, started_at: str) -> str:
    """``[Session 3 | 2021-03-20 18:30]``, the rendered-history header."""
    return f"[Session {index} | {started_at.replace('T', ' ')}]"


def dialogue_lines(dialogue: Dialogue, style: LineStyle) -> list[Line]:
    """Every turn as a line: ``Speaker: text`` under dated headers, or ``role: text``."""
    lines: list[Line] = []
    for s_index, session in enumerate(dialogue.sessions, start=1):
        header = session_header(s_index, session.started_at) if style == "session" else ""
        for t_index, turn in enumerate(session.turns):
            who = turn.speaker if style == "session" else turn.role
            lines.append(Line(len(lines), turn.id, header, t_index == 0, f"{who}: {turn.text}"))
    return lines


def _render(lines: list[Line], start: int, end: int) -> str:
    parts: list[str] = []
    for i in range(start, end):
        line = lines[i]
        if line.session_header and (i == start or line.first_of_session):
            # A window that opens mid-session repeats its header, so every window has its date.
            if parts:
                parts.append("")
            parts.append(line.session_header)
        parts.append(line.text)
    return "\n".join(parts)


def _cost(line: Line, at_start: bool) -> int:
    cost = estimate_tokens(line.text) + 1
    if line.session_header and (at_start or line.first_of_session):
        cost += estimate_tokens(line.session_header) + 2
    return cost


def chunk_lines(
    lines: list[Line], *, mode: Chunking, max_tokens: int, overlap_tokens: int
) -> list[Window]:
    """Cut ``lines`` into windows of at most ``max_tokens`` estimated tokens.

    ``sliding_window``: each window starts as late as possible while still overlapping the one
    before by at most ``overlap_tokens``; ``turn_overlap``: consecutive windows share exactly
    one turn. A single turn longer than ``max_tokens`` forms a window of its own. Identical
    windows are dropped.

    Args:
        lines: The dialogue's lines (:func:`dialogue_lines`).
        mode: ``sliding_window`` or ``turn_overlap``.
        max_tokens: Budget per window (estimated tokens, headers included).
        overlap_tokens: Budget of the overlap (``sliding_window`` only).

    Returns:
        The windows in order.
    """
    windows: list[Window] = []
    seen: set[tuple[int, int]] = set()
    start = 0
    n = len(lines)
    while start < n:
        end = start
        used = 0
        while end < n:
            cost = _cost(lines[end], end == start)
            if end > start and used + cost > max_tokens:
                break
            used += cost
            end += 1
        if (start, end) not in seen:
            seen.add((start, end))
            text = _render(lines, start, end)
            windows.append(Window(start, end, text, estimate_tokens(text)))
        if end >= n:
            break
        if mode == "turn_overlap":
            nxt = end - 1
        else:
            nxt, shared = end, 0
            while nxt - 1 > start:
                cost = _cost(lines[nxt - 1], False)
                if shared + cost > overlap_tokens:
                    break
                shared += cost
                nxt -= 1
        start = max(nxt, start + 1)
    return windows
