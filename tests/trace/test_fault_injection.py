"""Attribution validated by fault injection: break one stage for real, check type and operation.

The CI-sized run (about 70 faults over four dialogues); `python benchmarks/fault_injection.py`
runs the full one (over 200) and reports the figures in docs/tracing.md.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from umb.attribute import FAULT_KINDS, Fault, FaultReport, Need
from umb.attribute._faults import blind, corrupt_text, wrong_answer
from umb.attribute._faults_run import run_fault_injection_sync
from umb.bench import Benchmark, Evidence, Question, Session, Turn
from umb.families import FAMILIES
from umb.scoring import get_scorer, parse_answer


@pytest.fixture(scope="module")
def report(demo_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> FaultReport:
    work = tmp_path_factory.mktemp("faults")
    return run_fault_injection_sync(demo_bench, work, per_cell=4, dialogues=4, seed=1)


def test_attribution_finds_the_injected_type_and_operation(report: FaultReport) -> None:
    effective = report.effective
    assert len(effective) >= 55
    type_acc, op_acc = report.accuracy()
    assert type_acc >= 0.95 and op_acc >= 0.95, [
        o.to_dict() for o in effective if not (o.type_ok and o.op_ok)
    ]


def test_every_kind_of_fault_is_injected_and_checked(report: FaultReport) -> None:
    rows = report.table()
    kinds = {r["kind"] for r in rows if r["effective"]}
    assert kinds == set(FAULT_KINDS)
    systems = {r["system"] for r in rows if r["kind"] == "retrieval" and r["effective"]}
    assert systems >= {"mem0_style", "summary", "full_context", "rag_bm25", "oracle_evidence"}
    write = {(r["system"], r["kind"]) for r in rows if r["kind"] in ("update", "deletion")}
    assert write == {("mem0_style", "update"), ("mem0_style", "deletion")}
    assert sum(r["injected"] for r in rows) == len(report.outcomes)
    row = json.loads(json.dumps(report.outcomes[0].to_dict()))
    assert set(row) >= {"expected_type", "expected_op", "error_type", "op_id", "status"}


def test_faults_change_behaviour_not_labels(report: FaultReport) -> None:
    # Each fault found something to break, and an effective one made the question fail.
    for o in report.effective:
        assert o.expected_op is not None, o.to_dict()
        assert o.attribution is not None and o.attribution.score is not None
        assert o.attribution.score < 1
    assert all(o.status != "not applied" for o in report.outcomes if o.fault.kind != "update")


def _question(family: str, gold: dict, meta: dict | None = None) -> Question:
    return Question(f"Q-D0001-{family}-01", "D0001", family, "Where did Maya go?", "",
                    gold, (), Evidence(turn_ids=("t1",)), meta or {})  # fmt: skip


def test_the_extraction_fault_blinds_only_the_fact_and_only_its_turns() -> None:
    need = Need("answer", ("Lisbon",))
    s = Session("D0001:S001", "2021-01-01T10:00", (
        Turn("t1", "assistant", "Maya", "I flew to Lisbon. It rained. Lisbon was lovely."),
        Turn("t2", "assistant", "Maya", "Lisbon again!"),
    ))  # fmt: skip
    q = _question("IE", {"answer": "Lisbon"})
    blinded = blind(s, Fault("extraction", "mem0_style", q, need, ("t1",)))
    assert blinded is not None
    assert [t.text for t in blinded.turns] == ["It rained.", "Lisbon again!"]
    assert blind(s, Fault("extraction", "mem0_style", q, need, ("t9",))) is None
    corrupted = corrupt_text("Maya flew to LISBON.", need)
    assert corrupted == "Maya flew to something I no longer remember."


@pytest.mark.parametrize("family", FAMILIES)
def test_the_corrupted_answer_is_well_formed_and_wrong(demo_bench: Path, family: str) -> None:
    q = next(q for q in Benchmark.open(demo_bench).questions if q.family == family)
    parsed = parse_answer(wrong_answer(q), family)
    assert parsed.ok, parsed.error
    assert get_scorer(family)(q, parsed.answer or {}).value == 0.0
