"""The LLM renderer: plan → write → audit → repair, one dialogue at a time.

Every session of a dialogue is written at once (its plan does not depend on other sessions'
text). A reply that is not usable JSON is asked for again with the reason; so is a reply that
mentions a value of a later session (a leak). After the last attempt, leaking lines are dropped
and a session that never came back usable keeps its skeleton text. Then every session is audited,
a verifier model (if any) votes on what matching cannot tell, and missing facts are repaired for
a configured number of rounds. Whatever is still missing is reported, never papered over.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from umb._errors import ConfigError, EndpointError
from umb.bench import TEMPLATE, Dialogue, Session
from umb.models import GenerateRequest, GenerateResult, ModelAPI
from umb.render._assemble import RenderedDialogue, assemble
from umb.render._audit import FOUND, MISSING, UNSURE, Finding, SessionAuditor, scrub
from umb.render._plan import DialoguePlan, SessionPlan
from umb.render._prompts import repair_request, verifier_request, writer_request
from umb.render._repair import (
    RepairGroup,
    WorkLine,
    block_of,
    check_exchange,
    context,
    insert_at,
    items,
    missing_groups,
)
from umb.render._reply import Line, ReplyError, parse_turns, parse_vote


@dataclass(frozen=True)
class LLMRenderConfig:
    """How the LLM renderer writes, checks and repairs.

    Attributes:
        model: The renderer's model spec (``openai/<model>``, ``hf/<path>`` or
            ``llamacpp/<file.gguf | name>``).
        verifier: Model spec that votes on facts matching cannot decide (None: undecided facts
            count as missing and are repaired).
        votes: Verifier votes per undecided fact; the majority of valid votes decides.
        repair_rounds: Rounds of repair after the first audit.
        write_attempts: Tries per session when a reply is broken or leaks.
        repair_attempts: Tries per repair exchange when a reply is broken or leaks.
    """

    model: str
    verifier: str | None = None
    votes: int = 3
    repair_rounds: int = 2
    write_attempts: int = 3
    repair_attempts: int = 2

    def __post_init__(self) -> None:
        if self.model.split("/", 1)[0] not in ("openai", "hf", "llamacpp") or "/" not in self.model:
            raise ConfigError(
                "the llm renderer needs a language model (openai/<model>, hf/<path> or "
                f"llamacpp/<file.gguf | name>), not {self.model!r}"
            )
        if self.votes < 1 or self.repair_rounds < 0:
            raise ConfigError("votes must be >= 1 and repair rounds >= 0")
        if self.write_attempts < 1 or self.repair_attempts < 1:
            raise ConfigError("write and repair attempts must be >= 1")


@dataclass
class RenderStats:
    """What rendering one dialogue took."""

    write_requests: int = 0
    broken_replies: int = 0
    leaking_replies: int = 0
    scrubbed_sessions: int = 0
    fallback_sessions: int = 0
    repair_requests: int = 0
    verifier_requests: int = 0
    missing_after_write: int = 0


@dataclass
class _Work:
    plan: SessionPlan
    auditor: SessionAuditor
    lines: list[WorkLine]
    rendered_by: str
    """The writer's spec, or ``template`` when the session kept its skeleton text."""
    findings: dict[str, Finding] = field(default_factory=dict)

    @property
    def by_model(self) -> bool:
        return self.rendered_by != TEMPLATE


