"""One question, start to finish: prompt, model call, parse, score, and the record that says so."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from umb.bench import Question
from umb.eval._judge import Judge
from umb.eval._parsing import Policy
from umb.eval._prompts import build_request, prompt_sha256
from umb.eval._score import Score, get_scorer
from umb.eval._scoring import score_replies
from umb.memory import RetrievedContext
from umb.models._api import GenerateResult, ModelAPI

MAX_SOURCE_TURN_IDS: Final = 500
"""Records list at most this many source turn ids (``null`` beyond it, with the count kept)."""


async def answer_question(
    answerer: ModelAPI,
    question: Question,
    context: RetrievedContext,
    *,
    system: str,
    include_gold: bool,
    max_tokens: int = 1024,
    policy: Policy = "strict",
    judge: Judge | None = None,
) -> dict[str, Any]:
    """Ask ``answerer`` one question with the retrieved context and score the reply.

    Args:
        answerer: The answering model.
        question: The question.
        context: What the memory system retrieved for it.
        system: The memory system's name, for the record.
        include_gold: Put the gold answer in the request's task (the ``oracle`` model only).
        max_tokens: Answer length limit.
        policy: JSON parsing policy.
        judge: Optional judge of the free-text fields.

    Returns:
        The run record (field list in docs/evaluation.md). A failed model call is recorded with
        ``error`` set and scored 0.
    """
    request = build_request(
        question, context.text, include_gold=include_gold, max_tokens=max_tokens
    )
    (result,) = await answerer.generate([request])
    scored = await _score(question, result, policy, judge)
    return {
        "system": system,
        "model": answerer.spec,
        "question_id": question.id,
        "dialogue_id": question.dialogue_id,
        "family": question.family,
        "query": question.query,
        "asked_at": question.asked_at,
        "gold": question.gold,
        **_context_fields(question, context),
        "prompt_sha256": prompt_sha256(request.messages),
        "raw_output": result.text,
        **scored,
        "input_tokens": result.input_tokens,
        "output_tokens": result.output_tokens,
        "cached": result.cached,
        "latency_s": round(result.latency_s, 6),
        "error": result.error,
    }


async def _score(
    question: Question, result: GenerateResult, policy: Policy, judge: Judge | None
) -> dict[str, Any]:
    if result.error is not None:
        scorer = get_scorer(question.family)
        # A failed call counts as a wrong answer: leaving it out would flatter the model.
        score = Score(0.0, scorer.name, scorer.version, {"reason": "model_error"})
        return _score_fields(None, "error", False, (), score)
    ((parsed, score),) = await score_replies([question], [result.text], policy=policy, judge=judge)
    return _score_fields(
        parsed.answer, parsed.error or "ok", parsed.invalid_json, parsed.missing_fields, score
    )


def _context_fields(question: Question, context: RetrievedContext) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    for key, value in context.meta.items():
        if isinstance(value, list | tuple) and len(value) > MAX_SOURCE_TURN_IDS:
            meta[key], meta[f"{key}_count"] = None, len(value)  # same cap as the turn ids
        else:
            meta[key] = value
    retrieve_s = float(meta.pop("retrieve_latency_s", 0.0))
    write_s = float(meta.pop("write_latency_s", 0.0))
    sources = context.source_turn_ids
    found = set(sources)
    return {
        "context_ids": list(context.item_ids),
        # A whole long history would put thousands of ids in every record (a gigabyte of
        # records for full_context on the umb preset); past the cap only the count is kept, and
        # which evidence turns made it in is always recorded.
        "source_turn_ids": list(sources) if len(sources) <= MAX_SOURCE_TURN_IDS else None,
        "source_turn_count": len(sources),
        "evidence_in_context": [t for t in question.evidence.turn_ids if t in found],
        "context_tokens": context.tokens,
        "context_meta": meta,
        "retrieve_latency_s": round(retrieve_s, 6),
        "write_latency_s": round(write_s, 6),
    }


def _score_fields(
    answer: dict[str, Any] | None,
    status: str,
    invalid_json: bool,
    missing: Sequence[str],
    score: Score,
) -> dict[str, Any]:
    return {
        "answer": answer,
        "parse_status": status,
        "invalid_json": invalid_json,
        "missing_fields": list(missing),
        "score": score.value,
        "scorer": f"{score.scorer}@{score.version}",
        "score_details": score.details,
    }
