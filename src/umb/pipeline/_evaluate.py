"""``umb eval`` as one call: the resumable run, then attribution of its failed questions and
the memory metrics of its systems."""

from __future__ import annotations

import os
import sys
from typing import Any

import umb.attribute
from umb.attribute import BackgroundAnalysis, memory_metrics_entry
from umb.run import RunConfig, RunDirectory, RunOutcome, capture_third_party, run_eval


def evaluate(config: RunConfig, *, progress: bool | None = None) -> RunOutcome:
    """Evaluate ``config.systems`` on a benchmark, resumably, and attribute every failure.

    The run itself is :func:`umb.run.run_eval`; when it was traced (the default), each failed
    question is then given its error type and decisive operation (docs/tracing.md), written to
    ``attributions.jsonl`` beside the records, and each system's write path is measured
    against the gold facts (``memory_metrics.json``, docs/memory-metrics.md). On a machine
    with a core to spare both are made during the run, a dialogue at a time as each job
    ends, by a second process that follows the traces; otherwise, when
    ``UMB_ATTRIBUTE_AFTER_RUN`` is set, or when that process fails (the terminal says so),
    after the run, in one pass over each trace. Other
    libraries' log messages and warnings go to ``RUN/run.log`` instead of stderr.

    Args:
        config: What to run and where (see :class:`~umb.run.RunConfig`).
        progress: Progress on stderr; None shows it when stderr is a terminal.

    Returns:
        The run's :class:`~umb.run.RunOutcome`.

    Example:
        >>> outcome = evaluate(RunConfig(bench=Path("bench"), out=Path("run")))  # doctest: +SKIP
    """
    show = sys.stderr.isatty() if progress is None else progress
    with capture_third_party(config.out):
        background = _start_background(config)

        def attribute() -> dict[str, Any]:
            """The run's later stage: its entry of results.json is the memory metrics."""
            if not RunDirectory(config.out).traces():
                if background is not None:
                    background.abandon()
                return {}
            if background is None or not _finish(background, show):
                if background is not None and background.error is not None:
                    print(f"umb: warning: {background.error}; attributing after the run "
                          "instead", file=sys.stderr)  # fmt: skip
                _attribute_after_run(config, progress)
            metrics = umb.attribute.read_memory_metrics(config.out)
            return {} if metrics is None else {"memory_metrics": memory_metrics_entry(metrics)}

        try:
            return run_eval(
                config,
                progress=progress,
                on_job=background.job_done if background else None,
                finish=attribute,
            )
        except BaseException:
            if background is not None:
                background.abandon()
            raise


def _attribute_after_run(config: RunConfig, progress: bool | None) -> None:
    """Attribution and memory metrics in one pass over each trace, in this process."""
    # Loaded only here: the worker's process does this work when it can.
    metrics = umb.attribute.MemoryMetricsRun(
        config.out, bench=config.bench, seed=config.scoring.seed
    )
    umb.attribute.attribute_run(
        config.out, bench=config.bench, progress=progress, on_dialogue=metrics.add_dialogue
    )
    metrics.finish()


def _finish(background: BackgroundAnalysis, show: bool) -> bool:
    """Wait for the worker's files, following its last questions on a bar when ``show``."""
    if not show:
        return background.finish()
    from tqdm import tqdm

    with tqdm(file=sys.stderr, unit="q", desc="attribute") as bar:
        return background.finish(bar)


def _start_background(config: RunConfig) -> BackgroundAnalysis | None:
    """The worker that attributes during the run, when it can help: a traced local run on a
    machine with a core to spare (a load average over the last minute below the number of
    cores less one half; on a machine that is busy already a second process only slows the
    run down)."""
    if not config.trace or config.executor.kind != "local" or _AFTER_RUN in os.environ:
        return None
    cores = os.cpu_count() or 1
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0  # not on Windows
    if cores < 2 or load > cores - 0.5:
        return None
    return BackgroundAnalysis(config.out, config.bench, config.scoring.seed)


_AFTER_RUN = "UMB_ATTRIBUTE_AFTER_RUN"
