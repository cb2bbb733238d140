"""``umb render``: re-render an existing benchmark's world with the LLM renderer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from umb._cli._progress import progress_option
from umb._cli._render_options import build_job, echo_outcome, llm_render_options


@click.command()
@click.option(
    "--renderer",
    type=click.Choice(["llm"]),
    default="llm",
    show_default=True,
    help="How to write the dialogues.",
)
@click.option(
    "--bench",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    required=True,
    help="Benchmark whose world (and session schedule) to render.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    required=True,
    help="Output benchmark directory; rerunning the same command resumes it.",
)
@click.option("--limit", type=int, help="Only the first N dialogues.")
@click.option(
    "--json", "as_json", is_flag=True, help="Print the outcome (or the --dry-run estimate) as JSON."
)
@progress_option
@llm_render_options
def render(
    renderer: str,
    bench: Path,
    out: Path,
    limit: int | None,
    as_json: bool,
    progress: bool | None,
    **options: Any,
) -> None:
    """Re-render a benchmark's world as LLM-written dialogues (plan, write, audit, repair)."""
    from umb.render import dry_run, format_estimate, render_benchmark

    job = build_job(bench, out, options, limit=limit, progress=progress)
    if options["dry_run"]:
        est = dry_run(job)
        click.echo(json.dumps(est, indent=2) if as_json else format_estimate(est, job.config.model))
        return
    echo_outcome(render_benchmark(job), out, job.config.model, as_json=as_json)


def generate_with_llm(
    config: Any,
    out: Path,
    shard: str | None,
    progress: bool | None,
    renderer: str,
    options: dict[str, Any],
) -> None:
    """``umb generate --renderer llm``: the template skeleton, then the LLM render (or its
    dry-run estimate)."""
    from umb._errors import ConfigError
    from umb.pipeline import generate_llm, generate_llm_dry_run
    from umb.render import format_estimate

    if renderer != "llm":
        raise ConfigError("--dry-run estimates model calls: use it with --renderer llm")
    job = build_job(out, out, options, limit=None, progress=progress)
    if options["dry_run"]:
        est = generate_llm_dry_run(config, job, shard)
        click.echo(format_estimate(est, job.config.model))
        return
    echo_outcome(generate_llm(config, job, shard), out, job.config.model)
