"""A small mem0-style pipeline traced end to end, shared by the trace tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from umb.trace import (
    Trace,
    Tracer,
    answer_var,
    context_var,
    judgement_var,
    memory_var,
    operation,
    query_var,
    read_trace,
    turn_var,
)

TURNS = {
    "D0001:S001:T0001": "Maya: I finally adopted a dog last Tuesday, a beagle called Biscuit.",
    "D0001:S001:T0002": "Alex: Oh nice! How is he settling in?",
    "D0001:S002:T0001": "Maya: I started a new job at Acme last week.",
    "D0001:S002:T0002": "Maya: Biscuit now sleeps on my bed, by the way.",
}
Q_PET = "Q-D0001-IE-01"
Q_JOB = "Q-D0001-KU-01"


def record_pipeline(tracer: Tracer) -> None:
    """Ingest two sessions (extract, add, update, delete), then answer and judge two questions."""
    with tracer.activate(), tracer.dialogue("D0001"):
        with operation("mem0.extract", "extraction", model="offline") as op:
            for tid in ("D0001:S001:T0001", "D0001:S001:T0002"):
                op.read(turn_var(tid), TURNS[tid])
            op.write("facts:D0001:S001", ["Maya adopted a beagle called Biscuit"])
            op.usage(tokens_in=120, tokens_out=14)
        with operation("mem0.add", "addition", reads=["facts:D0001:S001"]) as op:
            op.write(memory_var("m1"), "Maya adopted a beagle called Biscuit")
        with operation("mem0.extract", "extraction", model="offline") as op:
            for tid in ("D0001:S002:T0001", "D0001:S002:T0002"):
                op.read(turn_var(tid), TURNS[tid])
            op.write("facts:D0001:S002", ["Maya works at Acme", "Biscuit sleeps on the bed"])
        with operation("mem0.add", "addition", reads=["facts:D0001:S002"]) as op:
            op.write(memory_var("m2"), "Maya works at Acme")
        with operation("mem0.update", "update", reads=["facts:D0001:S002", memory_var("m1")]) as op:
            op.write(memory_var("m1"), "Maya adopted a dog")  # the name is lost here
        with operation("mem0.delete", "deletion", reads=[memory_var("m2")]) as op:
            op.delete(memory_var("m2"))
        for qid, query, answer in (
            (Q_PET, "What is the name of Maya's dog?", "not mentioned"),
            (Q_JOB, "Where does Maya work now?", "not mentioned"),
        ):
            with tracer.question(qid):
                with operation("mem0.retrieve", "retrieval", top_k=2) as op:
                    op.read(query_var(qid), query)
                    op.read(memory_var("m1"))
                    op.write(context_var(qid), "[2021-03-20] Maya adopted a dog")
                with operation(
                    "answer", "response", reads=[query_var(qid), context_var(qid)], model="offline"
                ) as op:
                    op.write(answer_var(qid), answer)
                with operation("judge", "judge", reads=[answer_var(qid)], model="rules") as op:
                    op.write(judgement_var(qid), {"score": 0.0})


@pytest.fixture
def sample_path(tmp_path: Path) -> Path:
    """A closed trace file of :func:`record_pipeline`."""
    path = tmp_path / "run" / "trace.jsonl"
    tracer = Tracer(path, meta={"run_id": "run-test", "system": "mem0"})
    record_pipeline(tracer)
    tracer.close()
    return path


@pytest.fixture
def sample(sample_path: Path) -> Trace:
    """The sample trace, read back."""
    return read_trace(sample_path)
