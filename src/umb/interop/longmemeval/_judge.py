"""LongMemEval's yes/no judge, one rule per question type (umb's own wording by default).

The authors' exact prompts come from the user: a template file or their own checkout
(:mod:`umb.interop._judge_templates`); records and the summary name the set that was used.

The decisions follow ``src/evaluation/evaluate_qa.py`` (specs/peer-benchmarks.md §3.4): one
user message, temperature 0, at most 10 tokens, label = the lower-cased reply contains
``yes``. Abstention (``_abs`` ids) uses its own rule whatever the type. Aggregates: accuracy per
type, task-averaged accuracy (mean of type means), overall micro accuracy, abstention accuracy.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Sequence
from typing import Any, Final

from umb._errors import ConfigError
from umb.bench import Question
from umb.interop._common import native_answer_text, text_hash
from umb.interop._judge_templates import TemplateSet, builtin, judge_templates_from_checkout
from umb.interop._scorer_base import mean, record
from umb.interop.longmemeval._export import FAMILY_TO_TYPE
from umb.interop.longmemeval._instance import LME_TYPES, is_abstention_id
from umb.models import GenerateRequest, Message, ModelAPI

#: The judge the published LongMemEval numbers use; records say whether ours matched it.
REFERENCE_JUDGE: Final = "gpt-4o-2024-08-06"
PARSE_RULE: Final = "'yes' in reply.lower()"

_ASK = "\n\nQuestion: {question}\n\n{gold_label}: {answer}\n\nModel response: {response}\n\n"
_CORE = (
    "You are checking a model's answer. You get a question, the correct answer and the "
    "model's response. Reply yes if the response contains the correct answer, says something "
    "equivalent, or walks through every intermediate step that leads to it. Reply no if it "
    "gives only part of the information the correct answer needs."
)
TEMPLATES: Final[dict[str, str]] = {
    "standard": _CORE + _ASK + "Is the response correct? Reply yes or no only.",
    "temporal-reasoning": _CORE
    + " Do not penalise an off-by-one error in a count of days, weeks, months or similar "
    "units (say 19 days where the correct answer is 18): such a response is still correct."
    + _ASK
    + "Is the response correct? Reply yes or no only.",
    "knowledge-update": (
        "You are checking a model's answer. You get a question, the correct answer and the "
        "model's response. Reply yes if the response contains the correct answer. If it also "
        "mentions older information next to the updated answer, it is still correct as long "
        "as the updated answer is the one it gives." + _ASK + "Is the response correct? "
        "Reply yes or no only."
    ),
    "single-session-preference": (
        "You are checking a personalised response. You get a question, a rubric describing "
        "the response the user would want, and the model's response. Reply yes if the "
        "response satisfies the rubric. It need not cover every point: it is correct as long "
        "as it remembers and uses the user's personal information correctly."
        + _ASK
        + "Does the response satisfy the rubric? Reply yes or no only."
    ),
    "abstention": (
        "You are checking a model's response to a question that cannot be answered from the "
        "conversation history. You get the question, an explanation of why it cannot be "
        "answered, and the response. Reply yes if the response recognises that the question "
        "cannot be answered, for example by saying the information is missing or incomplete, "
        "or that only related information was mentioned." + _ASK + "Does the response treat "
        "the question as unanswerable? Reply yes or no only."
    ),
}
BUILTIN: Final = builtin(TEMPLATES)
PROMPT_SET_HASH: Final = BUILTIN.sha256
TEMPLATE_KEYS: Final = tuple(TEMPLATES)
TEMPLATE_FIELDS: Final = ("question", "answer", "response", "question_type")
"""The fields a user's template may use."""
_DEFAULT_ABS_EXPLANATION = "The conversation history does not contain this information."


def question_type(q: Question) -> str:
    """The native type of an imported question; the closest type for any other family."""
    native = q.meta.get("native_category")
    if q.meta.get("source") == "longmemeval" and native in LME_TYPES:
        return str(native)
    return FAMILY_TO_TYPE.get(q.family, "single-session-user")


def is_abstention(q: Question) -> bool:
    """Abstention by the native ``_abs`` id rule, or by umb's ABS family."""
    return q.family == "ABS" or is_abstention_id(str(q.meta.get("native_id", "")))


def template_key(q: Question) -> str:
    """Which template judges ``q``."""
    if is_abstention(q):
        return "abstention"
    qtype = question_type(q)
    return qtype if qtype in TEMPLATES else "standard"


def build_prompt(q: Question, prediction: str, templates: TemplateSet = BUILTIN) -> str:
    """The filled judge prompt for one question and response."""
    key = template_key(q)
    answer = native_answer_text(q)
    if key == "abstention" and q.meta.get("source") != "longmemeval":
        answer = _DEFAULT_ABS_EXPLANATION
    label = {"abstention": "Explanation", "single-session-preference": "Rubric"}.get(
        key, "Correct answer"
    )
    fields = {"question": q.query, "answer": answer, "response": prediction}
    return templates.render(key, {**fields, "gold_label": label, "question_type": question_type(q)})


