"""Import the original UnifiedMemBench release (``UMB_dialogue_benchmark.json``).

The release has no sessions, dates or turn-level evidence: each dialogue becomes one synthetic
session (``<id>:S001``, dated :data:`SYNTHETIC_SESSION_AT`), turns are ``<id>:S001:T<k:04d>``
(k = 1-based position in ``dialogue``), and the manifest says ``has_turn_evidence: false``.
Each task of ``tasks_covered`` becomes question ``Q-<id>-<code>-<k:02d>`` (k = 1-based position);
its ``source_event_ids`` are the only evidence.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from umb._errors import DataError
from umb.bench import Dialogue, Evidence, Interlocutor, Question, Session, Turn
from umb.interop._common import read_peer_json, source_info, write_imported
from umb.interop._log import InteropLog
from umb.interop.umb_release._tasks import gold_from_task, task_family

#: The release's stories end in 2025; the one synthetic session sits at its end.
SYNTHETIC_SESSION_AT: Final = "2025-12-31T12:00"
SYNTHETIC_ASKED_AT: Final = "2025-12-31T23:59"
_DIALOGUE_KEYS = ("id", "character", "tasks_covered", "dialogue")


def import_umb_release(path: str | Path, out: str | Path) -> dict[str, Any]:
    """Import an original-release dialogue benchmark file into the directory ``out``.

    Args:
        path: ``UMB_dialogue_benchmark.json`` (a JSON list, or JSONL, of dialogue objects).
        out: the benchmark directory to write.

    Returns:
        The manifest written, with ``import_warnings`` and ``import_warning_counts``.
    """
    src = Path(path)
    data = read_peer_json(src, "umb-release")
    dialogues, questions, native, log = convert_umb_release(data, where=src.name)
    per_task: dict[str, int] = {}
    for q in questions:
        key = str(q.meta.get("native_category"))
        per_task[key] = per_task.get(key, 0) + 1
    return write_imported(
        Path(out),
        fmt="umb-release",
        dialogues=dialogues,
        questions=questions,
        native=native,
        source=source_info(src, "umb-release"),
        log=log,
        extra={
            "has_turn_evidence": False,
            "has_session_dates": False,
            "synthetic_sessions": True,
            "native_category_counts": dict(sorted(per_task.items())),
        },
    )


def convert_umb_release(
    data: Any, *, where: str = "umb-release"
) -> tuple[list[Dialogue], list[Question], dict[str, Any], InteropLog]:
    """Turn the parsed release into records; problems are logged, never fatal."""
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise DataError(where, None, "a UMB release file is a JSON list of dialogue objects")
    log = InteropLog()
    dialogues: list[Dialogue] = []
    questions: list[Question] = []
    native: dict[str, Any] = {"dialogues": {}}
    seen: set[str] = set()
    for i, obj in enumerate(data):
        if not isinstance(obj, dict):
            log.warn("dialogue_malformed", f"item[{i}]", "not an object; skipped")
            continue
        did = str(obj.get("id") or f"umb-{i:04d}")
        if not obj.get("id"):
            log.warn("dialogue_id_missing", f"item[{i}]", f"no id; named {did}")
        if did in seen:
            log.warn("dialogue_id_duplicate", did, f"renamed to {did}#{i}")
            did = f"{did}#{i}"
        seen.add(did)
        dialogue = _dialogue(did, obj, log)
        dialogues.append(dialogue)
        questions.extend(_questions(did, obj, log))
        native["dialogues"][did] = {k: v for k, v in obj.items() if k not in _DIALOGUE_KEYS}
    if dialogues:
        log.warn(
            "no_sessions",
            where,
            "the release has no sessions, dates or turn evidence: one synthetic session each",
            count=len(dialogues),
        )
    return dialogues, questions, native, log


def _dialogue(did: str, obj: dict[str, Any], log: InteropLog) -> Dialogue:
    character = str(obj.get("character") or "")
    if not character:
        log.warn("character_missing", did, "no character name")
    scene_raw = obj.get("scene_config")
    scene: dict[str, Any] = scene_raw if isinstance(scene_raw, dict) else {}
    partner = str(scene.get("interlocutor_role") or "Interlocutor")
    turns_raw = obj.get("dialogue")
    if not isinstance(turns_raw, list):
        log.warn("dialogue_turns_malformed", did, "`dialogue` is not a list; no turns")
        turns_raw = []
    turns = []
    for k, t in enumerate(turns_raw, start=1):
        t = t if isinstance(t, dict) else {}
        role = t.get("role")
        if role not in ("user", "assistant"):
            log.warn("turn_role_unknown", f"{did} turn {k}", f"role {role!r} read as user")
            role = "user"
        content = t.get("content")
        if not isinstance(content, str):
            log.warn("turn_text_not_string", f"{did} turn {k}", "content cast to str")
            content = "" if content is None else str(content)
        speaker = character if role == "assistant" else partner
        turns.append(Turn(f"{did}:S001:T{k:04d}", role, speaker, content))
    session = Session(f"{did}:S001", SYNTHETIC_SESSION_AT, tuple(turns))
    interlocutor = Interlocutor(partner, partner, str(scene.get("setting") or ""))
    return Dialogue(did, character, interlocutor, (session,))


def _questions(did: str, obj: dict[str, Any], log: InteropLog) -> list[Question]:
    tasks = obj.get("tasks_covered")
    if not isinstance(tasks, list):
        log.warn("tasks_malformed", did, "`tasks_covered` is not a list; no questions")
        return []
    out = []
    for k, task in enumerate(tasks, start=1):
        where = f"{did} task {k}"
        if not isinstance(task, dict) or not isinstance(task.get("query"), str):
            log.warn("task_malformed", where, "no query; skipped")
            continue
        name = str(task.get("task_type", ""))
        code = task_family(name)
        if code is None:
            log.warn("task_type_unknown", where, f"{name!r}; skipped")
            continue
        gold, components, kind = gold_from_task(code, task, where, log)
        events = task.get("source_event_ids", [])
        if not isinstance(events, list):
            log.warn("source_events_malformed", where, f"{events!r} is not a list")
            events = []
        meta: dict[str, Any] = {
            "kind": kind,
            "source": "umb-release",
            "native_id": f"{did}::{name}::{k - 1}",
            "native_index": k - 1,
            "native_category": name,
            "native_category_name": name,
            "native_answer": task.get("gold_answer"),
            "native_task": {key: v for key, v in task.items() if key != "query"},
        }
        out.append(
            Question(
                f"Q-{did}-{code}-{k:02d}",
                did,
                code,
                task["query"],
                SYNTHETIC_ASKED_AT,
                gold,
                components,
                Evidence(event_ids=tuple(str(e) for e in events)),
                meta,
            )
        )
    return out
