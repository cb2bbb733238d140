"""What attribution and the memory metrics write into a run directory, and which records they
look at: light enough for the command line to name without loading attribution itself."""

from __future__ import annotations

from typing import Any, Final

ATTRIBUTIONS: Final = "attributions.jsonl"
ATTRIBUTION_SUMMARY: Final = "attribution_summary.json"
MEMORY_METRICS: Final = "memory_metrics.json"
MEMORY_METRICS_DETAIL: Final = "memory_metrics.jsonl"


def failed(record: dict[str, Any]) -> bool:
    """A question counts as failed when it was scored below 1 (unscored items are not)."""
    score = record.get("score")
    return isinstance(score, int | float) and score < 1


ATTRIBUTED_FIELDS: Final = ("system", "question_id", "dialogue_id", "score", "score_by", "scorer",
                            "score_details", "parse_status", "answer", "error")  # fmt: skip
"""The fields of a record that attribution reads: all the run sends its second process (a
full-context record also holds every turn id, ~6 KB)."""


def attributed_part(record: dict[str, Any]) -> dict[str, Any]:
    """The part of ``record`` attribution reads (:data:`ATTRIBUTED_FIELDS`)."""
    return {k: record[k] for k in ATTRIBUTED_FIELDS if k in record}


def kept_part(record: dict[str, Any]) -> dict[str, Any]:
    """What attribution keeps of a logged record: the :func:`attributed_part` of a failed
    one; of any other, only its key, its dialogue and its score (the summary counts them)."""
    if failed(record):
        return attributed_part(record)
    return {k: record[k] for k in ("system", "question_id", "dialogue_id", "score") if k in record}
