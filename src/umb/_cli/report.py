"""``umb report``: one self-contained HTML page for one or more runs."""

from __future__ import annotations

from pathlib import Path

import click

from umb._cli._output import force_option, refuse_existing
from umb._cli._progress import Progress, progress_option


@click.command()
@click.argument("runs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    help="Report directory (default: RUN/report of the first run).",
)
@click.option(
    "--max-questions",
    type=int,
    default=500,
    show_default=True,
    help="Questions shown in the per-question drill-down.",
)
@click.option(
    "--max-trace-pictures",
    type=int,
    default=50,
    show_default=True,
    help="Failed questions whose evidence graph is drawn (runs with traces; needs Graphviz).",
)
@force_option("a report")
@progress_option
def report(
    runs: tuple[Path, ...],
    out: Path | None,
    max_questions: int,
    max_trace_pictures: int,
    force: bool,
    progress: bool | None,
) -> None:
    """Write an HTML report (leaderboard, families, plots, drill-down) of run directories."""
    target = out if out is not None else runs[0] / "report"
    refuse_existing(target, force, "a report", marker="index.html")
    with Progress("report", "steps", progress) as bar:
        bar(0, 0)  # before the imports (jinja2, matplotlib), which take a while
        from umb.report import ReportOptions, build_report

        options = ReportOptions(max_questions=max_questions, max_trace_pictures=max_trace_pictures)
        written = build_report(list(runs), target, options, progress=bar)
    click.echo(f"wrote {written.index} ({len(written.files)} plot files in {target / 'plots'})")
