"""Attribute one failed question to an error type and its decisive faulty operation.

The procedure, in order (each step returns as soon as it decides):

1. **JudgeError** — the family's rule scores the recorded answer 1, yet the record says less
   (an LLM judge vote, or a score operation that contradicts the gold match).
2. **AnnotationError** — a needed fact is stated by none of its evidence turns (or only by turns
   of sessions after the question). No operation is at fault.
3. **ResponseError** — every needed fact was in the context (ABS: always, since nothing was
   needed); the answer operation is at fault.
4. Otherwise, for each needed fact missing from the context, where it was lost, looking at the
   store as it stood when the retrieval ran:

   - a live memory (or RAG unit, or summary) still stated it → **RetrievalError** at the retrieval
     (KU: unless a stale memory was left live because the new value was added beside it → that
     decision, **UpdateError**);
   - a memory stated it once, then an update or a deletion lost it → **UpdateError** /
     **DeletionError** at that operation;
   - a candidate fact stated it, but the decision (or the add / update applying it) never stored
     it → **UpdateError** at that operation (the decision stage is Mem0's update stage);
   - nothing extracted from the evidence turns stated it → **ExtractionError** at the first
     extraction that read them;
   - a system without a write path (full context, RAG) lost it at the retrieval.

   The decisive operation is the earliest loss (correcting it, with everything downstream ideal,
   saves the answer).

Following a fact is by value (:mod:`umb.attribute._facts`) restricted to versions derived
from the fact's evidence turns, so a value repeated elsewhere in the history is not mistaken for
it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from umb.attribute._carriers import Carriers
from umb.attribute._evidence import Matcher, QuestionInputs, find_evidence
from umb.attribute._facts import Need, golden_answers
from umb.attribute._graph import STORED_ROLES, SystemView, op_kind
from umb.attribute._loss import Loss, find_loss
from umb.attribute._needs import build_needs
from umb.attribute._types import (
    ANNOTATION,
    JUDGE,
    RESPONSE,
    UNATTRIBUTED,
    Attribution,
)
from umb.scoring import get_scorer
from umb.trace import NodeKey, Operation, role_of, turn_var

if TYPE_CHECKING:
    from umb.bench import Question


def _last(ops: list[Operation], kind: str) -> Operation | None:
    found = [o for o in ops if op_kind(o) == kind]
    return found[-1] if found else None


def _judged_wrong(question: Question, record: Mapping[str, Any]) -> str | None:
    """Why the recorded score contradicts the rule's own verdict on the same answer, if it does."""
    if record.get("score_by", "umb") != "umb" or record.get("parse_status") != "ok":
        return None
    answer = record.get("answer")
    if not isinstance(answer, dict):
        return None

    rule = get_scorer(question.family)(question, answer)
    if rule.value is None or rule.value < 1.0:
        return None
    details = record.get("score_details")
    judged = isinstance(details, dict) and isinstance(details.get("judge"), dict)
    by = "the LLM judge" if judged else f"the score operation ({record.get('scorer')})"
    return (
        f"{rule.scorer} matches the answer with the gold (score 1), but {by} recorded "
        f"{record.get('score')}"
    )


def _items(retrieve: Operation) -> list[NodeKey]:
    """What a retrieval placed in the context: turns, memory units, RAG units, summaries."""
    return [k for k in retrieve.reads if role_of(k[0]) == "turn" or role_of(k[0]) in STORED_ROLES]


def _in_context(retrieve: Operation, carriers: Carriers, view: SystemView) -> NodeKey | None:
    items = _items(retrieve)
    for k in items:
        if carriers(k):
            return k
    if not items:
        # A retrieval that recorded no items: judge by the context it wrote.
        for k in retrieve.writes:
            if carriers.need.structural:
                continue
            if carriers.matcher.states(view.text(k), carriers.need):
                return k
    return None


