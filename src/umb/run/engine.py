"""The job engine of ``umb eval``: which (system, dialogue) jobs are pending, and running them.

A job is one system on one dialogue with the questions of it still to answer. :func:`execute`
runs a :class:`JobPlan` on the executor ``RunConfig.executor.kind`` names (:data:`EXECUTORS`):
``local`` runs the jobs in this process, ``ray`` runs each as a Ray task
(:mod:`umb.run._ray_eval`). Both take the jobs from here in the same order, run each through the
same :meth:`JobEngine.run_job`, and tell ``on_job`` of each job once its records are in the log.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from typing import Any, Protocol, cast

from umb._errors import DataError
from umb._registry import load_target
from umb.bench import Benchmark, Dialogue, Question
from umb.memory import MemorySystem, build_memory
from umb.models import (
    LoadedModel,
    ModelOnUse,
    ModelOptions,
    Role,
    UsageMeter,
    load_model,
    spec_provider,
)
from umb.run._config import RunConfig
from umb.run._log import RecordLog
from umb.run._progress import question_bar
from umb.run._record import answer_question
from umb.run._traces import RunTracers
from umb.scoring import NATIVE_SCORER, Judge, PeerScoring

# Contexts retrieved but not yet answered, per unit of concurrency: enough to keep the model busy
# while a dialogue ingests, few enough that long contexts do not pile up in memory.
_INFLIGHT_PER_SLOT = 4
# Seconds after which ingesting a session redraws the bar with where it is: the last jobs of a
# big benchmark ingest long dialogues with no answer coming for a while.
_INGEST_HEARTBEAT_S = 2.0

OnJob = Callable[[str, str, list[dict[str, Any]]], None]
"""``on_job(system, dialogue_id, records)``: a (system, dialogue) job has finished; its
records are in the log and its trace scopes have ended."""


Pending = dict[tuple[str, str], list[Question]]
"""(system, dialogue id) -> the questions of that dialogue still to answer for that system."""


def pending_jobs(
    systems: Sequence[str], questions: Sequence[Question], done: AbstractSet[tuple[str, str]]
) -> Pending:
    """The questions of each (system, dialogue) not among the ``done`` (system, question id)."""
    out: Pending = {}
    for system in systems:
        for q in questions:
            if (system, q.id) not in done:
                out.setdefault((system, q.dialogue_id), []).append(q)
    return out


def latest_asked(questions: Sequence[Question]) -> dict[str, str]:
    """Dialogue id -> the ``asked_at`` that sees the most sessions among its questions."""
    out: dict[str, str] = {}
    for q in questions:
        seen = out.get(q.dialogue_id)
        if seen is None or (seen and (not q.asked_at or q.asked_at > seen)):
            out[q.dialogue_id] = q.asked_at
    return out


def iter_jobs(bench: Benchmark, pending: Pending) -> Iterator[tuple[str, Dialogue, list[Question]]]:
    """The pending (system, dialogue, questions) jobs, in benchmark order, dialogue by dialogue.

    Raises:
        DataError: Once the dialogues are read, if questions refer to dialogues not there.
    """
    wanted = {d for _, d in pending}
    systems = list(dict.fromkeys(s for s, _ in pending))
    # Only those dialogues are parsed, and the file is left once the last is found: a run of
    # 100 of the `umb` preset's 1,000 dialogues would otherwise parse the 900 others, in the
    # event loop, after its last job began.
    for dialogue in bench.iter_dialogues(frozenset(wanted)):
        wanted.discard(dialogue.id)
        for system in systems:
            todo = pending.get((system, dialogue.id))
            if todo:
                yield system, dialogue, todo
        if not wanted:
            break
    if wanted:
        raise DataError(
            str(bench.root / "questions.jsonl"),
            None,
            f"questions refer to dialogues that do not exist: {', '.join(sorted(wanted))}",
        )


@dataclass(frozen=True)
class JobPlan:
    """What one call of ``umb eval`` runs: the pending jobs of a benchmark."""

    bench: Benchmark
    pending: Pending
    latest: dict[str, str]
    """Dialogue id -> the ``asked_at`` up to which a traced job ingests (:func:`latest_asked`)."""
    trace_meta: dict[str, Any]
    """What every trace file's header says of the run (benchmark hash, models)."""

    @property
    def questions(self) -> int:
        """The number of questions to answer, over all jobs."""
        return sum(len(v) for v in self.pending.values())

    def jobs(self) -> Iterator[tuple[str, Dialogue, list[Question]]]:
        """The pending (system, dialogue, questions) in the order every executor starts them."""
        return iter_jobs(self.bench, self.pending)


