"""Re-import LongMemEval instances written by ``umb export --format longmemeval``.

Such instances carry ``umb_dialogue`` (ids, roles, speakers and fact ids parallel to the
haystack) and ``umb_question``; instances of one umb dialogue are merged back into it.
"""

from __future__ import annotations

from typing import Any

from umb._dates import parse_longmemeval_datetime
from umb.bench import Dialogue, Evidence, Interlocutor, Question, Session, Turn
from umb.interop._log import InteropLog
from umb.interop.longmemeval._instance import convert_instance


def merge_umb_instances(
    instances: list[dict[str, Any]], log: InteropLog
) -> tuple[list[Dialogue], list[Question]]:
    """Dialogues (sessions merged across instances) and questions of umb-exported instances."""
    heads: dict[str, dict[str, Any]] = {}
    sessions: dict[str, dict[str, Session]] = {}
    questions: list[Question] = []
    dialogues_native: list[Dialogue] = []
    for inst in instances:
        ext_d, ext_q = inst["umb_dialogue"], inst["umb_question"]
        qid = str(inst.get("question_id", ext_q.get("id", "")))
        try:
            built, evidence_turns = _sessions(inst, ext_d)
            did = str(ext_d["id"])
            question = _question(inst, ext_q, did, evidence_turns)
        except (KeyError, TypeError, ValueError, IndexError) as e:
            log.warn("umb_extension_mismatch", qid, f"umb fields unusable ({e}); read as native")
            converted = convert_instance(qid, inst, "umb-export", log)
            if converted is not None:
                dialogues_native.append(converted[0])
                questions.append(converted[1])
            continue
        heads.setdefault(did, ext_d)
        merged = sessions.setdefault(did, {})
        for s in built:
            merged.setdefault(s.id, s)
        questions.append(question)
    dialogues = [
        Dialogue(
            did,
            str(head["character_id"]),
            Interlocutor(**head["interlocutor"]),
            tuple(sorted(sessions[did].values(), key=lambda s: s.started_at)),
        )
        for did, head in heads.items()
    ]
    return dialogues + dialogues_native, questions


def _sessions(inst: dict[str, Any], ext_d: dict[str, Any]) -> tuple[list[Session], list[str]]:
    ext_sessions = ext_d["sessions"]
    bodies, dates = inst["haystack_sessions"], inst["haystack_dates"]
    if not len(ext_sessions) == len(bodies) == len(dates):
        raise ValueError("umb_dialogue sessions do not match the haystack")
    out, evidence = [], []
    for ext_s, body, date in zip(ext_sessions, bodies, dates, strict=True):
        iso = parse_longmemeval_datetime(date)
        if iso is None or len(ext_s["turns"]) != len(body):
            raise ValueError(f"session {ext_s['id']} does not match")
        turns = []
        for (tid, role, speaker, facts), t in zip(ext_s["turns"], body, strict=True):
            turns.append(Turn(str(tid), str(role), str(speaker), str(t["content"]), tuple(facts)))
            if t.get("has_answer") is True:
                evidence.append(str(tid))
        out.append(Session(str(ext_s["id"]), iso, tuple(turns)))
    return out, evidence


def _question(
    inst: dict[str, Any], ext: dict[str, Any], did: str, evidence_turns: list[str]
) -> Question:
    ev = ext.get("evidence", {})
    return Question(
        str(ext["id"]),
        did,
        str(ext["family"]),
        str(inst["question"]),
        str(ext["asked_at"]),
        dict(ext["gold"]),
        tuple(ext.get("answer_components", ())),
        Evidence(
            event_ids=tuple(ev.get("event_ids", ())),
            fact_ids=tuple(ev.get("fact_ids", ())),
            session_ids=tuple(ev.get("session_ids", ())),
            turn_ids=tuple(evidence_turns),
        ),
        dict(ext.get("meta", {})),
    )
