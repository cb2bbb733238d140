"""Export a umb benchmark directory to LongMemEval's JSON format (one instance per question).

A benchmark imported from LongMemEval gives its instances back (native ids, dates, session
order). Any other benchmark: each question's haystack is its dialogue's sessions that start
before ``asked_at``; evidence sessions are renamed ``answer_<id>`` (LongMemEval finds gold by
that substring) and their turns get ``has_answer``; the character's turns become role ``user``
(LongMemEval indexes only user turns, and it is the character whose life the questions ask
about). ``umb_dialogue`` / ``umb_question`` keys let ``umb import longmemeval`` restore umb ids.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from umb._dates import format_longmemeval_datetime
from umb.bench import Benchmark, Dialogue, Question, Session
from umb.interop._common import native_answer_text, umb_question_extension, write_export
from umb.interop._log import InteropLog
from umb.interop.longmemeval._instance import is_abstention_id

#: umb family -> the LongMemEval question type whose judge rule fits it best.
FAMILY_TO_TYPE = {
    "IE": "single-session-user",
    "MSR": "multi-session",
    "ES": "multi-session",
    "TR": "temporal-reasoning",
    "KU": "knowledge-update",
    "MA": "single-session-user",
    "ABS": "single-session-user",
}
_SWAP = {"user": "assistant", "assistant": "user"}


def export_longmemeval(root: str | Path, out: str | Path) -> InteropLog:
    """Write the benchmark at ``root`` as a LongMemEval JSON file ``out``; returns warnings."""
    bench = Benchmark.open(root)
    wanted = {q.dialogue_id for q in bench.questions}
    dialogues = {d.id: d for d in bench.iter_dialogues() if d.id in wanted}
    log = InteropLog()
    instances = []
    for q in bench.questions:
        d = dialogues.get(q.dialogue_id)
        if d is None:
            log.warn("question_without_dialogue", q.id, f"no dialogue {q.dialogue_id}; skipped")
            continue
        if q.meta.get("source") == "longmemeval":
            instances.append(_native_instance(q, d))
        else:
            instances.append(_umb_instance(q, d, log))
    write_export(Path(out), instances)
    return log


def _native_instance(q: Question, d: Dialogue) -> dict[str, Any]:
    by_native = {s.id.split(":", 1)[1]: s for s in d.sessions}
    order = q.meta.get("native_session_order") or list(by_native)
    sessions = [by_native[sid] for sid in order if sid in by_native]
    evidence = set(q.evidence.turn_ids)
    keyed = q.meta.get("native_has_answer_keys", {})
    return {
        "question_id": q.meta.get("native_id", q.id),
        "question_type": q.meta.get("native_category"),
        "question": q.query,
        "answer": q.meta.get("native_answer"),
        "question_date": q.meta.get("question_date") or format_longmemeval_datetime(q.asked_at),
        "haystack_session_ids": [s.id.split(":", 1)[1] for s in sessions],
        "haystack_dates": [format_longmemeval_datetime(s.started_at) for s in sessions],
        "haystack_sessions": [
            _native_turns(s, evidence, keyed.get(s.id.split(":", 1)[1])) for s in sessions
        ],
        "answer_session_ids": q.meta.get("answer_session_ids", []),
    }


def _umb_instance(q: Question, d: Dialogue, log: InteropLog) -> dict[str, Any]:
    sessions = [s for s in d.sessions if s.started_at < q.asked_at]
    if len(sessions) < len(d.sessions):
        log.warn(
            "sessions_after_question",
            q.id,
            f"{len(d.sessions) - len(sessions)} sessions start after asked_at; left out",
            count=1,
        )
    gold_sessions = set(q.evidence.session_ids)
    evidence = set(q.evidence.turn_ids)
    gold_sessions.update(s.id for s in sessions if any(t.id in evidence for t in s.turns))
    names = []
    for s in sessions:
        if s.id in gold_sessions:
            names.append(f"answer_{s.id}")
        else:
            if "answer" in s.id:
                log.warn(
                    "session_id_has_answer",
                    s.id,
                    "filler session id contains 'answer'; LongMemEval will take it for evidence",
                )
            names.append(s.id)
    qid = q.id
    if q.family == "ABS" and not is_abstention_id(qid):
        qid = f"{qid}_abs"
    elif q.family != "ABS" and is_abstention_id(qid):
        log.warn("abstention_id_clash", q.id, "id contains '_abs'; judged as abstention")
    answer = native_answer_text(q)
    if q.family == "ABS":
        answer = "The conversation history does not mention this."
    return {
        "question_id": qid,
        "question_type": FAMILY_TO_TYPE.get(q.family, "single-session-user"),
        "question": q.query,
        "answer": answer,
        "question_date": format_longmemeval_datetime(q.asked_at),
        "haystack_session_ids": names,
        "haystack_dates": [format_longmemeval_datetime(s.started_at) for s in sessions],
        "haystack_sessions": [
            _turns(s, evidence, marked=s.id in gold_sessions, swap=True) for s in sessions
        ],
        "answer_session_ids": [n for n in names if n.startswith("answer_")],
        "umb_dialogue": {
            "id": d.id,
            "character_id": d.character_id,
            "interlocutor": {
                "name": d.interlocutor.name,
                "role": d.interlocutor.role,
                "scene": d.interlocutor.scene,
            },
            "sessions": [
                {
                    "id": s.id,
                    "turns": [[t.id, t.role, t.speaker, list(t.fact_ids)] for t in s.turns],
                }
                for s in sessions
            ],
        },
        "umb_question": umb_question_extension(q),
    }


def _native_turns(s: Session, evidence: set[str], keyed: Any) -> list[dict[str, Any]]:
    """Turns as imported: ``has_answer`` only on the turns that had the key."""
    out = []
    for k, t in enumerate(s.turns, start=1):
        turn: dict[str, Any] = {"role": t.role, "content": t.text}
        if keyed == "all" or (isinstance(keyed, list) and k in keyed):
            turn["has_answer"] = t.id in evidence
        out.append(turn)
    return out


def _turns(s: Session, evidence: set[str], *, marked: bool, swap: bool) -> list[dict[str, Any]]:
    out = []
    for t in s.turns:
        turn: dict[str, Any] = {
            "role": _SWAP.get(t.role, t.role) if swap else t.role,
            "content": t.text,
        }
        if marked:
            turn["has_answer"] = t.id in evidence
        out.append(turn)
    return out
