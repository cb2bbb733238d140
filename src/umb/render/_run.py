"""Render a whole benchmark with the LLM renderer: resumable, concurrent, with a dry run.

``render_benchmark`` re-renders the world of an existing benchmark (``umb render``);
``generate_llm`` first writes the template benchmark as the skeleton, then renders it
(``umb generate --renderer llm``). Both write a complete benchmark directory at the end: the
world and facts unchanged, the LLM dialogues, questions rebuilt on them, and a manifest that
counts the questions dropped per family.
"""

from __future__ import annotations

import asyncio
import math
import shutil
import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from umb._errors import ConfigError
from umb._jsonio import AtomicJsonlWriter, atomic_write_bytes, dumps_pretty
from umb._version import __version__
from umb.bench import DIALOGUES, FACTS, QUESTIONS, WORLD, Benchmark, Dialogue, write_manifest
from umb.models import LoadedModel, ModelOptions, UsageMeter, load_model
from umb.render._estimate import estimate
from umb.render._llm import LLMRenderConfig, LLMRenderer
from umb.render._plan import DialoguePlan, plan_dialogue
from umb.render._prompts import PROMPT_VERSION
from umb.render._questions import questions_for
from umb.render._workdir import CACHE, COVERAGE, WorkDir
from umb.render._worldio import load_worlds
from umb.world import CharacterWorld


@dataclass(frozen=True)
class Endpoint:
    """Where the renderer (and verifier) models are reached, and how hard to push them.

    Attributes:
        base_url: OpenAI-compatible endpoint (default ``$OPENAI_BASE_URL``).
        api_key_env: Environment variable holding the key (never stored).
        concurrency: Requests in flight per model; dialogues run ``ceil(concurrency / 4)`` at a
            time, each writing its sessions in parallel.
        timeout_s: Limit for one HTTP attempt.
        max_retries: Retries on HTTP 429, 5xx and timeouts.
        cache_path: Response cache (default ``OUT/render/cache.sqlite``).
        cache: Use the response cache at all.
        threads: ``llamacpp/…`` only: CPU threads (None: llama.cpp's choice).
        n_ctx: ``llamacpp/…`` only: context size (None: the model's own).
    """

    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    concurrency: int = 8
    timeout_s: float = 300.0
    max_retries: int = 5
    cache_path: Path | None = None
    cache: bool = True
    threads: int | None = None
    n_ctx: int | None = None


@dataclass(frozen=True)
class RenderJob:
    """One ``umb render``: from ``source`` into ``out``."""

    source: Path
    out: Path
    config: LLMRenderConfig
    endpoint: Endpoint = Endpoint()
    limit: int | None = None
    """Only the first N dialogues."""
    progress: bool | None = None
    """Progress bar on stderr; None: when stderr is a terminal."""


@dataclass(frozen=True)
class RenderOutcome:
    """What a render call did: the manifest, dialogues rendered now and skipped, usage."""

    manifest: dict[str, Any]
    rendered: int
    skipped: int
    usage: dict[str, Any]


class _Source:
    """The benchmark being re-rendered: its config, worlds and skeleton dialogues."""

    def __init__(self, root: Path, limit: int | None) -> None:
        self.bench = Benchmark.open(root)
        config = self.bench.manifest.get("config") or {}
        if "seed" not in config or "questions" not in config:
            raise ConfigError(f"{root}: manifest has no generation config (seed, questions)")
        self.config: dict[str, Any] = config
        self.seed = int(config["seed"])
        self.worlds, self.names = load_worlds(self.bench)
        self.limit = limit

    def skeletons(self) -> Iterator[Dialogue]:
        for k, d in enumerate(self.bench.iter_dialogues()):
            if self.limit is not None and k >= self.limit:
                return
            yield d

    def world(self, d: Dialogue) -> CharacterWorld:
        return self.worlds[d.character_id]

    def plan(self, d: Dialogue) -> DialoguePlan:
        return plan_dialogue(self.seed, self.world(d), d, self.names)


