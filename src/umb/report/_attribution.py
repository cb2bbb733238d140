"""The report's attribution section: failed questions per system × error type, and each failed
question's attribution in the drill-down.

Attributions come from ``RUN/attributions.jsonl`` (``umb attribute``, or the end of a traced
``umb eval``); a traced run without that file is attributed on the spot, without writing it.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from umb._errors import UmbError
from umb.attribute import ATTRIBUTIONS, ERROR_TYPES, attribute_run, read_attributions, run_traces
from umb.report._context import ReportContext, Section
from umb.report._plots import _figure
from umb.report._sections import SECTIONS, register_section

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from umb.attribute import Attribution

#: Error type -> bar colour: the write path warm, retrieval and response cool, non-system grey.
TYPE_COLOURS = {
    "ExtractionError": "#e15759", "UpdateError": "#f28e2b", "DeletionError": "#b07aa1",
    "RetrievalError": "#4e79a7", "ResponseError": "#76b7b2", "AnnotationError": "#bab0ac",
    "JudgeError": "#9c755f", "Unattributed": "#d7d7d7",
}  # fmt: skip


def _attributions(path: Path) -> list[Attribution] | None:
    """A run's attributions: its file, else computed on the spot; None for an untraced run."""

    if (path / ATTRIBUTIONS).exists():
        return read_attributions(path)
    if not run_traces(path):
        return None
    try:
        return attribute_run(path, write=False).attributions
    except UmbError:  # a moved benchmark, say: the report goes on without attributions
        return None


def attribution_bars(rows: list[dict[str, Any]], types: list[str]) -> Figure:
    """Horizontal stacked bars: one per entry, its failed questions split by error type."""
    fig = _figure(8.5, 0.45 * len(rows) + 1.4)
    ax = fig.add_subplot()
    left = [0] * len(rows)
    for t in types:
        counts = [r["counts"].get(t, 0) for r in rows]
        if not any(counts):
            continue
        ax.barh(range(len(rows)), counts, left=left, color=TYPE_COLOURS.get(t, "#888"), label=t)
        left = [a + b for a, b in zip(left, counts, strict=True)]
    ax.set_yticks(range(len(rows)), [r["entry"].key for r in rows])
    ax.invert_yaxis()
    ax.set_xlabel("failed questions, by attributed error type")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    return fig


def run_attributions(ctx: ReportContext) -> dict[str, dict[tuple[str, str], Attribution]]:
    """Run label -> ``(system, question id) -> attribution``, read or computed once per report."""

    def compute() -> dict[str, dict[tuple[str, str], Attribution]]:
        found: dict[str, dict[tuple[str, str], Attribution]] = {}
        for run in ctx.data.runs:
            atts = _attributions(Path(run.path))
            if atts is not None:
                found[run.label] = {(a.system, a.question_id): a for a in atts}
        return found

    shared: dict[str, dict[tuple[str, str], Attribution]] = ctx.shared_value(
        "attributions", compute
    )
    return shared


def attribution(ctx: ReportContext) -> Section | None:
    """Counts per (run, system, model) × error type, as a table and as stacked bars; leaves
    each failed answer's attribution in the context for the drill-down."""
    found = run_attributions(ctx)
    if not found:
        return None
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for e in ctx.data.entries:
        mine = found.get(e.run)
        if mine is None:
            continue
        counts: Counter[str] = Counter()
        for r in e.records:
            a = mine.get((e.system, r["question_id"]))
            if a is not None:
                ctx.add_detail(e.key, r["question_id"], "attribution", attribution_detail(a))
                counts[a.error_type] += 1
        rows.append({"entry": e, "counts": counts, "failed": sum(counts.values())})
        seen.update(counts)
    types = [*ERROR_TYPES, *sorted(seen - set(ERROR_TYPES))]
    plot = None
    if any(r["failed"] for r in rows):
        fig = attribution_bars(rows, types)
        plot = ctx.figure("attribution", fig, "Failed questions per system by error type")
    html = ctx.render("attribution.html.j2", rows=rows, types=types, plot=plot)
    return Section("attributions", "Error attribution", html)


def attribution_detail(a: Attribution) -> Markup:
    """The drill-down row of a failed question: error type, faulty operation, reason."""
    where = Markup(" at <code>{}</code> ({})").format(a.op_id, a.op_name) if a.op_id else ""
    return Markup("<b>{}</b>{} — {}").format(a.error_type, where, a.reason)


def register() -> None:
    """Add the section (before the drill-down), once."""
    if "attributions" not in SECTIONS:
        register_section("attributions", attribution, before="questions")
