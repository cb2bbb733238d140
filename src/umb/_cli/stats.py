"""``umb stats``: counts of a benchmark, and with ``--style`` the surface statistics of its text."""

from __future__ import annotations

import json
from pathlib import Path

import click

from umb._cli._progress import Progress, progress_option
from umb.bench import Benchmark, benchmark_stats, format_stats, format_style, style_stats


@click.command()
@click.argument("bench", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option(
    "--style",
    is_flag=True,
    help="Surface statistics instead: distinct-1/2/3, repeated and short turns, words per "
    "turn, BM25 question->evidence recall@5 per family.",
)
@progress_option
def stats(bench: Path, as_json: bool, style: bool, progress: bool | None) -> None:
    """Print counts per family, tokens and sessions per dialogue (or --style statistics)."""
    opened = Benchmark.open(bench)
    if style:
        result = style_stats(opened)
        click.echo(json.dumps(result, indent=2) if as_json else format_style(result))
        return
    with Progress("stats", "dialogues", progress) as bar:
        result = benchmark_stats(opened, progress=bar)
    click.echo(json.dumps(result, indent=2) if as_json else format_stats(result))
