"""Prompts and reply parsing for memory systems whose extractor is a language model.

Replies are parsed tolerantly (code fences and text around the JSON object are ignored) but a
reply without a usable object is rejected, never guessed at: the caller skips that batch and
counts it.
"""

from __future__ import annotations

import json
import re
from typing import Any

from umb.bench import Session
from umb.memory._render import render_session, unit_date
from umb.memory._units import EVENTS
from umb.models import GenerateRequest, Message

_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.IGNORECASE)

EXTRACT_SYSTEM = """You extract long-term memories about {name} from a conversation.
Write down every fact about {name}'s life worth remembering later: events, plans, people,
places, jobs, possessions, preferences, relationships and changes to any of them. Keep names,
numbers and dates. Each fact is one short standalone sentence in the third person that names
{name}. The conversation took place on {date}; turn relative dates ("last Tuesday") into
calendar dates where you can.
Reply with JSON only: {{"facts": ["...", "..."]}}. Reply {{"facts": []}} if there is nothing."""

DECIDE_SYSTEM = """You maintain a memory store. Compare each new fact with the existing memories
and choose one operation per item:
- ADD: the fact is new information. Give it a new id.
- UPDATE: an existing memory is about the same thing but the fact changes or enriches it.
  Keep that memory's id and give the new text.
- DELETE: the fact says an existing memory is no longer true. Give that memory's id.
- NONE: the fact is already known. Give the existing memory's id.
Reply with JSON only:
{"memory": [{"id": "<id>", "text": "<memory text>", "event": "ADD|UPDATE|DELETE|NONE"}]}"""

SUMMARY_SYSTEM = """You keep a running memory of {name}'s conversations as one summary per
session. Summarise the session below in at most five sentences, in the third person. Keep every
name, date, number and place, and every change in {name}'s life (a new job, a move, a new or
ended relationship, a new pet or car, a new hobby). The session took place on {date}.
Reply with the summary text only."""


def extract_request(session: Session, name: str, position: int) -> GenerateRequest:
    """The fact-extraction request for one session (``name`` is the character)."""
    system = EXTRACT_SYSTEM.format(name=name, date=unit_date(session.started_at))
    return GenerateRequest(
        messages=(Message("system", system), Message("user", render_session(session, position))),
        max_tokens=1024,
        json_mode=True,
        task={"kind": "memory_extract", "session_id": session.id},
    )


def decide_request(existing: list[dict[str, str]], facts: list[str]) -> GenerateRequest:
    """The operation-decision request: existing memories (with short ids) against new facts."""
    user = (
        "Existing memories:\n"
        + json.dumps(existing, ensure_ascii=False)
        + "\n\nNew facts:\n"
        + json.dumps(facts, ensure_ascii=False)
    )
    return GenerateRequest(
        messages=(Message("system", DECIDE_SYSTEM), Message("user", user)),
        max_tokens=2048,
        json_mode=True,
        task={"kind": "memory_decide"},
    )


def summary_request(session: Session, name: str, position: int, previous: str) -> GenerateRequest:
    """The summary request for one session, with the previous session's summary for context."""
    system = SUMMARY_SYSTEM.format(name=name, date=unit_date(session.started_at))
    before = f"Summary of the previous session: {previous}\n\n" if previous else ""
    return GenerateRequest(
        messages=(
            Message("system", system),
            Message("user", before + "Session:\n" + render_session(session, position)),
        ),
        max_tokens=512,
        json_mode=False,
        task={"kind": "memory_summary", "session_id": session.id},
    )


def parse_object(text: str) -> dict[str, Any] | None:
    """The JSON object in a reply (fences and surrounding prose ignored), or ``None``."""
    body = _FENCE.sub("", text.strip())
    candidates = [body]
    start, end = body.find("{"), body.rfind("}")
    if 0 <= start < end:
        candidates.append(body[start : end + 1])
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


def parse_facts(text: str) -> list[str] | None:
    """``{"facts": [...]}`` -> the fact strings; ``None`` if the reply is not of that shape.

    Items may be strings or objects with a ``text`` (or ``fact``) field.
    """
    obj = parse_object(text)
    if obj is None or not isinstance(obj.get("facts"), list):
        return None
    facts = []
    for item in obj["facts"]:
        if isinstance(item, dict):
            item = item.get("text", item.get("fact"))
        if not isinstance(item, str):
            return None
        if item.strip():
            facts.append(" ".join(item.split()))
    return facts


def parse_operations(text: str) -> list[dict[str, str]] | None:
    """``{"memory": [...]}`` -> operations with ``id``, ``text`` and an upper-case ``event``.

    Returns ``None`` if the reply is not of that shape. Items with an unknown event are kept
    with ``event`` as given, for the caller to count and skip.
    """
    obj = parse_object(text)
    if obj is None or not isinstance(obj.get("memory"), list):
        return None
    ops = []
    for item in obj["memory"]:
        if not isinstance(item, dict):
            return None
        event = str(item.get("event", "")).strip().upper()
        ops.append(
            {
                "id": str(item.get("id", "")).strip(),
                "text": " ".join(str(item.get("text", "")).split()),
                "event": event if event in EVENTS else f"?{event}",
            }
        )
    return ops
