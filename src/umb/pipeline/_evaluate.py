"""``umb eval`` as one call: the resumable run, then attribution of its failed questions."""

from __future__ import annotations

from umb.attribute import attribute_run
from umb.run import RunConfig, RunOutcome, capture_third_party, run_eval, trace_paths


def evaluate(config: RunConfig, *, progress: bool | None = None) -> RunOutcome:
    """Evaluate ``config.systems`` on a benchmark, resumably, and attribute every failure.

    The run itself is :func:`umb.run.run_eval`; when it was traced (the default), each failed
    question is then given its error type and decisive operation (docs/tracing.md), written to
    ``attributions.jsonl`` beside the records. Other libraries' log messages and warnings go to
    ``RUN/run.log`` instead of stderr.

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
            attribute_run(config.out, bench=config.bench)
    return outcome
