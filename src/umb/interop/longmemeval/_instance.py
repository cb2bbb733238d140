"""One LongMemEval instance -> one umb dialogue and one question."""

from __future__ import annotations

from typing import Any, Final

from umb._dates import parse_longmemeval_datetime, shift
from umb.bench import Dialogue, Evidence, Interlocutor, Question, Session, Turn
from umb.interop._log import InteropLog

#: Native question type -> umb family (an ``_abs`` id makes any type ABS).
LME_TYPES: Final[dict[str, str]] = {
    "single-session-user": "IE",
    "single-session-assistant": "IE",
    "single-session-preference": "IE",
    "multi-session": "MSR",
    "knowledge-update": "KU",
    "temporal-reasoning": "TR",
}

_FALLBACK_DATE = "1970-01-01T00:00"


def is_abstention_id(question_id: str) -> bool:
    """LongMemEval marks abstention questions by ``_abs`` anywhere in the id."""
    return "_abs" in question_id


def convert_instance(
    qid: str, inst: dict[str, Any], variant: str, log: InteropLog
) -> tuple[Dialogue, Question] | None:
    """Build the dialogue and question of one instance; None (logged) if it has no question."""
    if not isinstance(inst.get("question"), str):
        log.warn("question_malformed", qid, "no question text; skipped")
        return None
    qtype = str(inst.get("question_type", ""))
    if qtype not in LME_TYPES:
        log.warn("question_type_unknown", qid, f"{qtype!r}; imported as IE")
    abstention = is_abstention_id(qid)
    family = "ABS" if abstention else LME_TYPES.get(qtype, "IE")
    sessions, native_order, evidence_turns, gold, keyed = _sessions(qid, inst, log)
    by_native = {s.id.split(":", 1)[1]: s.id for s in sessions}
    answer_sids = inst.get("answer_session_ids", [])
    if not isinstance(answer_sids, list):
        log.warn("answer_sessions_malformed", qid, f"{answer_sids!r} is not a list")
        answer_sids = []
    ev_sessions = []
    for a in answer_sids:
        if str(a) in by_native:
            ev_sessions.append(by_native[str(a)])
        else:
            log.warn("answer_session_missing", qid, f"{a!r} is not in the haystack")
    raw_date = inst.get("question_date")
    asked_at = parse_longmemeval_datetime(raw_date) if isinstance(raw_date, str) else None
    last = max((s.started_at for s in sessions), default=None)
    if asked_at is None:
        asked_at = shift(last, days=1) if last else _FALLBACK_DATE
        log.warn("question_date_unparsed", qid, f"{raw_date!r}; using {asked_at}")
    elif last is not None and asked_at < last:
        log.warn("question_before_sessions", qid, f"asked {asked_at}, last session {last}")
    raw_answer = inst.get("answer")
    if not isinstance(raw_answer, str):
        log.warn("answer_not_string", qid, f"{type(raw_answer).__name__} answer cast to str")
    answer = "" if raw_answer is None else str(raw_answer)
    snippets = [t.text for t in evidence_turns]
    meta: dict[str, Any] = {
        "kind": "lme_abstention" if abstention else f"lme_{qtype.replace('-', '_')}",
        "source": "longmemeval",
        "native_id": qid,
        "native_category": qtype,
        "native_category_name": qtype,
        "native_answer": raw_answer,
        "is_abstention": abstention,
        "question_date": raw_date,
        "variant": variant,
        "answer_session_ids": answer_sids,
        "retrieval_gold": gold,
        # Which turns carry a has_answer key at all, so an export writes the same keys.
        "native_has_answer_keys": keyed,
    }
    if native_order is not None:
        meta["native_session_order"] = native_order
    if qtype == "single-session-preference":
        meta["answer_is_rubric"] = True
    gold, components = _gold(family, answer, snippets, asked_at)
    evidence = Evidence(
        session_ids=tuple(dict.fromkeys(ev_sessions)),
        turn_ids=tuple(t.id for t in evidence_turns),
    )
    interlocutor = Interlocutor("Assistant", "assistant", "LongMemEval chat history")
    dialogue = Dialogue(qid, "user", interlocutor, tuple(sessions))
    question = Question(
        qid, qid, family, inst["question"], asked_at, gold, components, evidence, meta
    )
    return dialogue, question


