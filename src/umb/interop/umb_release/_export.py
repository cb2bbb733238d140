"""Export a umb benchmark directory to the original release's dialogue-benchmark JSON.

The release has no sessions: turns are flattened in time order. Each question becomes a task
with the family's canonical ``task_type``; ABS has no release equivalent and is left out
(logged). A benchmark imported from the release gets its dialogue-level fields back.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from umb.bench import Benchmark, Dialogue, Question
from umb.families import FAMILY_NAMES
from umb.interop._common import native_answer_text, read_native, write_export
from umb.interop._log import InteropLog


def export_umb_release(root: str | Path, out: str | Path) -> InteropLog:
    """Write the benchmark at ``root`` as a release-format JSON file ``out``; returns warnings."""
    bench = Benchmark.open(root)
    native = read_native(bench.root, "umb-release").get("dialogues", {})
    by_dialogue: dict[str, list[Question]] = defaultdict(list)
    for q in bench.questions:
        by_dialogue[q.dialogue_id].append(q)
    log = InteropLog()
    objs = [
        _dialogue(d, by_dialogue.get(d.id, []), native.get(d.id), log)
        for d in bench.iter_dialogues()
    ]
    write_export(Path(out), objs)
    return log


def _dialogue(
    d: Dialogue, questions: list[Question], nat: dict[str, Any] | None, log: InteropLog
) -> dict[str, Any]:
    tasks = [t for q in questions if (t := _task(q, log)) is not None]
    turns = [{"role": t.role, "content": t.text} for t in d.turns()]
    obj: dict[str, Any] = {
        "id": d.id,
        "character": _character_name(d),
        "generation_mode": "umb_export",
        "tasks_covered": tasks,
        "segment_outlines": [],
        "dialogue": turns,
        "scene_config": {
            "interlocutor_role": d.interlocutor.role or d.interlocutor.name,
            "setting": d.interlocutor.scene,
        },
        "statistics": {"total_turns": len(turns), "tasks_count": len(tasks)},
    }
    if nat:
        obj.update(nat)
    return obj


def _character_name(d: Dialogue) -> str:
    return next((t.speaker for t in d.turns() if t.role == "assistant"), d.character_id)


def _task(q: Question, log: InteropLog) -> dict[str, Any] | None:
    if q.meta.get("source") == "umb-release" and isinstance(q.meta.get("native_task"), dict):
        return {"task_type": q.meta["native_category"], "query": q.query, **q.meta["native_task"]}
    if q.family == "ABS":
        log.warn("family_not_in_release", q.id, "ABS has no release task type; left out")
        return None
    task: dict[str, Any] = {
        "task_type": FAMILY_NAMES[q.family],
        "source_event_ids": list(q.evidence.event_ids),
        "query": q.query,
        "gold_answer": native_answer_text(q),
        "answer_components": list(q.answer_components),
    }
    if q.family == "KU":
        task["old_state_value"] = str(q.gold.get("deprecated_state", ""))
        task["old_state_event_id"] = str(q.meta.get("old_state_event_id", ""))
    return task
