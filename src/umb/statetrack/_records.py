"""The run directory of ``umb statetrack eval``: an append-only record log, and its aggregates.

Layout::

    RUN/header.json    ladder hash, model spec (and baseline window): what every record shares
    RUN/records.jsonl  one record per (level, sample, task), appended as soon as it is scored
    RUN/levels.csv     one row per (level, task): the original's metrics and counts
    RUN/results.json   the same rows, plus the header
    RUN/curves.png|svg metrics against prompt tokens; RUN/index.html shows them

A killed run leaves at most one unfinished last line, which is dropped on the next start.
Failed calls are recorded as such (scored 0); ``--retry-errors`` asks them again, and the newest
record of a key is the one that counts.
"""

from __future__ import annotations

import csv
import io
import statistics
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

from umb._errors import ConfigError
from umb._jsonio import atomic_write_bytes, dumps_pretty, read_json
from umb._recordlog import KeyedLog

HEADER: Final = "header.json"
RECORDS: Final = "records.jsonl"

Key = tuple[str, str, str]
"""(level, sample id, task)."""

CSV_COLUMNS: Final = (
    "level", "task", "samples", "avg_prompt_tokens", "avg_facts_lines", "short_samples",
    "call_errors", "parse_rate", "prompt_exact_rate", "char_exact_rate", "schema_accuracy",
    "schema_coverage", "char_exact_rate_parsed", "schema_accuracy_parsed", "avg_latency_s",
    "total_characters", "char_exact_match", "schema_total", "schema_correct", "coverage_present",
)  # fmt: skip


def key_of(record: dict[str, Any]) -> Key:
    return (str(record["level"]), str(record["sample_id"]), str(record["task"]))


def check_header(run: Path, header: dict[str, Any]) -> None:
    """Write ``header`` into a new run, or check that an existing run has the same one.

    Raises:
        ConfigError: ``run`` holds a run of another ladder, model or baseline window.
    """
    path = run / HEADER
    if path.exists():
        old = read_json(path)
        diff = [k for k in header if old.get(k) != header[k]]
        if diff:
            raise ConfigError(
                f"{run} holds a run with another {', '.join(diff)}; pick a new --out directory"
            )
        return
    atomic_write_bytes(path, dumps_pretty(header))


def open_log(run: Path) -> KeyedLog[Key]:
    """The record log of a run: the newest record of a (level, sample, task) is the one that
    counts (``--retry-errors`` appends the new answer after the failed one)."""
    return KeyedLog(run / RECORDS, key_of, repeats="newest")


def is_done(log: KeyedLog[Key], key: Key, retry_errors: bool = False) -> bool:
    """Whether ``key`` has a record (of a call that did not fail, with ``retry_errors``)."""
    record = log.latest.get(key)
    return record is not None and not (retry_errors and record.get("error") is not None)


def _rate(num: float, den: float) -> float:
    return round(num / den, 4) if den else 0.0


def aggregate(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per (level, task) in ladder order, with the original's rates and counts."""
    cells: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in records:
        cells.setdefault((r["level"], r["task"]), []).append(r)
    rows = []
    for (lv, task), rs in sorted(cells.items()):
        parsed = [r for r in rs if r["parse_ok"]]
        total = {k: sum(r[k] for r in rs) for k in ("characters", "char_exact", "schemas")}
        total |= {k: sum(r[k] for r in rs) for k in ("correct", "covered")}
        rows.append(
            {
                "level": lv,
                "task": task,
                "samples": len(rs),
                "avg_prompt_tokens": round(statistics.fmean(r["prompt_tokens"] for r in rs), 1),
                "avg_facts_lines": round(statistics.fmean(r["facts_lines"] for r in rs), 2),
                "short_samples": sum(1 for r in rs if r["short"]),
                "call_errors": sum(1 for r in rs if r["error"] is not None),
                "parse_rate": _rate(len(parsed), len(rs)),
                "prompt_exact_rate": _rate(sum(r["prompt_exact"] for r in rs), len(rs)),
                "char_exact_rate": _rate(total["char_exact"], total["characters"]),
                "schema_accuracy": _rate(total["correct"], total["schemas"]),
                "schema_coverage": _rate(total["covered"], total["schemas"]),
                "char_exact_rate_parsed": _rate(
                    sum(r["char_exact"] for r in parsed), sum(r["characters"] for r in parsed)
                ),
                "schema_accuracy_parsed": _rate(
                    sum(r["correct"] for r in parsed), sum(r["schemas"] for r in parsed)
                ),
                "avg_latency_s": round(statistics.fmean(r["latency_s"] for r in rs), 4),
                "total_characters": total["characters"],
                "char_exact_match": total["char_exact"],
                "schema_total": total["schemas"],
                "schema_correct": total["correct"],
                "coverage_present": total["covered"],
            }
        )
    return rows


def write_tables(run: Path, header: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    """``levels.csv`` and ``results.json`` of a run."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    atomic_write_bytes(run / "levels.csv", buf.getvalue().encode())
    atomic_write_bytes(run / "results.json", dumps_pretty({"header": header, "rows": rows}))
