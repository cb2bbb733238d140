"""``umb run``: demo benchmark → six memory systems with the offline model → HTML report."""

from __future__ import annotations

from pathlib import Path

import click

from umb._cli._progress import progress_option


@click.command()
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=Path("umb-demo"),
    show_default=True,
    help="Folder for bench/, run/ and report/.",
)
@click.option(
    "--model",
    default="offline",
    show_default=True,
    help="Answerer spec (offline needs no key, model or network).",
)
@progress_option
def run(out: Path, model: str, progress: bool | None) -> None:
    """Generate the demo benchmark, evaluate six memory systems, write the report."""
    from umb.pipeline import run_quickstart
    from umb.report import format_leaderboard

    result = run_quickstart(out, model=model, progress=progress)
    bench_note = "generated" if result.generated else "reused"
    click.echo(f"benchmark: {result.bench} ({bench_note})")
    click.echo(f"run:       {result.run.run_dir} ({result.run.written} new records)\n")
    click.echo(format_leaderboard(result.run.results))
    click.echo(f"\nreport: {result.report}")
