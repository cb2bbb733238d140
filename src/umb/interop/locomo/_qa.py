"""One LoCoMo ``qa`` item -> one umb question (gold by family, evidence repaired and logged)."""

from __future__ import annotations

import re
from typing import Any

from umb.bench import Evidence, Question, Turn
from umb.interop._log import InteropLog
from umb.interop.locomo._spec import CATEGORIES, is_canonical_dia_id, split_evidence_entry

#: native dia_id -> (turn, id of its session)
TurnIndex = dict[str, tuple[Turn, str]]

_PADDED = re.compile(r"^D\d+:\d+$")
_NATIVE_KEYS = ("question", "answer", "evidence", "category", "adversarial_answer", "umb_question")


def build_question(
    sid: str,
    did: str,
    k: int,
    item: Any,
    turn_by_dia: TurnIndex,
    asked_at: str,
    log: InteropLog,
) -> Question | None:
    """Build question ``k`` of sample ``sid``; None (logged) when the item is unusable."""
    where = f"{sid} qa[{k}]"
    if not isinstance(item, dict) or not isinstance(item.get("question"), str):
        log.warn("question_malformed", where, "no question text; skipped")
        return None
    cat_raw = item.get("category")
    cat = CATEGORIES.get(cat_raw) if isinstance(cat_raw, int) else None
    if cat is None:
        log.warn("category_unknown", where, f"category {cat_raw!r}; imported as IE")
    answer_text = _answer_text(item, cat_raw, where, log)
    dias = _evidence(item.get("evidence"), turn_by_dia, where, log)
    ev_turns = [turn_by_dia[d][0] for d in dias]
    snippets = [f"{t.speaker}: {t.text}" for t in ev_turns]
    family = cat.family if cat else "IE"
    gold, components = _gold(family, cat_raw, answer_text, snippets)
    meta: dict[str, Any] = {
        "kind": f"locomo_{cat.name.replace('-', '_')}" if cat else "locomo_unknown",
        "source": "locomo",
        "native_id": f"{sid}#{k}",
        "native_index": k,
        "native_category": cat_raw,
        "native_category_name": cat.name if cat else "unknown",
        "mem0_paper_label": cat.mem0_paper_label if cat else None,
        "native_evidence": item.get("evidence"),
    }
    if "answer" in item:
        meta["native_answer"] = item["answer"]
    if "adversarial_answer" in item:
        meta["adversarial_answer"] = item["adversarial_answer"]
    extra = {key: v for key, v in item.items() if key not in _NATIVE_KEYS}
    if extra:
        meta["native_extra"] = extra
    session_ids = tuple(dict.fromkeys(turn_by_dia[d][1] for d in dias))
    evidence = Evidence(session_ids=session_ids, turn_ids=tuple(t.id for t in ev_turns))
    qid = f"Q-{sid}-{k + 1:04d}"
    ext = item.get("umb_question")
    if isinstance(ext, dict):
        try:
            return _from_extension(ext, did, item["question"], evidence)
        except (KeyError, TypeError, ValueError) as e:
            log.warn("umb_extension_mismatch", where, f"umb_question unusable ({e}); ignored")
    return Question(qid, did, family, item["question"], asked_at, gold, components, evidence, meta)


def _answer_text(item: dict[str, Any], cat: Any, where: str, log: InteropLog) -> str:
    if "answer" not in item:
        if cat != 5:
            log.warn("answer_missing", where, "no `answer`; gold answer is empty")
        return ""
    raw = item["answer"]
    if cat == 5:
        log.warn("adversarial_with_answer", where, f"category 5 with answer {raw!r} (kept in meta)")
    if not isinstance(raw, str):
        log.warn("answer_not_string", where, f"{type(raw).__name__} answer {raw!r} cast to str")
    text = "" if raw is None else str(raw)
    if cat == 3 and ";" in text:
        log.warn("answer_with_explanation", where, "open-domain answer has a ';' explanation")
    return text


def _evidence(raw: Any, turns: TurnIndex, where: str, log: InteropLog) -> list[str]:
    """Resolved native ids, in order, without repeats; each anomaly logged once."""
    if raw is None or (isinstance(raw, list) and not raw):
        log.warn("evidence_empty", where, "no evidence ids")
        return []
    if not isinstance(raw, list):
        log.warn("evidence_malformed", where, f"evidence {raw!r} is not a list; read as one entry")
        raw = [raw]
    out: list[str] = []
    for entry in raw:
        ids = split_evidence_entry(entry)
        text = entry.strip() if isinstance(entry, str) else ""
        if not ids:
            log.warn("evidence_malformed", where, f"{entry!r} names no turn; dropped")
            continue
        if is_canonical_dia_id(text):
            pass
        elif _PADDED.match(text):
            # A well-formed id that is not a turn as written (``D30:05``); the unpadded
            # reading is what the annotator meant when that turn exists.
            known = ids[0] in turns
            log.warn(
                "evidence_unknown_id",
                where,
                f"{entry!r} is not a turn" + (f"; read as {ids[0]}" if known else "; dropped"),
            )
            if known:
                out.append(ids[0])
            continue
        else:
            log.warn("evidence_malformed", where, f"{entry!r} read as {', '.join(ids)}")
        for d in ids:
            if d in turns:
                out.append(d)
            else:
                log.warn("evidence_unknown_id", where, f"{d} is not a turn; dropped")
    return list(dict.fromkeys(out))


def _gold(
    family: str, cat: Any, answer: str, snippets: list[str]
) -> tuple[dict[str, Any], tuple[str, ...]]:
    short = answer.split(";")[0].strip() if cat == 3 else answer
    if family == "MSR":
        parts = tuple(p.strip() for p in answer.split(",") if p.strip())
        return {"event_chain": snippets, "final_outcome": answer}, parts
    if family == "TR":
        return {"final_answer": answer, "days": None, "start_date": "", "end_date": ""}, (answer,)
    if family == "ABS":
        return {"answerable": False, "answer": "not mentioned"}, ()
    return {"answer": answer, "evidence_snippets": snippets}, (short,) if short else ()


def _from_extension(ext: dict[str, Any], did: str, query: str, evidence: Evidence) -> Question:
    ev = ext.get("evidence", {})
    if not isinstance(ev, dict):
        raise TypeError(f"evidence is {type(ev).__name__}, not an object")
    return Question(
        str(ext["id"]),
        did,
        str(ext["family"]),
        query,
        str(ext["asked_at"]),
        dict(ext["gold"]),
        tuple(ext.get("answer_components", ())),
        Evidence(
            event_ids=tuple(ev.get("event_ids", ())),
            fact_ids=tuple(ev.get("fact_ids", ())),
            session_ids=tuple(ev.get("session_ids", evidence.session_ids)),
            turn_ids=evidence.turn_ids,
        ),
        dict(ext.get("meta", {})),
    )
