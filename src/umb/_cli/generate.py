"""``umb generate`` and ``umb merge``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from umb._cli._options import executor_config, executor_options
from umb._cli._output import force_option, refuse_existing
from umb._cli._progress import Progress, progress_option
from umb._cli._render_options import llm_render_options
from umb._errors import ConfigError
from umb.pipeline import PRESETS, merge_shards, resolve_config
from umb.pipeline import generate as generate_benchmark


@click.command()
@click.option(
    "--preset",
    type=click.Choice(sorted(PRESETS)),
    default="demo",
    show_default=True,
    help="demo: 10 characters, 170 questions; small: 100 characters, 1,700 questions; "
    "umb: 1,000 characters, 16,999 questions.",
)
@click.option("--out", type=click.Path(path_type=Path), required=True, help="Output directory.")
@click.option("--characters", type=int, help="Number of characters (one dialogue each).")
@click.option("--seed", type=int, help="Random seed; the same seed gives the same bytes.")
@click.option("--target-tokens", type=int, help="Average estimated tokens per dialogue.")
@click.option(
    "--density",
    type=float,
    help="Events per 10k tokens of dialogue (default: 5-7 a year); questions grow with it.",
)
@click.option("--start", help="First day of the timeline (YYYY-MM-DD).")
@click.option("--end", help="Last day of the timeline (YYYY-MM-DD).")
@click.option("--shard", help="Generate only shard i of k (e.g. 0/2); merge with `umb merge`.")
@progress_option
@force_option("a benchmark")
@click.option(
    "--renderer",
    type=click.Choice(["template", "llm"]),
    default="template",
    show_default=True,
    help="template: fast and exact; llm: written by --renderer-model, audited and repaired.",
)
@executor_options(unit="character-shard")
@click.option(
    "--audit/--no-audit",
    "audit",
    default=True,
    show_default=True,
    help="Audit the shortcuts (all but retrieval) into the manifest; exit 1 if a check fails.",
)
@llm_render_options
def generate(
    preset: str,
    out: Path,
    characters: int | None,
    seed: int | None,
    target_tokens: int | None,
    density: float | None,
    start: str | None,
    end: str | None,
    shard: str | None,
    progress: bool | None,
    force: bool,
    renderer: str,
    executor: str,
    workers: int,
    ray_address: str | None,
    ray_dashboard: bool,
    audit: bool,
    **llm: Any,
) -> None:
    """Generate a benchmark (world, questions, dialogues) from a seed."""
    config = resolve_config(
        preset,
        characters=characters,
        seed=seed,
        target_tokens=target_tokens,
        start=start,
        end=end,
        density=density,
    )
    on = executor_config(executor, workers, ray_address, ray_dashboard)
    if on.kind == "ray" and (renderer == "llm" or llm["dry_run"] or shard):
        raise ConfigError(
            "--executor ray shards the template renderer itself: "
            "drop --shard, --renderer llm and --dry-run"
        )
    if renderer == "template" and not llm["dry_run"]:  # the LLM renderer resumes its output
        refuse_existing(out, force, "a benchmark", marker="manifest.json")
    if renderer == "llm" or llm["dry_run"]:
        from umb._cli.render import generate_with_llm

        return generate_with_llm(config, out, shard, progress, renderer, llm)
    t0 = time.perf_counter()
    unit = "shards" if on.kind == "ray" else "dialogues"
    with Progress("generate", unit, progress) as bar:
        if on.kind == "ray":
            from umb.pipeline._generate_ray import generate_on_ray  # loads ray (extra "ray")

            manifest = generate_on_ray(config, out, on, progress=bar)
        else:
            manifest = generate_benchmark(config, out, shard=shard, progress=bar)
    c = manifest["counts"]
    click.echo(
        f"wrote {out}: {c['dialogues']} dialogues, {c['sessions']} sessions, "
        f"{c['turns']} turns, {c['questions']} questions in {time.perf_counter() - t0:.1f}s"
    )
    if shard:
        if audit:
            click.echo("audit: skipped for a shard (umb merge audits the whole)")
        return
    _gate(out, audit)


def _gate(out: Path, audit: bool) -> None:
    """Audit the written benchmark into its manifest; exit 1 when a check fails.

    The records stay written either way: a failed gate says the benchmark has a shortcut,
    and the manifest's ``audit`` object names it.
    """
    if not audit:
        click.echo("audit: skipped (--no-audit)")
        return
    from umb.audit import gate, gate_line  # the audit reads with the offline model; only here

    t0 = time.perf_counter()
    report = gate(out)
    click.echo(f"{gate_line(report)} [{time.perf_counter() - t0:.1f}s]")
    if report["verdict"] != "passed":
        click.echo(
            f"{out} is written; its manifest records the failed audit (--no-audit skips it)",
            err=True,
        )
        click.get_current_context().exit(1)


@click.command()
@click.argument("shards", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option(
    "--out", type=click.Path(path_type=Path), required=True, help="Benchmark directory to write."
)
@force_option("a benchmark")
@click.option(
    "--audit/--no-audit",
    "audit",
    default=True,
    show_default=True,
    help="Audit the merged benchmark into its manifest, as umb generate does.",
)
def merge(shards: tuple[Path, ...], out: Path, force: bool, audit: bool) -> None:
    """Merge benchmark shards into one directory."""
    refuse_existing(out, force, "a benchmark", marker="manifest.json")
    manifest = merge_shards(list(shards), out)
    click.echo(f"wrote {out}: {manifest['counts']['questions']} questions")
    _gate(out, audit)
