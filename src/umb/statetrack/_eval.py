"""``umb statetrack eval``: ask a model every (sample, task) of a ladder and score it exactly."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from umb._errors import ConfigError
from umb._recordlog import KeyedLog
from umb._tokens import estimate_tokens
from umb.models import (
    GenerateRequest,
    LoadedModel,
    Message,
    ModelOptions,
    UsageMeter,
    load_model,
    spec_provider,
)
from umb.statetrack._baseline import DEFAULT_WINDOW_TOKENS, StatetrackBaseline
from umb.statetrack._build import Ladder
from umb.statetrack._levels import Level
from umb.statetrack._records import Key, aggregate, check_header, is_done, open_log, write_tables
from umb.statetrack._report import write_report
from umb.statetrack._score import score_reply
from umb.statetrack._tasks import TaskName

RUN_FORMAT: Final = "umb-statetrack-run"
# Requests handed to the model at once: instant backends take big batches, remote ones are
# bounded by their own concurrency, and a batch is the most a kill can lose.
_LOCAL_BATCH: Final = 64


@dataclass(frozen=True)
class EvalConfig:
    """One ``umb statetrack eval`` call.

    Attributes:
        ladder: A directory written by ``umb statetrack build``.
        out: The run directory (created; an existing run of the same ladder and model resumes).
        model: ``offline`` (the bounded-window baseline), ``oracle``, ``openai/<model>``,
            ``hf/<path>``.
        levels: Levels to run (default: every level of the ladder).
        tasks: Tasks to run (default: every task the ladder holds).
        samples: Only the first N samples of each level.
        options: Endpoint, concurrency, retries, cache and generation overrides.
        baseline_window: Tokens of fact lines the ``offline`` baseline remembers.
        retry_errors: Ask again the (sample, task) pairs whose call failed in an earlier call.
        report: Draw ``curves.png``/``curves.svg`` and ``index.html`` (tables are always written).
    """

    ladder: Path
    out: Path
    model: str = "offline"
    levels: Sequence[Level] | None = None
    tasks: Sequence[TaskName] | None = None
    samples: int | None = None
    options: ModelOptions = field(default_factory=ModelOptions)
    baseline_window: int = DEFAULT_WINDOW_TOKENS
    retry_errors: bool = False
    report: bool = True


def make_model(config: EvalConfig) -> LoadedModel:
    """The model of a run; ``offline`` is the state-tracking baseline (the generic offline reader
    answers dialogue questions and has no recipe for fact ladders)."""
    if config.model.strip() == "offline":
        return LoadedModel(
            StatetrackBaseline(config.baseline_window), role="answerer", meter=UsageMeter()
        )
    return load_model(config.model, role="answerer", options=config.options)


def _request(prompt: str, entry: dict[str, Any], with_gold: bool) -> GenerateRequest:
    task: dict[str, Any] = {"family": "STATETRACK", "task": entry["Task"], "query": entry["Query"]}
    if with_gold:
        task["gold"] = entry["GT"]
    # Room for the whole answer object twice over: fact texts are copied verbatim.
    budget = 2 * estimate_tokens(json.dumps(entry["GT"], ensure_ascii=False)) + 256
    return GenerateRequest(
        messages=(Message("user", prompt),), max_tokens=budget, temperature=0.0, task=task
    )


def _jobs(
    ladder: Ladder, config: EvalConfig, log: KeyedLog[Key]
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    wanted = set(config.tasks or ladder.manifest["options"]["tasks"])
    jobs = []
    for lv in config.levels or ladder.levels():
        for sample in ladder.samples(lv, config.samples):
            for entry in sample["data"]:
                key = (lv.name, sample["sample_id"], entry["Task"])
                if entry["Task"] in wanted and not is_done(log, key, config.retry_errors):
                    jobs.append((sample, entry))
    return jobs


def _record(
    model: str, sample: dict[str, Any], entry: dict[str, Any], prompt: str, result: Any
) -> dict[str, Any]:
    reply = None if result.error is not None else result.text
    score = score_reply(entry["Task"], entry["GT"], entry["Accept"], reply)
    return {
        "level": sample["level"],
        "sample_id": sample["sample_id"],
        "task": entry["Task"],
        "model": model,
        "prompt_tokens": estimate_tokens(prompt),
        "facts_lines": sample["meta"]["stats"]["facts_lines"],
        "short": sample["meta"]["short"],
        "output_tokens": result.output_tokens,
        "latency_s": round(result.latency_s, 4),
        "cached": result.cached,
        "error": result.error,
        "reply": result.text,
        **score.to_dict(),
    }


async def _run(
    ladder: Ladder,
    model: LoadedModel,
    jobs: list[tuple[dict[str, Any], dict[str, Any]]],
    log: KeyedLog[Key],
    batch: int,
    progress: Callable[[int, int], None] | None,
) -> None:
    found = spec_provider(model.spec)
    with_gold = found is not None and found.reads_gold
    try:
        for start in range(0, len(jobs), batch):
            chunk = jobs[start : start + batch]
            prompts = [ladder.prompt(sample, entry) for sample, entry in chunk]
            requests = [_request(p, e, with_gold) for p, (_, e) in zip(prompts, chunk, strict=True)]
            results = await model.generate(requests)
            for (sample, entry), prompt, result in zip(chunk, prompts, results, strict=True):
                log.append(_record(model.spec, sample, entry, prompt, result))
            if progress is not None:
                progress(start + len(chunk), len(jobs))
    finally:
        await model.aclose()


def run_statetrack_eval(
    config: EvalConfig, progress: Callable[[int, int], None] | None = None
) -> dict[str, Any]:
    """Run (or resume) one model over a ladder; write records, tables, curves and a page.

    Returns:
        ``{"header", "rows", "asked", "seconds", "usage"}``: the run's header, its (level, task)
        rows (every record of the run, not only this call's), how many requests this call made.

    Raises:
        ConfigError: Bad spec or options, or ``out`` holds a run of another ladder or model.
        DataError: The ladder directory is broken.
    """
    ladder = Ladder.open(config.ladder)
    for task in config.tasks or ():
        if task not in ladder.manifest["options"]["tasks"]:
            raise ConfigError(f"the ladder has no task {task!r}")
    header: dict[str, Any] = {
        "format": RUN_FORMAT,
        "ladder_hash": ladder.content_hash,
        "model": config.model.strip(),
    }
    if header["model"] == "offline":
        header["baseline_window"] = config.baseline_window
    model = make_model(config)
    config.out.mkdir(parents=True, exist_ok=True)
    try:
        check_header(config.out, header)
    except ConfigError:
        asyncio.run(model.aclose())
        raise
    log = open_log(config.out)
    started = time.perf_counter()
    try:
        jobs = _jobs(ladder, config, log)
        kind = spec_provider(model.spec)
        local = kind is not None and not kind.llm  # in process: no endpoint to pace
        batch = _LOCAL_BATCH if local else 4 * config.options.concurrency
        asyncio.run(_run(ladder, model, jobs, log, batch, progress))
    finally:
        log.close()
    rows = aggregate(log.latest.values())
    write_tables(config.out, header, rows)
    if config.report:
        write_report(config.out, [(header["model"], rows)])
    return {
        "header": header,
        "rows": rows,
        "asked": len(jobs),
        "seconds": round(time.perf_counter() - started, 3),
        "usage": model.meter.to_dict(),
    }
