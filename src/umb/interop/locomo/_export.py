"""Export a umb benchmark directory to LoCoMo's JSON format.

A benchmark imported from LoCoMo exports back to the same JSON values (the sidecar
``native.json`` holds speaker names, date strings, image fields and the generated RAG
databases). Any other benchmark gets one sample per dialogue, sessions numbered from 1,
``D<session>:<turn>`` ids, categories by family, and ``umb_dialogue`` / ``umb_question`` keys that
peer tools ignore and that let ``umb import locomo`` restore the umb ids, families and golds.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from umb._dates import format_locomo_datetime, parse_locomo_datetime
from umb.bench import Benchmark, Dialogue, Question
from umb.interop._common import (
    native_answer_text,
    read_native,
    umb_question_extension,
    write_export,
)
from umb.interop._log import InteropLog
from umb.interop.locomo._spec import CAPTION_SUFFIX, FAMILY_TO_CATEGORY


def export_locomo(root: str | Path, out: str | Path) -> InteropLog:
    """Write the benchmark at ``root`` as a LoCoMo JSON file ``out``; returns the warnings."""
    bench = Benchmark.open(root)
    native = {s["dialogue_id"]: s for s in read_native(bench.root, "locomo").get("samples", [])}
    by_dialogue: dict[str, list[Question]] = defaultdict(list)
    for q in bench.questions:
        by_dialogue[q.dialogue_id].append(q)
    log = InteropLog()
    samples = [
        _sample(d, by_dialogue.pop(d.id, []), native.get(d.id), log) for d in bench.iter_dialogues()
    ]
    for did, qs in by_dialogue.items():
        log.warn(
            "question_without_dialogue",
            did,
            "questions of an unknown dialogue; skipped",
            count=len(qs),
        )
    write_export(Path(out), samples)
    return log


def _is_native(d: Dialogue) -> bool:
    """True when the ids follow the LoCoMo importer's scheme (``conv-26:S3``, ``conv-26:D3:1``)."""
    for n, s in enumerate(d.sessions, start=1):
        if s.id != f"{d.id}:S{n}":
            return False
        if any(not re.fullmatch(rf"{re.escape(d.id)}:D{n}:\d+", t.id) for t in s.turns):
            return False
    return True


def _sample(
    d: Dialogue, questions: list[Question], nat: dict[str, Any] | None, log: InteropLog
) -> dict[str, Any]:
    native_ids = _is_native(d)
    speaker_a, speaker_b = _speakers(d, nat)
    conv: dict[str, Any] = {"speaker_a": speaker_a, "speaker_b": speaker_b}
    extras: dict[str, Any] = nat.get("turn_extras", {}) if nat else {}
    dates: dict[str, Any] = dict(nat.get("date_times", {})) if nat else {}
    dia_of: dict[str, str] = {}
    for n, s in enumerate(d.sessions, start=1):
        turns = []
        for j, t in enumerate(s.turns, start=1):
            dia = t.id.split(":", 1)[1] if native_ids else f"D{n}:{j}"
            dia_of[t.id] = dia
            extra = extras.get(dia, {}) if native_ids else {}
            text = t.text
            caption = extra.get("blip_caption")
            suffix = CAPTION_SUFFIX.format(caption=caption) if caption else ""
            if suffix and text.endswith(suffix):
                text = text[: -len(suffix)]
            turns.append({"speaker": t.speaker, "dia_id": dia, "text": text, **extra})
        conv[f"session_{n}"] = turns
        key = f"session_{n}_date_time"
        if parse_locomo_datetime(str(dates.get(key, ""))) != s.started_at:
            dates[key] = format_locomo_datetime(s.started_at)
    conv.update(dates)
    if nat:
        conv.update(nat.get("conversation_extra", {}))
    sample: dict[str, Any] = {
        "sample_id": nat["sample_id"] if nat else d.id,
        "conversation": conv,
        "qa": [_qa(q, dia_of, log) for q in questions],
    }
    if nat:
        sample.update(nat.get("sample_extra", {}))
    if not native_ids:
        sample["umb_dialogue"] = {
            "id": d.id,
            "character_id": d.character_id,
            "interlocutor": {
                "name": d.interlocutor.name,
                "role": d.interlocutor.role,
                "scene": d.interlocutor.scene,
            },
            "sessions": [
                {"id": s.id, "turns": [[t.id, t.role, list(t.fact_ids)] for t in s.turns]}
                for s in d.sessions
            ],
        }
    return sample


def _speakers(d: Dialogue, nat: dict[str, Any] | None) -> tuple[str, str]:
    if nat:
        return str(nat["speaker_a"]), str(nat["speaker_b"])
    users = [t.speaker for t in d.turns() if t.role == "user"]
    others = [t.speaker for t in d.turns() if t.role != "user"]
    return (users[0] if users else d.interlocutor.name), (others[0] if others else d.character_id)


def _qa(q: Question, dia_of: dict[str, str], log: InteropLog) -> dict[str, Any]:
    if q.meta.get("source") == "locomo":
        item: dict[str, Any] = {"question": q.query}
        if "native_answer" in q.meta:
            item["answer"] = q.meta["native_answer"]
        item["evidence"] = q.meta.get("native_evidence", [])
        item["category"] = q.meta.get("native_category")
        if "adversarial_answer" in q.meta:
            item["adversarial_answer"] = q.meta["adversarial_answer"]
        item.update(q.meta.get("native_extra", {}))
        return item
    evidence = []
    for tid in q.evidence.turn_ids:
        if tid in dia_of:
            evidence.append(dia_of[tid])
        else:
            log.warn("evidence_turn_missing", q.id, f"{tid} is not a turn of {q.dialogue_id}")
    cat = FAMILY_TO_CATEGORY.get(q.family, 4)
    item = {"question": q.query}
    if cat == 5:
        item["adversarial_answer"] = str(q.meta.get("wrong_value", ""))
    else:
        item["answer"] = native_answer_text(q)
    item["evidence"] = evidence
    item["category"] = cat
    item["umb_question"] = umb_question_extension(q)
    return item
