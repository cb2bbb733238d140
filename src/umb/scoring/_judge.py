"""An optional LLM judge for the free-text fields the rules do not read.

Only three fields are judged: ES ``summary``, MSR ``final_outcome`` and MA ``final_answer``. The
judge (the ``judge`` model role) votes several times; the median vote is combined with the rule
score so that the judge can lower a score but never raise it above what the rules gave (table in
docs/scoring.md). If any vote fails, the item is left unscored (``None``), never counted as 0.
"""

from __future__ import annotations

import hashlib
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from umb._errors import ConfigError
from umb.bench import Question
from umb.families import JUDGED_FIELDS
from umb.models import GenerateRequest, GenerateResult, Message, ModelAPI
from umb.scoring._normalise import as_text
from umb.scoring._parsing import _first_object, _loads_object, strip_code_fence
from umb.scoring._record import Score

JUDGE_PROMPT_VERSION: Final = "1"

JUDGE_SYSTEM: Final = (
    "You grade one field of an answer against a reference written from the ground truth. "
    "Judge facts, not wording, length or style. Reply with exactly one JSON object and "
    "nothing else."
)

JUDGE_TEMPLATE: Final = (
    "Question asked: {query}\n"
    "Field graded: {field}\n"
    "Reference: {reference}\n"
    "Candidate: {candidate}\n\n"
    "Grades:\n"
    "- correct: the candidate states the reference's key facts and contradicts none of them.\n"
    "- partial: some key facts are right, others are missing or wrong.\n"
    "- wrong: the key facts are missing, or the candidate contradicts the reference.\n"
    'Reply as {{"verdict": "correct" | "partial" | "wrong", "reason": "<one sentence>"}}.\n'
    "(Independent review {vote} of {votes}.)"
)

JUDGE_PROMPT_SHA256: Final = hashlib.sha256(
    (JUDGE_SYSTEM + "\x00" + JUDGE_TEMPLATE).encode()
).hexdigest()

_VERDICTS: Final = {"correct": 1.0, "partial": 0.5, "wrong": 0.0, "incorrect": 0.0}


@dataclass(frozen=True, slots=True)
class JudgeOutcome:
    """The judge's decision on one field."""

    value: float | None
    """Median vote (0, 0.5 or 1); ``None`` if any vote failed."""
    votes: tuple[float | None, ...]
    reasons: tuple[str, ...]
    error: str | None = None


def _read_vote(result: GenerateResult) -> tuple[float | None, str]:
    if result.error:
        return None, f"error: {result.error}"
    obj = _loads_object(strip_code_fence(result.text)) or _first_object(result.text)
    if obj is None:
        return None, "unparseable judge reply"
    verdict = as_text(obj.get("verdict")).strip().lower()
    if verdict not in _VERDICTS:
        return None, f"unknown verdict {verdict!r}"
    return _VERDICTS[verdict], as_text(obj.get("reason"))


def floor_to_grid(x: float) -> float:
    """Round down onto the three-level grid {0, 0.5, 1}."""
    return 1.0 if x >= 1.0 else 0.5 if x >= 0.5 else 0.0


class Judge:
    """Grades free-text fields with a model in the judge role.

    Args:
        model: The judge model.
        votes: Votes per item (default 3); the median is taken.
        temperature: Sampling temperature of each vote.
        max_tokens: Generation limit of each vote.
    """

    def __init__(
        self, model: ModelAPI, *, votes: int = 3, temperature: float = 0.3, max_tokens: int = 256
    ) -> None:
        if votes < 1:
            raise ConfigError("judge votes must be at least 1")
        self.model = model
        self.votes = votes
        self.temperature = temperature
        self.max_tokens = max_tokens

    @staticmethod
    def applies_to(family: str) -> bool:
        """Whether ``family`` has a judged free-text field."""
        return family in JUDGED_FIELDS

    def requests(self, question: Question, answer: dict[str, Any]) -> list[GenerateRequest]:
        """The vote requests for one item.

        Each vote's prompt carries its number, so a response cache keyed on the messages keeps
        the votes apart instead of replaying the first one.
        """
        field = JUDGED_FIELDS[question.family]
        return [
            GenerateRequest(
                messages=(
                    Message("system", JUDGE_SYSTEM),
                    Message(
                        "user",
                        JUDGE_TEMPLATE.format(
                            query=question.query,
                            field=field,
                            reference=as_text(question.gold.get(field)),
                            candidate=as_text(answer.get(field)),
                            vote=k + 1,
                            votes=self.votes,
                        ),
                    ),
                ),
                max_tokens=self.max_tokens,
                temperature=self.temperature,
                json_mode=True,
            )
            for k in range(self.votes)
        ]

    async def grade_many(
        self, items: Sequence[tuple[Question, dict[str, Any]]]
    ) -> list[JudgeOutcome]:
        """Grade several (question, parsed answer) pairs in one batched model call."""
        requests = [r for q, a in items for r in self.requests(q, a)]
        if not requests:
            return []
        results = await self.model.generate(requests)
        outcomes = []
        for i in range(len(items)):
            read = [_read_vote(r) for r in results[i * self.votes : (i + 1) * self.votes]]
            votes = tuple(v for v, _ in read)
            reasons = tuple(reason for _, reason in read)
            if any(v is None for v in votes) or len(votes) != self.votes:
                outcomes.append(JudgeOutcome(None, votes, reasons, error="a judge vote failed"))
            else:
                value = statistics.median_low([v for v in votes if v is not None])
                outcomes.append(JudgeOutcome(value, votes, reasons))
        return outcomes

    def combine(self, rule: Score, outcome: JudgeOutcome, family: str) -> Score:
        """Merge a rule score with the judge's outcome (never above the rule score)."""
        details: dict[str, Any] = {
            "rule": rule.to_dict(),
            "judge": {
                "model": self.model.spec,
                "prompt_sha256": JUDGE_PROMPT_SHA256,
                "prompt_version": JUDGE_PROMPT_VERSION,
                "field": JUDGED_FIELDS[family],
                "votes": list(outcome.votes),
                "reasons": list(outcome.reasons),
                "value": outcome.value,
                "error": outcome.error,
            },
        }
        name = f"{rule.scorer}+judge"
        version = f"{rule.version}+j{JUDGE_PROMPT_VERSION}"
        if outcome.value is None or rule.value is None:
            return Score(None, name, version, details)
        value = min(rule.value, floor_to_grid((rule.value + outcome.value) / 2))
        return Score(value, name, version, details)
