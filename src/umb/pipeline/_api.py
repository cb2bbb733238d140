"""The verbs of umb's public API: each a thin call into the layer that does the work."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from umb._errors import ConfigError
from umb._peer import PEERS
from umb.bench import Benchmark
from umb.pipeline._evaluate import evaluate as evaluate_config
from umb.pipeline._generate import GenerateConfig, resolve_config
from umb.pipeline._generate import generate as generate_config
from umb.pipeline._run_options import run_config
from umb.report import build_report
from umb.run import (
    ExecutorOptions,
    JudgeTemplates,
    RunConfig,
    RunOutcome,
    ScoreOutcome,
    score_predictions,
)


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
    bench: str | Path | RunConfig | None = None,
    *,
    config: RunConfig | None = None,
    progress: bool | None = False,
    **options: Any,
) -> RunOutcome:
    """Evaluate memory systems on a benchmark, resumably, and attribute every failure.

    Args:
        bench: The benchmark directory; or a whole :class:`~umb.run.RunConfig`, as ``config``.
        config: A :class:`~umb.run.RunConfig` that ``options`` then change.
        progress: Progress bar on stderr (None: when stderr is a terminal).
        **options: Fields of :class:`~umb.run.RunConfig` (``out=``, ``systems=``, ``model=``, …)
            and of its option groups by their own names (``top_k=`` of ``memory``,
            ``concurrency=`` of ``options``, ``policy=`` of ``scoring``, …). One string where a
            sequence is meant is one name (``systems="rag_bm25"``).

    Returns:
        The run's :class:`~umb.run.RunOutcome`; its ``results`` are those of ``results.json``.

    Raises:
        ConfigError: An unknown option (naming the closest one), a value of the wrong type, or
            no ``out`` or ``systems``.

    Example:
        >>> outcome = evaluate("bench", out="run", systems="rag_bm25", top_k=3)  # doctest: +SKIP
    """
    if isinstance(bench, RunConfig):
        if config is not None:
            raise ConfigError("give the RunConfig once: first, or as config=")
        bench, config = None, bench
    if bench is not None:
        options["bench"] = bench
    return evaluate_config(run_config(config, options), progress=progress)


def score(
    bench: str | Path,
    predictions: str | Path,
    out: str | Path,
    scorers: Sequence[str] = ("umb",),
    *,
    system: str | None = None,
    judge: str | None = None,
    judge_template: str | Path | None = None,
    judge_template_from: str | Path | None = None,
    report: bool = True,
) -> ScoreOutcome:
    """Score a file of predictions made outside umb, exactly as each scorer's authors do.

    Args:
        bench: The benchmark directory the predictions answer (``umb generate``/``import``).
        predictions: JSONL, one ``{"question_id", "answer", "retrieved"?}`` a line; ids are
            umb's or the peer's native ones (docs/interop.md, Scoring outside predictions).
        out: The run directory to write: ``header.json``, ``records.jsonl``, ``results.json``.
        scorers: ``umb`` and/or peer scorers (``locomo_f1``, ``mem0_f1``, ``locomo_recall``…);
            one string is one scorer.
        system: The name the results give the predictions (default: the file's stem).
        judge: Judge model spec, for judge scorers (``longmemeval_judge``, ``mem0_judge``).
        judge_template: A judge template file (docs/interop.md); default: umb's wording.
        judge_template_from: Your LongMemEval checkout: its ``get_anscheck_prompt`` is called.
        report: Also write the HTML report to ``out/report``.

    Example:
        >>> outcome = score("locomo", "answers.jsonl", "scored", ["locomo_f1"])  # doctest: +SKIP
        >>> outcome.results["groups"][0]["scores"]["locomo_f1"]["overall_micro"]  # doctest: +SKIP
    """
    templates = JudgeTemplates(
        Path(judge_template) if judge_template else None,
        Path(judge_template_from) if judge_template_from else None,
    )
    outcome = score_predictions(
        Path(bench),
        Path(predictions),
        Path(out),
        (scorers,) if isinstance(scorers, str) else tuple(scorers),
        system=system,
        judge=judge,
        templates=templates,
    )
    if report:
        build_report([outcome.run_dir], outcome.run_dir / "report")
    return outcome


def import_benchmark(path: str | Path, fmt: str, out: str | Path) -> Benchmark:
    """Import the peer benchmark at ``path``, in format ``fmt`` (a name of
    :data:`umb.interop.PEERS`), into the umb benchmark directory ``out``.

    The order is that of :func:`export_benchmark`: the source, its format, the destination.

    Raises:
        ConfigError: An unknown format, or the arguments in the old order ``(fmt, path, out)``.
    """
    if fmt not in PEERS and str(path) in PEERS and Path(fmt).exists():
        raise ConfigError(
            f"import_benchmark takes (path, fmt, out) now: import_benchmark({str(fmt)!r}, "
            f"{str(path)!r}, {str(out)!r})"
        )
    PEERS.get_or_raise(fmt).import_file(path, out)
    return Benchmark.open(out)


def export_benchmark(bench: str | Path, fmt: str, out: str | Path, **options: Any) -> Any:
    """Export the umb benchmark at ``bench`` to peer format ``fmt`` at ``out``; returns its log
    (an :class:`~umb.interop.InteropLog` for the built-in peers).

    ``options`` are the peer's own export options (``max_shard_mb`` of ``hf``).
    """
    return PEERS.get_or_raise(fmt).export(bench, out, **options)
