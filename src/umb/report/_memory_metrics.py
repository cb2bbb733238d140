"""The report's memory-metrics section: per entry, QA accuracy beside what the write path
extracted, fabricated, updated and lost, with the facts and units behind each number.

The numbers come from ``RUN/memory_metrics.json`` and ``.jsonl`` (``umb memory-metrics``, or
the end of a traced ``umb eval``); a traced run without them is measured on the spot, without
writing them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from umb._errors import UmbError
from umb.attribute import (
    RATES,
    MemoryMetricsRun,
    read_memory_detail,
    read_memory_metrics,
    run_traces,
)
from umb.bench import Benchmark
from umb.report._context import ReportContext, Section
from umb.report._sections import SECTIONS, register_section
from umb.run import RunHeader

#: Column header -> rate key.
COLUMNS = {
    "extraction recall": "extraction_recall",
    "precision": "extraction_precision",
    "fabrication": "fabrication_rate",
    "update accuracy": "update_accuracy",
    "omission": "omission_rate",
}
#: Drill-down items shown per kind and entry (the rest are counted).
SHOWN = 25


def _load(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """A run's metrics and per-dialogue rows: its files, else measured now; None untraced."""
    summary = read_memory_metrics(path)
    if summary is not None:
        return summary, read_memory_detail(path)
    if not run_traces(path):
        return None
    try:
        metrics = MemoryMetricsRun(path)
        summary = metrics.finish(write=False)
    except UmbError:  # a moved benchmark, say: the report goes on without the metrics
        return None
    return summary, [{"system": s, **r} for s, rows in metrics.rows.items() for r in rows]


def _items(rows: list[dict[str, Any]], facts: dict[str, Any]) -> dict[str, Any]:
    """The drill-down lists of one entry: missed facts, fabricated units, updates that did not
    replace the old value, omissions; each cut to :data:`SHOWN`."""
    missed, fabricated, updates, omissions = [], [], [], []
    for r in rows:
        d = r["detail"]
        missed += [(r["dialogue_id"], f, facts.get(f, "")) for f in d["missed"]]
        fabricated += [(r["dialogue_id"], u) for u in d["fabricated"]]
        updates += [(r["dialogue_id"], u) for u in d["updates"] if u["outcome"] != "updated"]
        omissions += [(r["dialogue_id"], o, facts.get(o["fact_id"], "")) for o in d["omissions"]]
    return {name: {"shown": xs[:SHOWN], "more": max(0, len(xs) - SHOWN)} for name, xs in
            (("missed", missed), ("fabricated", fabricated), ("updates", updates),
             ("omissions", omissions))}  # fmt: skip


def memory_metrics(ctx: ReportContext) -> Section | None:
    """A table per (run, system, model) entry with a write path, and its drill-down."""
    found: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {}
    for run in ctx.data.runs:
        loaded = _load(Path(run.path))
        if loaded is not None:
            found[run.label] = loaded
    if not found:
        return None
    values: dict[str, dict[str, str]] = {}
    rows, skipped = [], []
    for e in ctx.data.entries:
        summary, detail = found.get(e.run, ({}, []))
        entry = summary.get("systems", {}).get(e.system)
        if entry is None:
            why = summary.get("skipped", {}).get(e.system)
            if why:
                skipped.append((e.key, why))
            continue
        if e.run not in values:
            values[e.run] = _fact_values(ctx, e.run)
        rates = {k: {"mean": entry["rates"][k]["value"], "ci95": entry["rates"][k]["ci95"]}
                 for k in RATES}  # fmt: skip
        mine = [r for r in detail if r["system"] == e.system]
        rows.append({"entry": e, "rates": rates, "raw": entry["rates"], "entry_data": entry,
                     "lists": _items(mine, values[e.run])})  # fmt: skip
    if not rows and not skipped:
        return None
    html = ctx.render("memory_metrics.html.j2", rows=rows, columns=COLUMNS, skipped=skipped)
    return Section("memory-metrics", "Memory operations", html)


def _fact_values(ctx: ReportContext, run_label: str) -> dict[str, str]:
    """Fact id -> value, for the drill-down (empty when the benchmark cannot be read)."""
    run = next(r for r in ctx.data.runs if r.label == run_label)
    try:
        facts = Benchmark.open(RunHeader(Path(run.path), run.header).benchmark_dir()).facts
    except (UmbError, OSError):
        return {}
    return {fid: f.value for fid, f in facts.items()}


def register() -> None:
    """Add the section after the leaderboard, once."""
    if "memory_metrics" not in SECTIONS:
        register_section("memory_metrics", memory_metrics, after="leaderboard")
