"""Prompts for the answerer: one system policy, the dated history, then the question.

The question and the current date come *after* the history (the original release put the
question first). A long history pushes an early question far from where the model starts
writing; putting it last keeps the instruction next to the answer. Changing any wording here
changes what is measured, so bump :data:`PROMPT_VERSION` with it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

from umb.bench import Question
from umb.families import FAMILY_REGISTRY
from umb.interop import current_date_line
from umb.models import GenerateRequest, Message
from umb.run._schemas import answer_schema

PROMPT_VERSION: Final = "1"

SYSTEM_POLICY: Final = (
    "You answer questions about a long conversation history between a person and someone they "
    "talk to over many dated sessions. Rely only on what the history says; do not invent details "
    "and do not use outside knowledge about the people in it. Dates in the history are the dates "
    "of the sessions; phrases such as 'yesterday' or 'last Tuesday' are relative to the session "
    "they were said in. If the history does not contain what is asked, say so in the answer "
    "fields instead of guessing. Reply with exactly one JSON object that has the requested "
    "fields, and nothing else: no prose before or after it and no code fences."
)


@dataclass(frozen=True, slots=True)
class FamilyInstruction:
    """What one question family asks for."""

    goal: str
    rules: tuple[str, ...]
    fields: tuple[tuple[str, str], ...]
    """(field name, type and meaning) in the order the answer should list them."""
    example: dict[str, Any]
    """A tiny, made-up answer of the right shape (not about any benchmark character)."""


class _Instructions(Mapping[str, FamilyInstruction]):
    """The registered families' instructions, read from their :class:`~umb.families.Family`."""

    def __getitem__(self, code: str) -> FamilyInstruction:
        family = FAMILY_REGISTRY[code]
        fields = tuple((f.name, f.meaning) for f in family.fields)
        return FamilyInstruction(family.goal, family.rules, fields, dict(family.example))

    def __iter__(self) -> Iterator[str]:
        return iter(FAMILY_REGISTRY)

    def __len__(self) -> int:
        return len(FAMILY_REGISTRY)


FAMILY_INSTRUCTIONS: Final[Mapping[str, FamilyInstruction]] = _Instructions()
"""Family code -> what its prompt asks for (a live view of :data:`umb.families.FAMILY_REGISTRY`)."""


def family_instruction_text(family: str) -> str:
    """Render the instruction block for ``family`` (goal, rules, fields, example)."""
    FAMILY_REGISTRY.get_or_raise(family)  # unknown: a ConfigError naming the known families
    inst = FAMILY_INSTRUCTIONS[family]
    lines = [f"Task: {inst.goal}", "Rules:"]
    lines += [f"- {rule}" for rule in inst.rules]
    lines.append("Reply with one JSON object with these fields:")
    lines += [f"- {name}: {meaning}" for name, meaning in inst.fields]
    lines.append("Example of the shape (made-up content): " + json.dumps(inst.example))
    return "\n".join(lines)


def build_messages(question: Question, context_text: str) -> tuple[Message, ...]:
    """Build the answerer's chat messages for one question.

    Args:
        question: The question; its ``family``, ``query`` and ``asked_at`` are used.
        context_text: The history a memory system retrieved, already rendered with session
            dates (``[Session 3 | 2021-03-20 18:30]`` headers or ``[2021-03-20] …`` units).

    Returns:
        A system message with the answer policy and a user message with the history, the
        current date, the question and the family's instruction, in that order.
    """
    history = context_text.strip() or "(no history is available)"
    user = "\n".join(
        [
            "Conversation history:",
            "<<<",
            history,
            ">>>",
            "",
            current_date_line(question.asked_at),
            f"Question: {question.query}",
            "",
            family_instruction_text(question.family),
        ]
    )
    return (Message("system", SYSTEM_POLICY), Message("user", user))


def build_request(
    question: Question,
    context_text: str,
    *,
    include_gold: bool,
    max_tokens: int = 1024,
    temperature: float = 0.0,
) -> GenerateRequest:
    """Build the answerer's request, with the ``task`` the non-LLM backends read.

    ``task`` always holds what the ``offline`` reader may see (family, query, asked_at and the
    context text); the gold answer is added only when ``include_gold`` is set, which the runner
    does for the ``oracle`` model alone.

    Args:
        question: The question to ask.
        context_text: The rendered history handed to the answerer.
        include_gold: Put ``question.gold`` into ``task["gold"]`` (oracle runs only).
        max_tokens: Generation limit.
        temperature: Sampling temperature.
    """
    task: dict[str, Any] = {
        "family": question.family,
        "query": question.query,
        "asked_at": question.asked_at,
        "context": context_text,
    }
    if include_gold:
        task["gold"] = question.gold
    return GenerateRequest(
        messages=build_messages(question, context_text),
        max_tokens=max_tokens,
        temperature=temperature,
        json_mode=True,
        # Backends that take a schema decode under it (``--structured-output``); others ignore it.
        json_schema=answer_schema(question.family),
        task=task,
    )


def prompt_sha256(messages: tuple[Message, ...] | list[Message]) -> str:
    """A stable hash of a prompt (roles and contents), for run records."""
    h = hashlib.sha256()
    for m in messages:
        h.update(m.role.encode())
        h.update(b"\x00")
        h.update(m.content.encode())
        h.update(b"\x01")
    return h.hexdigest()
