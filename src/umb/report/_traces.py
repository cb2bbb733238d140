"""The report's view of the execution traces: a summary section, and a picture per failed question.

The ``traces`` section counts each traced entry's operations by category. Before the drill-down is
built it draws the evidence subgraph of the first failed questions (``max_trace_pictures``, in the
drill-down's order) and the drill-down shows each under its answer, as inline SVG.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

from markupsafe import Markup

from umb._errors import UmbError
from umb.report._context import ReportContext, Section
from umb.report._sections import QUESTION_DETAILS, SECTIONS, register_section
from umb.run._traceview import RunTraceView

# id(record) -> its picture, for the records of the report being built. A section builder sees
# the whole run; a question detail sees one record, so the pictures are drawn in between.
_PICTURES: dict[int, Markup] = {}
_SVG_START = re.compile(rb"<svg\b")
_SVG_ID = re.compile(r'\bid="')
_SVG_SIZE = re.compile(r'\b(width|height)="([\d.]+)pt"')


#: Column order of the operation categories: the write path, then the read path.
_CATEGORIES = ("ingest", "extraction", "decision", "addition", "update", "deletion", "indexing",
               "retrieval", "response", "judge")  # fmt: skip


def _category_order(category: str) -> tuple[int, str]:
    known = category in _CATEGORIES
    return (_CATEGORIES.index(category) if known else len(_CATEGORIES), category)


def _failed(record: dict[str, Any]) -> bool:
    score = record.get("score")
    return isinstance(score, int | float) and score < 1


def _inline(svg: bytes, prefix: str) -> Markup:
    # Graphviz writes a whole XML document; inside HTML only the <svg> element belongs, and its
    # element ids (node1, edge1, …) must not clash with the other pictures on the page.
    start = _SVG_START.search(svg)
    body = svg[start.start() :].decode("utf-8") if start else ""
    body = _SVG_ID.sub(f'id="{prefix}-', body)
    # Graphviz sizes in points; the same numbers in pixels draw the graph at 3/4, which keeps
    # its 10-point labels readable while more of it fits in the box.
    body = _SVG_SIZE.sub(r'\1="\2px"', body, count=2)
    # A fixed scroll box: a wide graph must not stretch the drill-down table around it.
    return Markup(
        '<details class="trace"><summary>evidence graph</summary>'
        '<div style="max-width:min(60vw,760px);max-height:480px;overflow:auto">{}</div>'
        "</details>"
    ).format(Markup(body))


def _views(ctx: ReportContext) -> dict[str, Any]:
    """Run label -> its :class:`~umb.run._traceview.RunTraceView` (runs with traces only)."""

    views: dict[str, Any] = {}
    for run in ctx.data.runs:
        try:
            views[run.label] = RunTraceView(Path(run.path))
        except UmbError:
            continue
    return views


def _draw(ctx: ReportContext, views: dict[str, Any]) -> tuple[int, str | None]:
    """Draw the pictures of the first failed questions of the drill-down; return how many."""
    failures = [
        (r["question_id"], e.run, e.system, r)
        for e in ctx.data.entries
        if e.run in views and e.system in views[e.run].paths
        for r in e.records
        if _failed(r)
    ]
    ids = sorted({r["question_id"] for e in ctx.data.entries for r in e.records})
    shown = set(ids[: ctx.options.max_questions])
    failures = sorted((f for f in failures if f[0] in shown), key=lambda f: f[0])
    drawn = 0
    for n, (qid, run, system, record) in enumerate(failures[: ctx.options.max_trace_pictures]):
        try:
            svg = views[run].picture(system, qid, "svg", max_nodes=ctx.options.trace_max_nodes)
        except UmbError as e:  # no Graphviz, or a question the trace does not hold
            return drawn, str(e)
        _PICTURES[id(record)] = _inline(svg, f"t{n}")
        drawn += 1
    return drawn, None


def traces(ctx: ReportContext) -> Section | None:
    """Operations per category of each traced entry; draws the failed questions' pictures."""
    _PICTURES.clear()
    views = _views(ctx)
    if not views:
        return None
    rows = []
    categories: Counter[str] = Counter()
    for e in ctx.data.entries:
        view = views.get(e.run)
        if view is None or e.system not in view.paths:
            continue
        trace = view.trace(e.system)
        counts = Counter(o.category for o in trace.ops)
        categories.update(counts)
        size = view.paths[e.system].stat().st_size
        rows.append(
            {"entry": e, "ops": len(trace.ops), "counts": counts, "issues": trace.issues,
             "bytes": size}
        )  # fmt: skip
    drawn, problem = _draw(ctx, views)
    html = ctx.render(
        "traces.html.j2",
        rows=rows,
        categories=sorted(categories, key=_category_order),
        drawn=drawn,
        problem=problem,
    )
    return Section("traces", "Traces", html)


def trace_picture(record: dict[str, Any]) -> list[tuple[str, Markup]]:
    """The drill-down row holding a failed question's evidence graph, when one was drawn."""
    picture = _PICTURES.get(id(record))
    return [("trace", picture)] if picture is not None else []


def register() -> None:
    """Add the section (before the drill-down) and the per-question pictures, once."""
    if "traces" not in SECTIONS:
        register_section("traces", traces, before="questions")
    if trace_picture not in QUESTION_DETAILS:
        QUESTION_DETAILS.append(trace_picture)
