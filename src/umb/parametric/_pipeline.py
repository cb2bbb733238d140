"""``umb parametric run --preset``: benchmark, project, training, evaluation and retention in one
go, each step skipped when its output is already there (so a killed run picks up where it was).

``tiny`` is sized to show, on a laptop CPU in a few minutes, what the experiment is about: a
from-scratch model memorises the current stage's questions (its log-likelihood of their gold
answers rises from the untrained floor towards 1) and loses them once later stages are trained
without them. It gets there with a small world (short dialogues, 4 characters a stage), compact
instructions, and enough epochs at a high learning rate for a small model to memorise. ``ci`` is
the same with two stages of three characters, for the test suite. Both use one CPU thread: on a
busy machine torch's extra threads cost far more in waiting than they bring.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from umb._errors import ConfigError
from umb.parametric._config import EvalConfig, PrepareConfig, TinyModelConfig, TrainConfig
from umb.parametric._evaluate import evaluate
from umb.parametric._layout import PROJECT_FILE
from umb.parametric._prepare import prepare
from umb.parametric._report import write_retention
from umb.parametric._retention import RetentionConfig
from umb.parametric._torch import require
from umb.parametric._train import train
from umb.pipeline import generate, resolve_config


@dataclass(frozen=True)
class Preset:
    """Every setting of a whole parametric run."""

    characters: int
    stages: int
    prepare: PrepareConfig
    train: TrainConfig
    eval: EvalConfig
    seed: int = 0
    target_tokens: int = 1000
    start: str = "2022-01-01"
    end: str = "2023-06-30"
    retention: RetentionConfig = field(default_factory=RetentionConfig)


def _tiny_train(**overrides: Any) -> TrainConfig:
    base: dict[str, Any] = dict(
        model="tiny", pt_epochs=2, sft_epochs=40, pt_lr=3e-3, sft_lr=3e-3, batch_size=8,
        max_length=512, warmup_ratio=0.03, threads=1,
        tiny=TinyModelConfig(vocab_size=1024, hidden_size=128, intermediate_size=384, layers=2),
    )  # fmt: skip
    return TrainConfig(**{**base, **overrides})


def _tiny_prepare(stages: int, train_ratio: float, control_ratio: float) -> PrepareConfig:
    return PrepareConfig(
        stages=stages, train_ratio=train_ratio, control_ratio=control_ratio,
        max_chunk_tokens=256, overlap_tokens=64, instructions="compact",
    )  # fmt: skip


PRESETS: dict[str, Preset] = {
    "tiny": Preset(
        characters=16,
        stages=4,
        prepare=_tiny_prepare(4, 0.67, 0.25),
        train=_tiny_train(),
        eval=EvalConfig(batch_size=16, max_new_tokens=160),
    ),
    "ci": Preset(
        characters=6,
        stages=2,
        prepare=_tiny_prepare(2, 0.5, 0.34),
        train=_tiny_train(),
        eval=EvalConfig(batch_size=16, max_new_tokens=96, max_items=8),
        retention=RetentionConfig(resamples=200),
    ),
}


def run_preset(
    name: str,
    out: str | Path,
    *,
    log: Callable[[str], None] | None = None,
    preset: Preset | None = None,
) -> dict[str, Any]:
    """Run the whole pipeline of preset ``name`` into ``out``.

    Layout: ``out/bench`` (the generated benchmark), ``out/project``, ``out/run`` (checkpoints,
    ``eval/records.jsonl``, ``retention/``).

    Args:
        name: A key of :data:`PRESETS`.
        out: Output directory.
        log: Receives progress lines.
        preset: Use these settings instead of the named preset's (tests shrink them).

    Returns:
        The retention summary.
    """

    if preset is None:
        if name not in PRESETS:
            raise ConfigError(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}")
        preset = PRESETS[name]
    # Training needs the `train` extra: say so before minutes of generating and preparing.
    require("torch")
    require("transformers")
    say = log or (lambda _msg: None)
    root = Path(out)
    bench, project, run = root / "bench", root / "project", root / "run"
    if not (bench / "manifest.json").exists():
        config = resolve_config(
            "demo", characters=preset.characters, seed=preset.seed,
            target_tokens=preset.target_tokens, start=preset.start, end=preset.end,
        )  # fmt: skip
        generate(config, bench)
        say(f"benchmark: {preset.characters} characters -> {bench}")
    if not (project / PROJECT_FILE).exists():
        manifest = prepare(bench, project, preset.prepare)
        say(f"project: {preset.stages} stages -> {project} ({len(manifest['files'])} files)")
    train(project, run, preset.train, log=say)
    result = evaluate(run, preset.eval, log=say)
    say(f"eval: {result['new']} new records, {result['records']} in all")
    summary = write_retention(run, config=preset.retention)
    say(f"retention: {run / 'retention' / 'index.html'}")
    return summary
