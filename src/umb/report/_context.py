"""What a report section is given (data, templates, a place for figures) and what it returns."""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
from markupsafe import Markup

from umb.report._load import ReportData

if TYPE_CHECKING:
    from matplotlib.figure import Figure

PLOTS_DIR = "plots"


@dataclass(frozen=True)
class Section:
    """One block of the report page.

    Attributes:
        id: Anchor id, unique on the page (``leaderboard``, ``families``, …).
        title: Heading, also used in the navigation bar.
        html: The body, already rendered (use :meth:`ReportContext.render`).
    """

    id: str
    title: str
    html: Markup


@dataclass(frozen=True)
class ReportOptions:
    """Knobs of ``umb report``.

    Attributes:
        max_questions: Questions shown in the drill-down (the page stays loadable for big runs).
        raw_chars: Characters of each raw answer shown before it is cut.
        max_trace_pictures: Failed questions whose evidence graph is drawn into the drill-down
            (the first ones shown); 0 draws none.
        trace_max_nodes: Variable versions per evidence graph at most.
    """

    max_questions: int = 500
    raw_chars: int = 1500
    max_trace_pictures: int = 50
    trace_max_nodes: int = 40


def _fmt_score(value: Any) -> str:
    if value is None:
        return "–"
    return f"{float(value):.3g}"


def _fmt_ci(block: Any) -> str:
    if not isinstance(block, dict) or block.get("mean") is None:
        return "–"
    ci = block.get("ci95")
    mean = f"{block['mean']:.3f}"
    return f"{mean} [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else mean


def _fmt_pct(value: Any) -> str:
    return "–" if value is None else f"{100 * float(value):.1f}%"


def _fmt_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("umb.report", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters.update(score=_fmt_score, ci=_fmt_ci, pct=_fmt_pct, tojson_pretty=_fmt_json)
    return env


@dataclass
class ReportContext:
    """Handed to every section builder.

    Attributes:
        data: The loaded runs and their (run, system, model) entries.
        out: The report directory.
        options: Report options.
        files: Every file written besides ``index.html`` (the plots), relative to ``out``.
    """

    data: ReportData
    out: Path
    options: ReportOptions = field(default_factory=ReportOptions)
    files: list[str] = field(default_factory=list)
    env: jinja2.Environment = field(default_factory=_environment)

    def render(self, template: str, **values: Any) -> Markup:
        """Render a template of ``umb/report/templates`` (autoescaped) with ``values``."""
        return Markup(self.env.get_template(template).render(ctx=self, **values))

    def figure(self, name: str, fig: Figure, alt: str) -> Markup:
        """Save ``fig`` as ``plots/NAME.png`` and ``plots/NAME.svg``; return an ``<img>`` that
        embeds the SVG (base64), so the page needs no other file."""
        import matplotlib

        folder = self.out / PLOTS_DIR
        folder.mkdir(parents=True, exist_ok=True)
        # A fixed hash salt and no date keep the SVG bytes the same from one run to the next.
        with matplotlib.rc_context({"svg.hashsalt": "umb", "svg.fonttype": "none"}):
            fig.savefig(folder / f"{name}.png", format="png", dpi=110)
            buffer = io.BytesIO()
            fig.savefig(buffer, format="svg", metadata={"Date": None})
        svg = buffer.getvalue()
        (folder / f"{name}.svg").write_bytes(svg)
        self.files += [f"{PLOTS_DIR}/{name}.png", f"{PLOTS_DIR}/{name}.svg"]
        encoded = base64.b64encode(svg).decode("ascii")
        return Markup(
            '<figure class="plot"><img alt="{alt}" src="data:image/svg+xml;base64,{data}">'
            '<figcaption>{alt} (<a href="{png}">PNG</a>, <a href="{svgf}">SVG</a>)</figcaption>'
            "</figure>"
        ).format(
            alt=alt, data=encoded, png=f"{PLOTS_DIR}/{name}.png", svgf=f"{PLOTS_DIR}/{name}.svg"
        )


SectionBuilder = Callable[[ReportContext], "Section | None"]
"""A function that builds one section, or returns None to leave it out."""
