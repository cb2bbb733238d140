"""``--executor ray``: each (system, dialogue) unit as a Ray task, merged into one run directory.

The driver (:func:`umb.run.arun_eval`) owns the run directory exactly as for a local run: the
lock, the header, ``records.jsonl`` and the results. Each unit runs in a worker through the same
job code as a local run, into a partition of its own (``OUT/parts/<system>--<dialogue>/``:
records and traces), and hands the partition's contents back with its result, so workers need
neither the benchmark files nor the driver's disk. The driver then appends the unit's traces,
and then its records, the records being what marks a question done.

Guarantees (tests/run/test_ray_executor.py):

- exactly one record per (system, question): the driver appends only keys not yet in the log;
- a worker killed mid-unit: Ray runs the unit again (``task_retries``), resuming the
  partition when the worker's node still has it; once retries are spent the call fails with
  every finished unit kept, and a rerun resumes;
- a driver killed: finished units are in the log; a rerun sends the rest again, and a unit
  merged twice into a trace reads as a later attempt of the same scopes (docs/tracing.md);
- the same records and scores as a local run: the job code, models and prompts are the same.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from umb._errors import UmbError
from umb.bench import Dialogue, Question
from umb.models import UsageMeter
from umb.run._config import RunConfig
from umb.run._log import RECORDS, RecordLog, record_key, run_lock
from umb.run._options import ExecutorOptions
from umb.run._ray_cluster import import_ray, ray_cluster
from umb.run._traces import trace_path
from umb.run.engine import JobEngine, JobPlan, OnJob
from umb.trace import TraceAppender, trace_records

# Imported only for --executor ray: importing this module is what loads the extra.
ray = import_ray()

PARTS = "parts"
"""The folder of a run directory that holds the partitions of units in progress."""


class WorkerLost(UmbError):
    """A unit's worker died more often than its retries allow."""


@dataclass(frozen=True)
class Unit:
    """One (system, dialogue) and the questions of it still to answer."""

    system: str
    dialogue: Dialogue
    questions: tuple[Question, ...]
    latest: str
    """The ``asked_at`` up to which a traced job ingests (as in a local run)."""

    @property
    def name(self) -> str:
        return f"{_safe(self.system)}--{_safe(self.dialogue.id)}"


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", text)


def run_unit(config: RunConfig, unit: Unit, trace_meta: dict[str, Any]) -> dict[str, Any]:
    """Ray task body: evaluate one unit into its partition; return the partition's contents."""
    part = config.out / PARTS / unit.name
    local = replace(
        config,
        out=part,
        executor=ExecutorOptions(kind="local"),
        options=replace(config.options, cache_path=config.resolved_cache_path),
    )
    with run_lock(part, wait=True), RecordLog(part / RECORDS) as log:
        if config.retry_errors:
            log.rewrite_without({record_key(r) for r in log.records if r.get("error")})
        todo = [q for q in unit.questions if (unit.system, q.id) not in log.keys]
        meter = UsageMeter()
        if todo:
            asyncio.run(_evaluate(local, log, meter, unit, todo, trace_meta))
        records = list(log.records)
    path = trace_path(part, unit.system)
    trace = trace_records(path) if path.exists() else []
    return {"records": records, "trace": trace, "usage": meter.to_dict(include_latencies=True)}


async def _evaluate(
    config: RunConfig,
    log: RecordLog,
    meter: UsageMeter,
    unit: Unit,
    todo: list[Question],
    trace_meta: dict[str, Any],
) -> None:
    run = JobEngine(config, log, meter, trace_meta, total=len(todo))
    try:
        # The local runner's own job: ingest in time order, answer each question in turn.
        await run.run_job(unit.system, unit.dialogue, todo, unit.latest)
    finally:
        await run.close()


def _units(plan: JobPlan) -> list[Unit]:
    """The pending (system, dialogue) jobs in the order a local run starts them."""
    return [
        Unit(system, dialogue, tuple(todo), plan.latest.get(dialogue.id, ""))
        for system, dialogue, todo in plan.jobs()
    ]


