"""``umb parametric``: prepare, train, eval, retention, and ``run`` for the whole pipeline."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from umb._cli._output import force_option, refuse_existing
from umb._cli._progress import progress_option, wanted
from umb.families import FAMILIES

_PATH = click.Path(path_type=Path)
_EXISTING = click.Path(exists=True, file_okay=False, path_type=Path)


def _say(progress: bool | None) -> Any:
    show = wanted(progress)

    def say(message: str) -> None:
        if show:
            click.echo(message, file=sys.stderr)

    return say


def _csv(value: str, allowed: Sequence[str], name: str) -> tuple[str, ...]:
    items = tuple(v.strip() for v in value.split(",") if v.strip())
    bad = [v for v in items if v not in allowed]
    if bad:
        raise click.BadParameter(f"{', '.join(bad)} not in {', '.join(allowed)}", param_hint=name)
    return items


@click.group()
def parametric() -> None:
    """Parametric memory: stagewise training, checkpoint evaluation, retention."""


@parametric.command()
@click.option("--bench", type=_EXISTING, required=True, help="Benchmark directory.")
@click.option("--out", type=_PATH, required=True, help="Project directory to write.")
@click.option(
    "--stages", type=int, default=10, show_default=True, help="Training stages to split into."
)
@click.option("--seed", type=int, default=42, show_default=True, help="Stage shuffle seed.")
@click.option(
    "--entity-split-seed",
    type=int,
    default=31415,
    show_default=True,
    help="Seed of the trained / held-out / control split of characters.",
)
@click.option(
    "--train-ratio",
    type=float,
    default=0.8,
    show_default=True,
    help="Share of trained characters whose questions are trained on.",
)
@click.option(
    "--control-ratio",
    type=float,
    default=0.1,
    show_default=True,
    help="Share of characters never trained on (the control).",
)
@click.option(
    "--chunking",
    type=click.Choice(["sliding_window", "turn_overlap"]),
    default="sliding_window",
    show_default=True,
    help="Pretraining windows: fixed token windows, or whole turns with overlap.",
)
@click.option(
    "--max-chunk-tokens", type=int, default=4096, show_default=True, help="Tokens per window."
)
@click.option(
    "--overlap-tokens",
    type=int,
    default=1024,
    show_default=True,
    help="Tokens shared by consecutive windows.",
)
@click.option(
    "--line-style",
    type=click.Choice(["session", "role"]),
    default="session",
    show_default=True,
    help="session: dated headers and names; role: 'user: …'.",
)
@click.option(
    "--pt-mode",
    type=click.Choice(["windows", "facts", "both"]),
    default="windows",
    show_default=True,
    help="Dialogue windows, one record per stated fact, or both.",
)
@click.option(
    "--pt-header",
    type=click.Choice(["natural", "structured"]),
    default="natural",
    show_default=True,
    help="Window header: a sentence, or key: value lines.",
)
@click.option(
    "--pt-record",
    type=click.Choice(["alpaca", "text"]),
    default="alpaca",
    show_default=True,
    help="Pretraining record: alpaca (instruction/input/output) or plain text.",
)
@click.option(
    "--qa-sampling",
    type=click.Choice(["all", "upweight"]),
    default="all",
    show_default=True,
    help="Each question once, or the original's weighted copies.",
)
@click.option(
    "--qa-max-per-character",
    type=int,
    default=24,
    show_default=True,
    help="QA training records per character at most.",
)
@click.option(
    "--instructions",
    type=click.Choice(["full", "compact"]),
    default="full",
    show_default=True,
    help="Answer-format instructions in QA records: the full family prompt, or a short one.",
)
@click.option("--families", default="", help="Comma-separated family codes (default: all).")
@force_option("a project")
def prepare(bench: Path, out: Path, force: bool, **options: Any) -> None:
    """Split a benchmark into training stages and write the project files."""
    from umb.parametric import PrepareConfig
    from umb.parametric import prepare as run_prepare

    families = _csv(options.pop("families"), FAMILIES, "--families")
    refuse_existing(out, force, "a project", marker="project.json")
    options["pt_header_style"] = options.pop("pt_header")
    options["pt_record_style"] = options.pop("pt_record")
    manifest = run_prepare(bench, out, PrepareConfig(**options, families=families))
    for row in manifest["stages"]:
        ev = row["eval_items"]
        click.echo(
            f"stage {row['stage']:2d}: {row['pt_records']} pt, {row['qa_sft_records']} qa-sft; "
            f"eval seen {ev['seen']}, held-out {ev['held_out']}, control {ev['control']}"
        )
    click.echo(f"wrote {out} (LLaMA-Factory: {out / 'dataset_info.json'})")


@parametric.command()
@click.option(
    "--project", type=_EXISTING, required=True, help="Project directory (umb parametric prepare)."
)
@click.option(
    "--out",
    type=_PATH,
    required=True,
    help="Run directory (checkpoints, logs); rerunning resumes it.",
)
@click.option("--model", default="tiny", show_default=True, help="tiny, or hf/<path or id>.")
@click.option(
    "--pt-method",
    type=click.Choice(["full", "lora", "skip"]),
    default="full",
    show_default=True,
    help="Pretraining on dialogue windows: full fine-tuning, LoRA, or none.",
)
@click.option(
    "--sft-method",
    type=click.Choice(["full", "lora", "skip"]),
    default="full",
    show_default=True,
    help="QA fine-tuning: full, LoRA, or none.",
)
@click.option("--pt-epochs", type=float, default=1.0, show_default=True, help="Pretraining epochs.")
@click.option("--sft-epochs", type=float, default=3.0, show_default=True, help="QA epochs.")
@click.option("--pt-lr", type=float, default=1e-5, show_default=True, help="Pretraining LR.")
@click.option("--sft-lr", type=float, default=1e-4, show_default=True, help="QA learning rate.")
@click.option("--batch-size", type=int, default=4, show_default=True, help="Records per step.")
@click.option(
    "--grad-accum", type=int, default=1, show_default=True, help="Steps per optimizer update."
)
@click.option(
    "--max-length", type=int, default=2048, show_default=True, help="Tokens per record at most."
)
@click.option(
    "--warmup-ratio", type=float, default=0.03, show_default=True, help="Share of warmup steps."
)
@click.option("--lora-rank", type=int, default=64, show_default=True, help="LoRA rank.")
@click.option("--lora-alpha", type=int, default=128, show_default=True, help="LoRA alpha.")
@click.option("--seed", type=int, default=0, show_default=True, help="Training seed.")
@click.option("--device", default="", help="cpu, cuda, cuda:1 … (default: cuda if present).")
@click.option(
    "--dtype",
    type=click.Choice(["auto", "float32", "bfloat16", "float16"]),
    default="auto",
    show_default=True,
    help="Weights' dtype (auto: bfloat16 on cuda, float32 elsewhere).",
)
@click.option(
    "--gradient-checkpointing", is_flag=True, help="Trade compute for memory (long records)."
)
@click.option("--allow-download", is_flag=True, help="Let hf/<id> fetch from the Hub.")
@click.option("--threads", type=int, default=0, help="CPU threads for torch (0: default).")
@click.option(
    "--tiny-hidden", type=int, default=128, show_default=True, help="tiny model: hidden size."
)
@click.option("--tiny-layers", type=int, default=2, show_default=True, help="tiny model: layers.")
@click.option(
    "--tiny-vocab", type=int, default=2048, show_default=True, help="tiny model: vocabulary."
)
@progress_option
def train(project: Path, out: Path, progress: bool | None, **options: Any) -> None:
    """Train stage after stage, each from the previous stage's weights."""
    from umb.parametric import TinyModelConfig, TrainConfig
    from umb.parametric import train as run_train

    hidden = options.pop("tiny_hidden")
    tiny = TinyModelConfig(
        vocab_size=options.pop("tiny_vocab"),
        hidden_size=hidden,
        intermediate_size=3 * hidden,
        layers=options.pop("tiny_layers"),
    )
    paths = run_train(project, out, TrainConfig(**options, tiny=tiny), log=_say(progress))
    click.echo(f"wrote {len(paths)} checkpoints to {out / 'checkpoints'}")


