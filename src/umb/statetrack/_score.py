"""Reading a reply and scoring it exactly, with the original release's metrics.

Parsing follows the original: the first fenced block if any, else the whole reply; from there
the first balanced ``{…}``; if that is not JSON, one retry with trailing commas removed.

A (person, schema) answer is correct when it equals the gold or another accepted answer
(:mod:`umb.statetrack._tasks`): ``schema_longest`` compares fact texts exactly (outer spaces
aside), ``latest``/``value_at`` compare values ignoring case, repeated spaces and a final full
stop, ``num_changes`` compares integers. Person, task and schema keys match exactly, or else
ignoring case, spaces and surrounding 【】 or quotes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Final

from umb.scoring import as_int, balanced_end
from umb.statetrack._tasks import TaskName

_FENCE: Final = re.compile(r"```(?:json)?\s*(.*?)\s*```", re.IGNORECASE | re.DOTALL)
_TRAILING_COMMA: Final = re.compile(r",\s*([}\]])")
_KEY_STRIP: Final = "【】[]\"'` "


def _balanced_object(source: str) -> str | None:
    start = source.find("{")
    end = balanced_end(source, start) if start >= 0 else -1
    return source[start:end] if end != -1 else None


def parse_reply(text: str) -> tuple[Any, str]:
    """The JSON value of a reply and how it was found.

    Returns:
        ``(value, reason)``: reason is ``ok``, ``ok_trailing_comma_fix``, or (value ``None``)
        ``empty_output``, ``no_json_object``, ``unbalanced_braces`` or ``json_error``.
    """
    if not text.strip():
        return None, "empty_output"
    fence = _FENCE.search(text)
    source = (fence.group(1) if fence else text).strip()
    if "{" not in source:
        return None, "no_json_object"
    candidate = _balanced_object(source)
    if candidate is None:
        return None, "unbalanced_braces"
    for fixed, reason in (
        (candidate, "ok"),
        (_TRAILING_COMMA.sub(r"\1", candidate), "ok_trailing_comma_fix"),
    ):
        try:
            return json.loads(fixed), reason
        except (ValueError, RecursionError):
            continue
    return None, "json_error"


def _norm_key(key: str) -> str:
    return " ".join(key.strip(_KEY_STRIP).split()).casefold()


def _lookup(mapping: Any, key: str) -> tuple[bool, Any]:
    if not isinstance(mapping, Mapping):
        return False, None
    if key in mapping:
        return True, mapping[key]
    want = _norm_key(key)
    for k, v in mapping.items():
        if isinstance(k, str) and _norm_key(k) == want:
            return True, v
    return False, None


def _norm_value(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return str(value).casefold()
    if isinstance(value, int | float):
        value = str(int(value)) if float(value).is_integer() else str(value)
    if not isinstance(value, str):
        return json.dumps(value, sort_keys=True)
    return " ".join(value.split()).rstrip(".").casefold()


def answer_matches(task: TaskName, predicted: Any, accepted: list[Any]) -> bool:
    """Whether ``predicted`` equals one of the ``accepted`` answers under ``task``'s rule."""
    if task == "schema_longest":
        pred = predicted.strip() if isinstance(predicted, str) else predicted
        return any(pred == a for a in accepted)
    if task == "num_changes":
        n = as_int(predicted)
        return n is not None and n in accepted
    want = {_norm_value(a) for a in accepted}
    return _norm_value(predicted) in want


@dataclass
class Score:
    """The score of one reply: counts for the level's rates, and one row per (person, schema)."""

    parse_ok: bool = False
    parse_reason: str = ""
    prompt_exact: bool = False
    characters: int = 0
    char_exact: int = 0
    schemas: int = 0
    correct: int = 0
    covered: int = 0
    details: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def score_reply(
    task: TaskName,
    gt: dict[str, dict[str, dict[str, Any]]],
    accept: dict[str, dict[str, list[Any]]],
    reply: str | None,
) -> Score:
    """Score ``reply`` (``None``: the call failed) against one task entry's gold.

    Every (person, schema) of the gold counts, whether or not the reply parsed, so a reply
    that fails to parse scores 0 on every rate (the original dropped such replies from the
    character and schema rates; ``parse_ok`` keeps them apart).
    """
    parsed, reason = parse_reply(reply) if reply is not None else (None, "call_error")
    out = Score(parse_ok=parsed is not None, parse_reason=reason)
    for person, by_task in gt.items():
        golds = by_task[task]
        out.characters += 1
        _, pred_person = _lookup(parsed, person)
        _, pred_map = _lookup(pred_person, task)
        all_right = True
        for schema, gold in golds.items():
            present, pred = _lookup(pred_map, schema)
            accepted = accept.get(person, {}).get(schema, [gold])
            right = present and answer_matches(task, pred, accepted)
            out.schemas += 1
            out.covered += present
            out.correct += right
            all_right = all_right and right
            out.details.append(
                {"person": person, "schema": schema, "present": present, "correct": right,
                 "gold": gold, "pred": pred}
            )  # fmt: skip
        out.char_exact += all_right
    out.prompt_exact = out.parse_ok and out.char_exact == out.characters
    return out
