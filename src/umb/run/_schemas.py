"""The JSON schema of each family's answer, sent as ``response_format`` to backends that take one.

It says the same as the prompt's field list (:data:`umb.run._prompts.FAMILY_INSTRUCTIONS`), in
the form constrained decoding understands: every required field, with its type, and nothing else.
A schema only shapes the reply; parsing and scoring treat a reply the same way with or without it.
"""

from __future__ import annotations

from typing import Any

from umb._errors import ConfigError
from umb.families import FIELD_SCHEMAS, REQUIRED_FIELDS


def answer_schema(family: str) -> dict[str, Any]:
    """The JSON schema of one answer object of ``family``.

    Raises:
        ConfigError: Unknown family.
    """
    fields = FIELD_SCHEMAS.get(family)  # declared with each umb.families.Family
    if fields is None:
        raise ConfigError(f"unknown question family {family!r}")
    return {
        "type": "object",
        "properties": {name: dict(kind) for name, kind in fields.items()},
        "required": list(REQUIRED_FIELDS[family]),
        "additionalProperties": False,
    }