class LLMRenderer:
    """Renders dialogues from plans with a renderer model (and optionally a verifier).

    Args:
        writer: The renderer-role model.
        config: Attempts, rounds and votes.
        verifier: The verifier model, or None.
    """

    def __init__(
        self, writer: ModelAPI, config: LLMRenderConfig, verifier: ModelAPI | None = None
    ) -> None:
        self.writer = writer
        self.verifier = verifier
        self.config = config

    async def _ask(self, model: ModelAPI, requests: Sequence[GenerateRequest]) -> list[str]:
        results: list[GenerateResult] = await model.generate(list(requests))
        for r in results:
            if r.error is not None:
                raise EndpointError(f"{model.spec}: {r.error}")
        return [r.text for r in results]

    async def render(self, plan: DialoguePlan, skeleton: Dialogue) -> RenderedDialogue:
        """Write, audit and repair every session of ``plan``.

        Args:
            plan: The dialogue's plan.
            skeleton: The dialogue the plan was made on; a session whose replies never came back
                usable keeps this dialogue's text.

        Raises:
            EndpointError: The endpoint failed after its retries (finished dialogues are kept).
        """
        stats = RenderStats()
        works = await asyncio.gather(
            *(
                self._write(sp, s, plan.self_names, stats)
                for sp, s in zip(plan.sessions, skeleton.sessions, strict=True)
            )
        )
        await asyncio.gather(*(self._audit(w, stats) for w in works))
        # Coverage and repair are about what the model wrote: a session that fell back keeps
        # the template's text, which no model call should patch or take credit for.
        stats.missing_after_write = sum(len(_missing(w)) for w in works if w.by_model)
        for _ in range(self.config.repair_rounds):
            todo = [w for w in works if w.by_model and _missing(w)]
            if not todo:
                break
            await asyncio.gather(*(self._repair(w, stats) for w in todo))
        done = [(w.plan, w.lines, w.findings, w.rendered_by) for w in works]
        return assemble(plan, done, asdict(stats))

    async def _write(
        self, plan: SessionPlan, skeleton: Session, names: Sequence[str], stats: RenderStats
    ) -> _Work:
        auditor = SessionAuditor(plan, names)
        problem: str | None = None
        leaky: tuple[list[Line], set[int]] | None = None
        for attempt in range(1, self.config.write_attempts + 1):
            [text] = await self._ask(self.writer, [writer_request(plan, attempt, problem)])
            stats.write_requests += 1
            try:
                lines = parse_turns(text)
            except ReplyError as e:
                stats.broken_replies += 1
                problem = str(e)
                continue
            leaks = auditor.leaks(lines)
            if not leaks:
                return _Work(plan, auditor, [WorkLine(r, t) for r, t in lines], self.writer.spec)
            stats.leaking_replies += 1
            leaky = (lines, {i for i, _ in leaks})
            problem = _leak_problem(leaks)
        if leaky is not None:
            kept = scrub(*leaky)
            if len(kept) >= 2:
                stats.scrubbed_sessions += 1
                return _Work(plan, auditor, [WorkLine(r, t) for r, t in kept], self.writer.spec)
        stats.fallback_sessions += 1
        return _Work(plan, auditor, [WorkLine(t.role, t.text) for t in skeleton.turns], TEMPLATE)

    async def _audit(self, work: _Work, stats: RenderStats) -> None:
        lines = [(x.role, x.text) for x in work.lines]
        findings = work.auditor.audit(lines)
        required = {f.id for f in work.plan.required_facts()}
        unsure = [f for f in findings.values() if f.status == UNSURE and f.fact_id in required]
        if unsure and self.verifier is not None and work.by_model:
            verdicts = await asyncio.gather(*(self._verify(work, lines, f, stats) for f in unsure))
            for f, yes in zip(unsure, verdicts, strict=True):
                findings[f.fact_id] = (
                    Finding(f.fact_id, FOUND, f.line, "verifier")
                    if yes
                    else Finding(f.fact_id, MISSING)
                )
        work.findings = findings

    async def _verify(
        self, work: _Work, lines: list[Line], finding: Finding, stats: RenderStats
    ) -> bool:
        assert self.verifier is not None and finding.line is not None
        fact = next(
            f
            for f in work.plan.required_facts() + work.plan.optional_facts()
            if f.id == finding.fact_id
        )
        start = max(0, finding.line - 2)
        shown = lines[start : finding.line + 2]
        requests = [
            verifier_request(work.plan, fact.text, shown, finding.line - start, vote)
            for vote in range(1, self.config.votes + 1)
        ]
        replies = await self._ask(self.verifier, requests)
        stats.verifier_requests += len(requests)
        votes = [parse_vote(r) for r in replies]
        return votes.count(True) > votes.count(False)

    async def _repair(self, work: _Work, stats: RenderStats) -> None:
        groups = missing_groups(work.plan, work.lines, work.findings)
        replies = await asyncio.gather(*(self._exchange(work, g, stats) for g in groups))
        # Groups sharing an anchor go in plan order: each after the block inserted before it.
        last_after: dict[int, WorkLine] = {}
        for group, new in zip(groups, replies, strict=True):
            if new is None:
                continue
            fresh = [WorkLine(r, t, f"repair:{group.key}") for r, t in new]
            old = block_of(work.lines, group.key)
            if old:
                work.lines[old[0] : old[-1] + 1] = fresh
                continue
            after = last_after.get(id(group.after), group.after)
            at = insert_at(work.lines, after)
            work.lines[at:at] = fresh
            last_after[id(group.after)] = fresh[-1]
        await self._audit(work, stats)

    async def _exchange(
        self, work: _Work, group: RepairGroup, stats: RenderStats
    ) -> list[Line] | None:
        old = block_of(work.lines, group.key)
        if old:
            start, stop = old[0], old[-1] + 1
            previous: list[Line] | None = [(x.role, x.text) for x in work.lines[start:stop]]
        else:
            start = stop = insert_at(work.lines, group.after)
            previous = None
        before, after = context(work.lines, start, stop)
        problem: str | None = None
        for attempt in range(1, self.config.repair_attempts + 1):
            request = repair_request(
                work.plan, items(work.plan, group), before, after, previous, attempt, problem
            )
            [text] = await self._ask(self.writer, [request])
            stats.repair_requests += 1
            try:
                lines = parse_turns(text)
            except ReplyError as e:
                problem = str(e)
                continue
            problem = check_exchange(lines)
            leaks = work.auditor.leaks(lines)
            if leaks:
                problem = _leak_problem(leaks)
            if problem is None:
                return lines
        return None


def _leak_problem(leaks: list[tuple[int, str]]) -> str:
    values = ", ".join(f'"{v}"' for v in dict.fromkeys(v for _, v in leaks))
    return f"it mentioned {values}, which belongs to a later conversation and must not come up yet"


def _missing(work: _Work) -> list[str]:
    required = {f.id for f in work.plan.required_facts()}
    return [k for k, f in work.findings.items() if k in required and f.status != FOUND]
