"""Import LoCoMo (``locomo10.json``) into a umb benchmark directory.

Id mapping (docs/interop.md): dialogue = ``sample_id`` (``conv-26``); session n =
``conv-26:S<n>``; turn = ``conv-26:<dia_id>`` (``conv-26:D1:3``, the native id after the first
colon); question k (0-based in ``qa``) = ``Q-conv-26-<k+1:04d>`` with ``meta.native_index`` = k.
``speaker_a`` speaks as role ``user``, ``speaker_b`` as ``assistant``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from umb._dates import parse_locomo_datetime, shift
from umb._errors import DataError
from umb.bench import Dialogue, Interlocutor, Question, Session, Turn
from umb.interop._common import read_peer_json, source_info, write_imported
from umb.interop._log import InteropLog
from umb.interop.locomo._qa import TurnIndex, build_question
from umb.interop.locomo._spec import (
    CAPTION_SUFFIX,
    CATEGORIES,
    LOCOMO10_SHA256,
    date_key_number,
    dia_session,
    is_canonical_dia_id,
    session_number,
)

_FALLBACK_DATE = "1970-01-01T00:00"


@dataclass
class LoCoMoImport:
    """An imported LoCoMo file, before it is written."""

    dialogues: list[Dialogue] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    native: dict[str, Any] = field(default_factory=dict)
    log: InteropLog = field(default_factory=InteropLog)


def import_locomo(path: str | Path, out: str | Path) -> dict[str, Any]:
    """Import a LoCoMo JSON file into the benchmark directory ``out``.

    Args:
        path: ``locomo10.json`` (or any file in its schema).
        out: the benchmark directory to write.

    Returns:
        The manifest written, with ``import_warnings`` and ``import_warning_counts``.
    """
    src = Path(path)
    result = convert_locomo(read_peer_json(src, "locomo"), where=src.name)
    source = source_info(src, "locomo", reference_sha256=LOCOMO10_SHA256)
    source["unmodified_release"] = source["sha256"] == LOCOMO10_SHA256
    if not source["unmodified_release"]:
        result.log.warn(
            "not_reference_release",
            src.name,
            "sha256 differs from the unmodified locomo10.json; published numbers do not apply",
        )
    per_cat: dict[str, int] = {}
    for q in result.questions:
        key = str(q.meta.get("native_category"))
        per_cat[key] = per_cat.get(key, 0) + 1
    return write_imported(
        Path(out),
        fmt="locomo",
        dialogues=result.dialogues,
        questions=result.questions,
        native=result.native,
        source=source,
        log=result.log,
        extra={
            "has_turn_evidence": True,
            "has_session_dates": True,
            "native_category_counts": dict(sorted(per_cat.items())),
        },
    )


def convert_locomo(data: Any, *, where: str = "locomo") -> LoCoMoImport:
    """Turn parsed LoCoMo JSON into records; every pitfall met is logged, none is fatal."""
    if not isinstance(data, list):
        raise DataError(where, None, "a LoCoMo file is a JSON list of samples")
    result = LoCoMoImport(native={"samples": []})
    seen: set[str] = set()
    for i, sample in enumerate(data):
        if not isinstance(sample, dict) or not isinstance(sample.get("conversation"), dict):
            result.log.warn("sample_malformed", f"sample[{i}]", "not an object with a conversation")
            continue
        sid = str(sample.get("sample_id") or f"sample-{i}")
        if sid in seen:
            result.log.warn("sample_id_duplicate", sid, f"renamed to {sid}#{i}")
            sid = f"{sid}#{i}"
        seen.add(sid)
        _convert_sample(sid, sample, result)
    adversarial_only = sum(
        1 for q in result.questions if q.family == "ABS" and "native_answer" not in q.meta
    )
    if adversarial_only:
        result.log.warn(
            "adversarial_answer_only",
            where,
            "category-5 items with no `answer`, only `adversarial_answer` (kept in meta; "
            "gold is 'not mentioned')",
            count=adversarial_only,
        )
    return result


def _convert_sample(sid: str, sample: dict[str, Any], result: LoCoMoImport) -> None:
    conv: dict[str, Any] = sample["conversation"]
    log = result.log
    speaker_a, speaker_b = str(conv.get("speaker_a", "")), str(conv.get("speaker_b", ""))
    ext = sample.get("umb_dialogue") if isinstance(sample.get("umb_dialogue"), dict) else None
    sessions, turn_by_dia, turn_extras = _sessions(sid, conv, speaker_a, speaker_b, ext, log)
    if ext is not None and ext.get("id"):
        did = str(ext["id"])
        character_id = str(ext.get("character_id", f"{sid}:{speaker_b}"))
        inter = Interlocutor(**ext["interlocutor"]) if "interlocutor" in ext else None
    else:
        did, character_id, inter = sid, f"{sid}:{speaker_b}", None
    interlocutor = inter or Interlocutor(speaker_a, "conversation partner", "LoCoMo conversation")
    result.dialogues.append(Dialogue(did, character_id, interlocutor, tuple(sessions)))
    asked_at = shift(sessions[-1].started_at, days=1) if sessions else _FALLBACK_DATE
    qa = sample.get("qa", [])
    if not isinstance(qa, list):
        log.warn("qa_not_a_list", sid, "`qa` is not a list; no questions imported")
        qa = []
    for k, item in enumerate(qa):
        q = build_question(sid, did, k, item, turn_by_dia, asked_at, log)
        if q is not None:
            result.questions.append(q)
    result.native["samples"].append(
        {
            "sample_id": sid,
            "dialogue_id": did,
            "speaker_a": speaker_a,
            "speaker_b": speaker_b,
            "date_times": {k: v for k, v in conv.items() if date_key_number(k) is not None},
            "conversation_extra": {
                k: v
                for k, v in conv.items()
                if session_number(k) is None
                and date_key_number(k) is None
                and k not in ("speaker_a", "speaker_b")
            },
            "turn_extras": turn_extras,
            "sample_extra": {
                k: v
                for k, v in sample.items()
                if k not in ("sample_id", "conversation", "qa", "umb_dialogue")
            },
        }
    )


def _sessions(
    sid: str,
    conv: dict[str, Any],
    speaker_a: str,
    speaker_b: str,
    ext: dict[str, Any] | None,
    log: InteropLog,
) -> tuple[list[Session], TurnIndex, dict[str, dict[str, Any]]]:
    nums = sorted(n for k, v in conv.items() if (n := session_number(k)) is not None)
    for n in nums:
        if not isinstance(conv[f"session_{n}"], list):
            log.warn("session_malformed", f"{sid} session_{n}", "not a list of turns; skipped")
    nums = [n for n in nums if isinstance(conv[f"session_{n}"], list)]
    for k in conv:
        n = date_key_number(k)
        if n is not None and n not in nums:
            log.warn("date_key_without_session", f"{sid} {k}", "date key with no session; ignored")
    if nums != list(range(1, len(nums) + 1)):
        log.warn("sessions_not_contiguous", sid, f"session numbers {nums}")
    ext_sessions = _ext_sessions(ext, nums, conv, sid, log)
    sessions: list[Session] = []
    turn_by_dia: TurnIndex = {}
    extras: dict[str, dict[str, Any]] = {}
    prev: str | None = None
    for si, n in enumerate(nums):
        raw_date = conv.get(f"session_{n}_date_time")
        iso = parse_locomo_datetime(raw_date) if isinstance(raw_date, str) else None
        if iso is None:
            iso = shift(prev, days=1) if prev else _FALLBACK_DATE
            log.warn("session_date_unparsed", f"{sid} session_{n}", f"{raw_date!r}; using {iso}")
        if prev is not None and iso < prev:
            log.warn("sessions_not_chronological", f"{sid} session_{n}", f"{iso} before {prev}")
        prev = iso
        sess_id = ext_sessions[si][0] if ext_sessions is not None else f"{sid}:S{n}"
        turns: list[Turn] = []
        for j, t in enumerate(conv[f"session_{n}"]):
            where = f"{sid} session_{n}[{j}]"
            if not isinstance(t, dict):
                log.warn("turn_malformed", where, "not an object; skipped")
                continue
            dia = t.get("dia_id")
            if not isinstance(dia, str) or not is_canonical_dia_id(dia) or dia in turn_by_dia:
                fixed = f"D{n}:{j + 1}"
                log.warn("turn_id_invalid", where, f"dia_id {dia!r} replaced by {fixed}")
                dia = fixed
            elif dia_session(dia) != n:
                log.warn("turn_id_session_mismatch", where, f"{dia} is in session_{n}")
            speaker = str(t.get("speaker", ""))
            if speaker not in (speaker_a, speaker_b):
                log.warn("speaker_unknown", where, f"{speaker!r} is neither speaker_a nor _b")
            text = t.get("text")
            if not isinstance(text, str):
                log.warn("turn_text_not_string", where, f"{type(text).__name__} cast to str")
                text = "" if text is None else str(text)
            caption = t.get("blip_caption")
            if isinstance(caption, str) and caption:
                text += CAPTION_SUFFIX.format(caption=caption)
            extra = {k: v for k, v in t.items() if k not in ("speaker", "dia_id", "text")}
            if extra:
                extras[dia] = extra
            role = "user" if speaker == speaker_a else "assistant"
            tid, fact_ids = f"{sid}:{dia}", tuple[str, ...]()
            if ext_sessions is not None:
                tid, role, ext_facts = ext_sessions[si][1][j]
                fact_ids = tuple(ext_facts)
            turn = Turn(tid, role, speaker, text, fact_ids)
            turns.append(turn)
            turn_by_dia[dia] = (turn, sess_id)
        sessions.append(Session(sess_id, iso, tuple(turns)))
    _note_images(sid, extras, log)
    return sessions, turn_by_dia, extras


def _ext_sessions(
    ext: dict[str, Any] | None, nums: list[int], conv: dict[str, Any], sid: str, log: InteropLog
) -> list[tuple[str, list[tuple[str, str, list[str]]]]] | None:
    """umb ids carried by an exported umb benchmark, if they line up with the sessions."""
    if ext is None:
        return None
    try:
        out = [
            (str(s["id"]), [(str(t[0]), str(t[1]), list(t[2])) for t in s["turns"]])
            for s in ext["sessions"]
        ]
        shapes_match = len(out) == len(nums) and all(
            len(out[i][1]) == len(conv[f"session_{n}"]) for i, n in enumerate(nums)
        )
    except (KeyError, TypeError, IndexError):
        shapes_match = False
    if not shapes_match:
        log.warn("umb_extension_mismatch", sid, "umb_dialogue does not match the sessions; ignored")
        return None
    return out


def _note_images(sid: str, extras: dict[str, dict[str, Any]], log: InteropLog) -> None:
    captions = [e for e in extras.values() if e.get("blip_caption")]
    if captions:
        log.warn(
            "image_turn_caption",
            sid,
            "image turns: blip_caption appended to the text as ' and shared <caption>.'",
            count=len(captions),
        )
    no_url = sum(1 for e in captions if not e.get("img_url"))
    if no_url:
        log.warn("caption_without_img_url", sid, "blip_caption without img_url", count=no_url)


__all__ = ["CATEGORIES", "LoCoMoImport", "convert_locomo", "import_locomo"]
