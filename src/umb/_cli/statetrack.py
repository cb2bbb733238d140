"""``umb statetrack``: build the state-tracking ladder, evaluate a model on it, export it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from umb._cli._options import endpoint_options
from umb._cli._output import force_option, refuse_existing
from umb._cli._progress import Progress, progress_option, wanted
from umb._cli._table import format_table
from umb.statetrack import DATE_STYLES, ORDERS, TASKS


def _tasks(text: str | None) -> tuple[str, ...] | None:
    if not text:
        return None
    names = tuple(t.strip() for t in text.split(",") if t.strip())
    bad = [t for t in names if t not in TASKS]
    if bad:
        raise click.BadParameter(
            f"unknown task(s) {', '.join(bad)}; choose from {', '.join(TASKS)}"
        )
    return names


@click.group("statetrack")
def statetrack() -> None:
    """Dense state tracking: atomic facts, the L01–L34 prompt ladder, exact scoring."""


@statetrack.command()
@click.option(
    "--bench",
    type=click.Path(path_type=Path),
    required=True,
    help="A generated benchmark directory (needs world.json).",
)
@click.option(
    "--out", type=click.Path(path_type=Path), required=True, help="Ladder directory to write."
)
@click.option("--samples", type=int, default=50, show_default=True, help="Samples per level.")
@click.option("--seed", type=int, default=42, show_default=True, help="Sampling seed.")
@click.option(
    "--levels", default="all", show_default=True, help="Levels to draw, e.g. L01-L10,L20."
)
@click.option(
    "--order",
    type=click.Choice(ORDERS),
    default="time",
    show_default=True,
    help="Fact lines in time order, per-person blocks (the original), or shuffled.",
)
@click.option(
    "--dates",
    type=click.Choice(DATE_STYLES),
    default="day_ts",
    show_default=True,
    help="Times as days since 1970 (the original), YYYY-MM-DD, or days before the latest fact.",
)
@click.option(
    "--distractors",
    type=int,
    default=0,
    show_default=True,
    help="Extra fact lines about people not asked about, per sample.",
)
@click.option("--tasks", "tasks_text", help=f"Comma-separated subset of {', '.join(TASKS)}.")
@progress_option
@force_option("a ladder")
def build(
    bench: Path, out: Path, samples: int, seed: int, levels: str, order: str, dates: str,
    distractors: int, tasks_text: str | None, progress: bool | None, force: bool,
) -> None:  # fmt: skip
    """Build state facts from a benchmark's world and draw the prompt ladder."""
    from umb.statetrack import LadderOptions, build_ladder, parse_levels

    options = LadderOptions(
        samples=samples, seed=seed, order=order, dates=dates,  # type: ignore[arg-type]
        distractors=distractors, tasks=_tasks(tasks_text) or TASKS,  # type: ignore[arg-type]
    )  # fmt: skip
    refuse_existing(out, force, "a ladder", marker="ladder.json")
    say = (lambda line: click.echo(line, err=True)) if wanted(progress) else None
    manifest = build_ladder(bench, out, options, parse_levels(levels), progress=say)
    click.echo(_ladder_table(manifest["levels"]))
    short = [lv["level"] for lv in manifest["levels"] if lv["short_samples"]]
    f = manifest["facts"]
    click.echo(
        f"wrote {out}: {f['facts']} facts of {f['characters']} characters in {f['schemas']} "
        f"schemas, {len(manifest['levels'])} levels × {samples} samples "
        f"in {manifest['timings_s']['total']}s"
    )
    if short:
        click.echo(
            f"short levels (the world has too few facts per schema or too few characters): "
            f"{', '.join(short)}; see ladder.json", err=True
        )  # fmt: skip


def _ladder_table(levels: list[dict[str, Any]]) -> str:
    """Lines and estimated prompt tokens per level (one column per task)."""
    tasks = list(dict.fromkeys(t for lv in levels for t in (lv["avg_est_tokens"] or {})))
    rows = [
        [lv["level"], f"{lv['mean_lines']:.1f}",
         *(f"{lv['avg_est_tokens'].get(t, 0):,.0f}" for t in tasks), str(lv["short_samples"])]
        for lv in levels
    ]  # fmt: skip
    return format_table(["level", "lines", *(f"tokens {t}" for t in tasks), "short"], rows)


