"""The no-context floor's answers, and answers made from one guessed value or list.

Every shortcut baseline starts from the floor's answer (the offline reader given no history,
which is what the ``no_context`` system gets from it) and replaces the fields its shortcut
fills: the value a question asks for, or the list of events. So a baseline beats the floor only
by what its shortcut knows.
"""

from __future__ import annotations

import re
from typing import Any, Final

from umb.bench import Question
from umb.models.offline import read

#: The field holding the value a family's question asks for.
VALUE_FIELD: Final = {"IE": "answer", "KU": "latest_state", "MA": "final_answer"}
#: The field holding a list family's events.
LIST_FIELD: Final = {"MSR": "event_chain", "ES": "key_turning_points"}

_CLAUSE: Final = re.compile(r"\s*(?:[,;?!]|\.(?=\s|$)|\band then\b|\bthen\b)\s*")


def floor_answer(question: Question) -> dict[str, Any]:
    """What the offline reader answers with an empty history: the no-context floor."""
    return read(question.family, question.query, question.asked_at, "")


def with_value(question: Question, base: dict[str, Any], value: str) -> dict[str, Any]:
    """``base`` with the asked-for value (IE, KU, MA) replaced by ``value``."""
    field = VALUE_FIELD.get(question.family)
    if field is None:
        return base
    out = {**base, field: value}
    if question.family == "MA":
        out["corrected_facts"] = [value] if value else []
    return out


def with_list(question: Question, base: dict[str, Any], items: list[str]) -> dict[str, Any]:
    """``base`` with the list of events (MSR, ES) replaced by ``items``."""
    field = LIST_FIELD.get(question.family)
    if field is None:
        return base
    out = {**base, field: items}
    if question.family == "MSR":
        out["final_outcome"] = items[-1] if items else ""
    else:
        out["summary"] = " ".join(items)
    return out


def clauses(text: str) -> list[str]:
    """``text`` split at punctuation and ``then``: a question's own words as list items."""
    return [c for c in _CLAUSE.split(text) if c.strip()]