def attribute_question(
    inputs: QuestionInputs, view: SystemView | None, matcher: Matcher | None = None
) -> Attribution:
    """Attribute one failed question (see the module docstring for the procedure).

    Args:
        inputs: The question, its run record and the benchmark's turns and facts.
        view: The question's system in the run's trace (``None`` when the run has no trace).
        matcher: Value matching, with the optional LLM check.

    Returns:
        The :class:`Attribution`.
    """
    q, record = inputs.question, inputs.record
    matcher = matcher or Matcher()
    base = Attribution(
        question_id=q.id,
        system=str(record.get("system", view.system if view else "")),
        error_type=UNATTRIBUTED,
        op_id=None,
        op_name=None,
        reason="",
        golden_answers=tuple(golden_answers(q)),
        dialogue_id=q.dialogue_id,
        family=q.family,
        score=record.get("score"),
        evidence_turn_ids=tuple(q.evidence.turn_ids),
    )
    ops = view.question_ops(q.id) if view is not None else []
    if view is None or not ops:
        return replace(base, reason="the trace holds no operations for this question")
    retrieve, answer, score = _last(ops, "retrieve"), _last(ops, "answer"), _last(ops, "score")

    def at(op: Operation | None, error_type: str, reason: str, **kw: Any) -> Attribution:
        op_id, name = (op.id, op.name) if op is not None else (None, None)
        return replace(base, error_type=error_type, op_id=op_id, op_name=name,
                       reason=reason, **kw)  # fmt: skip

    why = _judged_wrong(q, record)
    if why is not None:
        return at(score, JUDGE, why, path=(score.id,) if score is not None else ())
    needs = build_needs(q, inputs.facts)
    evidence: list[tuple[Need, list[str]]] = []
    for need in needs:
        followed, turns, problem = find_evidence(inputs, need, matcher, view)
        if problem is not None:
            return at(None, ANNOTATION, problem)
        evidence.append((followed, turns))
    ev_ids = tuple(dict.fromkeys(t for _, ts in evidence for t in ts)) or base.evidence_turn_ids
    base = replace(base, evidence_turn_ids=ev_ids)
    if not needs:
        return at(answer, RESPONSE, _response_reason(q, record, []), path=_answer_path(answer))
    if retrieve is None:
        return replace(base, reason="the trace has no retrieval for this question")
    facts: list[dict[str, Any]] = []
    losses: list[Loss] = []
    present: list[tuple[Need, Carriers, NodeKey]] = []
    for need, turns in evidence:
        carriers = Carriers(view, matcher, need, frozenset(turn_var(t) for t in turns))
        found = _in_context(retrieve, carriers, view)
        entry = {"label": need.label, "value": need.shown, "turns": turns}
        if found is not None:
            present.append((need, carriers, found))
            facts.append({**entry, "status": "in context", "node": f"{found[0]}@{found[1]}"})
            continue
        loss = find_loss(view, carriers, retrieve, q.dialogue_id)
        losses.append(loss)
        facts.append({**entry, "status": loss.error_type, "op_id": loss.op.id if loss.op else None})
    base = replace(base, facts=tuple(facts))
    if not losses:
        need, carriers, node = present[0]
        path = [*view.path(carriers.turns, node), retrieve.id, *_answer_path(answer)]
        stale = any(c.stale(k) for _, c, _ in present for k in _items(retrieve) if c.need.stale)
        reason = _response_reason(q, record, present, stale)
        return at(answer, RESPONSE, reason, path=tuple(path))
    first = min(losses, key=lambda x: x.op.seq if x.op is not None else 1 << 62)
    reason = first.reason
    if len(losses) > 1:
        reason += f" ({len(losses)} of {len(needs)} needed facts missing from the context)"
    return at(first.op, first.error_type, reason, path=tuple(first.path))


def _answer_path(answer: Operation | None) -> list[str]:
    if answer is None:
        return []
    outs = [f"{i}@{v}" for i, v in answer.writes]
    return [f"{i}@{v}" for i, v in answer.reads if role_of(i) == "context"] + [answer.id, *outs]


def _response_reason(
    q: Question,
    record: Mapping[str, Any],
    present: list[tuple[Need, Carriers, NodeKey]],
    stale: bool = False,
) -> str:
    if record.get("error"):
        return f"the answer call failed: {str(record['error'])[:120]}"
    if record.get("parse_status") not in (None, "ok"):
        return f"the reply was not a usable answer object ({record.get('parse_status')})"
    if not present:
        return "the question is about something that never happened, and the answer did not abstain"
    shown = ", ".join(n.named.removeprefix("the ") for n, _, _ in present)
    reason = f"the context held everything needed ({shown}), yet the answer was wrong"
    if stale:
        reason += "; a superseded value was in the context too"
    return reason
