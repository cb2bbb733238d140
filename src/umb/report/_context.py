"""What a report section is given (data, templates, a place for figures) and what it returns."""

from __future__ import annotations

import base64
import io
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
from markupsafe import Markup

from umb.report._load import ReportData
from umb.report._terms import describe

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
        trace_focus_nodes: Variable versions in the picture shown inline: those around the
            faulty operation and the question.
        trace_max_nodes: Variable versions in the whole subgraph linked from it, at most.
    """

    max_questions: int = 500
    raw_chars: int = 1500
    max_trace_pictures: int = 50
    trace_focus_nodes: int = 12
    trace_max_nodes: int = 40


# One number format on the whole page: scores and means with three decimals, shares as
# percentages with one, counts with thousands separators.
def _fmt_score(value: Any) -> str:
    if value is None:
        return "–"
    return f"{float(value):.3f}"


def _fmt_ci(block: Any) -> Markup:
    """A mean with its interval on a second, smaller line (so CI columns stay narrow)."""
    if not isinstance(block, dict) or block.get("mean") is None:
        return Markup("–")
    ci = block.get("ci95")
    mean = f"{block['mean']:.3f}"
    if not ci:
        return Markup("{}").format(mean)
    return Markup('{}<br><span class="ci">[{:.3f}, {:.3f}]</span>').format(mean, ci[0], ci[1])


def _breakable(name: Any) -> Markup:
    """A long identifier (``oracle_evidence``, ``openai/gpt-4o``) that may wrap after _ / - ."""
    parts = re.split(r"(?<=[_/.-])", str(name))
    return Markup("<wbr>").join(parts)


def _fmt_count(value: Any) -> str:
    return "–" if value is None else f"{float(value):,.0f}"


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
    env.filters.update(score=_fmt_score, ci=_fmt_ci, pct=_fmt_pct, count=_fmt_count,
                       wrap=_breakable, tojson_pretty=_fmt_json)  # fmt: skip
    return env


def term(key: str, label: str | None = None) -> Markup:
    """A column header or name linked to its glossary entry (its explanation on hover)."""
    found = describe(key)
    text = label if label is not None else (found[0] if found else key)
    if found is None:
        return Markup("{}").format(text)
    return Markup('<a class="term" href="#g-{}" title="{}">{}</a>').format(
        anchor(key), found[1], text
    )


def anchor(key: str) -> str:
    """The HTML id fragment of a glossary key (``system:rag_bm25`` -> ``system-rag-bm25``)."""
    return key.replace(":", "-").replace("_", "-").lower()


@dataclass
class Steps:
    """The report's progress: steps planned and done, told to a ``(done, total)`` callback.

    Sections that do much work (one picture per failed question, say) plan their steps as they
    learn how many there are, so the total grows while the page is built.
    """

    progress: Callable[[int, int], None] | None = None
    done: int = 0
    total: int = 0

    def plan(self, n: int) -> None:
        """Add ``n`` steps to the total."""
        self.total += n
        self._tell()

    def step(self, n: int = 1) -> None:
        """``n`` steps done."""
        self.done += n
        self._tell()

    def _tell(self) -> None:
        if self.progress is not None:
            self.progress(self.done, self.total)


@dataclass
class ReportContext:
    """Handed to every section builder.

    Attributes:
        data: The loaded runs and their (run, system, model) entries.
        out: The report directory.
        options: Report options.
        files: Every file written besides ``index.html`` (the plots), relative to ``out``.
        details: Extra drill-down rows per answer, ``(entry key, question id) -> [(label,
            html)]``: an earlier section (attribution, traces) leaves them here for the
            drill-down.
        shared: Values computed once and used by several sections (:meth:`shared_value`).
        terms: Glossary keys used on the page so far (the glossary lists them).
        steps: Progress; a long section plans and counts its own steps here.
    """

    data: ReportData
    out: Path
    options: ReportOptions = field(default_factory=ReportOptions)
    files: list[str] = field(default_factory=list)
    details: dict[tuple[str, str], list[tuple[str, Markup]]] = field(default_factory=dict)
    shared: dict[str, Any] = field(default_factory=dict)
    terms: set[str] = field(default_factory=set)
    steps: Steps = field(default_factory=Steps)
    env: jinja2.Environment = field(default_factory=_environment)

    def render(self, template: str, **values: Any) -> Markup:
        """Render a template of ``umb/report/templates`` (autoescaped) with ``values``."""
        return Markup(self.env.get_template(template).render(ctx=self, **values))

    def term(self, key: str, label: str | None = None) -> Markup:
        """``label`` linked to the glossary entry ``key`` (remembered for the glossary)."""
        if describe(key) is not None:
            self.terms.add(key)
        return term(key, label)

    def add_detail(self, entry_key: str, question_id: str, label: str, html: Markup) -> None:
        """Add a row under one answer of the drill-down (call before the drill-down is built)."""
        self.details.setdefault((entry_key, question_id), []).append((label, html))

    def shared_value(self, key: str, compute: Callable[[], Any]) -> Any:
        """``compute()`` once per report under ``key``; later callers get the same value."""
        if key not in self.shared:
            self.shared[key] = compute()
        return self.shared[key]

    def write_file(self, name: str, data: bytes) -> str:
        """Write ``plots/NAME`` beside the page; return its path relative to the page."""
        folder = self.out / PLOTS_DIR
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
        self.files.append(f"{PLOTS_DIR}/{name}")
        return f"{PLOTS_DIR}/{name}"

    def figure(self, name: str, fig: Figure, alt: str) -> Markup:
        """Save ``fig`` as ``plots/NAME.png`` and ``plots/NAME.svg``; return an ``<img>`` that
        embeds the SVG (base64), so the page needs no other file."""
        import matplotlib

        # A fixed hash salt and no date keep the SVG bytes the same from one run to the next.
        with matplotlib.rc_context({"svg.hashsalt": "umb", "svg.fonttype": "none"}):
            png = io.BytesIO()
            fig.savefig(png, format="png", dpi=110)
            buffer = io.BytesIO()
            fig.savefig(buffer, format="svg", metadata={"Date": None})
        svg = buffer.getvalue()
        png_path = self.write_file(f"{name}.png", png.getvalue())
        svg_path = self.write_file(f"{name}.svg", svg)
        encoded = base64.b64encode(svg).decode("ascii")
        return Markup(
            '<figure class="plot"><img alt="{alt}" src="data:image/svg+xml;base64,{data}">'
            '<figcaption>{alt} (<a href="{png}">PNG</a>, <a href="{svgf}">SVG</a>)</figcaption>'
            "</figure>"
        ).format(alt=alt, data=encoded, png=png_path, svgf=svg_path)


SectionBuilder = Callable[[ReportContext], "Section | None"]
"""A function that builds one section, or returns None to leave it out."""
