"""``umb report``: run directories in, one self-contained ``index.html`` (plus plot files) out."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from umb._errors import ConfigError
from umb._jsonio import atomic_write_bytes
from umb.report._attribution import register as _register_attribution
from umb.report._context import ReportContext, ReportOptions, Section, Steps
from umb.report._load import load_report_data
from umb.report._memory_metrics import register as _register_memory_metrics
from umb.report._sections import QUESTION_DETAILS, SECTIONS, QuestionDetail, register_section
from umb.report._traces import register as _register_traces

# The built-in sections that live in their own modules, in page order.
_register_traces()
_register_attribution()
_register_memory_metrics()

__all__ = ["QUESTION_DETAILS", "SECTIONS", "QuestionDetail", "Report", "build_report",
           "register_section"]  # fmt: skip


@dataclass(frozen=True)
class Report:
    """What :func:`build_report` wrote.

    Attributes:
        index: The HTML page.
        files: Every other file written (plots as PNG and SVG).
        sections: The section ids on the page, in order.
    """

    index: Path
    files: tuple[Path, ...]
    sections: tuple[str, ...]


def build_report(
    runs: Sequence[Path],
    out: Path,
    options: ReportOptions | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> Report:
    """Write the HTML report of one or more run directories.

    Args:
        runs: Run directories (``umb eval --out``); their entries are compared side by side.
        out: Report directory (created): ``index.html`` and ``plots/*.png|svg``.
        options: Drill-down limits.
        progress: Called with ``(steps done, steps planned)`` as runs load and sections (and
            their pictures) are built; the total grows as sections learn their size.

    Returns:
        A :class:`Report`.

    Raises:
        ConfigError: No run given.
        DataError: A run directory is broken.

    Example:
        >>> build_report([Path("run")], Path("report")).index  # doctest: +SKIP
        PosixPath('report/index.html')
    """
    if not runs:
        raise ConfigError("name at least one run directory")
    options = options or ReportOptions()
    steps = Steps(progress)
    steps.plan(len(runs) + len(SECTIONS))
    import matplotlib

    matplotlib.use("Agg", force=True)
    data = load_report_data(runs, on_run=steps.step, shown=options.max_questions)
    ctx = ReportContext(data, out, options, steps=steps)
    out.mkdir(parents=True, exist_ok=True)
    sections: list[Section] = []
    for builder in SECTIONS.values():
        section = builder(ctx)
        steps.step()
        if section is not None:
            sections.append(section)
    html = ctx.render(
        "report.html.j2",
        sections=sections,
        generated=dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    )
    index = out / "index.html"
    atomic_write_bytes(index, html.encode("utf-8"))
    return Report(index, tuple(out / f for f in ctx.files), tuple(s.id for s in sections))