def _header(job: RenderJob, source: _Source) -> dict[str, Any]:
    return {
        "format": "umb-render",
        "format_version": 1,
        "source": source.bench.content_hash,
        "prompt_version": PROMPT_VERSION,
        "renderer": asdict(job.config),
    }


def _options(job: RenderJob, work: WorkDir) -> ModelOptions:
    ep = job.endpoint
    return ModelOptions(
        base_url=ep.base_url or ModelOptions().base_url,
        api_key_env=ep.api_key_env,
        concurrency=ep.concurrency,
        timeout_s=ep.timeout_s,
        max_retries=ep.max_retries,
        cache_path=(ep.cache_path or work.root / CACHE) if ep.cache else None,
        threads=ep.threads,
        n_ctx=ep.n_ctx,
    )


def dry_run(job: RenderJob) -> dict[str, Any]:
    """The estimate of calls and tokens for ``job`` (nothing is written or sent)."""
    source = _Source(job.source, job.limit)
    work = WorkDir(job.out)
    done: list[str] = []

    def todo() -> Iterator[DialoguePlan]:
        for d in source.skeletons():
            if work.done(d.id):
                done.append(d.id)
            else:
                yield source.plan(d)

    result = estimate(todo(), job.config)
    result["already_done"] = len(done)
    return result


def render_benchmark(job: RenderJob) -> RenderOutcome:
    """Render ``job.source``'s world into ``job.out``; rerunning resumes.

    Raises:
        ConfigError: Bad settings, ``out`` equals ``source``, or ``out`` holds another render.
        DataError: The source benchmark is broken or has no world.
        EndpointError: The endpoint failed after its retries (finished dialogues are kept).
    """
    return asyncio.run(arender_benchmark(job))


async def arender_benchmark(job: RenderJob) -> RenderOutcome:
    """The coroutine behind :func:`render_benchmark`."""
    if job.out.resolve() == job.source.resolve():
        raise ConfigError("--out must differ from the benchmark being rendered")
    source = _Source(job.source, job.limit)
    work = WorkDir(job.out)
    work.open(_header(job, source))
    options = _options(job, work)
    meter = UsageMeter()
    writer = load_model(job.config.model, role="renderer", options=options, meter=meter)
    models: list[LoadedModel] = [writer]
    verifier = None
    if job.config.verifier:
        verifier = load_model(job.config.verifier, role="judge", options=options, meter=meter)
        models.append(verifier)
    renderer = LLMRenderer(writer, job.config, verifier)
    try:
        rendered, skipped = await _render_all(job, source, work, renderer)
    finally:
        for m in models:
            await m.aclose()
    manifest = _write_outputs(job, source, work)
    return RenderOutcome(manifest, rendered, skipped, meter.to_dict())


async def _render_all(
    job: RenderJob, source: _Source, work: WorkDir, renderer: LLMRenderer
) -> tuple[int, int]:
    from tqdm import tqdm

    ids = [d.id for d in source.skeletons()]
    todo = [i for i in ids if not work.done(i)]
    total = len(ids)
    show = sys.stderr.isatty() if job.progress is None else job.progress
    bar = tqdm(total=len(todo), file=sys.stderr, disable=not show, unit="dlg", desc="render")
    slots = asyncio.Semaphore(max(1, math.ceil(job.endpoint.concurrency / 4)))
    wanted = set(todo)

    async def one(d: Dialogue) -> None:
        try:
            work.save(await renderer.render(source.plan(d), d))
            bar.update(1)
        finally:
            slots.release()

    tasks: list[asyncio.Task[None]] = []
    try:
        for d in source.skeletons():
            if d.id not in wanted:
                continue
            await slots.acquire()
            failed = [t for t in tasks if t.done() and t.exception() is not None]
            if failed:
                raise failed[0].exception()  # type: ignore[misc]
            tasks.append(asyncio.create_task(one(d)))
        await asyncio.gather(*tasks)
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        bar.close()
    return len(todo), total - len(todo)


