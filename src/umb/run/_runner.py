"""The resumable runner behind ``umb eval``: systems × dialogues → one scored record per question.

For each (system, dialogue) a fresh memory system ingests the sessions in time order; each question
is answered once exactly the sessions that started before ``question.asked_at`` are in. The context
is retrieved at that point and the answer request is then sent without waiting, so a dialogue keeps
ingesting while its earlier questions are with the model. Dialogues run ``concurrency`` at a time.
Every record is appended to ``records.jsonl`` the moment it is scored; a rerun skips what is there.

Tracing (on unless ``RunConfig.trace`` is false) records each system's work in
``traces/<system>.jsonl.gz``: a dialogue scope around one job's ingest, a question scope around each
question's retrieve, answer and score. A question's record is appended only after its scope has
closed, and a traced job ingests as far as an uninterrupted run would (up to the dialogue's last
selected question), so a resumed run replays the same operations (docs/tracing.md, Resume).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from umb._jsonio import atomic_write_bytes, dumps_pretty
from umb.bench import Benchmark
from umb.models import UsageMeter
from umb.run._benchcheck import check_benchmark
from umb.run._config import RunConfig, build_header, check_header
from umb.run._failures import CallFailures, count_failures
from umb.run._log import (
    HEADER,
    INVOCATIONS,
    RECORDS,
    RecordLog,
    append_line,
    record_key,
    run_lock,
)
from umb.run._progress import StepBar, show_progress
from umb.run._results import write_results
from umb.run._rundir import read_header
from umb.run.engine import JobPlan, OnJob, execute, latest_asked, pending_jobs


@dataclass(frozen=True)
class RunOutcome:
    """What one call of :func:`run_eval` did.

    Attributes:
        run_dir: The run directory.
        results: The contents of ``results.json``.
        written: Records written by this call.
        skipped: Records of this call's selection that were already in the log.
        elapsed_s: Wall time of the call.
        failures: The failed model calls of the selection and of this call's other roles.
    """

    run_dir: Path
    results: dict[str, Any]
    written: int
    skipped: int
    elapsed_s: float
    failures: CallFailures


Finish = Callable[[], Mapping[str, Any]]
"""``finish()``: the call's later stage, run once its jobs are done and before ``results.json``
is written; it returns the top-level entries it adds to the results (say ``memory_metrics``)."""


def run_eval(
    config: RunConfig,
    *,
    progress: bool | None = None,
    on_job: OnJob | None = None,
    finish: Finish | None = None,
) -> RunOutcome:
    """Evaluate ``config.systems`` on a benchmark with one answerer; resume if already begun.

    Args:
        config: What to run and where (see :class:`RunConfig`).
        progress: Show a progress bar on stderr; None shows it when stderr is a terminal.
        on_job: Told of each finished job, with the records it wrote.
        finish: The call's later stage (:data:`Finish`), whose entries are written into
            ``results.json`` with the aggregates: the file is written once per call, whole.

    Returns:
        A :class:`RunOutcome`; the same numbers are in ``config.out / "results.json"``.

    Raises:
        ConfigError: Bad options, or ``config.out`` holds a run with other settings.
        DataError: The benchmark or the run's files are broken.

    Example:
        >>> config = RunConfig(bench=Path("bench"), out=Path("run"), systems=("rag_bm25",))
        >>> run_eval(config).results["groups"][0]["task_balanced"]["mean"]  # doctest: +SKIP
    """
    return asyncio.run(arun_eval(config, progress=progress, on_job=on_job, finish=finish))


async def arun_eval(
    config: RunConfig,
    *,
    progress: bool | None = None,
    on_job: OnJob | None = None,
    finish: Finish | None = None,
) -> RunOutcome:
    """The coroutine behind :func:`run_eval`, for callers already inside an event loop."""
    started = time.perf_counter()
    started_at = time.time()
    bench = Benchmark.open(config.bench)
    with StepBar("check", "dialogues", show_progress(progress)) as bar:
        # Refuse what `umb validate` refuses, before any record (a long read on a big benchmark).
        check_benchmark(bench, config.out, progress=bar)
    questions = bench.questions[: config.limit] if config.limit else list(bench.questions)
    if config.question_ids is not None:
        questions = [q for q in questions if q.id in config.question_ids]
    with run_lock(config.out):
        header = _open_header(config, bench)
        with RecordLog(config.out / RECORDS) as log:
            if config.retry_errors:
                log.rewrite_without({record_key(r) for r in log.records if r.get("error")})
            meter = UsageMeter()
            plan = JobPlan(
                bench,
                pending_jobs(config.systems, questions, log.keys),
                latest_asked(questions),
                {"benchmark": bench.content_hash, "models": header.get("models")},
            )
            skipped = len(config.systems) * len(questions) - plan.questions
            written = await execute(config, plan, log, meter, progress=progress, on_job=on_job)
        elapsed = time.perf_counter() - started
        append_line(
            config.out / INVOCATIONS,
            {
                "started_at": started_at,
                "elapsed_s": round(elapsed, 3),
                "systems": list(config.systems),
                "limit": config.limit,
                "written": written,
                "skipped": skipped,
                "usage": meter.to_dict(),
            },
        )
        selection = {(s, q.id) for s in config.systems for q in questions}
        sections: Mapping[str, Any] | None = None
        try:
            if finish is not None:
                sections = finish()
        finally:  # a failed later stage still leaves the results of the records
            results = write_results(
                config.out, header, log.records, selection, seed=config.scoring.seed,
                sections=sections,
            )  # fmt: skip
        failures = count_failures(log.records, selection, meter.to_dict())
    elapsed = time.perf_counter() - started
    return RunOutcome(config.out, results, written, skipped, elapsed, failures)


def _open_header(config: RunConfig, bench: Benchmark) -> dict[str, Any]:
    """Write the header of a new run, or check (and extend the systems of) an existing one."""
    path = config.out / HEADER
    if not path.exists():
        header = build_header(config, bench, list(config.systems))
        atomic_write_bytes(path, dumps_pretty(header))
        return header
    existing = read_header(config.out).data
    systems = list(existing.get("systems", []))
    systems += [s for s in config.systems if s not in systems]
    header = build_header(config, bench, systems)
    records = config.out / RECORDS
    if not records.exists() or records.stat().st_size == 0:
        # Nothing was recorded under the old header (say, its model failed to load): it
        # describes no run yet, so the new settings simply take its place.
        header = build_header(config, bench, list(config.systems))
        atomic_write_bytes(path, dumps_pretty(header))
        return header
    check_header(existing, header, config.out)
    if systems != existing.get("systems"):
        existing["systems"] = systems
        atomic_write_bytes(path, dumps_pretty(existing))
    return existing
