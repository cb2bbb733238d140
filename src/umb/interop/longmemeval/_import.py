"""Import LongMemEval (``longmemeval_s.json``, ``_m``, ``_oracle`` and the ``_cleaned`` files).

Each instance is one question over its own haystack, so it becomes one dialogue and one
question, both with the native ``question_id`` as id. Session = ``<question_id>:<session_id>``;
turn = ``<question_id>:<session_id>_<k>`` (k counts every turn from 1: the native retrieval id
after the first colon). Roles stay ``user`` / ``assistant`` as in the file. Turns marked
``has_answer`` are the turn evidence; ``answer_session_ids`` the session evidence.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from umb._errors import DataError
from umb.bench import Dialogue, Question
from umb.interop._common import read_peer_json, source_info, write_imported
from umb.interop._log import InteropLog
from umb.interop.longmemeval._instance import LME_TYPES, convert_instance
from umb.interop.longmemeval._reimport import merge_umb_instances

_VARIANT = re.compile(r"longmemeval_(s|m|oracle)(_cleaned)?\.json$", re.IGNORECASE)


def detect_variant(name: str) -> tuple[str, bool]:
    """``longmemeval_s_cleaned.json`` -> ``("s", True)``; ``("unknown", False)`` otherwise."""
    m = _VARIANT.search(name)
    if not m:
        return "unknown", False
    return m.group(1).lower(), bool(m.group(2))


def import_longmemeval(path: str | Path, out: str | Path) -> dict[str, Any]:
    """Import a LongMemEval JSON file into the benchmark directory ``out``.

    Args:
        path: ``longmemeval_s.json``, ``longmemeval_m.json``, ``longmemeval_oracle.json`` or
            their ``_cleaned`` versions (the user supplies the file).
        out: the benchmark directory to write.

    Returns:
        The manifest written, with ``import_warnings`` and ``import_warning_counts``.
    """
    src = Path(path)
    variant, cleaned = detect_variant(src.name)
    dialogues, questions, log = convert_longmemeval(
        read_peer_json(src, "longmemeval"), variant, where=src.name
    )
    if variant == "unknown":
        log.warn("file_variant_unknown", src.name, "not a known LongMemEval file name")
    per_type: dict[str, int] = {}
    for q in questions:
        key = str(q.meta.get("native_category"))
        per_type[key] = per_type.get(key, 0) + 1
    return write_imported(
        Path(out),
        fmt="longmemeval",
        dialogues=dialogues,
        questions=questions,
        native={},
        source=source_info(src, "longmemeval", variant=variant, cleaned=cleaned),
        log=log,
        extra={
            "has_turn_evidence": True,
            "has_session_dates": True,
            "native_category_counts": dict(sorted(per_type.items())),
            "abstention_questions": sum(1 for q in questions if q.meta.get("is_abstention")),
        },
    )


def convert_longmemeval(
    data: Any, variant: str = "unknown", *, where: str = "longmemeval"
) -> tuple[list[Dialogue], list[Question], InteropLog]:
    """Turn parsed LongMemEval JSON into records; pitfalls are logged, never fatal."""
    if not isinstance(data, list):
        raise DataError(where, None, "a LongMemEval file is a JSON list of instances")
    log = InteropLog()
    dialogues: list[Dialogue] = []
    questions: list[Question] = []
    umb_instances: list[dict[str, Any]] = []
    seen: set[str] = set()
    for i, inst in enumerate(data):
        if not isinstance(inst, dict):
            log.warn("instance_malformed", f"instance[{i}]", "not an object; skipped")
            continue
        if isinstance(inst.get("umb_question"), dict) and isinstance(
            inst.get("umb_dialogue"), dict
        ):
            umb_instances.append(inst)
            continue
        qid = str(inst.get("question_id") or f"instance-{i}")
        if qid in seen:
            log.warn("question_id_duplicate", qid, f"renamed to {qid}#{i}")
            qid = f"{qid}#{i}"
        seen.add(qid)
        converted = convert_instance(qid, inst, variant, log)
        if converted is not None:
            dialogues.append(converted[0])
            questions.append(converted[1])
    if umb_instances:
        d2, q2 = merge_umb_instances(umb_instances, log)
        dialogues.extend(d2)
        questions.extend(q2)
    return dialogues, questions, log


__all__ = ["LME_TYPES", "convert_longmemeval", "detect_variant", "import_longmemeval"]