class LongMemEvalJudge:
    """The per-type yes/no judge, run through any :class:`~umb.models._api.ModelAPI`."""

    name = "longmemeval_judge"
    description = "LongMemEval's LLM judge with its per-type prompts."
    version = "1"
    higher_is_better = True
    needs_judge: Final = True
    template_keys: Final = TEMPLATE_KEYS
    template_fields: Final = TEMPLATE_FIELDS
    # ``--judge-template-from CHECKOUT``: the prompts of the original's own code.
    templates_from_checkout = staticmethod(judge_templates_from_checkout)

    header_fields: Final = {"judge_prompt_set_hash": PROMPT_SET_HASH}
    """What a run's header pins about this scorer besides name and version."""

    def __init__(self, judge: ModelAPI, templates: TemplateSet | None = None) -> None:
        self.judge = judge
        self.templates = templates or BUILTIN

    def failed_record(self, question: Question) -> dict[str, Any]:
        """The record of a reply that gave no answer: 0, and the judge is not asked."""
        return record(
            self,
            question,
            0.0,
            judge_model=self.judge.spec,
            question_type=question_type(question),
            abstention=is_abstention(question),
            judge_error=None,
        )

    async def score_batch(
        self, questions: Sequence[Question], predictions: Sequence[str]
    ) -> list[dict[str, Any]]:
        """Judge every (question, prediction) pair in one batched model call."""
        pairs = list(zip(questions, predictions, strict=True))
        requests = [
            GenerateRequest(
                messages=(Message("user", build_prompt(q, str(p), self.templates)),),
                max_tokens=10,
                temperature=0.0,
                json_mode=False,
                task={
                    "kind": "judge",
                    "scorer": self.name,
                    "question_id": q.id,
                    "question_type": question_type(q),
                    "abstention": is_abstention(q),
                },
            )
            for q, p in pairs
        ]
        results = await self.judge.generate(requests)
        out = []
        for (q, _), res in zip(pairs, results, strict=True):
            key = template_key(q)
            label = None if res.error else "yes" in res.text.strip().lower()
            out.append(
                record(
                    self,
                    q,
                    None if label is None else float(label),
                    judge_model=self.judge.spec,
                    prompt_hash=text_hash(TEMPLATES[key])
                    if self.templates is BUILTIN
                    else self.templates.sha256,
                    prompt_set_hash=self.templates.sha256,
                    template_set=self.templates.name,
                    template=key,
                    question_type=question_type(q),
                    abstention=is_abstention(q),
                    temperature=0.0,
                    parse_rule=PARSE_RULE,
                    reference_judge=REFERENCE_JUDGE,
                    judge_reply=res.text,
                    judge_error=res.error,
                )
            )
        return out

    def score(self, question: Question, prediction_text: str) -> dict[str, Any]:
        """Judge one pair synchronously (outside an event loop; inside, await score_batch)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(self.score_batch([question], [prediction_text]))[0]
        raise ConfigError(
            "LongMemEvalJudge.score called inside an event loop; await score_batch instead"
        )

    def score_many(
        self, questions: Sequence[Question], predictions: Sequence[str]
    ) -> list[dict[str, Any]]:
        """Judge many pairs synchronously, in one batch."""
        return asyncio.run(self.score_batch(questions, predictions))

    def aggregate(self, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """Per-type, task-averaged, overall and abstention accuracy; judge failures counted."""
        by_type: dict[str, list[float]] = defaultdict(list)
        abst: list[float] = []
        for r in records:
            if r["score"] is None:
                continue
            by_type[r["question_type"]].append(r["score"])
            if r["abstention"]:
                abst.append(r["score"])
        type_means = {t: mean(v) for t, v in sorted(by_type.items())}
        every = [v for vs in by_type.values() for v in vs]
        return {
            "scorer": self.name,
            "scorer_version": self.version,
            "judge_model": self.judge.spec,
            "judge_is_reference": self.judge.spec.split("/")[-1] == REFERENCE_JUDGE,
            "prompt_set_hash": next(
                (r["prompt_set_hash"] for r in records if r.get("prompt_set_hash")), PROMPT_SET_HASH
            ),
            "template_set": next(
                (r["template_set"] for r in records if r.get("template_set")), "umb"
            ),
            "per_type": {t: {"n": len(by_type[t]), "accuracy": m} for t, m in type_means.items()},
            "task_averaged_accuracy": mean([m for m in type_means.values() if m is not None]),
            "overall_accuracy": mean(every),
            "n": len(every),
            "abstention_accuracy": mean(abst),
            "n_abstention": len(abst),
            "n_judge_errors": sum(1 for r in records if r["score"] is None and not r["skipped"]),
        }
