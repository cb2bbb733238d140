"""Scoring entry points: parse a reply, apply the family's rule, optionally the judge.

Rules live in :mod:`umb.scoring._rules` (IE, TR, KU, MA, ABS) and :mod:`umb.scoring._chains` (MSR,
ES); :data:`SCORERS` loads each by its entry at its first lookup. A reply that is not a complete
answer object scores 0 in every family and says so in the details, so invalid JSON is both
counted and penalised.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from umb.bench import Question
from umb.scoring._parsing import ParseResult, Policy, parse_answer
from umb.scoring._record import SCORERS, Score, get_scorer

if TYPE_CHECKING:  # the judge's models are not loaded to score by rule (attribution does)
    from umb.scoring._judge import Judge

__all__ = ["SCORERS", "score_parsed", "score_replies", "score_reply"]


def score_parsed(question: Question, parsed: ParseResult) -> Score:
    """Rule-score a parsed reply; a failed parse scores 0 and is flagged in the details."""
    scorer = get_scorer(question.family)
    if parsed.answer is None or not parsed.ok:
        details = {
            "reason": parsed.error,
            "invalid_json": parsed.invalid_json,
            "missing_fields": list(parsed.missing_fields),
        }
        return Score(0.0, scorer.name, scorer.version, details)
    return scorer(question, parsed.answer)


def score_reply(
    question: Question, text: str, *, policy: Policy = "strict"
) -> tuple[ParseResult, Score]:
    """Parse one raw reply under ``policy`` and rule-score it."""
    parsed = parse_answer(text, question.family, policy=policy)
    return parsed, score_parsed(question, parsed)


async def score_replies(
    questions: Sequence[Question],
    texts: Sequence[str],
    *,
    policy: Policy = "strict",
    judge: Judge | None = None,
) -> list[tuple[ParseResult, Score]]:
    """Parse and score a batch of replies; with a judge, grade the free-text fields too.

    The judge is asked only about parsed answers of judged families whose rule score is above
    0 (it can lower a score, never raise it, so a 0 cannot change). All judge calls of the batch
    go to the judge model as one batch.

    Args:
        questions: The questions, in the order of ``texts``.
        texts: The raw replies (use ``""`` for a failed call: it scores 0 as invalid JSON).
        policy: The JSON policy.
        judge: An optional :class:`Judge`.

    Returns:
        One (parse result, score) pair per reply, in order.
    """
    if len(questions) != len(texts):
        raise ValueError("questions and texts differ in length")
    out = [score_reply(q, t, policy=policy) for q, t in zip(questions, texts, strict=True)]
    if judge is None:
        return out
    todo = [
        i
        for i, (q, (parsed, score)) in enumerate(zip(questions, out, strict=True))
        if judge.applies_to(q.family) and parsed.answer is not None and parsed.ok and score.value
    ]
    items = [(questions[i], out[i][0].answer or {}) for i in todo]
    outcomes = await judge.grade_many(items)
    for i, outcome in zip(todo, outcomes, strict=True):
        parsed, rule = out[i]
        out[i] = (parsed, judge.combine(rule, outcome, questions[i].family))
    return out
