"""Turning a model's reply into the family's answer object, with one policy for every backend.

Strict (the default): the reply, less one surrounding code fence, must be exactly one JSON object.
Anything else is ``invalid_json``: it scores 0 and is counted. Lenient takes the first balanced
``{…}`` object that parses out of surrounding prose; it exists for diagnosing a model, and a run
records which policy it used, because the two give different numbers for chatty models.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from typing import Any, Final, Literal

from umb._errors import ConfigError
from umb.families import REQUIRED_FIELDS

Policy = Literal["strict", "lenient"]
ParseError = Literal["invalid_json", "missing_fields"]

#: Fields a reply may leave out; the value filled in (as in the original release).
SOFT_DEFAULTS: Final[dict[str, dict[str, Any]]] = {
    "IE": {"evidence_snippets": []},
    "KU": {"as_of_time": "", "deprecated_state": ""},
}

_FENCE = re.compile(r"\A```[A-Za-z0-9_+-]*[ \t]*\n?(.*?)\n?[ \t]*```\Z", re.DOTALL)
# A lenient parse tries at most this many opening braces, so a reply full of braces stays cheap.
_MAX_LENIENT_STARTS: Final = 64


@dataclass(frozen=True, slots=True)
class ParseResult:
    """The outcome of parsing one reply.

    ``answer`` is the object with soft defaults filled in; it is also kept (for inspection)
    when fields are missing. ``error`` is ``None`` only when every required field is present.
    """

    answer: dict[str, Any] | None
    error: ParseError | None = None
    missing_fields: tuple[str, ...] = ()
    defaults_applied: tuple[str, ...] = ()
    policy: Policy = "strict"
    extracted: bool = False
    """True when the lenient policy had to cut the object out of surrounding text."""

    @property
    def ok(self) -> bool:
        """Whether the reply gave a complete answer object."""
        return self.error is None

    @property
    def invalid_json(self) -> bool:
        """Whether the reply was not one JSON object under the policy used."""
        return self.error == "invalid_json"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable view for run records."""
        return {
            "answer": self.answer,
            "error": self.error,
            "missing_fields": list(self.missing_fields),
            "defaults_applied": list(self.defaults_applied),
            "policy": self.policy,
            "extracted": self.extracted,
        }


def _reject_constant(name: str) -> Any:
    # NaN and Infinity are not JSON; Python's parser accepts them unless told otherwise.
    raise ValueError(f"non-standard JSON constant {name}")


def _loads_object(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def strip_code_fence(text: str) -> str:
    """Remove one code fence (```json … ```) around the whole text, if there is one."""
    stripped = text.strip()
    m = _FENCE.match(stripped)
    return m.group(1).strip() if m else stripped


def balanced_end(text: str, start: int) -> int:
    """Index just past the ``}`` closing the ``{`` at ``start``; -1 if it never closes."""
    depth = 0
    in_string = False
    escaped = False
    for i in range(start, len(text)):
        ch = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    return -1


def _first_object(text: str) -> dict[str, Any] | None:
    start = text.find("{")
    tries = 0
    while start != -1 and tries < _MAX_LENIENT_STARTS:
        tries += 1
        end = balanced_end(text, start)
        if end == -1:
            return None
        obj = _loads_object(text[start:end])
        if obj is not None:
            return obj
        start = text.find("{", start + 1)
    return None


def parse_answer(text: str, family: str, *, policy: Policy = "strict") -> ParseResult:
    """Parse a model reply into the answer object of ``family``.

    Args:
        text: The raw reply.
        family: A family code (``IE``, ``TR``, …); decides the required fields.
        policy: ``"strict"`` (whole reply is one JSON object, one code fence allowed) or
            ``"lenient"`` (else the first balanced ``{…}`` that parses).

    Returns:
        A :class:`ParseResult`; ``error`` is ``"invalid_json"`` or ``"missing_fields"`` on
        failure. A required field whose value is ``null`` counts as missing.

    Raises:
        ConfigError: For an unknown family or policy.
    """
    if family not in REQUIRED_FIELDS:
        raise ConfigError(f"unknown question family {family!r}")
    if policy not in ("strict", "lenient"):
        raise ConfigError(f"unknown parse policy {policy!r}; use 'strict' or 'lenient'")
    body = strip_code_fence(text)
    obj = _loads_object(body)
    extracted = False
    if obj is None and policy == "lenient":
        obj = _first_object(text)
        extracted = obj is not None
    if obj is None:
        return ParseResult(None, "invalid_json", policy=policy)

    answer = dict(obj)
    applied = []
    for name, default in SOFT_DEFAULTS.get(family, {}).items():
        if answer.get(name) is None:
            answer[name] = copy.copy(default)  # never share the default list
            applied.append(name)
    missing = tuple(f for f in REQUIRED_FIELDS[family] if answer.get(f) is None)
    return ParseResult(
        answer,
        "missing_fields" if missing else None,
        missing_fields=missing,
        defaults_applied=tuple(applied),
        policy=policy,
        extracted=extracted,
    )
