"""The ``offline`` model of state tracking: a rule follower with a bounded memory.

It reads only the prompt text (never the world, the ladder or the gold): the people, the task,
the query times and the fact lines. It applies each task's rule exactly, but remembers only the
most recent ``window_tokens`` tokens of fact lines, as a model with a short left-truncated
context would. So it is perfect on small prompts and falls off once the facts outgrow its
window: a reference curve that any model should be compared with, not a model to beat easily.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from datetime import date
from typing import Any, Final

from umb._errors import ConfigError
from umb._tokens import estimate_tokens
from umb.models import GenerateRequest, GenerateResult
from umb.statetrack._facts import EPOCH
from umb.statetrack._prompts import FACTS_END, FACTS_START
from umb.statetrack._tasks import TASKS, Item, TaskName, gold_for

DEFAULT_WINDOW_TOKENS: Final = 2048

_LINE: Final = re.compile(r"^schema=【(?P<schema>.*?)】 \| (?P<when>\w+=\S+) \| fact=(?P<fact>.*)$")
_AS_OF: Final = re.compile(r"\bas of ((?:day_ts|date|days_ago)=\S+?):")
_PROBE: Final = re.compile(r"^- (?P<person>.+?) \| (?P<schema>.+?) \| (?P<when>\w+=\S+)$")


def parse_when(field: str) -> int:
    """A time field as a comparable day number (``days_ago`` counts backwards).

    Raises:
        ValueError: Not a time field of the ladder.
    """
    name, _, value = field.partition("=")
    if name == "day_ts":
        return int(value)
    if name == "date":
        return (date.fromisoformat(value) - EPOCH).days
    if name == "days_ago":
        return -int(value)
    raise ValueError(f"not a time field: {field!r}")


def _value(text: str, person: str, schema: str) -> str:
    for verb in ("was", "changed to"):
        head = f"{person}'s {schema} {verb} "
        if text.startswith(head):
            return text[len(head) :].removesuffix(".")
    return text


def answer(prompt: str, window_tokens: int) -> dict[str, Any]:
    """The baseline's answer object for one ladder prompt.

    Raises:
        ConfigError: The prompt is not a state-tracking ladder prompt.
    """
    head, found, rest = prompt.partition(FACTS_START)
    task_match = re.search(r"^Task: (\w+)$", head, re.MULTILINE)
    people_match = re.search(r"^People: (.+)$", head, re.MULTILINE)
    if not found or task_match is None or people_match is None:
        raise ConfigError("the state-tracking baseline only reads `umb statetrack` prompts")
    task = next((t for t in TASKS if t == task_match.group(1)), None)
    if task is None:
        raise ConfigError(f"the state-tracking baseline has no rule for {task_match.group(1)!r}")
    people = people_match.group(1).split(" (")[0].split("; ")
    lines = [raw for raw in rest.partition(FACTS_END)[0].splitlines() if raw.strip()]
    kept: list[str] = []
    budget = window_tokens
    for raw in reversed(lines):  # the most recent lines survive a left truncation
        budget -= estimate_tokens(raw) + 1
        if budget < 0:
            break
        kept.append(raw)
    groups: dict[tuple[str, str], list[Item]] = {}
    for raw in reversed(kept):
        m = _LINE.match(raw.strip())
        if m is None:
            continue
        text, schema = m.group("fact"), m.group("schema")
        person = next((p for p in people if text.startswith(f"{p}'s ")), None)
        if person is None:
            continue
        item = Item(parse_when(m.group("when")), _value(text, person, schema), text)
        groups.setdefault((person, schema), []).append(item)
    return _apply(task, people, groups, head)


def _apply(
    task: TaskName, people: list[str], groups: dict[tuple[str, str], list[Item]], head: str
) -> dict[str, Any]:
    out: dict[str, Any] = {p: {task: {}} for p in people}
    if task == "value_at":
        for raw in head.splitlines():
            m = _PROBE.match(raw.strip())
            key = (m.group("person"), m.group("schema")) if m else None
            if m is None or key not in groups:
                continue
            gold = gold_for(task, groups[key], parse_when(m.group("when")))
            out.setdefault(key[0], {task: {}})[task][key[1]] = gold.answer
        return out
    as_of = None
    if task == "latest":
        m = _AS_OF.search(head)
        if m is None:
            raise ConfigError("a `latest` prompt without its `as of` time")
        as_of = parse_when(m.group(1))
    for (person, schema), items in groups.items():
        out[person][task][schema] = gold_for(task, items, as_of).answer
    return out


class StatetrackBaseline:
    """The ``offline`` model of ``umb statetrack eval``; see the module docstring.

    Args:
        window_tokens: How many tokens of fact lines (the most recent ones) it remembers.
    """

    spec = "offline"

    def __init__(self, window_tokens: int = DEFAULT_WINDOW_TOKENS) -> None:
        if window_tokens < 1:
            raise ConfigError(f"the baseline window must be at least 1 token, not {window_tokens}")
        self.window_tokens = window_tokens

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResult]:
        """Answer each request from the text of its last message."""
        results = []
        for request in requests:
            start = time.perf_counter()
            prompt = request.messages[-1].content
            text = json.dumps(answer(prompt, self.window_tokens), ensure_ascii=False)
            results.append(
                GenerateResult(
                    text=text,
                    input_tokens=sum(estimate_tokens(m.content) for m in request.messages),
                    output_tokens=estimate_tokens(text),
                    latency_s=time.perf_counter() - start,
                )
            )
        return results
