"""Generate a benchmark directory from a seed: world -> dialogues -> questions -> files."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any

from umb._errors import ConfigError
from umb._jsonio import AtomicJsonlWriter
from umb._version import __version__
from umb.bench import DIALOGUES, FACTS, QUESTIONS, write_manifest, write_world
from umb.qa import DEFAULT_COUNTS, build_questions
from umb.render import TemplateRenderer
from umb.world import DEFAULT_PER_YEAR, WorldBuilder

GENERATOR = f"umb {__version__} template renderer"


@dataclass(frozen=True)
class GenerateConfig:
    """Everything that determines a generated benchmark's bytes."""

    characters: int = 10
    seed: int = 0
    target_tokens: int = 4000
    """Average estimated tokens per dialogue (each varies by ±15%)."""
    start: str = "2020-01-01"
    end: str = "2025-12-31"
    questions: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_COUNTS))
    """Questions per family per dialogue (fewer where a world lacks material for a family)."""
    preset: str | None = None
    density: float | None = None
    """Events per 10,000 tokens of dialogue (default: 5–7 events a year); questions per family
    grow with it, so a longer history holds proportionally more events and questions."""


PRESETS: dict[str, GenerateConfig] = {
    "demo": GenerateConfig(characters=10, target_tokens=4000, preset="demo"),
    "small": GenerateConfig(characters=100, target_tokens=20000, preset="small"),
    "umb": GenerateConfig(characters=1000, target_tokens=100_000, preset="umb"),
}


def resolve_config(preset: str | None, **overrides: Any) -> GenerateConfig:
    """A preset (default ``demo``) with the given non-None overrides applied."""
    name = preset or "demo"
    if name not in PRESETS:
        raise ConfigError(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}")
    config = replace(PRESETS[name], **{k: v for k, v in overrides.items() if v is not None})
    try:
        start, end = date.fromisoformat(config.start), date.fromisoformat(config.end)
    except ValueError as e:
        raise ConfigError(f"bad --start/--end date: {e}") from None
    if end.year - start.year < 1 or end <= start:
        raise ConfigError("--end must be at least one calendar year after --start")
    if config.characters < 1 or config.target_tokens < 1000:
        raise ConfigError("--characters must be >= 1 and --target-tokens >= 1000")
    if config.density is not None and not 0 < config.density <= 200:
        raise ConfigError("--density must be above 0 and at most 200 events per 10k tokens")
    return config


def events_per_year(config: GenerateConfig) -> tuple[int, int]:
    """The range of events a year the world simulates: the default, or from ``density``."""
    if config.density is None:
        return DEFAULT_PER_YEAR
    years = (date.fromisoformat(config.end) - date.fromisoformat(config.start)).days / 365.25
    mean = config.density * config.target_tokens / 10_000 / years
    return max(3, round(mean * 0.85)), max(3, round(mean * 1.15))


def question_counts(config: GenerateConfig) -> dict[str, int]:
    """Questions per family per dialogue, scaled with the events a year."""
    scale = max(1, round(sum(events_per_year(config)) / sum(DEFAULT_PER_YEAR)))
    return {family: n * scale for family, n in config.questions.items()}


def parse_shard(text: str | None, n: int) -> range:
    """``"i/k"`` -> the range of character indices of shard i (0-based) of k."""
    if not text:
        return range(n)
    try:
        i, k = (int(x) for x in text.split("/"))
    except ValueError:
        raise ConfigError(f"--shard must look like 0/2, not {text!r}") from None
    if not 0 <= i < k:
        raise ConfigError(f"--shard {text}: need 0 <= i < k")
    return range(i * n // k, (i + 1) * n // k)


def generate(
    config: GenerateConfig,
    out: Path,
    shard: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Write the benchmark (or one shard of it) to ``out`` and return its manifest."""
    start, end = date.fromisoformat(config.start), date.fromisoformat(config.end)
    builder = WorldBuilder(config.seed, config.characters, start, end, events_per_year(config))
    counts_per_family = question_counts(config)
    renderer = TemplateRenderer(config.seed, builder.by_id, config.target_tokens)
    indices = parse_shard(shard, config.characters)
    out.mkdir(parents=True, exist_ok=True)
    characters, events, timelines = [], {}, {}
    counts: dict[str, int] = {"dialogues": 0, "sessions": 0, "turns": 0, "questions": 0, "facts": 0}
    per_family: dict[str, int] = {}
    with (
        AtomicJsonlWriter(out / DIALOGUES) as dw,
        AtomicJsonlWriter(out / QUESTIONS) as qw,
        AtomicJsonlWriter(out / FACTS) as fw,
    ):
        for done, index in enumerate(indices, start=1):
            cw = builder.build(index)
            dialogue = renderer.render(cw.character, cw.events, cw.facts, f"D{index + 1:04d}")
            questions = build_questions(config.seed, cw, dialogue, counts_per_family)
            dw.write(dialogue)
            qw.write_many(questions)
            for e in cw.events:
                fw.write_many(cw.facts[e.id])
                counts["facts"] += len(cw.facts[e.id])
                events[e.id] = e
            characters.append(cw.character)
            timelines[cw.character.id] = cw.timelines
            counts["dialogues"] += 1
            counts["sessions"] += len(dialogue.sessions)
            counts["turns"] += sum(len(s.turns) for s in dialogue.sessions)
            counts["questions"] += len(questions)
            for q in questions:
                per_family[q.family] = per_family.get(q.family, 0) + 1
            if progress:
                progress(done, len(indices))
    write_world(out, characters, events, timelines)
    counts_out: dict[str, Any] = dict(counts)
    counts_out["questions_per_family"] = dict(sorted(per_family.items()))
    cfg = asdict(config)
    extra = {"shard": shard} if shard else None
    return write_manifest(out, generator=GENERATOR, config=cfg, counts=counts_out, extra=extra)