@parametric.command(name="eval")
@click.option(
    "--run", "run_dir", type=_EXISTING, required=True, help="Run directory (umb parametric train)."
)
@click.option("--project", type=_EXISTING, help="The project, if it moved since training.")
@click.option(
    "--metrics",
    default="loglik,generation",
    show_default=True,
    help="Comma-separated: gold log-likelihood, generated answers scored by the rules.",
)
@click.option(
    "--splits",
    default="seen,held_out,control",
    show_default=True,
    help="Comma-separated: trained-on questions, held-out ones, never-trained characters.",
)
@click.option("--batch-size", type=int, default=8, show_default=True, help="Items per batch.")
@click.option(
    "--max-new-tokens", type=int, default=512, show_default=True, help="Reply tokens at most."
)
@click.option("--max-items", type=int, default=0, help="Per stage and split (0: all).")
@click.option("--no-base", is_flag=True, help="Skip the untrained checkpoint 0.")
@click.option("--device", default="", help="Default: the device the run trained on.")
@progress_option
def eval_command(
    run_dir: Path, project: Path | None, metrics: str, splits: str, no_base: bool,
    progress: bool | None, **options: Any,
) -> None:  # fmt: skip
    """Score every checkpoint on every stage it has learned (resumable)."""
    from umb.parametric import METRICS, SPLITS, EvalConfig, evaluate

    config = EvalConfig(
        metrics=_csv(metrics, METRICS, "--metrics"),  # type: ignore[arg-type]
        splits=_csv(splits, SPLITS, "--splits"),  # type: ignore[arg-type]
        include_base=not no_base,
        **options,
    )
    result = evaluate(run_dir, config, project_dir=project, log=_say(progress))
    click.echo(f"{result['new']} new records, {result['records']} in all ({result['seconds']}s)")


