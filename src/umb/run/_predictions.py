"""A predictions file: the answers of a system that umb did not run, one JSON object a line.

Each line has ``question_id`` (umb's id, or the peer's native id: LoCoMo ``conv-26#0``,
LongMemEval ``question_id``), ``answer`` (text, or the family's answer object for umb's rules;
``null`` for no answer) and optionally ``retrieved`` (turn or session ids, best first). Other
fields are ignored. Ids that match no question are counted and listed, as are questions
without a prediction; a broken line or an id given twice is refused with its line number.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from umb._errors import DataError
from umb._jsonio import iter_jsonl
from umb.bench import Question
from umb.scoring import Prediction


@dataclass(frozen=True)
class PredictionSet:
    """The predictions of a file matched to a benchmark's questions."""

    predictions: list[Prediction]
    """One per matched question, in benchmark order."""
    unknown: list[str]
    """Ids of the file that match no question, in file order."""
    missing: list[str]
    """Questions of the benchmark with no prediction (umb ids, benchmark order)."""
    lines: int
    """Non-empty lines of the file."""


def _retrieved(path: Path, lineno: int, value: Any, q: Question) -> tuple[str, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise DataError(str(path), lineno, "'retrieved' must be a list of id strings")
    # Native ids (LongMemEval ``answer_x_1``, LoCoMo ``D1:3``) get the dialogue prefix umb's
    # turn and session ids carry, so both spellings name the same turn.
    prefix = f"{q.dialogue_id}:"
    return tuple(v if v.startswith(prefix) else prefix + v for v in value)


def _answer(path: Path, lineno: int, value: Any) -> str | dict[str, Any] | None:
    if value is None or isinstance(value, str | dict):
        return value
    if isinstance(value, int | float | bool | list):
        return orjson.dumps(value).decode()  # a bare number or list, read as its JSON text
    raise DataError(str(path), lineno, f"'answer' must be text or an object, not {value!r}")


def read_predictions(path: Path, questions: list[Question]) -> PredictionSet:
    """Read ``path`` and match each line to a question of ``questions`` (see module docstring).

    Raises:
        DataError: ``file:line: reason`` for a line that is not a JSON object, lacks
            ``question_id``, has a malformed field, or repeats a question.
    """
    by_id: dict[str, Question] = {q.id: q for q in questions}
    for question in questions:
        native = question.meta.get("native_id")
        if native is not None:
            by_id.setdefault(str(native), question)
    found: dict[str, tuple[int, Prediction]] = {}
    unknown: list[str] = []
    lines = 0
    row: Any
    for lineno, row in iter_jsonl(path):
        lines += 1
        if not isinstance(row, dict):
            raise DataError(str(path), lineno, "not a JSON object")
        qid = row.get("question_id")
        if not isinstance(qid, str | int) or isinstance(qid, bool):
            raise DataError(str(path), lineno, "no 'question_id'")
        q = by_id.get(str(qid))
        if q is None:
            unknown.append(str(qid))
            continue
        if q.id in found:
            first = found[q.id][0]
            raise DataError(str(path), lineno, f"{qid} already has a prediction (line {first})")
        if "answer" not in row:
            raise DataError(str(path), lineno, "no 'answer' (use null for no answer)")
        answer = _answer(path, lineno, row["answer"])
        retrieved = _retrieved(path, lineno, row.get("retrieved"), q)
        failure = "no answer" if answer is None else None
        found[q.id] = (lineno, Prediction(q, answer, retrieved, failure))
    return PredictionSet(
        [found[q.id][1] for q in questions if q.id in found],
        unknown,
        [q.id for q in questions if q.id not in found],
        lines,
    )
