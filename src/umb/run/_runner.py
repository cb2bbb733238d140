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
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from umb._errors import DataError
from umb._jsonio import atomic_write_bytes, dumps_pretty, read_json
from umb.bench import Benchmark, Dialogue, Question
from umb.memory import NON_LLM_SPECS, MemorySystem, build_memory
from umb.models import LoadedModel, ModelOnUse, ModelOptions, Role, UsageMeter, load_model
from umb.run._benchcheck import check_benchmark
from umb.run._config import RunConfig, build_header, check_header
from umb.run._failures import CallFailures, count_failures
from umb.run._log import HEADER, INVOCATIONS, RECORDS, RecordLog, append_line, run_lock
from umb.run._progress import StepBar, question_bar, show_progress
from umb.run._record import answer_question
from umb.run._results import write_results
from umb.run._traces import RunTracers
from umb.run.engine import iter_jobs, latest_asked, pending_jobs
from umb.scoring import NATIVE_SCORER, Judge, PeerScoring

# Contexts retrieved but not yet answered, per unit of concurrency: enough to keep the model busy
# while a dialogue ingests, few enough that long contexts do not pile up in memory.
_INFLIGHT_PER_SLOT = 4
# Seconds after which ingesting a session redraws the bar with where it is: the last jobs of a
# big benchmark ingest long dialogues with no answer coming for a while.
_INGEST_HEARTBEAT_S = 2.0


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


OnJob = Callable[[str, str, list[dict[str, Any]]], None]
"""``on_job(system, dialogue_id, records)``: a (system, dialogue) job has finished; its
records are in the log and its trace scopes have ended."""


def run_eval(
    config: RunConfig, *, progress: bool | None = None, on_job: OnJob | None = None
) -> RunOutcome:
    """Evaluate ``config.systems`` on a benchmark with one answerer; resume if already begun.

    Args:
        config: What to run and where (see :class:`RunConfig`).
        progress: Show a progress bar on stderr; None shows it when stderr is a terminal.
        on_job: Told of each finished job, with the records it wrote (not on Ray).

    Returns:
        A :class:`RunOutcome`; the same numbers are in ``config.out / "results.json"``.

    Raises:
        ConfigError: Bad options, or ``config.out`` holds a run with other settings.
        DataError: The benchmark or the run's files are broken.

    Example:
        >>> config = RunConfig(bench=Path("bench"), out=Path("run"), systems=("rag_bm25",))
        >>> run_eval(config).results["groups"][0]["task_balanced"]["mean"]  # doctest: +SKIP
    """
    return asyncio.run(arun_eval(config, progress=progress, on_job=on_job))


