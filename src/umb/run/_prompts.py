"""Prompts for the answerer: one system policy, the dated history, then the question.

The question and the current date come *after* the history (the original release put the
question first). A long history pushes an early question far from where the model starts
writing; putting it last keeps the instruction next to the answer. Changing any wording here
changes what is measured, so bump :data:`PROMPT_VERSION` with it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Final

from umb._errors import ConfigError
from umb.bench import Question
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


FAMILY_INSTRUCTIONS: Final[dict[str, FamilyInstruction]] = {
    "IE": FamilyInstruction(
        goal="Recall one specific detail that was mentioned in the conversation.",
        rules=(
            "Give the detail itself as briefly as possible (a name, number, place, date or "
            "short phrase), not a sentence around it.",
            "Quote the line or lines of the history that state it as evidence.",
        ),
        fields=(
            ("answer", "string: the detail"),
            ("evidence_snippets", "list of strings: lines of the history that state it"),
        ),
        example={
            "answer": "Juniper",
            "evidence_snippets": ["We named the kitten Juniper after the tree in the yard."],
        },
    ),
    "TR": FamilyInstruction(
        goal="Work out dates and the number of days between events, or their order.",
        rules=(
            "Turn relative phrases ('two weeks ago', 'last Friday') into calendar dates using "
            "the date of the session they were said in.",
            "days must equal end_date minus start_date, with start_date the earlier date.",
            "For a question about how long ago something happened, end_date is the current date.",
            "If the question asks whether one thing happened before or after another on the "
            "same day, final_answer is 'before' or 'after', days is 0 and both dates are that day.",
        ),
        fields=(
            ("final_answer", "string: the answer in words"),
            ("days", "integer: number of days"),
            ("start_date", "string YYYY-MM-DD"),
            ("end_date", "string YYYY-MM-DD"),
        ),
        example={
            "final_answer": "45 days",
            "days": 45,
            "start_date": "2019-02-01",
            "end_date": "2019-03-18",
        },
    ),
    "KU": FamilyInstruction(
        goal="Report the current value of something that changed over time.",
        rules=(
            "Follow every change in the history and give the value that holds as of the "
            "current date, not an earlier one.",
            "as_of_time is the date (YYYY-MM-DD) from which the current value holds.",
            "deprecated_state is the value it replaced ('' if it never changed).",
        ),
        fields=(
            ("latest_state", "string: the current value"),
            ("as_of_time", "string YYYY-MM-DD"),
            ("deprecated_state", "string: the previous value"),
        ),
        example={
            "latest_state": "Harbor Street Bakery",
            "as_of_time": "2018-09-03",
            "deprecated_state": "Greenline Grocers",
        },
    ),
    "MSR": FamilyInstruction(
        goal="Trace how one situation led to another across several sessions.",
        rules=(
            "List the events that actually connect the start to the outcome, in the order they "
            "happened, 3 to 6 short steps.",
            "Keep the real intermediate events from the history; do not replace them with "
            "plausible ones.",
        ),
        fields=(
            ("event_chain", "list of strings: the steps in time order"),
            ("final_outcome", "string: where the chain ended up"),
        ),
        example={
            "event_chain": [
                "Lost the lease on the studio",
                "Moved the pottery wheel to a friend's garage",
                "Started selling bowls at the Saturday market",
            ],
            "final_outcome": "Opened a small shop with a market regular as partner",
        },
    ),
    "ES": FamilyInstruction(
        goal="Summarise what happened over a period or around one theme.",
        rules=(
            "Name the period covered as 'YYYY-MM-DD to YYYY-MM-DD'.",
            "List at most six key turning points in time order, each as a short phrase.",
            "Use the milestones the history actually mentions, not similar ones.",
        ),
        fields=(
            ("time_span", "string: 'YYYY-MM-DD to YYYY-MM-DD'"),
            ("key_turning_points", "list of strings: the turning points in time order"),
            ("summary", "string: two or three sentences"),
        ),
        example={
            "time_span": "2017-01-01 to 2017-12-31",
            "key_turning_points": ["Joined a running club", "Finished a first half marathon"],
            "summary": "A year that went from casual jogs to a first race.",
        },
    ),
    "MA": FamilyInstruction(
        goal="Check the question's assumption against the history before answering it.",
        rules=(
            "premise_verdict is 'incorrect' if the question assumes something the history "
            "contradicts, otherwise 'correct'.",
            "If it is incorrect, say what is wrong in premise_error and state the true facts "
            "in corrected_facts; if it is correct, premise_error is '' and corrected_facts "
            "may be empty.",
            "final_answer answers the question on the basis of the true facts.",
        ),
        fields=(
            ("premise_verdict", "string: 'correct' or 'incorrect'"),
            ("premise_error", "string: what the question got wrong, or ''"),
            ("corrected_facts", "list of strings: the true facts"),
            ("final_answer", "string: the answer"),
        ),
        example={
            "premise_verdict": "incorrect",
            "premise_error": "The trip was to Oslo, not Bergen.",
            "corrected_facts": ["The trip in June was to Oslo."],
            "final_answer": "The trip to Oslo lasted a week.",
        },
    ),
    "ABS": FamilyInstruction(
        goal="Answer only if the history actually contains the answer.",
        rules=(
            "If the history never mentions what is asked, set answerable to false and answer "
            "'not mentioned'.",
            "Otherwise set answerable to true and give the answer briefly.",
        ),
        fields=(
            ("answerable", "boolean"),
            ("answer", "string: the answer, or 'not mentioned'"),
        ),
        example={"answerable": False, "answer": "not mentioned"},
    ),
}


def family_instruction_text(family: str) -> str:
    """Render the instruction block for ``family`` (goal, rules, fields, example)."""
    try:
        inst = FAMILY_INSTRUCTIONS[family]
    except KeyError:
        raise ConfigError(f"unknown question family {family!r}") from None
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
