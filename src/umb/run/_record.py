"""One question, start to finish: prompt, model call, parse, score, and the record that says so."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from umb.bench import Question
from umb.memory import RetrievedContext
from umb.models import GenerateResult, ModelAPI
from umb.run._profiles import PROFILE_VERSION, build_profile_request, profile_for
from umb.run._prompts import build_request, prompt_sha256
from umb.run._traces import answer_op, record_answer, record_score, score_op
from umb.scoring import (
    NATIVE_SCORER,
    Judge,
    PeerScoring,
    Policy,
    Prediction,
    Score,
    get_scorer,
    parse_answer,
    retrieval_record,
    score_replies,
)

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
    peer: PeerScoring | None = None,
    top_k: int = 10,
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
        judge: Optional judge of the free-text fields (umb's scorer only).
        peer: A peer answer scorer; the question is then asked under its benchmark's answer
            profile (:mod:`umb.run._profiles`) and the reply's ``answer`` text is scored.
        top_k: The memory systems' ``top_k`` (the largest retrieval cut-off reported).

    Returns:
        The run record (field list in docs/evaluation.md). A failed model call is recorded with
        ``error`` set and scored 0.

    Under an active tracer the model call is recorded as the question's ``answer`` operation
    and the scoring as its ``score`` operation (see docs/tracing.md).
    """
    if peer is None:
        request = build_request(
            question, context.text, include_gold=include_gold, max_tokens=max_tokens
        )
    else:
        request = build_profile_request(
            question, context.text, include_gold=include_gold, max_tokens=max_tokens
        )
    with answer_op(question, answerer.spec) as answering:
        (result,) = await answerer.generate([request])
        record_answer(answering, question, result)
    with score_op(question, result.error is None) as scoring:
        if peer is None:
            scored = await _score(question, result, policy, judge)
        else:
            scored = await _score_peer(question, result, policy, peer)
        record_score(scoring, question, scored)
    trace_ops = None
    if answering.id is not None:
        trace_ops = {"retrieve": context.trace_op_id, "answer": answering.id, "score": scoring.id}
    return {
        "system": system,
        "model": answerer.spec,
        "question_id": question.id,
        "dialogue_id": question.dialogue_id,
        "family": question.family,
        "query": question.query,
        "asked_at": question.asked_at,
        "gold": question.gold,
        **_native_fields(question),
        **_context_fields(question, context, top_k),
        "prompt_sha256": prompt_sha256(request.messages),
        "raw_output": result.text,
        **scored,
        "input_tokens": result.input_tokens,
        "output_tokens": result.output_tokens,
        "cached": result.cached,
        "latency_s": round(result.latency_s, 6),
        "error": result.error,
        "trace_ops": trace_ops,
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


async def _score_peer(
    question: Question, result: GenerateResult, policy: Policy, peer: PeerScoring
) -> dict[str, Any]:

    profile = profile_for(question)
    base = {"answer_profile": f"{profile.name}@{PROFILE_VERSION}", "prediction": None}
    if result.error is not None:
        details = peer.failed(question, "model_error")
        return {**base, **_peer_fields(None, "error", False, (), details, peer)}
    # Profiles ask for {"answer": ...}; IE's required fields are that plus a soft default.
    parsed = parse_answer(result.text, "IE", policy=policy)
    answer = parsed.answer
    if answer is not None:
        for name in parsed.defaults_applied:
            answer.pop(name, None)
    status = parsed.error or "ok"
    missing = tuple(f for f in parsed.missing_fields if f == "answer")
    if answer is None or not parsed.ok:
        details = peer.failed(question, status)
        return {**base, **_peer_fields(answer, status, parsed.invalid_json, missing, details, peer)}
    prediction = profile.prediction(question, answer)
    (score,) = await peer.score_many([Prediction(question, prediction)])
    fields = _peer_fields(answer, status, False, (), score.details, peer)
    return {**base, "prediction": prediction, **fields}


def _peer_fields(
    answer: dict[str, Any] | None,
    status: str,
    invalid_json: bool,
    missing: Sequence[str],
    details: dict[str, Any],
    peer: PeerScoring,
) -> dict[str, Any]:
    return {
        "answer": answer,
        "parse_status": status,
        "invalid_json": invalid_json,
        "missing_fields": list(missing),
        "score": details.get("score"),
        "scorer": f"{peer.name}@{peer.version}",
        "score_details": details,
        "score_by": peer.name,
        "scorer_name": peer.name,
        "scorer_version": peer.version,
        "judge_model": details.get("judge_model"),
        "judge_prompt_hash": details.get("prompt_hash"),
    }


def _native_fields(question: Question) -> dict[str, Any]:
    """The peer's ids and category of an imported question (None for umb's own)."""
    meta = question.meta
    return {
        "source": meta.get("source"),
        "native_id": meta.get("native_id"),
        "native_category": meta.get("native_category"),
        "native_category_name": meta.get("native_category_name"),
    }


def _context_fields(question: Question, context: RetrievedContext, top_k: int) -> dict[str, Any]:
    raw = dict(context.meta)
    # A RAG system's units best first: kept as ids, and used for the retrieval cut-offs.
    ranking = raw.pop("ranking", None)
    meta: dict[str, Any] = {}
    for key, value in raw.items():
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
        "ranked_ids": None if ranking is None else [unit for unit, _ in ranking],
        "retrieval": retrieval_record(
            question, sources, ranking, top_k=top_k, granularity=meta.get("granularity")
        ),
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
    judged = score.details.get("judge") if isinstance(score.details, dict) else None
    judged = judged if isinstance(judged, dict) else {}
    return {
        "answer": answer,
        "parse_status": status,
        "invalid_json": invalid_json,
        "missing_fields": list(missing),
        "score": score.value,
        "scorer": f"{score.scorer}@{score.version}",
        "score_details": score.details,
        "score_by": NATIVE_SCORER,
        "scorer_name": score.scorer,
        "scorer_version": score.version,
        "judge_model": judged.get("model"),
        "judge_prompt_hash": judged.get("prompt_sha256"),
        "answer_profile": None,
        "prediction": None,
    }