async def arun_eval(
    config: RunConfig, *, progress: bool | None = None, on_job: OnJob | None = None
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
                log.rewrite_without(
                    {(r["system"], r["question_id"]) for r in log.records if r.get("error")}
                )
            pending = pending_jobs(config.systems, questions, log.keys)
            skipped = len(config.systems) * len(questions) - sum(len(v) for v in pending.values())
            meter = UsageMeter()
            total = sum(len(v) for v in pending.values())
            trace_meta = {"benchmark": bench.content_hash, "models": header.get("models")}
            latest = latest_asked(questions)
            if config.executor.kind == "ray":
                from umb.run._ray_eval import execute_on_ray  # loads ray (extra "ray")

                written = await execute_on_ray(
                    config, bench, log, pending, latest, meter, progress=progress,
                    trace_meta=trace_meta,
                )
            else:
                run = _Evaluation(config, log, meter, total, progress, trace_meta, bench.root)
                run.on_job = on_job
                try:
                    await run.execute(bench, pending, latest)
                finally:
                    await run.close()
                written = run.written
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
        results = write_results(
            config.out, header, log.records, selection, seed=config.scoring.seed
        )
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
    existing = read_json(path)
    if not isinstance(existing, dict):
        raise DataError(str(path), None, "header is not a JSON object")
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


def _precedes(started_at: str, asked_at: str) -> bool:
    # Times are YYYY-MM-DDTHH:MM and order as text; a question with no time sees everything.
    return not asked_at or started_at < asked_at


class _Evaluation:
    """One call's worth of work: the models, the log, the progress bar and the scheduling."""

    def __init__(
        self,
        config: RunConfig,
        log: RecordLog,
        meter: UsageMeter,
        total: int,
        progress: bool | None,
        trace_meta: dict[str, Any],
        bench_root: Path,
    ) -> None:
        self.config = config
        # Systems that keep files (mem0's vector store) keep them inside the run directory.
        self._memory_config = replace(
            config.memory, work_dir=config.out / "memory", bench=config.bench
        )
        self.log = log
        self.written = 0
        options = config.model_options
        self.models: list[LoadedModel | ModelOnUse] = []
        self.answerer = self._load(config.model, "answerer", options, meter)
        self.judge = None
        self.peer: PeerScoring | None = None
        judge_model = self._load(config.judge, "judge", options, meter) if config.judge else None
        if config.scoring.scorer != NATIVE_SCORER:
            self.peer = PeerScoring(config.scoring.scorer, judge_model)
        elif judge_model is not None:
            self.judge = Judge(judge_model, votes=config.scoring.judge_votes)
        self.extractor: LoadedModel | ModelOnUse
        if config.extractor.strip() in NON_LLM_SPECS:
            # Systems extract by rule with it: most never call it, so it loads if one does.
            self.extractor = ModelOnUse(config.extractor, role="extractor", options=options,
                                        meter=meter)  # fmt: skip
            self.models.append(self.extractor)
        else:
            self.extractor = self._load(config.extractor, "extractor", options, meter)
        self.tracers = RunTracers(
            config.out, enabled=config.trace, meta=trace_meta, bench=bench_root
        )
        self.include_gold = self.answerer.spec == "oracle"
        self.on_job: OnJob | None = None
        slots = max(1, config.options.concurrency)
        self.jobs = asyncio.Semaphore(slots)
        self.inflight = asyncio.Semaphore(slots * _INFLIGHT_PER_SLOT)
        self.bar = question_bar(total, progress)
        self._beat = time.monotonic()

    def _load(self, spec: str, role: Role, options: ModelOptions, meter: UsageMeter) -> LoadedModel:
        model = load_model(spec, role=role, options=options, meter=meter)
        self.models.append(model)
        return model

    async def close(self) -> None:
        self.bar.close()
        self.tracers.close()
        for model in self.models:
            await model.aclose()

    async def execute(
        self,
        bench: Benchmark,
        pending: dict[tuple[str, str], list[Question]],
        latest: dict[str, str],
    ) -> None:
        """Run every (system, dialogue) job with pending questions, ``concurrency`` at a time.

        ``latest`` gives, per dialogue, the ``asked_at`` up to which a traced job ingests.
        """
        if not pending:
            return
        await self.answerer.connect()
        tasks: set[asyncio.Task[None]] = set()
        try:
            for system, dialogue, todo in iter_jobs(bench, pending):
                await self.jobs.acquire()
                _raise_first_failure(tasks)
                tasks = {t for t in tasks if not t.done()}
                waiting = asyncio.Event()
                job = self._job(system, dialogue, todo, latest.get(dialogue.id, ""), waiting)
                task = asyncio.create_task(job)
                task.add_done_callback(lambda _t: self.jobs.release())
                tasks.add(task)
                # The next job starts once this one waits for a model (see _job): the first
                # requests go out before the other jobs build their memories and ingest.
                await _first_of(waiting, task)
            if tasks:
                done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
                _raise_first_failure(done)
                await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self.log.sync()

    async def _job(
        self,
        system: str,
        dialogue: Dialogue,
        questions: list[Question],
        latest: str,
        waiting: asyncio.Event | None = None,
    ) -> None:
        """Ingest the dialogue and ask its questions in time order; ``waiting`` is set once
        the job waits for a model: its first question is asked, or an extractor ingests."""
        waiting = waiting or asyncio.Event()
        tracer = self.tracers.get(system)
        memory = build_memory(system, self._memory_config, self.extractor)
        memory.start(dialogue)
        sessions = sorted(dialogue.sessions, key=lambda s: s.started_at)
        order = sorted(range(len(questions)), key=lambda i: (questions[i].asked_at, i))
        answers: list[asyncio.Task[dict[str, Any]]] = []
        ingested = 0

        async def ingest_until(asked_at: str) -> None:
            nonlocal ingested
            while ingested < len(sessions) and _precedes(sessions[ingested].started_at, asked_at):
                if memory.uses_llm:
                    waiting.set()
                await memory.ingest(sessions[ingested])
                ingested += 1
                # An offline ingest never yields by itself: after each session, let the other
                # jobs' answers and requests through (a session, not a time budget, so an
                # offline run's order of work stays the same from run to run).
                await asyncio.sleep(0)
                self._heartbeat(f"{system} {dialogue.id}: session {ingested}/{len(sessions)}")

        try:
            with tracer.activate(), tracer.dialogue(dialogue.id, system=system):
                for i in order:
                    question = questions[i]
                    await ingest_until(question.asked_at)
                    await self.inflight.acquire()
                    retrieved = asyncio.get_running_loop().create_future()
                    task = asyncio.create_task(self._question(system, memory, question, retrieved))
                    answers.append(task)
                    waiting.set()
                    await retrieved  # the memory must not change before the question has read it
                    if task.done():
                        task.result()  # a failed retrieval fails the job at once
                if tracer.enabled:
                    await ingest_until(latest)
            records = await asyncio.gather(*answers)
        finally:
            for task in answers:
                task.cancel()
        tracer.forget(dialogue.id)  # a job runs once per call: its versions are not needed again
        if self.on_job is not None:
            self.on_job(system, dialogue.id, records)

    def _heartbeat(self, where: str) -> None:
        now = time.monotonic()
        if now - self._beat >= _INGEST_HEARTBEAT_S:
            self._beat = now
            self.bar.set_postfix_str(where)  # redraws the bar

    async def _question(
        self,
        system: str,
        memory: MemorySystem,
        question: Question,
        retrieved: asyncio.Future[None],
    ) -> dict[str, Any]:
        """Retrieve (then let the job go on ingesting), answer and score one question; returns
        its record.

        Runs as its own task inside the job's dialogue scope; its question scope closes, and is
        on disk, before the record is appended.
        """
        tracer = self.tracers.get(system)
        try:
            with tracer.question(question.id, dialogue_id=question.dialogue_id, system=system):
                try:
                    context = await memory.retrieve(question)
                finally:
                    if not retrieved.done():
                        retrieved.set_result(None)
                record = await answer_question(
                    self.answerer,
                    question,
                    context,
                    system=system,
                    include_gold=self.include_gold,
                    max_tokens=self.config.max_tokens,
                    policy=self.config.scoring.policy,
                    judge=self.judge,
                    peer=self.peer,
                    top_k=self.config.memory.top_k,
                )
            self.log.append(record)
            self.written += 1
            self.bar.update(1)
            return record
        finally:
            if not retrieved.done():
                retrieved.set_result(None)
            self.inflight.release()


async def _first_of(event: asyncio.Event, task: asyncio.Task[None]) -> None:
    """Return once ``event`` is set or ``task`` is done (whichever comes first)."""
    if event.is_set() or task.done():
        return
    waiter = asyncio.ensure_future(event.wait())
    try:
        await asyncio.wait((waiter, task), return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiter.cancel()


def _raise_first_failure(tasks: set[asyncio.Task[None]]) -> None:
    for task in tasks:
        if task.done() and not task.cancelled():
            error = task.exception()
            if error is not None:
                raise error
