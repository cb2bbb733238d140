"""Validate attribution by fault injection: break one stage, run, attribute, compare.

1. A baseline pass per system answers every question (traced, no fault): the questions it gets
   right are the ones a fault can break.
2. For those, faults are drawn (:data:`~umb.attribute._faults.FAULT_KINDS`; the write-path ones only
   where the system has that stage), each on one needed fact of one question.
3. Passes run the systems again with the faults injected — the same steps as ``umb eval``: a
   dialogue scope around the ingest, a question scope around retrieve, answer and score — and
   read the trace back. A fault that leaves the answer right is *ineffective*; one that found
   nothing to break is *not applied*; neither counts.
4. Each effective fault's question is attributed; the type and the operation are compared with
   the injected ones.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from umb.attribute._facts import Need
from umb.attribute._faults import FAULT_KINDS, WRITE_PATH_SYSTEMS, Fault
from umb.attribute._faults_harness import Harness, Outcome

if TYPE_CHECKING:
    from umb.bench import Question

SYSTEMS = ("mem0_style", "summary", "full_context", "rag_bm25", "rag_dense", "rag_hybrid",
           "oracle_evidence")  # fmt: skip
"""Built-in systems faults are injected into (``no_context`` holds nothing to break; ``mem0``
needs a language-model extractor)."""


@dataclass
class FaultReport:
    """All outcomes, with the accuracy over the effective faults."""

    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def effective(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == "effective"]

    def accuracy(self) -> tuple[float, float]:
        """(type accuracy, operation accuracy) over the effective faults."""
        eff = self.effective
        if not eff:
            return 0.0, 0.0
        return sum(o.type_ok for o in eff) / len(eff), sum(o.op_ok for o in eff) / len(eff)

    def table(self) -> list[dict[str, Any]]:
        """Per (system, kind): injected, effective, type and operation accuracy."""
        cells: dict[tuple[str, str], list[Outcome]] = {}
        for o in self.outcomes:
            cells.setdefault((o.fault.system, o.fault.kind), []).append(o)
        rows = []
        for (system, kind), outs in cells.items():
            eff = [o for o in outs if o.status == "effective"]
            rows.append({
                "system": system, "kind": kind, "injected": len(outs), "effective": len(eff),
                "type_ok": sum(o.type_ok for o in eff), "op_ok": sum(o.op_ok for o in eff),
            })  # fmt: skip
        return rows


def draw_faults(
    harness: Harness,
    successes: dict[str, list[Question]],
    *,
    per_cell: int,
    seed: int = 0,
    kinds: Sequence[str] = FAULT_KINDS,
) -> list[Fault]:
    """Up to ``per_cell`` faults per (system, kind), each on one fact of a question the system
    got right (ABS questions only for ``response``: they need no fact)."""
    rng = random.Random(seed)
    faults = []
    for system, questions in successes.items():
        for kind in kinds:
            allowed = WRITE_PATH_SYSTEMS.get(kind)
            if allowed is not None and system not in allowed:
                continue
            pool = []
            for q in questions:
                facts = harness.evidence(q)
                if not facts:
                    if kind == "response" and q.family == "ABS":
                        pool.append(Fault(kind, system, q, Need("answer", ()), ()))
                    continue
                need, turns = facts[rng.randrange(len(facts))]
                pool.append(Fault(kind, system, q, need, turns))
            rng.shuffle(pool)
            faults += pool[:per_cell]
    return faults


def _passes(faults: list[Fault]) -> list[list[Fault]]:
    """Group faults into passes that cannot disturb each other: at most one fault per question,
    and a write-path fault alone in its dialogue (it changes the store every question reads)."""
    passes: list[list[Fault]] = []
    for f in faults:
        for p in passes:
            if not any(_clash(f, g) for g in p):
                p.append(f)
                break
        else:
            passes.append([f])
    return passes


def _clash(a: Fault, b: Fault) -> bool:
    if a.question.id == b.question.id:
        return True
    write = a.kind in WRITE_PATH_SYSTEMS or b.kind in WRITE_PATH_SYSTEMS
    return write and a.question.dialogue_id == b.question.dialogue_id


async def run_fault_injection(
    bench: Path,
    work: Path,
    *,
    systems: Sequence[str] = SYSTEMS,
    per_cell: int = 12,
    seed: int = 0,
    kinds: Sequence[str] = FAULT_KINDS,
    dialogues: int | None = None,
    answerer: str = "offline",
) -> FaultReport:
    """Baseline, draw, inject, attribute; see the module docstring.

    Args:
        bench: A benchmark directory (generated: TR needs its facts).
        work: A scratch directory for the traces of every pass.
        systems: Built-in memory systems to break.
        per_cell: Faults drawn per (system, kind).
        seed: Draws faults (and which fact of a question) reproducibly.
        kinds: Which of :data:`FAULT_KINDS` to inject.
        dialogues: Only the questions of the first this many dialogues (a quicker run).
        answerer: The answering model (the offline reader answers from its context alone).
    """
    harness = Harness(bench, work, answerer=answerer)
    questions = list(harness.data.questions.values())
    if dialogues is not None:
        keep = set(sorted(harness.dialogues)[:dialogues])
        questions = [q for q in questions if q.dialogue_id in keep]
    successes: dict[str, list[Question]] = {}
    for system in systems:
        records, _, _ = await harness.run(system, questions)
        successes[system] = [q for q in questions if records[q.id].get("score") == 1]
    faults = draw_faults(harness, successes, per_cell=per_cell, seed=seed, kinds=kinds)
    report = FaultReport()
    by_system: dict[str, list[Fault]] = {}
    for f in faults:
        by_system.setdefault(f.system, []).append(f)
    for system, mine in by_system.items():
        for group in _passes(mine):
            records, view, logs = await harness.run(system, [f.question for f in group], group)
            for f in group:
                qid = f.question.id
                report.outcomes.append(harness.judge(f, records[qid], view, logs[qid]))
    return report


def run_fault_injection_sync(bench: Path, work: Path, **kwargs: Any) -> FaultReport:
    """:func:`run_fault_injection` from synchronous code."""
    return asyncio.run(run_fault_injection(bench, work, **kwargs))


def status_counts(report: FaultReport) -> Counter[str]:
    """How many faults were effective, ineffective or not applied."""
    return Counter(o.status for o in report.outcomes)
