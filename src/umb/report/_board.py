"""The leaderboard section: one ranked table per benchmark.

Scores are comparable only on the same questions, so runs are grouped by their benchmark's
content hash; when a report combines runs on different benchmarks the page says so above the
tables instead of ranking them together.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from umb.report import _plots
from umb.report._context import ReportContext, Section
from umb.report._leaderboard import leaderboard_rows
from umb.report._load import Entry, RunData


@dataclass
class BenchmarkGroup:
    """The runs (and their entries) made on one benchmark."""

    hash: str
    """The benchmark's content hash (its path when the header has none)."""
    header: dict[str, Any]
    """The ``benchmark`` block of the first run's header."""
    runs: list[str] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)


def benchmark_groups(ctx: ReportContext) -> list[BenchmarkGroup]:
    """The report's runs grouped by benchmark, in the order the runs were given."""

    def compute() -> list[BenchmarkGroup]:
        groups: dict[str, BenchmarkGroup] = {}
        of_run: dict[str, BenchmarkGroup] = {}
        for run in ctx.data.runs:
            bench = _bench(run)
            key = str(bench.get("content_hash") or bench.get("path") or run.label)
            group = groups.setdefault(key, BenchmarkGroup(key, bench))
            group.runs.append(run.label)
            of_run[run.label] = group
        for e in ctx.data.entries:
            of_run[e.run].entries.append(e)
        return list(groups.values())

    found: list[BenchmarkGroup] = ctx.shared_value("benchmark_groups", compute)
    return found


def _bench(run: RunData) -> dict[str, Any]:
    block = run.header.get("benchmark")
    return block if isinstance(block, dict) else {}


def _table(ctx: ReportContext, group: BenchmarkGroup, n: int) -> dict[str, Any]:
    groups = [{**e.group, "run": e.run, "key": e.key} for e in group.entries]
    rows = leaderboard_rows(groups)
    keys = {(g["run"], g["system"], g["model"]): g["key"] for g in groups}
    for r in rows:
        r["key"] = keys[(r["run"], r["system"], r["model"])]
    plot = None
    if group.entries:
        fig = _plots.overall_bars(group.entries)
        name = "overall" if n == 0 else f"overall-{n + 1}"
        plot = ctx.figure(name, fig, "Task-balanced overall score per system and model")
    seen = {f for e in group.entries for f in e.group.get("families", {})}
    return {
        "group": group,
        "rows": rows,
        "families": [f for f in ctx.data.families if f in seen],
        "plot": plot,
        "several_runs": len(group.runs) > 1,
        "id": "leaderboard-table" if n == 0 else f"leaderboard-table-{n + 1}",
    }


def leaderboard(ctx: ReportContext) -> Section:
    """Systems × models ranked by the task-balanced overall, one table per benchmark."""
    groups = benchmark_groups(ctx)
    tables = [_table(ctx, g, n) for n, g in enumerate(groups)]
    models = sorted({e.model for e in ctx.data.entries})
    html = ctx.render("leaderboard.html.j2", tables=tables, models=models)
    return Section("leaderboard", "Leaderboard", html)
