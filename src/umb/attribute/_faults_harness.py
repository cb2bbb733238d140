"""Run memory systems over a benchmark as ``umb eval`` does, with faults injected, and judge
each fault by attributing its question."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from umb.attribute._attribute import attribute_question
from umb.attribute._attributor import _Bench
from umb.attribute._evidence import Matcher, find_evidence
from umb.attribute._facts import Need
from umb.attribute._faults import CorruptAnswerer, Fault, FaultLog, inject
from umb.attribute._graph import SystemView, op_kind
from umb.attribute._needs import build_needs
from umb.attribute._types import Attribution
from umb.bench import Benchmark
from umb.memory import MemoryConfig, build_memory
from umb.models import load_model
from umb.run import answer_question
from umb.trace import Tracer, read_trace

if TYPE_CHECKING:
    from umb.bench import Dialogue, Question, Session
    from umb.memory import MemorySystem
    from umb.models import ModelAPI
    from umb.trace import Tracer

Records = dict[str, dict[str, Any]]


@dataclass
class Outcome:
    """One injected fault and what attribution made of it."""

    fault: Fault
    status: str
    """``effective``, ``ineffective`` (the answer stayed right) or ``not applied``."""
    expected_op: str | None = None
    attribution: Attribution | None = None

    @property
    def type_ok(self) -> bool:
        a = self.attribution
        return a is not None and a.error_type == self.fault.expected_type

    @property
    def op_ok(self) -> bool:
        a = self.attribution
        return a is not None and self.expected_op is not None and a.op_id == self.expected_op

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready row for the benchmark's output."""
        a = self.attribution
        return {
            "system": self.fault.system, "kind": self.fault.kind,
            "question_id": self.fault.question.id, "fact": self.fault.need.label,
            "status": self.status, "expected_type": self.fault.expected_type,
            "expected_op": self.expected_op, "error_type": a.error_type if a else None,
            "op_id": a.op_id if a else None, "reason": a.reason if a else None,
            "type_ok": self.type_ok, "op_ok": self.op_ok,
        }  # fmt: skip


class Harness:
    """The benchmark, the models, and traced passes of one system with faults injected.

    Args:
        bench: A benchmark directory.
        work: Scratch directory for each pass's trace (and systems' files).
        answerer: Answerer spec (``offline`` by default: answers from the context it is given).
        extractor: The memory systems' extractor (``offline``: their rule-based paths).
    """

    def __init__(
        self, bench: Path, work: Path, *, answerer: str = "offline", extractor: str = "offline"
    ) -> None:

        b = Benchmark.open(bench)
        self.dialogues: dict[str, Dialogue] = {d.id: d for d in b.iter_dialogues()}
        self.data = _Bench.load(bench, set(self.dialogues))
        self.work = work
        self.bench = bench
        self.answerer = load_model(answerer, role="answerer")
        self.extractor = load_model(extractor, role="extractor")
        self.matcher = Matcher()
        self._passes = 0

    async def run(
        self, system: str, questions: Sequence[Question], faults: Sequence[Fault] = ()
    ) -> tuple[Records, SystemView, dict[str, FaultLog]]:
        """One traced pass of ``system`` over ``questions``, with ``faults`` injected.

        Returns:
            The run record of each question, the pass's trace (``system``'s view) and, per
            faulted question, what its fault did.
        """

        self._passes += 1
        path = self.work / f"pass{self._passes:04d}-{system}.jsonl"
        tracer = Tracer(path, meta={"system": system})
        records: Records = {}
        logs = {f.question.id: FaultLog() for f in faults}
        by_dialogue: dict[str, list[Question]] = {}
        for q in questions:
            by_dialogue.setdefault(q.dialogue_id, []).append(q)
        try:
            for did, qs in by_dialogue.items():
                mine = [f for f in faults if f.question.dialogue_id == did]
                memory, answerers = self._build(system, mine, logs)
                await self._dialogue(tracer, memory, self.dialogues[did], qs, answerers, records)
        finally:
            tracer.close()
        return records, SystemView(read_trace(path), system), logs

    def _build(
        self, system: str, faults: list[Fault], logs: dict[str, FaultLog]
    ) -> tuple[MemorySystem, dict[str, ModelAPI]]:

        config = MemoryConfig(work_dir=self.work / "memory", bench=self.bench)
        memory = build_memory(system, config, self.extractor)
        answerers: dict[str, ModelAPI] = {}
        for f in faults:
            inject(memory, f, logs[f.question.id])
            if f.kind == "response":
                answerers[f.question.id] = CorruptAnswerer(self.answerer, f.question)
                logs[f.question.id].applied = True
        return memory, answerers

    async def _dialogue(
        self,
        tracer: Tracer,
        memory: MemorySystem,
        dialogue: Dialogue,
        questions: list[Question],
        answerers: dict[str, ModelAPI],
        records: Records,
    ) -> None:
        # The steps of the runner's job: ingest the sessions before each question, then the
        # question's retrieve, answer and score inside its scope.

        system = memory.name
        memory.start(dialogue)
        sessions: list[Session] = sorted(dialogue.sessions, key=lambda s: s.started_at)
        done = 0
        with tracer.activate(), tracer.dialogue(dialogue.id, system=system):
            for q in sorted(questions, key=lambda q: q.asked_at):
                while done < len(sessions) and _before(sessions[done].started_at, q.asked_at):
                    await memory.ingest(sessions[done])
                    done += 1
                with tracer.question(q.id, dialogue_id=q.dialogue_id, system=system):
                    context = await memory.retrieve(q)
                    answerer = answerers.get(q.id, self.answerer)
                    records[q.id] = await answer_question(
                        answerer, q, context, system=system, include_gold=False
                    )

    def evidence(self, question: Question) -> list[tuple[Need, tuple[str, ...]]]:
        """Each needed fact of ``question`` with the turns stating it, as attribution sees
        them (its evidence turns and their restatements)."""
        inputs = self.data.inputs(question, {})
        out = []
        for need in build_needs(question, self.data.facts):
            followed, turns, problem = find_evidence(inputs, need, self.matcher)
            if problem is None and turns and not followed.structural:
                out.append((followed, tuple(turns)))
        return out

    def judge(
        self, fault: Fault, record: dict[str, Any], view: SystemView, log: FaultLog
    ) -> Outcome:
        """Attribute a fault's question; the expected operation is the one the fault broke."""
        if not log.applied:
            return Outcome(fault, "not applied")
        score = record.get("score")
        if not isinstance(score, int | float) or score >= 1:
            return Outcome(fault, "ineffective")
        expected = expected_op(fault, record, view, log)
        inputs = self.data.inputs(fault.question, record)
        return Outcome(fault, "effective", expected, attribute_question(inputs, view))


def _before(started_at: str, asked_at: str) -> bool:
    return not asked_at or started_at < asked_at


def expected_op(
    fault: Fault, record: dict[str, Any], view: SystemView, log: FaultLog
) -> str | None:
    """The operation a fault broke: the answer, the first extraction of a blinded session, or
    the first operation the fault ran or changed."""
    if fault.kind == "response":
        ops = record.get("trace_ops") or {}
        return ops.get("answer")
    if fault.kind == "extraction":
        blinded = set(log.sessions)
        for op in view.write_ops(fault.question.dialogue_id):
            if op_kind(op) == "extract" and op.attrs.get("session_id") in blinded:
                return op.id
        return None
    return log.op_ids[0] if log.op_ids else None