@parametric.command()
@click.option(
    "--run", "run_dir", type=_EXISTING, required=True, help="Run directory (umb parametric eval)."
)
@click.option("--out", type=_PATH, help="Default: RUN/retention.")
@click.option(
    "--resamples", type=int, default=1000, show_default=True, help="Bootstrap resamples of CIs."
)
@click.option(
    "--min-baseline",
    type=float,
    default=0.05,
    show_default=True,
    help="Current-stage score below which a retention ratio is flagged.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Bootstrap seed.")
@force_option("a retention report")
def retention(
    run_dir: Path, out: Path | None, resamples: int, min_baseline: float, seed: int, force: bool
) -> None:
    """Retention matrices, rates with bootstrap CIs, CSVs, figures and an HTML page."""
    from umb.parametric import RetentionConfig, write_retention

    refuse_existing(out or run_dir / "retention", force, "a retention report", marker="index.html")
    config = RetentionConfig(resamples=resamples, min_baseline=min_baseline, seed=seed)
    summary = write_retention(run_dir, out=out, config=config)
    _print_summary(summary)
    click.echo(f"wrote {out or run_dir / 'retention'}")


def _fmt(value: float | None) -> str:
    return "  –  " if value is None else f"{value:.3f}"


def _print_summary(summary: dict[str, Any]) -> None:
    for metric, splits in summary["metrics"].items():
        click.echo(f"{metric}:  untrained  current  last-ckpt  retention")
        for split, s in splits.items():
            click.echo(
                f"  {split:9s} {_fmt(s['untrained_mean'])}    {_fmt(s['current_stage_mean'])}"
                f"    {_fmt(s['final_checkpoint_mean'])}     {_fmt(s['final_mean_retention_rate'])}"
            )


@parametric.command(name="run")
@click.option(
    "--preset",
    type=click.Choice(["tiny", "ci"]),
    default="tiny",
    show_default=True,
    help="tiny: 4 stages, a few minutes on a CPU; ci: 2 stages, about a minute.",
)
@click.option(
    "--out",
    type=_PATH,
    required=True,
    help="Folder for bench/, project/ and run/; rerunning resumes it.",
)
@progress_option
def run_command(preset: str, out: Path, progress: bool | None) -> None:
    """The whole pipeline on a generated benchmark with a from-scratch tiny model."""
    from umb.parametric import run_preset

    summary = run_preset(preset, out, log=_say(progress))
    _print_summary(summary)
    click.echo(f"report: {out / 'run' / 'retention' / 'index.html'}")