@statetrack.command("eval")
@click.option(
    "--ladder",
    type=click.Path(path_type=Path),
    required=True,
    help="Ladder directory (umb statetrack build).",
)
@click.option(
    "--model",
    default="offline",
    show_default=True,
    help="offline (bounded-window baseline), oracle, openai/<model>, hf/<path>.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    required=True,
    help="Run directory; rerunning the same command resumes it.",
)
@click.option("--levels", help="Levels to run, e.g. L01-L10,L20 (default: all built).")
@click.option("--tasks", "tasks_text", help=f"Comma-separated subset of {', '.join(TASKS)}.")
@click.option("--samples", type=int, help="Only the first N samples of each level.")
@click.option(
    "--baseline-window",
    type=int,
    default=2048,
    show_default=True,
    help="offline only: tokens of fact lines the baseline remembers.",
)
@endpoint_options(concurrency_help="Requests in flight (API models).", timeout_s=120.0)
@click.option("--max-tokens", type=int, help="Cap on reply tokens (default: sized per prompt).")
@click.option("--device", help="hf only: torch device, e.g. cuda:0 or cpu.")
@click.option("--allow-download", is_flag=True, help="hf only: fetch weights from the Hub.")
@click.option("--no-cache", is_flag=True, help="Do not keep API replies in RUN/cache.sqlite.")
@click.option("--retry-errors", is_flag=True, help="Ask again the prompts whose call failed.")
@progress_option
def eval_command(
    ladder: Path, model: str, out: Path, levels: str | None, tasks_text: str | None,
    samples: int | None, baseline_window: int, concurrency: int, base_url: str | None,
    api_key_env: str, timeout_s: float, max_retries: int, max_tokens: int | None,
    device: str | None, allow_download: bool, no_cache: bool, retry_errors: bool,
    progress: bool | None,
) -> None:  # fmt: skip
    """Evaluate a model on a ladder (resumable); write levels.csv, records, curves, index.html."""
    from umb.models import ModelOptions
    from umb.statetrack import EvalConfig, parse_levels, run_statetrack_eval

    options = ModelOptions(
        base_url=base_url, api_key_env=api_key_env, concurrency=concurrency,
        timeout_s=timeout_s, max_retries=max_retries, max_tokens=max_tokens,
        cache_path=None if no_cache else out / "cache.sqlite", device=device,
        allow_download=allow_download,
    )  # fmt: skip
    config = EvalConfig(
        ladder=ladder, out=out, model=model, levels=parse_levels(levels) if levels else None,
        tasks=_tasks(tasks_text), samples=samples, options=options,  # type: ignore[arg-type]
        baseline_window=baseline_window, retry_errors=retry_errors,
    )  # fmt: skip

    with Progress("statetrack eval", "prompts", progress) as bar:
        result = run_statetrack_eval(config, bar)
    click.echo(f"{result['asked']} prompts asked in {result['seconds']}s; wrote {out}/levels.csv, "
               f"{out}/index.html")  # fmt: skip
    click.echo(f"{'level':<6} {'task':<15} {'n':>3} {'tokens':>8} {'parse':>6} {'exact':>6} "
               f"{'char':>6} {'schema':>6} {'cover':>6}")  # fmt: skip
    for r in result["rows"]:
        click.echo(
            f"{r['level']:<6} {r['task']:<15} {r['samples']:>3} {r['avg_prompt_tokens']:>8.0f} "
            f"{r['parse_rate']:>6.3f} {r['prompt_exact_rate']:>6.3f} {r['char_exact_rate']:>6.3f} "
            f"{r['schema_accuracy']:>6.3f} {r['schema_coverage']:>6.3f}"
        )


@statetrack.command()
@click.option(
    "--ladder",
    type=click.Path(path_type=Path),
    required=True,
    help="Ladder directory (umb statetrack build).",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    required=True,
    help="Directory for facts.json and fact_track_<task>/ ladder files.",
)
@click.option(
    "--tasks",
    "tasks_text",
    default="schema_longest",
    show_default=True,
    help="Tasks to export (the original's scripts read schema_longest).",
)
@click.option("--levels", help="Levels to export (default: all built).")
@force_option("an export")
def export(ladder: Path, out: Path, tasks_text: str, levels: str | None, force: bool) -> None:
    """Write the ladder in the original release's file layout."""
    from umb.statetrack import export_original, parse_levels

    refuse_existing(out, force, "an export", marker="facts.json")
    written = export_original(
        ladder, out, _tasks(tasks_text) or ("schema_longest",),  # type: ignore[arg-type]
        parse_levels(levels) if levels else None,
    )  # fmt: skip
    click.echo(f"wrote {len(written)} ladder files and facts.json under {out}")


@statetrack.command()
@click.argument("runs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    required=True,
    help="Directory for curves.png, curves.svg and index.html.",
)
@click.option("--labels", help="Comma-separated names of the runs, in order (default: model).")
@force_option("a report")
def report(runs: tuple[Path, ...], out: Path, labels: str | None, force: bool) -> None:
    """Draw the curves of one or more eval runs on one page."""
    from umb._jsonio import read_json
    from umb.statetrack import write_report

    refuse_existing(out, force, "a report", marker="index.html")
    names = [x.strip() for x in labels.split(",")] if labels else []
    if names and len(names) != len(runs):
        raise click.BadParameter(f"{len(names)} labels for {len(runs)} runs", param_hint="--labels")
    loaded = []
    for i, run in enumerate(runs):
        data = read_json(run / "results.json")
        header = data["header"]
        label = header["model"]
        if "baseline_window" in header:
            label += f" (window {header['baseline_window']})"
        loaded.append((names[i] if names else label, data["rows"]))
    out.mkdir(parents=True, exist_ok=True)
    for path in write_report(out, loaded):
        click.echo(f"wrote {path}")
