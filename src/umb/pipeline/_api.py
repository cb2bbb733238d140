"""The verbs of umb's public API: each a thin call into the layer that does the work."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from umb._errors import ConfigError
from umb._peer import PEERS
from umb.bench import Benchmark
from umb.pipeline._evaluate import evaluate as evaluate_config
from umb.pipeline._generate import GenerateConfig, resolve_config
from umb.pipeline._generate import generate as generate_config
from umb.run import ExecutorOptions, RunConfig, RunOutcome


def generate(
    out: str | Path,
    *,
    preset: str | None = "demo",
    config: GenerateConfig | None = None,
    shard: str | None = None,
    executor: ExecutorOptions | None = None,
    **overrides: Any,
) -> Benchmark:
    """Generate a benchmark directory and open it.

    Args:
        out: The directory to write.
        preset: ``demo``, ``small`` or ``umb`` (ignored when ``config`` is given).
        config: A full :class:`~umb.pipeline.GenerateConfig`; ``overrides`` still apply.
        shard: ``"i/k"``: only the i-th of k character shards (merge them with ``umb merge``).
        executor: ``ExecutorOptions(kind="ray", workers=N)`` generates the character shards as
            Ray tasks (extra ``ray``; the same bytes as a local run, docs/scale.md).
        **overrides: Fields of :class:`~umb.pipeline.GenerateConfig` (``characters``, ``seed``, …).

    Example:
        >>> bench = generate("bench", preset="demo", seed=7)  # doctest: +SKIP
        >>> len(bench.questions)  # doctest: +SKIP
        170
    """
    cfg = replace(config, **overrides) if config else resolve_config(preset, **overrides)
    if executor is not None and executor.kind == "ray":
        if shard:
            raise ConfigError("a Ray run shards the characters itself: give no shard")
        from umb.pipeline._generate_ray import generate_on_ray  # loads ray (extra "ray")

        generate_on_ray(cfg, Path(out), executor)
    else:
        generate_config(cfg, Path(out), shard)
    return Benchmark.open(out)


def load_benchmark(path: str | Path) -> Benchmark:
    """Open a benchmark directory (``manifest.json``, ``world.json`` and the record files)."""
    return Benchmark.open(path)


def evaluate(
    config: RunConfig | None = None, *, progress: bool | None = False, **options: Any
) -> RunOutcome:
    """Evaluate memory systems on a benchmark, resumably, and attribute every failure.

    Args:
        config: A :class:`~umb.run.RunConfig`; or give its fields as keyword ``options``
            (``bench=``, ``out=``, ``systems=``, ``model=``, …).
        progress: Progress bar on stderr (None: when stderr is a terminal).

    Example:
        >>> outcome = evaluate(bench="bench", out="run", systems=("rag_bm25",))  # doctest: +SKIP
    """
    if config is None:
        for key in ("bench", "out"):
            if key in options:
                options[key] = Path(options[key])
        config = RunConfig(**options)
    elif options:
        config = replace(config, **options)
    return evaluate_config(config, progress=progress)


def import_benchmark(fmt: str, path: str | Path, out: str | Path) -> Benchmark:
    """Import a peer benchmark file (``fmt``: a name of :data:`umb.interop.PEERS`) into ``out``."""
    PEERS.get_or_raise(fmt).import_file(path, out)
    return Benchmark.open(out)


def export_benchmark(bench: str | Path, fmt: str, out: str | Path) -> Any:
    """Export the umb benchmark at ``bench`` to peer format ``fmt`` at ``out``; returns its log."""
    return PEERS.get_or_raise(fmt).export(bench, out)