def _write_outputs(job: RenderJob, source: _Source, work: WorkDir) -> dict[str, Any]:
    out = job.out
    counts: dict[str, Any] = {"dialogues": 0, "sessions": 0, "turns": 0, "questions": 0}
    per_family: dict[str, int] = {}
    dropped: dict[str, int] = {}
    by_renderer: dict[str, int] = {}
    reports: list[dict[str, Any]] = []
    counts_cfg: dict[str, int] = dict(source.config["questions"])
    with AtomicJsonlWriter(out / DIALOGUES) as dw, AtomicJsonlWriter(out / QUESTIONS) as qw:
        for skeleton in source.skeletons():
            cp = work.load(skeleton.id)
            kept, drops = questions_for(
                source.seed, source.world(skeleton), cp.dialogue, counts_cfg, cp.missing
            )
            dw.write(cp.dialogue)
            qw.write_many(kept)
            counts["dialogues"] += 1
            counts["sessions"] += len(cp.dialogue.sessions)
            for session in cp.dialogue.sessions:
                who = session.rendered_by or "unknown"
                by_renderer[who] = by_renderer.get(who, 0) + 1
            counts["turns"] += sum(len(s.turns) for s in cp.dialogue.sessions)
            counts["questions"] += len(kept)
            for q in kept:
                per_family[q.family] = per_family.get(q.family, 0) + 1
            for fam, n in drops.items():
                dropped[fam] = dropped.get(fam, 0) + n
            reports.append({**cp.report, "questions": len(kept), "questions_dropped": drops})
    for name in (WORLD, FACTS):
        shutil.copyfile(source.bench.root / name, out / name)
    counts["facts"] = len(source.bench.facts)
    counts["sessions_by_renderer"] = dict(sorted(by_renderer.items()))
    counts["questions_per_family"] = dict(sorted(per_family.items()))
    counts["questions_dropped_per_family"] = dict(sorted(dropped.items()))
    coverage = _coverage(reports, per_family, dropped)
    coverage["total"]["sessions_by_renderer"] = counts["sessions_by_renderer"]
    atomic_write_bytes(work.root / COVERAGE, dumps_pretty(coverage))
    config = {**source.config, "renderer": {"kind": "llm", **asdict(job.config)}}
    extra: dict[str, Any] = {"render": coverage["total"]}
    if source.bench.manifest.get("shard"):
        extra["shard"] = source.bench.manifest["shard"]
    generator = f"umb {__version__} llm renderer ({job.config.model})"
    if not by_renderer.get(job.config.model):
        generator += ", every session fell back to the template text"
    return write_manifest(out, generator=generator, config=config, counts=counts, extra=extra)


def _coverage(
    reports: list[dict[str, Any]], kept: dict[str, int], dropped: dict[str, int]
) -> dict[str, Any]:
    keys = ("required_facts", "found_by_match", "found_by_verifier", "repaired", "missing")
    facts = {k: sum(r[k] for r in reports) for k in keys}
    facts["missing_in_template_sessions"] = sum(
        r.get("missing_in_template_sessions", 0) for r in reports
    )
    required = facts["required_facts"]
    families = {}
    for fam in sorted(set(kept) | set(dropped)):
        k, d = kept.get(fam, 0), dropped.get(fam, 0)
        families[fam] = {"kept": k, "dropped": d, "coverage": round(k / max(1, k + d), 4)}
    cost_keys = (
        "write_requests",
        "broken_replies",
        "leaking_replies",
        "scrubbed_sessions",
        "fallback_sessions",
        "repair_requests",
        "verifier_requests",
    )
    total = {
        # Over the facts the model had to write; None when it wrote no session at all.
        "fact_coverage": round(1 - facts["missing"] / required, 4) if required else None,
        "facts": facts,
        "families": families,
        **{k: sum(r[k] for r in reports) for k in cost_keys},
    }
    return {"total": total, "dialogues": reports}
