"""``umb eval`` as one call: the resumable run, then attribution of its failed questions and
the memory metrics of its systems."""

from __future__ import annotations

from umb.attribute import MemoryMetricsRun, attribute_run
from umb.run import RunConfig, RunOutcome, capture_third_party, run_eval, trace_paths


def evaluate(config: RunConfig, *, progress: bool | None = None) -> RunOutcome:
    """Evaluate ``config.systems`` on a benchmark, resumably, and attribute every failure.

    The run itself is :func:`umb.run.run_eval`; when it was traced (the default), each failed
    question is then given its error type and decisive operation (docs/tracing.md), written to
    ``attributions.jsonl`` beside the records, and each system's write path is measured
    against the gold facts (``memory_metrics.json``, docs/memory-metrics.md); attribution and
    the metrics share each trace they read. Other libraries' log messages and
    warnings go to ``RUN/run.log`` instead of stderr.

    Args:
        config: What to run and where (see :class:`~umb.run.RunConfig`).
        progress: Progress on stderr; None shows it when stderr is a terminal.

    Returns:
        The run's :class:`~umb.run.RunOutcome`.

    Example:
        >>> outcome = evaluate(RunConfig(bench=Path("bench"), out=Path("run")))  # doctest: +SKIP
    """
    with capture_third_party(config.out):
        outcome = run_eval(config, progress=progress)
        if trace_paths(config.out):
            metrics = MemoryMetricsRun(config.out, bench=config.bench, seed=config.scoring.seed)
            attribute_run(config.out, bench=config.bench, progress=progress, on_trace=metrics.add)
            metrics.finish()
    return outcome