def _gold(
    family: str, answer: str, snippets: list[str], asked_at: str
) -> tuple[dict[str, Any], tuple[str, ...]]:
    if family == "ABS":
        return {"answerable": False, "answer": "not mentioned"}, ()
    if family == "MSR":
        return {"event_chain": snippets, "final_outcome": answer}, (answer,)
    if family == "KU":
        gold = {"latest_state": answer, "as_of_time": asked_at[:10], "deprecated_state": ""}
        return gold, (answer,)
    if family == "TR":
        return {"final_answer": answer, "days": None, "start_date": "", "end_date": ""}, (answer,)
    return {"answer": answer, "evidence_snippets": snippets}, (answer,)


def _sessions(
    qid: str, inst: dict[str, Any], log: InteropLog
) -> tuple[list[Session], list[str] | None, list[Turn], dict[str, list[str]], dict[str, Any]]:
    """Sessions in time order, the native order if it differed, and the evidence turns."""
    ids, dates, bodies = (
        inst.get(k) for k in ("haystack_session_ids", "haystack_dates", "haystack_sessions")
    )
    if not (isinstance(ids, list) and isinstance(dates, list) and isinstance(bodies, list)):
        log.warn("haystack_malformed", qid, "haystack fields missing or not lists; no sessions")
        return [], None, [], {"turn": [], "session": []}, {}
    if not len(ids) == len(dates) == len(bodies):
        n = min(len(ids), len(dates), len(bodies))
        log.warn(
            "haystack_length_mismatch",
            qid,
            f"{len(ids)}/{len(dates)}/{len(bodies)}; kept the first {n}",
        )
    built: list[tuple[str, int, Session, list[Turn], bool]] = []
    seen: set[str] = set()
    keyed: dict[str, Any] = {}
    prev = None
    for pos, (sid_raw, date, body) in enumerate(zip(ids, dates, bodies, strict=False)):
        sid = str(sid_raw)
        if sid in seen:
            log.warn("session_id_duplicate", qid, f"{sid} repeated; renamed {sid}#{pos}")
            sid = f"{sid}#{pos}"
        seen.add(sid)
        iso = parse_longmemeval_datetime(date) if isinstance(date, str) else None
        if iso is None:
            iso = prev or _FALLBACK_DATE
            log.warn("session_date_unparsed", f"{qid} {sid}", f"{date!r}; using {iso}")
        prev = iso
        turns, has_answer, user_gold, with_key = _turns(qid, sid, body, log)
        if with_key:
            keyed[sid] = "all" if len(with_key) == len(turns) else with_key
        built.append((iso, pos, Session(f"{qid}:{sid}", iso, tuple(turns)), has_answer, user_gold))
    order = sorted(built, key=lambda b: (b[0], b[1]))
    native_order = None
    if [b[1] for b in order] != [b[1] for b in built]:
        native_order = [b[2].id.split(":", 1)[1] for b in built]
    evidence = [t for b in order for t in b[3]]
    # The native retrieval gold: evidence ids carry "answer"; only user turns are indexed.
    gold_turns = [
        t.id
        for b in order
        if "answer" in b[2].id.split(":", 1)[1]
        for t in b[3]
        if t.role == "user"
    ]
    gold_sessions = [b[2].id for b in order if "answer" in b[2].id.split(":", 1)[1] and b[4]]
    gold = {"turn": gold_turns, "session": gold_sessions}
    return [b[2] for b in order], native_order, evidence, gold, keyed


def _turns(
    qid: str, sid: str, body: Any, log: InteropLog
) -> tuple[list[Turn], list[Turn], bool, list[int]]:
    if not isinstance(body, list):
        log.warn("session_malformed", f"{qid} {sid}", "not a list of turns; empty session")
        return [], [], False, []
    turns: list[Turn] = []
    evidence: list[Turn] = []
    with_key: list[int] = []
    for k, t in enumerate(body, start=1):
        if not isinstance(t, dict):
            log.warn("turn_malformed", f"{qid} {sid}_{k}", "not an object; kept as empty text")
            t = {}
        role = t.get("role")
        if role not in ("user", "assistant"):
            log.warn("turn_role_unknown", f"{qid} {sid}_{k}", f"role {role!r} read as user")
            role = "user"
        content = t.get("content")
        if not isinstance(content, str):
            log.warn("turn_text_not_string", f"{qid} {sid}_{k}", "content cast to str")
            content = "" if content is None else str(content)
        turn = Turn(f"{qid}:{sid}_{k}", role, role.capitalize(), content)
        turns.append(turn)
        if "has_answer" in t:
            with_key.append(k)
        if t.get("has_answer") is True:
            evidence.append(turn)
    user_gold = any(t.role == "user" for t in evidence)
    return turns, evidence, user_gold, with_key
