"""The JSON schema of each family's answer, sent as ``response_format`` to backends that take one.

It says the same as the prompt's field list (:data:`umb.run._prompts.FAMILY_INSTRUCTIONS`), in
the form constrained decoding understands: every required field, with its type, and nothing else.
A schema only shapes the reply; parsing and scoring treat a reply the same way with or without it.
"""

from __future__ import annotations

from typing import Any, Final

from umb._errors import ConfigError
from umb.families import REQUIRED_FIELDS

# Lists and strings are bounded: a small model under a grammar can otherwise repeat an item or a
# sentence until it runs out of tokens, which leaves the JSON unclosed. Six items is the most any
# family's rules ask for; the longest field (ES's summary of two or three sentences) fits in 400
# characters, and a whole answer in about 400 tokens.
MAX_ITEMS: Final = 6
_TEXT: Final = {"type": "string", "maxLength": 200}
_LONG_TEXT: Final = {"type": "string", "maxLength": 400}
_LIST: Final = {
    "type": "array", "items": {"type": "string", "maxLength": 120}, "maxItems": MAX_ITEMS
}  # fmt: skip

FIELD_TYPES: Final[dict[str, dict[str, dict[str, Any]]]] = {
    "IE": {"answer": _TEXT, "evidence_snippets": _LIST},
    "MSR": {"event_chain": _LIST, "final_outcome": _TEXT},
    "ES": {"time_span": _TEXT, "key_turning_points": _LIST, "summary": _LONG_TEXT},
    "TR": {
        "final_answer": _TEXT,
        "days": {"type": "integer"},
        "start_date": _TEXT,
        "end_date": _TEXT,
    },  # fmt: skip
    "KU": {"latest_state": _TEXT, "as_of_time": _TEXT, "deprecated_state": _TEXT},
    "MA": {
        "premise_verdict": {"type": "string", "enum": ["correct", "incorrect"]},
        "premise_error": _TEXT,
        "corrected_facts": _LIST,
        "final_answer": _TEXT,
    },
    "ABS": {"answerable": {"type": "boolean"}, "answer": _TEXT},
}
"""Family -> field -> JSON schema of the field, fields in the order the prompt lists them."""


def answer_schema(family: str) -> dict[str, Any]:
    """The JSON schema of one answer object of ``family``.

    Raises:
        ConfigError: Unknown family.
    """
    fields = FIELD_TYPES.get(family)
    if fields is None:
        raise ConfigError(f"unknown question family {family!r}")
    return {
        "type": "object",
        "properties": {name: dict(kind) for name, kind in fields.items()},
        "required": list(REQUIRED_FIELDS[family]),
        "additionalProperties": False,
    }
