"""``umb report``: one self-contained HTML page for one or more runs."""

from __future__ import annotations

from pathlib import Path

import click


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
def report(runs: tuple[Path, ...], out: Path | None, max_questions: int) -> None:
    """Write an HTML report (leaderboard, families, plots, drill-down) of run directories."""
    from umb.report import ReportOptions, build_report

    target = out if out is not None else runs[0] / "report"
    written = build_report(list(runs), target, ReportOptions(max_questions=max_questions))
    click.echo(f"wrote {written.index} ({len(written.files)} plot files in {target / 'plots'})")
