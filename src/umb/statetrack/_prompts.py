"""Prompt text of the ladder: fact lines in one of three date styles, and each task's question.

The facts block sits between the two marker lines of the original release ("Now process the
following facts:" … "Make sure the output is in valid JSON format."), whose scorer reads the
lines back from there; each line keeps the original's ``schema=【…】 | <time> | fact=…`` shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from umb.statetrack._facts import day_text
from umb.statetrack._tasks import TaskName

DateStyle = Literal["day_ts", "iso", "relative"]
Order = Literal["time", "blocks", "shuffled"]
DATE_STYLES: Final[tuple[DateStyle, ...]] = ("day_ts", "iso", "relative")
ORDERS: Final[tuple[Order, ...]] = ("time", "blocks", "shuffled")

FACTS_START: Final = "Now process the following facts:"
FACTS_END: Final = "Make sure the output is in valid JSON format."

_WHEN_FIELD: Final[dict[DateStyle, str]] = {
    "day_ts": "day_ts=DAY",
    "iso": "date=YYYY-MM-DD",
    "relative": "days_ago=N",
}
_WHEN_HELP: Final[dict[DateStyle, str]] = {
    "day_ts": "DAY is the fact's day, counted in whole days since 1970-01-01.",
    "iso": "YYYY-MM-DD is the fact's day.",
    "relative": (
        "N is how many whole days before the reference day the fact happened; the reference "
        "day (days_ago=0) is the day of the most recent fact below."
    ),
}
_ORDER_HELP: Final[dict[Order, str]] = {
    "time": "The lines are in time order.",
    "blocks": "The lines are grouped by person; each person's lines are in time order.",
    "shuffled": "The lines are in random order.",
}
_TASK_HELP: Final[dict[TaskName, str]] = {
    "schema_longest": (
        "For every listed person and every state group that person has below: order the "
        "group's facts by time (facts with equal times keep their listed order), look at each "
        "pair of neighbouring facts, and find the pair with the largest gap in days (the first "
        "such pair if several tie). Answer with the FACT_TEXT of the earlier fact of that pair, "
        "copied character for character. A group with one fact, or whose facts all share one "
        "time, answers with its first fact."
    ),
    "latest": (
        "For every listed person and every state group that person has below, give the "
        "group's value as of {when}: the value of the group's latest fact dated on or before "
        "that time. Answer null for a group with no fact by then."
    ),
    "value_at": (
        "Each probe below names a person, one of their state groups and a time. For every "
        "probe, give the value that group had at that time: the value of the group's latest "
        "fact dated on or before it."
    ),
    "num_changes": (
        "For every listed person and every state group that person has below, count how many "
        "times the value changed: put the group's facts in time order and count the "
        "neighbouring pairs whose values differ. Answer with an integer (0 if it never changed)."
    ),
}
_SHAPE: Final[dict[TaskName, str]] = {
    "schema_longest": '{"Person Name": {"schema_longest": {"state group": "FACT_TEXT"}}}',
    "latest": '{"Person Name": {"latest": {"state group": "VALUE or null"}}}',
    "value_at": '{"Person Name": {"value_at": {"state group": "VALUE"}}}',
    "num_changes": '{"Person Name": {"num_changes": {"state group": 0}}}',
}


@dataclass(frozen=True, slots=True)
class Line:
    """One fact line as shown: its schema, day and text."""

    schema: str
    day: int
    text: str


def when(day: int, style: DateStyle, reference: int) -> str:
    """The time field of a line (or of a query) in ``style``."""
    if style == "day_ts":
        return f"day_ts={day}"
    if style == "iso":
        return f"date={day_text(day)}"
    return f"days_ago={reference - day}"


def fact_line(line: Line, style: DateStyle, reference: int) -> str:
    """``schema=【…】 | <time> | fact=…``."""
    return f"schema=【{line.schema}】 | {when(line.day, style, reference)} | fact={line.text}"


def facts_block(lines: Sequence[Line], style: DateStyle, reference: int) -> str:
    """The fact lines of a prompt, one per line (render once, reuse for every task)."""
    return "\n".join(fact_line(line, style, reference) for line in lines)


def render_prompt(
    task: TaskName,
    lines: Sequence[Line] | str,
    people: Sequence[str],
    query: dict[str, Any],
    *,
    style: DateStyle,
    order: Order,
    reference: int,
    others: bool,
) -> str:
    """The full user prompt of one task of one sample.

    Args:
        task: The task.
        lines: Fact lines in the order shown, or their :func:`facts_block`.
        people: Who to answer about.
        query: ``{"as_of": day}`` for ``latest``; ``{"probes": [[person, schema, day], ...]}``
            for ``value_at``; empty otherwise.
        style: How times are written.
        order: How the lines were ordered (told to the model).
        reference: The reference day of ``relative`` times (the latest line's day).
        others: Whether lines about other people (distractors) are mixed in.
    """
    people_line = "People: " + "; ".join(people)
    if others:
        people_line += " (facts about other people also appear below; ignore them)"
    instruction = _TASK_HELP[task]
    if task == "latest":
        instruction = instruction.format(when=when(int(query["as_of"]), style, reference))
    parts = [
        "Track the states of people from the atomic facts below. Work only from these facts, "
        "and reply with one JSON object and no explanation.",
        "",
        f"Each fact line reads: schema=【STATE GROUP】 | {_WHEN_FIELD[style]} | fact=FACT_TEXT",
        "- STATE GROUP names what the fact is about; one person's facts with the same STATE "
        "GROUP form that person's group.",
        f"- {_WHEN_HELP[style]}",
        '- FACT_TEXT starts with the person\'s full name. Its value is the text after "was " '
        'or "changed to " up to the final full stop.',
        f"- {_ORDER_HELP[order]}",
        "",
        people_line,
        f"Task: {task}",
        instruction,
    ]
    if task == "value_at":
        parts.append("Probes (person | state group | time):")
        parts += [f"- {p} | {s} | {when(int(d), style, reference)}" for p, s, d in query["probes"]]
    parts += [
        "",
        "Reply shape (one key per person, one entry per state group):",
        _SHAPE[task],
        "",
        FACTS_START,
        lines if isinstance(lines, str) else facts_block(lines, style, reference),
        "",
        FACTS_END,
    ]
    return "\n".join(parts)
