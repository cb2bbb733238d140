"""The Mem0 harness's LLM judge ("J") on LoCoMo, with its shape and umb's own wording.

Shape of ``evaluation/metrics/llm_judge.py`` (specs/peer-benchmarks.md §2): one user message
with the question, the gold answer and the generated answer; temperature 0; JSON response mode;
the reply's ``label`` must be ``CORRECT`` for 1 (any other label is 0); category 5 is skipped.
A reply that is not a JSON object with a ``label`` is a judge error (unscored and counted; the
harness itself would stop there). ``votes`` repeats the request and averages the labels, as the
Mem0 paper averages J over repeated runs. J is reported per category and overall (micro).

The default template is umb's wording of the documented semantics (generous: the same topic, or
for time questions the same date or period, counts as correct); give the harness's own text
with ``--judge-template FILE`` (key ``default``; fields ``question``, ``gold_answer``,
``generated_answer``).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any, Final

from umb.bench import Question
from umb.interop._common import native_answer_text
from umb.interop._judge_templates import TemplateSet, builtin
from umb.interop._scorer_base import locomo_category, mean, record, scores_by_category
from umb.models import GenerateRequest, GenerateResult, Message, ModelAPI
from umb.scoring import strip_code_fence

REFERENCE_JUDGE: Final = "gpt-4o-mini"
_SKIP: Final = "category 5 (adversarial) is not scored by the Mem0 harness"
TEMPLATES: Final = {
    "default": (
        "You are grading an answer to a question that one person asked another about their "
        "earlier conversations. You get the question, the gold answer (short) and a generated "
        "answer (possibly long). Be generous: the generated answer is CORRECT when it is about "
        "the same thing as the gold answer. For a question about time, it is CORRECT when it "
        "names the same date or period, in any format or as a relative expression.\n\n"
        "Question: {question}\nGold answer: {gold_answer}\nGenerated answer: {generated_answer}"
        '\n\nGive a one-sentence reason, then the label, as a JSON object: {{"reason": "...", '
        '"label": "CORRECT"}} or {{"reason": "...", "label": "WRONG"}}.'
    )
}
BUILTIN: Final = builtin(TEMPLATES)


def read_label(result: GenerateResult) -> tuple[float | None, str | None]:
    """(1 for CORRECT, 0 for any other label, None for no label) and the error, if any."""
    if result.error:
        return None, result.error
    try:
        data = json.loads(strip_code_fence(result.text.strip()))
    except json.JSONDecodeError:
        return None, "reply is not JSON"
    if not isinstance(data, dict) or "label" not in data:
        return None, "reply has no label"
    return (1.0 if data["label"] == "CORRECT" else 0.0), None


class Mem0Judge:
    """J: the Mem0 harness's CORRECT/WRONG judge, run through any model."""

    name = "mem0_judge"
    description = "The CORRECT/WRONG LLM judge of mem0's LoCoMo evaluation."
    version = "1"
    higher_is_better = True
    needs_judge: Final = True
    template_keys: Final = tuple(TEMPLATES)
    template_fields: Final = ("question", "gold_answer", "generated_answer")
    header_fields: Final = {"judge_prompt_set_hash": BUILTIN.sha256}

    def __init__(self, judge: ModelAPI, templates: TemplateSet | None = None, votes: int = 1):
        self.judge = judge
        self.templates = templates or BUILTIN
        self.votes = max(1, votes)

    def failed_record(self, question: Question) -> dict[str, Any]:
        """No answer: 0 (category 5 stays skipped), and the judge is not asked."""
        cat = locomo_category(question)
        if cat == 5:
            return record(self, question, None, skipped=_SKIP, category=cat)
        return record(self, question, 0.0, judge_model=self.judge.spec, category=cat)

    async def score_batch(
        self, questions: Sequence[Question], predictions: Sequence[str]
    ) -> list[dict[str, Any]]:
        """Judge every scored pair, all votes in one batched model call."""
        todo = [(q, str(p)) for q, p in zip(questions, predictions, strict=True)]
        asked = [(q, p) for q, p in todo if locomo_category(q) != 5]
        requests = [
            GenerateRequest(
                messages=(Message("user", self._prompt(q, p)),),
                max_tokens=256,
                temperature=0.0,
                json_mode=True,
                task={"kind": "judge", "scorer": self.name, "question_id": q.id, "vote": v},
            )
            for q, p in asked
            for v in range(self.votes)
        ]
        results = iter(await self.judge.generate(requests))
        out = []
        for q, _ in todo:
            cat = locomo_category(q)
            if cat == 5:
                out.append(record(self, q, None, skipped=_SKIP, category=cat))
                continue
            votes = [read_label(next(results)) for _ in range(self.votes)]
            labels = [v for v, _ in votes if v is not None]
            errors = [e for v, e in votes if v is None]
            out.append(
                record(
                    self,
                    q,
                    mean(labels) if not errors else None,
                    judge_model=self.judge.spec,
                    prompt_hash=self.templates.sha256,
                    template_set=self.templates.name,
                    category=cat,
                    votes=[v for v, _ in votes],
                    temperature=0.0,
                    reference_judge=REFERENCE_JUDGE,
                    judge_error=errors[0] if errors else None,
                )
            )
        return out

    def _prompt(self, q: Question, prediction: str) -> str:
        fields = {
            "question": q.query,
            "gold_answer": native_answer_text(q),
            "generated_answer": prediction,
        }
        return self.templates.render("default", fields)

    def score(self, question: Question, prediction_text: str) -> dict[str, Any]:
        """Judge one pair (outside an event loop)."""
        return self.score_many([question], [prediction_text])[0]

    def score_many(
        self, questions: Sequence[Question], predictions: Sequence[str]
    ) -> list[dict[str, Any]]:
        """Judge many pairs synchronously, in one batch."""
        return asyncio.run(self.score_batch(questions, predictions))

    def aggregate(self, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """J per native category and overall (micro over judged items); errors counted."""
        by_cat = scores_by_category(records)
        every = [v for vs in by_cat.values() for v in vs]
        return {
            "scorer": self.name,
            "scorer_version": self.version,
            "judge_model": self.judge.spec,
            "template_set": next(
                (r["template_set"] for r in records if "template_set" in r), "umb"
            ),
            "per_category": {
                str(c): {"n": len(vs), "J": mean(vs)} for c, vs in sorted(by_cat.items())
            },
            "n": len(every),
            "J": mean(every),
            "n_skipped": sum(1 for r in records if r["skipped"]),
            "n_judge_errors": sum(1 for r in records if r["score"] is None and not r["skipped"]),
        }
