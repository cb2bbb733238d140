"""Read a renderer reply: a JSON object with a list of turns, however the model wrapped it."""

from __future__ import annotations

import json
import re
from typing import Any

Line = tuple[str, str]
"""(role, text) of one turn; role is ``user`` or ``assistant``."""

_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)
# Reasoning models may think aloud before answering; the thoughts can hold braces too.
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)
_ROLES = {
    "user": "user",
    "interlocutor": "user",
    "assistant": "assistant",
    "character": "assistant",
}


class ReplyError(ValueError):
    """A reply that cannot be used; the message says why, for the retry prompt."""


def _first_object(text: str) -> Any:
    start = text.find("{")
    while start != -1:
        try:
            obj, _ = json.JSONDecoder().raw_decode(text[start:])
            return obj
        except json.JSONDecodeError:
            start = text.find("{", start + 1)
    raise ReplyError("it was not a JSON object")


def parse_json(text: str) -> Any:
    """The JSON value of a reply: thoughts and fences stripped, else its first complete object."""
    body = _THINK.sub("", text).strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1)
    try:
        return json.loads(body)
    except json.JSONDecodeError:
        return _first_object(body)


def parse_turns(text: str, *, min_turns: int = 2) -> list[Line]:
    """The turns of a reply, consecutive turns of one speaker merged so speakers alternate.

    Args:
        text: The model's reply: ``{"turns": [{"role": ..., "text": ...}, ...]}`` (a bare list of
            turns, ``content`` for ``text`` and fenced JSON are accepted too).
        min_turns: Fewest turns (after merging) a usable reply has.

    Raises:
        ReplyError: Not JSON, no turn list, a turn without a known role or text, or too few turns.
    """
    data = parse_json(text)
    items = data.get("turns") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise ReplyError('it had no "turns" list')
    out: list[Line] = []
    for k, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            raise ReplyError(f"turn {k} was not an object")
        role = _ROLES.get(str(item.get("role", "")).strip().lower())
        said = item.get("text", item.get("content"))
        if role is None:
            raise ReplyError(f'turn {k} had no role "user" or "assistant"')
        if not isinstance(said, str) or not said.strip():
            raise ReplyError(f"turn {k} had no text")
        out.append((role, " ".join(said.split())))
    merged = merge_speakers(out)
    if len(merged) < min_turns:
        raise ReplyError(f"it had {len(merged)} turn(s), fewer than {min_turns}")
    return merged


def merge_speakers(lines: list[Line]) -> list[Line]:
    """Join consecutive lines of one speaker, so speakers alternate."""
    out: list[Line] = []
    for role, text in lines:
        if out and out[-1][0] == role:
            out[-1] = (role, f"{out[-1][1]} {text}")
        else:
            out.append((role, text))
    return out


def parse_vote(text: str) -> bool | None:
    """A verifier vote: True, False, or None when the reply says neither."""
    try:
        data = parse_json(text)
    except ReplyError:
        return None
    value = data.get("states") if isinstance(data, dict) else None
    return value if isinstance(value, bool) else None
