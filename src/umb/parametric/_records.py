"""The text of training and evaluation records: prompts, gold outputs and their value spans.

A QA record's output is the family's JSON answer built from the gold, with fields in the order
of :data:`umb.families.REQUIRED_FIELDS`. The renderer also returns where each *value* sits in
that string, so the log-likelihood metric can score the remembered content (names, dates, steps)
and not the JSON punctuation and field names every answer of a family shares.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from umb.bench import Question
from umb.families import FAMILY_WEIGHTS, PRIMARY_FIELDS, REQUIRED_FIELDS
from umb.parametric._config import InstructionStyle
from umb.run import family_instruction_text

Span = tuple[int, int]


def _encode(value: Any, base: int, spans: list[Span]) -> str:
    if isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
        if len(text) > 2:
            spans.append((base + 1, base + len(text) - 1))
        return text
    if value is None or isinstance(value, bool | int | float):
        text = json.dumps(value)
        spans.append((base, base + len(text)))
        return text
    if isinstance(value, list | tuple):
        out = "["
        for i, item in enumerate(value):
            if i:
                out += ", "
            out += _encode(item, base + len(out), spans)
        return out + "]"
    if isinstance(value, dict):
        out = "{"
        for i, (key, item) in enumerate(value.items()):
            if i:
                out += ", "
            out += json.dumps(str(key), ensure_ascii=False) + ": "
            out += _encode(item, base + len(out), spans)
        return out + "}"
    raise TypeError(f"cannot encode {type(value).__name__} in an answer")


def answer_object(question: Question) -> dict[str, Any]:
    """The family's answer fields taken from the gold, in the family's field order.

    IE's ``evidence_snippets`` is left empty, as in the original: without the transcript there
    are no lines to quote, and the IE scorer reads only ``answer``.
    """
    fields = REQUIRED_FIELDS.get(question.family, tuple(question.gold))
    answer = {name: question.gold.get(name, "") for name in fields}
    if question.family == "IE":
        answer["evidence_snippets"] = []
    return answer


def render_output(question: Question) -> tuple[str, list[Span]]:
    """The gold answer as one JSON line, and the character spans of its values.

    The text equals ``json.dumps(answer_object(question), ensure_ascii=False)``.
    """
    spans: list[Span] = []
    return _encode(answer_object(question), 0, spans), spans


def reference(question: Question) -> str:
    """The gold's headline answer as a string (the original's ``gold_answer``)."""
    # The original's ``reference`` / ``gold_answer`` string is the family's primary field.
    value = question.gold.get(PRIMARY_FIELDS.get(question.family, ""), "")
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _compact_instructions(family: str) -> str:
    names = ", ".join(REQUIRED_FIELDS[family])
    return f"Reply with one JSON object with the fields: {names}."


def instruction(question: Question, character: str, style: InstructionStyle) -> str:
    """The answer-from-memory preamble of a QA record; the query follows it as the input.

    It names the character and the current date (``asked_at``: "how long ago" questions need
    it), then gives the family's answer instructions; ``full`` uses the very wording of the
    contextual evaluation, so the two settings differ only in where the memory lives.
    """
    when = dt.datetime.strptime(question.asked_at, "%Y-%m-%dT%H:%M")
    if style == "full":

        family_text = family_instruction_text(question.family)
    else:
        family_text = _compact_instructions(question.family)
    return "\n".join(
        [
            f"Answer from memory a question about {character}. Their conversations are not "
            "shown here; rely on what you learned from them.",
            f"Current date: {when:%Y-%m-%d} ({when:%A})",
            family_text,
            "[Question]",
        ]
    )


def join_prompt(instruction_text: str, query: str) -> str:
    """Instruction and input joined the way LLaMA-Factory joins alpaca columns."""
    return f"{instruction_text}\n{query}" if query else instruction_text


def natural_header(character: str, interlocutor: str, role: str) -> str:
    """The ``natural`` pre-training header."""
    return f"A conversation between {character} and {interlocutor}, {role}."


def structured_header(
    character: str, stage: int, index: int, total: int, first: str, last: str
) -> str:
    """The ``structured`` pre-training header: character, stage, segment and dates."""
    return (
        f"Character: {character}\nStage: {stage}\nSegment: {index}/{total}\n"
        f"Chronology: {first} to {last}"
    )


def upweight(questions: list[Question], per_character: int) -> list[tuple[Question, int]]:
    """The original's role-balanced up-weighting of one character's questions.

    Questions are ordered by family weight (heaviest first, ties in file order); more than
    ``per_character`` are cut to the first ones, fewer are cycled in that order until there are
    exactly ``per_character``.

    Returns:
        ``(question, copy index)`` pairs; copy 0 is the first occurrence.
    """
    if not questions:
        return []
    order = sorted(
        range(len(questions)), key=lambda i: (-FAMILY_WEIGHTS.get(questions[i].family, 1.0), i)
    )
    ranked = [questions[i] for i in order]
    return [(ranked[k % len(ranked)], k // len(ranked)) for k in range(per_character)]