async def execute_on_ray(
    config: RunConfig,
    plan: JobPlan,
    log: RecordLog,
    meter: UsageMeter,
    *,
    progress: bool | None,
    on_job: OnJob | None,
) -> int:
    """The ``ray`` executor: the plan's units on Ray, ``config.executor.workers`` at a time.

    ``on_job`` is told of each unit once its traces and records are merged into the run.

    Returns:
        The number of records appended to ``log``.
    """
    from tqdm import tqdm

    units = _units(plan)
    total = sum(len(u.questions) for u in units)
    _drop_merged_partitions(config.out, {u.name for u in units})
    out = config.out.resolve()
    worker_config = replace(config, bench=config.bench.resolve(), out=out)
    show = sys.stderr.isatty() if progress is None else progress
    bar = tqdm(total=total, file=sys.stderr, disable=not show, unit="q", desc="eval (ray)")
    appenders: dict[str, TraceAppender] = {}
    written = 0
    with ray_cluster(config.executor):
        task = ray.remote(num_cpus=1, max_retries=config.executor.task_retries)(run_unit)
        queue = list(reversed(units))
        running: dict[asyncio.Future[Any], tuple[Any, Unit]] = {}
        try:
            while queue or running:
                while queue and len(running) < config.executor.workers:
                    unit = queue.pop()
                    ref = task.remote(worker_config, unit, plan.trace_meta)
                    running[asyncio.wrap_future(ref.future())] = (ref, unit)
                done, _ = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                for future in done:
                    _, unit = running.pop(future)
                    result = _result(future, unit)
                    merged = _merge(config, log, appenders, unit, result)
                    meter.absorb(result["usage"])
                    written += len(merged)
                    bar.update(len(merged))
                    shutil.rmtree(out / PARTS / unit.name, ignore_errors=True)
                    if on_job is not None:
                        on_job(unit.system, unit.dialogue.id, merged)
        finally:
            for future, (ref, _) in running.items():
                # A failed or interrupted call leaves no unit running behind it; its partition
                # keeps what it finished.
                future.cancel()
                ray.cancel(ref)
            log.sync()
            bar.close()
    parts = out / PARTS
    if parts.is_dir() and not any(parts.iterdir()):
        parts.rmdir()
    return written


def _drop_merged_partitions(run_dir: Path, pending: set[str]) -> None:
    # A driver killed between merging a unit and removing its partition leaves one whose
    # records are all in the log; partitions of pending units stay for their workers to resume.
    folder = run_dir / PARTS
    if folder.is_dir():
        for part in folder.iterdir():
            if part.is_dir() and part.name not in pending:
                shutil.rmtree(part, ignore_errors=True)


def _result(future: asyncio.Future[Any], unit: Unit) -> dict[str, Any]:
    try:
        result: dict[str, Any] = future.result()
    except ray.exceptions.RayTaskError as e:
        cause = e.cause if isinstance(getattr(e, "cause", None), BaseException) else None
        if isinstance(cause, UmbError):
            raise cause from None
        raise
    except (
        ray.exceptions.WorkerCrashedError,
        ray.exceptions.NodeDiedError,
        ray.exceptions.OutOfMemoryError,  # Ray's memory monitor ended the worker
    ) as e:
        raise WorkerLost(
            f"the Ray worker running {unit.system} on {unit.dialogue.id} died "
            f"({type(e).__name__}); finished units are kept: rerun the command to resume"
        ) from None
    return result


def _merge(
    config: RunConfig,
    log: RecordLog,
    appenders: dict[str, TraceAppender],
    unit: Unit,
    result: dict[str, Any],
) -> list[dict[str, Any]]:
    """Append a finished unit: its trace first, then its records (which mark it done).

    Returns:
        The records appended (those of the unit not already in the log).
    """
    if config.trace and result["trace"]:
        appender = appenders.get(unit.system)
        if appender is None:
            path = trace_path(config.out, unit.system)
            path.parent.mkdir(parents=True, exist_ok=True)
            appender = appenders[unit.system] = TraceAppender(path)
        appender.append(result["trace"])
    wanted = {q.id for q in unit.questions}
    merged = []
    for record in result["records"]:
        key = record_key(record)
        if key[1] in wanted and key not in log.keys:
            log.append(record)
            merged.append(record)
    log.sync()
    return merged
