"""``umb validate``."""

from __future__ import annotations

from pathlib import Path

import click

from umb._cli._progress import Progress, progress_option
from umb.bench import check


@click.command()
@click.argument("bench", type=click.Path(path_type=Path))
@click.option(
    "--max-problems",
    default=50,
    show_default=True,
    help="Problems listed at most (checking goes on to the end either way).",
)
@progress_option
def validate(bench: Path, max_problems: int, progress: bool | None) -> int:
    """Re-check a benchmark directory; exit 2 listing `file:line: reason` for broken records."""
    if not bench.is_dir():
        click.echo(f"umb: error: {bench}: not a directory", err=True)
        return 2
    with Progress("validate", "dialogues", progress) as bar:
        report = check(bench, limit=max_problems, progress=bar)
    for n in report.notes:
        click.echo(f"note: {n}", err=True)
    for w in report.warnings[:max_problems]:
        click.echo(f"warning: {w}", err=True)
    problems = report.items
    for p in problems:
        click.echo(p, err=True)
    if problems:
        click.echo(f"{bench}: INVALID ({len(problems)} problem(s) shown)", err=True)
        return 2
    click.echo(f"{bench}: valid")
    return 0
