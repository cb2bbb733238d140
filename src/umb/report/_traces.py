"""The report's view of the execution traces: a summary section, and a picture per failed question.

The ``traces`` section counts each traced entry's operations by category. Before the drill-down is
built it draws the evidence subgraph of the first failed questions (``max_trace_pictures``, in the
drill-down's order) and leaves each in the context for the drill-down: inline, cut to the
neighbourhood of the question and its faulty operation (click to zoom), with the whole subgraph
one click away as ``plots/trace-N.svg``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from markupsafe import Markup

from umb._errors import UmbError
from umb.report._context import ReportContext, Section
from umb.report._sections import SECTIONS, register_section
from umb.run import CHUNK, RunTraceView, summarize_trace

_SVG_START = re.compile(rb"<svg\b")
_SVG_ID = re.compile(r'\bid="')
_SVG_SIZE = re.compile(r'\b(width|height)="([\d.]+)pt"')


#: Column order of the operation categories: the write path, then the read path.
_CATEGORIES = ("ingest", "extraction", "decision", "addition", "update", "deletion", "indexing",
               "retrieval", "response", "scoring", "judge")  # fmt: skip


def _category(name: str, category: str) -> str:
    # Every question's ``score`` operation is filed under "judge" in the trace; the table counts
    # it as scoring, so "judge" shows only the votes of a judge that actually ran.
    return "scoring" if category == "judge" and name == "score" else category


def _category_order(category: str) -> tuple[int, str]:
    known = category in _CATEGORIES
    return (_CATEGORIES.index(category) if known else len(_CATEGORIES), category)


def _failed(record: dict[str, Any]) -> bool:
    score = record.get("score")
    return isinstance(score, int | float) and score < 1


def _inline(svg: bytes, prefix: str, full: str) -> Markup:
    # Graphviz writes a whole XML document; inside HTML only the <svg> element belongs, and its
    # element ids (node1, edge1, …) must not clash with the other pictures on the page.
    start = _SVG_START.search(svg)
    body = svg[start.start() :].decode("utf-8") if start else ""
    body = _SVG_ID.sub(f'id="{prefix}-', body)
    # Graphviz sizes in points; the same numbers in pixels draw the graph at 3/4, which keeps
    # its 10-point labels readable while more of it fits in the box.
    body = _SVG_SIZE.sub(r'\1="\2px"', body, count=2)
    # Fitted to the column (CSS max-width, the viewBox keeps the shape); a click shows it at
    # its natural size inside a scroll box.
    return Markup(
        '<details class="trace" open><summary>evidence graph (the faulty operation and the '
        'question; click to zoom) · <a href="{}">whole subgraph</a></summary>'
        '<div class="graph" onclick="this.classList.toggle(\'zoomed\')">{}</div>'
        "</details>"
    ).format(full, Markup(body))


def _views(ctx: ReportContext) -> dict[str, Any]:
    """Run label -> its :class:`~umb.run._traceview.RunTraceView` (runs with traces only)."""

    views: dict[str, Any] = {}
    for run in ctx.data.runs:
        try:
            views[run.label] = RunTraceView(Path(run.path))
        except UmbError:
            continue
    return views


def _draw(
    ctx: ReportContext, views: dict[str, Any]
) -> tuple[int, str | None, dict[tuple[str, str], list[str]]]:
    """Draw the pictures of the first failed questions of the drill-down; return how many, why
    none could be drawn, and the issues of the dialogues read (by run and system)."""
    failures = [
        (r["question_id"], e, r)
        for e in ctx.data.entries
        if e.run in views and e.system in views[e.run].paths
        for r in e.records
        if _failed(r)
    ]
    ids = sorted({r["question_id"] for e in ctx.data.entries for r in e.records})
    shown = set(ids[: ctx.options.max_questions])
    failures = sorted((f for f in failures if f[0] in shown), key=lambda f: f[0])
    failures = failures[: ctx.options.max_trace_pictures]
    dialogues: dict[tuple[str, str], set[str]] = {}
    for _, entry, record in failures:
        dialogues.setdefault((entry.run, entry.system), set()).add(str(record["dialogue_id"]))
    ctx.steps.plan(sum(_mib(views[r].paths[s], 2) for r, s in dialogues) + len(failures))
    issues = {}
    for (run, system), wanted in dialogues.items():
        # Only the drawn questions' dialogues are read, and checked, not the whole trace.
        issues[(run, system)] = views[run].focus(system, wanted, _advance(ctx)).issues
    drawn = 0
    for n, (qid, entry, _) in enumerate(failures):
        view = views[entry.run]
        try:
            focus = view.picture(entry.system, qid, "svg", max_nodes=ctx.options.trace_focus_nodes)
            whole = view.picture(entry.system, qid, "svg", max_nodes=ctx.options.trace_max_nodes)
        except UmbError as e:  # no Graphviz, or a question the trace does not hold
            ctx.steps.step(len(failures) - n)  # the pictures left are not drawn: counted done
            return drawn, str(e), issues
        full = ctx.write_file(f"trace-{n + 1}.svg", whole)
        ctx.add_detail(entry.key, qid, "trace", _inline(focus, f"t{n}", full))
        drawn += 1
        ctx.steps.step()
    return drawn, None, issues


def _mib(path: Path, passes: int = 1) -> int:
    """Progress steps of ``passes`` passes over a trace file: one per MiB begun."""
    return -(-passes * path.stat().st_size // CHUNK)


def _advance(ctx: ReportContext) -> Callable[[int], None]:
    """A pass's ``advance(bytes)`` as report steps: one per MiB, counted as whole MiBs are
    read (a file's last part is one step)."""
    read = 0

    def advance(n: int) -> None:
        nonlocal read
        before = -(-read // CHUNK)
        read += n
        ctx.steps.step(-(-read // CHUNK) - before)

    return advance


def traces(ctx: ReportContext) -> Section | None:
    """Operations per category of each traced entry; draws the failed questions' pictures."""
    views = _views(ctx)
    if not views:
        return None
    rows = []
    categories: Counter[str] = Counter()
    traced = [e for e in ctx.data.entries if e.run in views and e.system in views[e.run].paths]
    ctx.steps.plan(sum(_mib(views[e.run].paths[e.system]) for e in traced))
    for e in traced:
        view = views[e.run]
        summary = summarize_trace(view.paths[e.system], _category, _advance(ctx))
        categories.update(summary.counts)
        size = view.paths[e.system].stat().st_size
        rows.append(
            {"entry": e, "ops": summary.ops, "counts": summary.counts, "issues": summary.issues,
             "bytes": size}
        )  # fmt: skip
    drawn, problem, checked = _draw(ctx, views)
    for row in rows:
        row["issues"] += checked.get((row["entry"].run, row["entry"].system), [])
    html = ctx.render(
        "traces.html.j2",
        rows=rows,
        categories=sorted(categories, key=_category_order),
        drawn=drawn,
        problem=problem,
    )
    return Section("traces", "Traces", html)


def register() -> None:
    """Add the section (before the drill-down), once."""
    if "traces" not in SECTIONS:
        register_section("traces", traces, before="questions")