class Executor(Protocol):
    """Runs a plan's jobs into the log; returns the number of records it appended."""

    def __call__(
        self,
        config: RunConfig,
        plan: JobPlan,
        log: RecordLog,
        meter: UsageMeter,
        *,
        progress: bool | None,
        on_job: OnJob | None,
    ) -> Awaitable[int]: ...


EXECUTORS: dict[str, str] = {
    "local": "umb.run.engine:execute_locally",
    "ray": "umb.run._ray_eval:execute_on_ray",  # importing it loads ray (extra "ray")
}
"""``--executor`` kind -> the ``module:function`` :class:`Executor` that runs it."""


async def execute(
    config: RunConfig,
    plan: JobPlan,
    log: RecordLog,
    meter: UsageMeter,
    *,
    progress: bool | None = None,
    on_job: OnJob | None = None,
) -> int:
    """Run ``plan`` on the executor ``config.executor.kind`` names; return records appended."""
    executor = cast(Executor, load_target(EXECUTORS[config.executor.kind]))
    return await executor(config, plan, log, meter, progress=progress, on_job=on_job)


async def execute_locally(
    config: RunConfig,
    plan: JobPlan,
    log: RecordLog,
    meter: UsageMeter,
    *,
    progress: bool | None,
    on_job: OnJob | None,
) -> int:
    """The ``local`` executor: every job in this process, ``concurrency`` at a time."""
    engine = JobEngine(config, log, meter, plan.trace_meta, total=plan.questions, progress=progress)
    engine.on_job = on_job
    try:
        await engine.run_jobs(plan)
    finally:
        await engine.close()
    return engine.written


def _precedes(started_at: str, asked_at: str) -> bool:
    # Times are YYYY-MM-DDTHH:MM and order as text; a question with no time sees everything.
    return not asked_at or started_at < asked_at


class JobEngine:
    """Runs jobs for one call: the models, the log, the progress bar and the scheduling."""

    def __init__(
        self,
        config: RunConfig,
        log: RecordLog,
        meter: UsageMeter,
        trace_meta: dict[str, Any],
        *,
        total: int = 0,
        progress: bool | None = False,
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
        extractor_kind = spec_provider(config.extractor)
        if extractor_kind is not None and not extractor_kind.llm:
            # Systems extract by rule with it: most never call it, so it loads if one does.
            self.extractor = ModelOnUse(config.extractor, role="extractor", options=options,
                                        meter=meter)  # fmt: skip
            self.models.append(self.extractor)
        else:
            self.extractor = self._load(config.extractor, "extractor", options, meter)
        self.tracers = RunTracers(
            config.out, enabled=config.trace, meta=trace_meta, bench=config.bench
        )
        answerer = spec_provider(self.answerer.spec)
        self.include_gold = answerer is not None and answerer.reads_gold
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

    async def run_jobs(self, plan: JobPlan) -> None:
        """Run every job of the plan, ``concurrency`` at a time."""
        if not plan.pending:
            return
        await self.answerer.connect()
        tasks: set[asyncio.Task[None]] = set()
        try:
            for system, dialogue, todo in plan.jobs():
                await self.jobs.acquire()
                _raise_first_failure(tasks)
                tasks = {t for t in tasks if not t.done()}
                waiting = asyncio.Event()
                latest = plan.latest.get(dialogue.id, "")
                job = self.run_job(system, dialogue, todo, latest, waiting)
                task = asyncio.create_task(job)
                task.add_done_callback(lambda _t: self.jobs.release())
                tasks.add(task)
                # The next job starts once this one waits for a model (see run_job): the first
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

    async def run_job(
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
